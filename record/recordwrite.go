package record

import (
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/rules"
)

// writeRecord writes rec to w as json.MarshalIndent(rec, "", "  ") and a
// newline would, byte for byte, without ever holding the whole document:
// a record of a wide foreach is tens of megabytes, and building it whole
// cost more memory than the run that made it.
//
// It owns one rule, which part is encoded how:
//
//	a struct of plain fields        walked field by field, in declaration
//	                                order, omitempty honoured, an embedded
//	                                struct's fields in its place
//	a pointer, an interface         walked through (nil: null)
//	a map with string keys          walked key by key, keys sorted
//	a Row, rules.Inputs             walked key by key, in their order (as
//	                                their MarshalJSON writes them)
//	a slice (not []byte)            walked element by element
//	a bool, an int, a string,       written as encoding/json writes them
//	a float in [1e-6, 1e21) or 0    (strconv, jsonv.AppendString)
//	anything else                   encoded whole by encoding/json, at its
//	                                depth's prefix: a Marshaler, a struct
//	                                with tag options beyond omitempty or
//	                                two fields of one name, an array, a
//	                                []byte, any other float
//
// Every slice is walked, not just the long ones: one element can be huge
// (a foreach's join commit writes every item's result). Where the walk is
// not sure it matches encoding/json, it hands the value to encoding/json.
// TestWriteFileBytesEqualMarshalIndent holds it to MarshalIndent's bytes.
func writeRecord(w io.Writer, rec *RunRecord) error {
	sw := &streamWriter{w: w, out: make([]byte, 0, recordBufferSize+recordBufferSize/4)}
	sw.enc = json.NewEncoder(&sw.buf)
	sw.value(reflect.ValueOf(rec), 0)
	sw.writeString("\n")
	sw.flush()
	return sw.err
}

// streamWriter writes one value; the first error stops it (err). It
// gathers what it writes in out and hands w a full buffer at a time: a
// record is millions of small pieces, and a call through io.Writer for
// each cost a wide record's writing a third of its time.
type streamWriter struct {
	w       io.Writer
	out     []byte
	buf     bytes.Buffer // a value encoding/json encodes, reused
	enc     *json.Encoder
	scratch []byte // a number's digits
	types   map[reflect.Type]*typeInfo
	err     error
}

const indentUnit = "  "

// indents is the indentation of the depths most of a record is written
// at, for newline to write in one piece.
var indents = "\n" + strings.Repeat(indentUnit, 32)

// maxWalkDepth is how deep the walk goes before it hands the rest to
// encoding/json, whose cycle check then refuses a value that holds itself
// (where the walk would recurse without end).
const maxWalkDepth = 500

func (s *streamWriter) writeString(str string) {
	s.out = append(s.out, str...)
	if len(s.out) >= recordBufferSize {
		s.flush()
	}
}

// flush hands what is gathered to w.
func (s *streamWriter) flush() {
	if s.err == nil && len(s.out) > 0 {
		_, s.err = s.w.Write(s.out)
	}
	s.out = s.out[:0]
}

func (s *streamWriter) newline(depth int) {
	s.writeString("\n")
	s.writeString(indentOf(depth))
}

// indentOf is the indentation of depth.
func indentOf(depth int) string {
	if n := depth * len(indentUnit); n < len(indents) {
		return indents[1 : 1+n]
	}
	return strings.Repeat(indentUnit, depth)
}

// whole encodes v with encoding/json at depth: its lines after the first
// carry depth's prefix, as they would inside the whole document.
func (s *streamWriter) whole(v reflect.Value, depth int) {
	if s.err != nil {
		return
	}
	var x any
	if v.CanAddr() {
		x = v.Addr().Interface() // a method on the pointer is what encoding/json would call
	} else {
		x = v.Interface()
	}
	s.buf.Reset()
	s.enc.SetIndent(indentOf(depth), indentUnit)
	if err := s.enc.Encode(x); err != nil {
		s.err = err
		return
	}
	b := s.buf.Bytes()
	s.write(b[:len(b)-1]) // Encode ends with a newline
}

var (
	logType           = reflect.TypeFor[flow.Log]()
	rowType           = reflect.TypeFor[Row]()
	inputsType        = reflect.TypeFor[rules.Inputs]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	numberType        = reflect.TypeFor[json.Number]()
)

// logJSON is what flow.Log's MarshalJSON writes, as fields the walk
// writes itself.
type logJSON struct {
	Inputs  map[string]any     `json:"inputs,omitempty"`
	Commits []flow.PlainCommit `json:"commits"`
}

// typeInfo is what the walk needs to know of a type, worked out once.
type typeInfo struct {
	marshals    bool // encoding/json calls a method of the value's
	ptrMarshals bool // … of its pointer's, when the value is addressable
	fields      []plainField
	plain       bool // a struct whose fields the walk writes itself
}

func (s *streamWriter) info(t reflect.Type) *typeInfo {
	if ti, ok := s.types[t]; ok {
		return ti
	}
	ti := &typeInfo{marshals: t.Implements(marshalerType) || t.Implements(textMarshalerType)}
	if t.Kind() != reflect.Pointer {
		pt := reflect.PointerTo(t)
		ti.ptrMarshals = pt.Implements(marshalerType) || pt.Implements(textMarshalerType)
	}
	if t.Kind() == reflect.Struct {
		ti.fields = plainFields(t)
		ti.plain = ti.fields != nil
	}
	if s.types == nil {
		s.types = map[reflect.Type]*typeInfo{}
	}
	s.types[t] = ti
	return ti
}

func (s *streamWriter) value(v reflect.Value, depth int) {
	if s.err != nil {
		return
	}
	if !v.IsValid() {
		s.writeString("null")
		return
	}
	switch v.Type() {
	case rowType:
		// A row's and an expression's inputs' MarshalJSON write an object
		// with its keys in their order; walk them in that order instead
		// of encoding each whole.
		r := v.Interface().(Row)
		s.ordered(len(r.Keys), func(i int) (string, any) { return r.Keys[i], r.Values[r.Keys[i]] }, depth)
		return
	case inputsType:
		in := v.Interface().(rules.Inputs)
		s.ordered(len(in), func(i int) (string, any) { return in[i].Path, in[i].Value }, depth)
		return
	}
	if v.Type() == logType {
		// A log's MarshalJSON writes it whole; walk what it writes instead:
		// its commits, every compact decision materialized (PlainCommits).
		l := v.Interface().(flow.Log)
		s.value(reflect.ValueOf(logJSON{Inputs: l.Inputs, Commits: l.PlainCommits()}), depth)
		return
	}
	ti := s.info(v.Type())
	if ti.marshals || ti.ptrMarshals && v.CanAddr() || depth > maxWalkDepth {
		s.whole(v, depth)
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			s.writeString("null")
			return
		}
		s.value(v.Elem(), depth)
	case reflect.Struct:
		if !ti.plain {
			s.whole(v, depth)
			return
		}
		s.object(v, ti.fields, depth)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			s.whole(v, depth)
			return
		}
		s.mapValue(v, depth)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			s.whole(v, depth) // base64, or a slice of byte Marshalers
			return
		}
		s.slice(v, depth)
	case reflect.Bool:
		if v.Bool() {
			s.writeString("true")
		} else {
			s.writeString("false")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s.scratch = strconv.AppendInt(s.scratch[:0], v.Int(), 10)
		s.write(s.scratch)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s.scratch = strconv.AppendUint(s.scratch[:0], v.Uint(), 10)
		s.write(s.scratch)
	case reflect.Float64:
		// encoding/json writes these in 'f' form, shortest; the rest
		// (exponents, NaN) it words itself.
		if f := v.Float(); f == 0 || math.Abs(f) >= 1e-6 && math.Abs(f) < 1e21 {
			s.scratch = strconv.AppendFloat(s.scratch[:0], f, 'f', -1, 64)
			s.write(s.scratch)
			return
		}
		s.whole(v, depth)
	case reflect.String:
		if v.Type() == numberType {
			// A json.Number (a number kept as its digits: jsonv.Decoded) is
			// a number: encoding/json writes its digits bare. Written as a
			// string, it read back as text, not the number the run had.
			s.whole(v, depth)
			return
		}
		s.str(v.String())
	default:
		s.whole(v, depth)
	}
}

// str writes a string as encoding/json writes it (jsonv.AppendString,
// HTML characters escaped).
func (s *streamWriter) str(str string) {
	s.out = jsonv.AppendString(s.out, str, true)
	if len(s.out) >= recordBufferSize {
		s.flush()
	}
}

func (s *streamWriter) write(b []byte) {
	s.out = append(s.out, b...)
	if len(s.out) >= recordBufferSize {
		s.flush()
	}
}

func (s *streamWriter) object(v reflect.Value, fields []plainField, depth int) {
	n := 0
	for _, f := range fields {
		fv := v.Field(f.index[0])
		if len(f.index) > 1 {
			fv = v.FieldByIndex(f.index)
		}
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		if n == 0 {
			s.writeString("{")
		} else {
			s.writeString(",")
		}
		n++
		s.newline(depth + 1)
		s.writeString(f.key)
		s.value(fv, depth+1)
	}
	if n == 0 {
		s.writeString("{}")
		return
	}
	s.newline(depth)
	s.writeString("}")
}

func (s *streamWriter) mapValue(v reflect.Value, depth int) {
	if v.IsNil() {
		s.writeString("null")
		return
	}
	if v.Len() == 0 {
		s.writeString("{}")
		return
	}
	s.writeString("{")
	if m, ok := v.Interface().(map[string]any); ok {
		// The run's own values (state, inputs, rows): read without a
		// reflect.Value per key, which cost two allocations an entry.
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			s.key(i, k, depth)
			s.value(reflect.ValueOf(m[k]), depth+1)
		}
	} else {
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for i, k := range keys {
			s.key(i, k.String(), depth)
			s.value(v.MapIndex(k), depth+1)
		}
	}
	s.newline(depth)
	s.writeString("}")
}

// ordered writes an object of n entries in their order, entry(i) the
// i-th key and value (Row.MarshalJSON, rules.Inputs.MarshalJSON).
func (s *streamWriter) ordered(n int, entry func(int) (string, any), depth int) {
	if n == 0 {
		s.writeString("{}")
		return
	}
	s.writeString("{")
	for i := range n {
		k, v := entry(i)
		s.key(i, k, depth)
		s.value(reflect.ValueOf(v), depth+1)
	}
	s.newline(depth)
	s.writeString("}")
}

// key opens the i-th entry of an object at depth: the key, escaped as
// encoding/json escapes it.
func (s *streamWriter) key(i int, k string, depth int) {
	if i > 0 {
		s.writeString(",")
	}
	s.newline(depth + 1)
	s.str(k)
	s.writeString(": ")
}

func (s *streamWriter) slice(v reflect.Value, depth int) {
	if v.IsNil() {
		s.writeString("null")
		return
	}
	if v.Len() == 0 {
		s.writeString("[]")
		return
	}
	s.writeString("[")
	for i := range v.Len() {
		if i > 0 {
			s.writeString(",")
		}
		s.newline(depth + 1)
		s.value(v.Index(i), depth+1)
	}
	s.newline(depth)
	s.writeString("]")
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// plainField is one field of a struct the walk encodes itself.
type plainField struct {
	index     []int
	key       string // `"name": `
	omitEmpty bool
}

// plainFields lists t's encoded fields when t is plain: no embedded
// field, no tag option but omitempty, every name one that needs no
// escaping. Otherwise it is nil and the struct is encoded whole, so the
// walk never has to copy encoding/json's rules for those.
func plainFields(t reflect.Type) []plainField {
	fs := plainFieldsAt(t, nil, []plainField{})
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.key] {
			// two fields of one name: encoding/json's rules for which
			// wins are its own to apply
			return nil
		}
		seen[f.key] = true
	}
	return fs
}

// plainFieldsAt appends the fields of t, a struct at index path at inside
// the walked one: the fields of an embedded struct with no tag in its
// place (where encoding/json puts them), so that decide.RuleEvidence,
// which embeds rules.Outcome, is walked too. Nil when t is not plain.
func plainFieldsAt(t reflect.Type, at []int, fs []plainField) []plainField {
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(slices.Clip(at), i)
		if sf.Anonymous {
			if sf.Type.Kind() != reflect.Struct || sf.Tag.Get("json") != "" {
				return nil
			}
			if fs = plainFieldsAt(sf.Type, index, fs); fs == nil {
				return nil
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		omit := false
		for opt := range strings.SplitSeq(opts, ",") {
			switch opt {
			case "":
			case "omitempty":
				omit = true
			default:
				return nil
			}
		}
		if name == "" {
			name = sf.Name
		}
		if !plainName(name) {
			return nil
		}
		fs = append(fs, plainField{index: index, key: `"` + name + `": `, omitEmpty: omit})
	}
	return fs
}

// plainName says whether a key is written as it is: letters, digits, _ and -.
func plainName(name string) bool {
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
		default:
			return false
		}
	}
	return name != ""
}

// recordBufferSize is the file writer's buffer: large enough that the
// many small element writes become few system calls.
const recordBufferSize = 64 << 10
