package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/parse"
)

// The --inputs file and --input pairs of exec, resume and test: JSON or
// YAML, with a bad file's error at its line:col.

// readInputs reads --inputs FILE (an object of inputs, JSON or YAML) and
// lays the --input pairs over it. Values from --input stay strings: the
// library converts them to the declared types.
func readInputs(file string, pairs []string) (map[string]any, error) {
	given, _, err := readInputsAt(file, pairs)
	return given, err
}

// inputsAt is where an --inputs file gives each of its inputs, as
// FILE:LINE:COL, so that a value the run refuses is said where it was
// written (printInputErrors); an input an --input pair gave is not in it.
type inputsAt map[string]string

// readInputsAt is readInputs, with where the file gives each input.
func readInputsAt(file string, pairs []string) (map[string]any, inputsAt, error) {
	given := map[string]any{}
	at := inputsAt{}
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, nil, fmt.Errorf("--inputs: %w", err)
		}
		if e := chart.NotUTF8(file, data); e != nil {
			return nil, nil, fmt.Errorf("--inputs %s", e.Error())
		}
		data = []byte(parse.WithoutBOM(string(data)))
		if looksLikeJSON(data) {
			given, at, err = jsonInputs(file, data)
		} else {
			given, at, err = yamlInputs(file, data)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	paired := map[string]int{} // name → which --input gave it, from 1
	for i, kv := range pairs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, nil, fmt.Errorf("--input %q: want name=value", kv)
		}
		// A second --input of a name is refused, as a file's second key
		// is: the last one won in silence, and a CI job whose template
		// gave --input repo=… and whose step gave it again checked the
		// one it did not mean. The values are not said: one may be a
		// secret.
		if first, twice := paired[k]; twice {
			return nil, nil, fmt.Errorf("--input %s is given twice (the %s and the %s --input); give each input once (--input overrides the --inputs file, not an earlier --input)", k, ordinal(first), ordinal(i+1))
		}
		paired[k] = i + 1
		given[k] = v
		delete(at, k)
	}
	return given, at, nil
}

// ordinal is n as an ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// inputsWant is how every refusal of an --inputs file says what is right.
const inputsWant = `want an object of inputs, in JSON ({"host": "db-1"}) or YAML (host: db-1)`

// looksLikeJSON: the file's first character that is not a space opens a
// JSON object or array. Such a file is read as JSON, exactly as before
// YAML was taken; anything else as YAML.
func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// jsonInputs decodes a JSON --inputs file; a syntax error names its line
// and column.
func jsonInputs(file string, data []byte) (map[string]any, inputsAt, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // settled below as every JSON reader of values here settles them
	var v any
	if err := dec.Decode(&v); err != nil {
		where := file
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.Offset)
			where = fmt.Sprintf("%s:%d:%d", file, line, col)
		}
		return nil, nil, fmt.Errorf("--inputs %s: the file is not JSON (%v); %s", where, err, inputsWant)
	}
	obj, ok := jsonv.Settle(v).(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("--inputs %s: the file holds %s; %s", file, jsonKind(v), inputsWant)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("--inputs %s: want one JSON object, found more after it", file)
	}
	at, err := jsonKeysAt(file, data)
	if err != nil {
		return nil, nil, err
	}
	return obj, at, nil
}

// jsonKeysAt is where a JSON object's keys are written, each once: JSON
// itself lets a key be given twice (and a decoder keeps the last in
// silence), which would run with a value the person may not have meant;
// YAML refuses it, and so does this.
func jsonKeysAt(file string, data []byte) (inputsAt, error) {
	at := inputsAt{}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the object's {, read once already
		return nil, fmt.Errorf("--inputs %s: the file is not JSON (%v); %s", file, err, inputsWant)
	}
	for dec.More() {
		start := dec.InputOffset()
		for start < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[start]) >= 0 {
			start++
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("--inputs %s: the file is not JSON (%v); %s", file, err, inputsWant)
		}
		key, _ := tok.(string)
		line, col := lineCol(data, start+1)
		where := fmt.Sprintf("%s:%d:%d", file, line, col)
		if first, dup := at[key]; dup {
			return nil, givenTwice(where, key, first)
		}
		at[key] = where
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, fmt.Errorf("--inputs %s: the file is not JSON (%v); %s", file, err, inputsWant)
		}
	}
	return at, nil
}

// givenTwice is the error of an input an --inputs file gives twice, JSON
// or YAML: a decoder would keep one of the two in silence.
func givenTwice(where, key, first string) error {
	return fmt.Errorf("--inputs %s: the input %q is given twice (first at %s); give each input once", where, key, first)
}

// yamlInputs decodes a YAML --inputs file: one document holding a
// mapping, read into the same values a JSON file gives (through JSON, so
// the library's conversion sees the same kinds). Errors name file:line:col
// and never quote the file's text: it may hold a secret input's value.
func yamlInputs(file string, data []byte) (map[string]any, inputsAt, error) {
	// Duplicate keys are let through the parser to be refused below in
	// the words a JSON file's get: its own error says only "syntax".
	if errs := chart.FlowColons(file, data); len(errs) > 0 {
		// {urls: [http://a:8080/]} reached the chart as a list of maps,
		// and {hosts: [::1]} did not parse: said before the parser's error.
		at := errs[0].Pos // its position only: the parser's words may quote the file
		return nil, nil, fmt.Errorf("--inputs %s:%d:%d: the YAML parser reads this value, a text with a \":\" inside a [...] list within {...} (a URL with a port, an IPv6 address), as a map, not the text written; quote it", file, at.Line, at.Col)
	}
	f, err := parser.ParseBytes(data, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		at := chart.YAMLError(file, err).Pos // its position only, as above
		return nil, nil, fmt.Errorf("--inputs %s:%d:%d: the file is neither JSON nor valid YAML here%s; %s", file, at.Line, at.Col, chart.UnclosedFlow(err), inputsWant)
	}
	if errs := chart.LeadingZeros(file, data); len(errs) > 0 {
		// port: 0443 reached the chart as 291 (YAML 1.1's octal).
		at := errs[0].Pos // its position only, as above: a PIN 0123 is a secret's value
		return nil, nil, fmt.Errorf("--inputs %s:%d:%d: the YAML parser reads this number, written with a leading zero, as an octal number, where a person and YAML 1.2 read it as decimal; write it without the leading zero for the decimal number, with 0o after the sign for the octal one (0o443), or quoted for the text", file, at.Line, at.Col)
	}
	var docs []ast.Node
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d.Body)
		}
	}
	switch {
	case len(docs) == 0:
		return nil, nil, fmt.Errorf("--inputs %s: the file holds no inputs; %s", file, inputsWant)
	case len(docs) > 1:
		line, col := nodePos(docs[1])
		return nil, nil, fmt.Errorf("--inputs %s:%d:%d: a second YAML document; want one object of inputs", file, line, col)
	}
	if t := docs[0].Type(); t != ast.MappingType && t != ast.MappingValueType {
		line, col := nodePos(docs[0])
		return nil, nil, fmt.Errorf("--inputs %s:%d:%d: the file holds %s; %s", file, line, col, yamlKind(t), inputsWant)
	}
	at := inputsAt{}
	var pairs []*ast.MappingValueNode
	switch m := docs[0].(type) {
	case *ast.MappingNode:
		pairs = m.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{m}
	}
	for _, kv := range pairs {
		if kv.Key == nil {
			continue
		}
		name := kv.Key.String()
		if k, ok := kv.Key.(*ast.StringNode); ok {
			name = k.Value // "n": and 'n': are n
		}
		line, col := nodePos(kv.Key)
		where := fmt.Sprintf("%s:%d:%d", file, line, col)
		if first, dup := at[name]; dup {
			return nil, nil, givenTwice(where, name, first)
		}
		at[name] = where
	}
	if _, err := parser.ParseBytes(data, 0); err != nil {
		// what the lenient parse let through and the strict one refuses
		// is a key given twice inside an input's value
		at := chart.YAMLError(file, err).Pos
		return nil, nil, fmt.Errorf("--inputs %s:%d:%d: a key is given twice in an input's value; give each key once", file, at.Line, at.Col)
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		// A mapping that does not become JSON (an alias to nowhere, a key
		// that is a mapping): said without the file's words.
		line, col := nodePos(docs[0])
		return nil, nil, fmt.Errorf("--inputs %s:%d:%d: the YAML cannot be read as an object of inputs (keys are names, values are plain YAML); %s", file, line, col, inputsWant)
	}
	v, err := jsonv.Unmarshal(j)
	obj, ok := chart.ExactNumbers(docs[0], v).(map[string]any)
	if err != nil || !ok {
		return nil, nil, fmt.Errorf("--inputs %s: the YAML cannot be read as an object of inputs; %s", file, inputsWant)
	}
	return obj, at, nil
}

// nodePos is where a YAML node starts: a mapping at its first key (the
// parser's own token for one is its first colon); 1:1 when it did not say.
func nodePos(n ast.Node) (line, col int) {
	switch m := n.(type) {
	case *ast.MappingNode:
		if len(m.Values) > 0 {
			n = m.Values[0].Key
		}
	case *ast.MappingValueNode:
		n = m.Key
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return max(tk.Position.Line, 1), max(tk.Position.Column, 1)
	}
	return 1, 1
}

// yamlKind names what a YAML document holds instead of a mapping.
func yamlKind(t ast.NodeType) string {
	switch t {
	case ast.SequenceType:
		return "a list"
	case ast.StringType, ast.LiteralType:
		return "a string"
	case ast.IntegerType, ast.FloatType, ast.InfinityType, ast.NanType:
		return "a number"
	case ast.BoolType:
		return "a boolean"
	case ast.NullType:
		return "null"
	}
	return "no object"
}

// lineCol is the 1-based line and column of byte offset off in data (a
// json.SyntaxError's offset is just past the byte it refused).
func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off-1, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}
