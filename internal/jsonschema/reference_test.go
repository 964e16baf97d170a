package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	reference "github.com/santhosh-tekuri/jsonschema/v6"
)

// The reference implementation, github.com/santhosh-tekuri/jsonschema/v6,
// is a test-only dependency: these tests hold this package to agree with
// it, valid for valid and invalid for invalid, on the record schema and on
// small schemas that use every keyword this package implements.

// smallSchemas exercise what the record schema uses lightly.
var smallSchemas = []struct{ name, schema string }{
	{"numbers", `{"type":"array","maxItems":12,"items":{"type":["integer","null"],"minimum":-2.5,"maximum":1e3}}`},
	{"strings", `{"type":"object","properties":{"n":{"type":"number"}},
		"additionalProperties":{"type":"string","minLength":2,"maxLength":5,"pattern":"^[a-zé]+$"}}`},
	{"choices", `{"oneOf":[{"type":"integer"},{"minimum":0},{"enum":["a","b",1,{"k":[1,2]}]}],
		"anyOf":[{"type":["number","string"]},{"const":{"k":[1,2.0]}}],
		"allOf":[{"maxLength":3},{"maximum":100}]}`},
	{"tree", `{"$defs":{"tree":{"type":"object","required":["v"],"additionalProperties":false,
		"properties":{"v":{"const":1.0},"kids":{"type":"array","minItems":1,"maxItems":3,"items":{"$ref":"#/$defs/tree"}}}}},
		"$ref":"#/$defs/tree"}`},
	{"escapes", `{"$defs":{"a/b":{"type":"integer"},"c~d":{"type":"string","minLength":1},"e%f":{"type":"null"}},
		"required":["x"],
		"properties":{"x":{"$ref":"#/$defs/a~1b"},"y":{"$ref":"#/$defs/c~0d"},"z":{"$ref":"#/$defs/e%25f"},"w":false}}`},
}

// seedDocs are documents for the small schemas (each is checked against
// every schema).
var seedDocs = []string{
	`[1,null,-2.5,1000,1e3,1001,1.5,"x"]`, `[]`, `[0,1,2,3,4,5,6,7,8,9,10,11,12]`, `[-2, -3, 1.0, 1e2]`,
	`{"a":"ab","b":"abcdef","n":"1","c":1}`, `{"a":"éé","n":2.5}`, `{"a":"A"}`,
	`3`, `-1`, `1.5`, `"a"`, `"abcd"`, `{"k":[1,2]}`, `{"k":[1,2.0,3]}`, `null`, `true`,
	`{"v":1,"kids":[{"v":1.0},{"v":2}]}`, `{"v":1,"kids":[]}`, `{"v":1,"x":0}`, `{"kids":[{"v":1}]}`,
	`{"x":1,"y":"s","z":null}`, `{"x":"1","y":"","z":0,"w":1}`, `{"y":"s"}`,
}

// pair is one schema compiled by both.
type pair struct {
	name string
	ours *Schema
	ref  *reference.Schema
}

func pairs(t testing.TB) []pair {
	t.Helper()
	var out []pair
	add := func(name string, schema []byte) {
		ours, err := Compile(schema)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		doc, err := reference.UnmarshalJSON(bytes.NewReader(schema))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := reference.NewCompiler()
		c.DefaultDraft(reference.Draft2020)
		if err := c.AddResource(name+".json", doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ref, err := c.Compile(name + ".json")
		if err != nil {
			t.Fatalf("%s: the reference refuses it: %v", name, err)
		}
		out = append(out, pair{name, ours, ref})
	}
	add("record", readFile(t, recordSchemaPath))
	for _, s := range smallSchemas {
		add(s.name, []byte(s.schema))
	}
	return out
}

// agree checks doc against every pair: both read it or both refuse it as
// JSON; both find it valid or both invalid. It also holds this package's
// own promises: each problem's At is a location in doc, problems are in
// document order, none is repeated.
func agree(t *testing.T, ps []pair, doc []byte) {
	t.Helper()
	inst, refErr := reference.UnmarshalJSON(bytes.NewReader(doc))
	if refErr == nil && !referenceReads(inst) {
		return
	}
	for _, p := range ps {
		problems, err := p.ours.Validate(doc)
		if (err == nil) != (refErr == nil) {
			t.Fatalf("%s: is it JSON? ours: %v; the reference: %v\n%s", p.name, err, refErr, doc)
		}
		if err != nil {
			continue
		}
		refVerdict := p.ref.Validate(inst)
		if (refVerdict == nil) != (len(problems) == 0) {
			t.Fatalf("%s: disagree on\n%s\nours: %q\nthe reference: %v", p.name, doc, problems, refVerdict)
		}
		for i, pr := range problems {
			if !resolves(inst, pr.At) {
				t.Fatalf("%s: problem %q: At is not a location in\n%s", p.name, pr, doc)
			}
			if i > 0 && comparePointers(problems[i-1].At, pr.At) > 0 {
				t.Fatalf("%s: problems out of document order: %q", p.name, problems)
			}
			for _, q := range problems[:i] {
				if q == pr {
					t.Fatalf("%s: problem %q twice", p.name, pr)
				}
			}
		}
	}
}

// referenceReads says whether the reference can judge v's numbers: it
// reads each as a big.Rat, which refuses (and at worst panics on) huge
// exponents this package handles. Such documents are skipped.
func referenceReads(v any) bool {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if i := strings.IndexAny(s, "eE"); i >= 0 {
			e, err := strconv.Atoi(s[i+1:])
			if err != nil || e > 1000 || e < -1000 {
				return false
			}
		}
		_, ok := new(big.Rat).SetString(s)
		return ok
	case []any:
		for _, e := range v {
			if !referenceReads(e) {
				return false
			}
		}
	case map[string]any:
		for _, e := range v {
			if !referenceReads(e) {
				return false
			}
		}
	}
	return true
}

// resolves says whether the JSON pointer at names a value in v.
func resolves(v any, at string) bool {
	for at != "" {
		var tok string
		tok, at = nextToken(at)
		tok, ok := unescapeToken(tok)
		if !ok {
			return false
		}
		switch c := v.(type) {
		case map[string]any:
			if v, ok = c[tok]; !ok {
				return false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) || strconv.Itoa(i) != tok {
				return false
			}
			v = c[i]
		default:
			return false
		}
	}
	return true
}

// realRecords are records runbook wrote (testdata/records: the disk
// example, completed; the approval example paused, then resumed).
func realRecords(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob("testdata/records/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in testdata/records: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		out[filepath.Base(f)] = readFile(t, f)
	}
	return out
}

// mutation edits a decoded record; false when the record lacks what it
// edits.
type mutation struct {
	name  string
	valid bool // what the record schema says of the result
	edit  func(r map[string]any) bool
}

var mutations = []mutation{
	{"index a string", false, setCommit("index", "0")},
	{"index negative", false, setCommit("index", json.Number("-3"))},
	{"index a fraction", false, setCommit("index", json.Number("1.5"))},
	{"index 0.0 is an integer", true, setCommit("index", json.Number("0.0"))},
	{"index 0e5 is an integer", true, setCommit("index", json.Number("0e5"))},
	{"path empty", false, setCommit("path", "")},
	{"path missing", false, func(r map[string]any) bool { return deleteIn(firstCommit(r), "path") }},
	{"status unknown", false, setIn("result", "status", "bogus")},
	{"error a number", false, setIn("result", "error", json.Number("5"))},
	{"error without a message", false, setIn("result", "error", map[string]any{"stage": "x"})},
	{"error with a message", true, setIn("result", "error", map[string]any{"stage": "x", "message": "m"})},
	{"error message a number", false, setIn("result", "error", map[string]any{"message": json.Number("1")})},
	{"chartSha256 not hex", false, setIn("", "chartSha256", "sha256:xyz")},
	{"recordVersion 1.0", true, setIn("", "recordVersion", json.Number("1.0"))},
	{"recordVersion 2", false, setIn("", "recordVersion", json.Number("2"))},
	{"commits null", true, setIn("log", "commits", nil)},
	{"log an array", false, setIn("", "log", []any{})},
	{"result missing", false, func(r map[string]any) bool { return deleteIn(r, "result") }},
	{"a later key", true, setIn("", "future", map[string]any{"x": json.Number("1")})},
	{"meanings not strings", false, setIn("result", "verdicts", map[string]any{"meanings": map[string]any{"ok": json.Number("1")}})},
	{"node kind unknown", false, func(r map[string]any) bool {
		nodes, _ := get(r, "structure", "nodes").([]any)
		if len(nodes) == 0 {
			return false
		}
		nodes[0].(map[string]any)["kind"] = "nope"
		return true
	}},
	{"checkpoint at empty", false, setIn("checkpoint", "at", []any{})},
	{"answer without by", false, func(r map[string]any) bool {
		as, _ := r["answers"].([]any)
		return len(as) > 0 && deleteIn(as[0].(map[string]any), "by")
	}},
	{"durationMs negative", false, setIn("result", "stats", map[string]any{"durationMs": json.Number("-0.5")})},
	{"durationMs a fraction", true, setIn("result", "stats", map[string]any{"durationMs": json.Number("0.5")})},
}

func firstCommit(r map[string]any) map[string]any {
	cs, _ := get(r, "log", "commits").([]any)
	if len(cs) == 0 {
		return nil
	}
	c, _ := cs[0].(map[string]any)
	return c
}

func setCommit(key string, v any) func(map[string]any) bool {
	return func(r map[string]any) bool {
		c := firstCommit(r)
		if c == nil {
			return false
		}
		c[key] = v
		return true
	}
}

// setIn sets key in the object at member (the record itself for "").
func setIn(member, key string, v any) func(map[string]any) bool {
	return func(r map[string]any) bool {
		o := r
		if member != "" {
			o, _ = r[member].(map[string]any)
		}
		if o == nil {
			return false
		}
		o[key] = v
		return true
	}
}

func deleteIn(o map[string]any, key string) bool {
	if _, ok := o[key]; !ok {
		return false
	}
	delete(o, key)
	return true
}

func get(v any, keys ...string) any {
	for _, k := range keys {
		o, _ := v.(map[string]any)
		v = o[k]
	}
	return v
}

// seeds are the documents both the differential test and the fuzz target
// start from: the real records, each mutation of each, and seedDocs.
type seed struct {
	name  string
	doc   []byte
	valid *bool // the record schema's verdict, when the seed is a record
}

func seeds(t testing.TB) []seed {
	t.Helper()
	yes := true
	var out []seed
	recs := realRecords(t)
	for _, name := range slices.Sorted(maps.Keys(recs)) {
		rec := recs[name]
		out = append(out, seed{name, rec, &yes})
		for _, m := range mutations {
			r, err := decode(rec)
			if err != nil {
				t.Fatal(err)
			}
			if !m.edit(r.(map[string]any)) {
				continue
			}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, seed{name + "/" + m.name, b, &m.valid})
		}
	}
	for i, d := range seedDocs {
		out = append(out, seed{fmt.Sprintf("doc %d", i), []byte(d), nil})
	}
	return out
}

// TestAgreesWithReference: on every seed, this package and the reference
// agree, and on the records this package gives the verdict each mutation
// expects.
func TestAgreesWithReference(t *testing.T) {
	t.Parallel()
	ps := pairs(t)
	all := seeds(t)
	for _, m := range mutations {
		if !slices.ContainsFunc(all, func(s seed) bool { return strings.HasSuffix(s.name, "/"+m.name) }) {
			t.Errorf("mutation %q edits none of the records", m.name)
		}
	}
	for _, s := range all {
		t.Run(s.name, func(t *testing.T) {
			agree(t, ps, s.doc)
			if s.valid == nil {
				return
			}
			problems, err := ps[0].ours.Validate(s.doc)
			if err != nil || (len(problems) == 0) != *s.valid {
				t.Errorf("valid = %v, want %v: err %v, problems %q", len(problems) == 0, *s.valid, err, problems)
			}
		})
	}
}

// FuzzAgreesWithReference: on any input, this package and the reference
// agree on whether it is JSON and whether it is valid, against the record
// schema and each small schema (agree lists the other promises checked).
func FuzzAgreesWithReference(f *testing.F) {
	ps := pairs(f)
	for _, s := range seeds(f) {
		f.Add(s.doc)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		agree(t, ps, doc)
	})
}

// BenchmarkValidateRecord: a real record (the disk example's, 17 kB),
// decoded and validated, by this package and by the reference.
func BenchmarkValidateRecord(b *testing.B) {
	rec := readFile(b, "testdata/records/disk.json")
	ps := pairs(b)
	b.Run("ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if problems, err := ps[0].ours.Validate(rec); err != nil || len(problems) > 0 {
				b.Fatal(err, problems)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			inst, err := reference.UnmarshalJSON(bytes.NewReader(rec))
			if err != nil {
				b.Fatal(err)
			}
			if err := ps[0].ref.Validate(inst); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCompileRecordSchema: compiling the record schema. The
// reference's figure leaves out its meta-schemas, which it compiles at
// package init, once per process.
func BenchmarkCompileRecordSchema(b *testing.B) {
	schema := readFile(b, recordSchemaPath)
	b.Run("ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Compile(schema); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			doc, err := reference.UnmarshalJSON(bytes.NewReader(schema))
			if err != nil {
				b.Fatal(err)
			}
			c := reference.NewCompiler()
			c.DefaultDraft(reference.Draft2020)
			if err := c.AddResource("record.schema.json", doc); err != nil {
				b.Fatal(err)
			}
			if _, err := c.Compile("record.schema.json"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
