package jsonschema

import (
	"os"
	"strings"
	"testing"
)

// TestCompileRefuses: every keyword this package does not implement, and
// every malformed one, is refused with its schema location, never
// ignored.
func TestCompileRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema string
		want         []string // each must appear in the error
	}{
		{"not JSON", `{`, []string{"the schema is not JSON"}},
		{"not a schema", `3`, []string{"#: a schema must be an object, true or false; got number"}},
		{"unknown keyword at the root", `{"format":"date-time"}`, []string{`#: keyword "format" is not supported`}},
		{"unknown keyword deep", `{"$defs":{"c":{"properties":{"i":{"type":"integer","multipleOf":2}}}}}`,
			[]string{`#/$defs/c/properties/i: keyword "multipleOf" is not supported`}},
		{"every unknown keyword", `{"if":true,"then":true,"not":{}}`,
			[]string{`#: keyword "if" is not supported`, `#: keyword "not" is not supported`, `#: keyword "then" is not supported`}},
		{"unknown keyword in an array item schema", `{"oneOf":[{"type":"null"},{"unevaluatedProperties":false}]}`,
			[]string{`#/oneOf/1: keyword "unevaluatedProperties" is not supported`}},
		{"unknown keyword under items", `{"items":{"prefixItems":[]}}`, []string{`#/items: keyword "prefixItems" is not supported`}},
		{"dynamic ref", `{"$dynamicRef":"#meta"}`, []string{`keyword "$dynamicRef" is not supported`}},
		{"anchor", `{"$anchor":"x"}`, []string{`keyword "$anchor" is not supported`}},
		{"definitions (draft 7)", `{"definitions":{}}`, []string{`keyword "definitions" is not supported`}},
		{"items as an array (draft 7)", `{"items":[{}]}`, []string{"#/items: a schema must be an object, true or false; got array"}},
		{"another draft", `{"$schema":"http://json-schema.org/draft-07/schema#"}`, []string{"#/$schema: $schema must be"}},
		{"nested $schema", `{"properties":{"a":{"$schema":"https://json-schema.org/draft/2020-12/schema"}}}`,
			[]string{"#/properties/a/$schema: $schema is allowed only at the root"}},
		{"nested $id", `{"$defs":{"a":{"$id":"other.json"}}}`, []string{"#/$defs/a/$id: $id is allowed only at the root"}},
		{"type unknown", `{"type":"int"}`, []string{`#/type: "int" is not a type`}},
		{"type twice", `{"type":["null","null"]}`, []string{`#/type: type names "null" twice`}},
		{"type empty", `{"type":[]}`, []string{"#/type: type must name at least one type"}},
		{"type not a string", `{"type":1}`, []string{"#/type: type must be a type name or an array of them"}},
		{"enum not an array", `{"enum":"a"}`, []string{"#/enum: enum must be an array"}},
		{"minimum not a number", `{"minimum":"0"}`, []string{"#/minimum: minimum must be a number"}},
		{"minLength negative", `{"minLength":-1}`, []string{"#/minLength: minLength must be a whole number, 0 or more"}},
		{"minItems fraction", `{"minItems":1.5}`, []string{"#/minItems: minItems must be a whole number, 0 or more"}},
		{"pattern Go cannot compile", `{"pattern":"(?=a)"}`, []string{"#/pattern: pattern \"(?=a)\" is not a Go regular expression"}},
		{"pattern not a string", `{"pattern":1}`, []string{"#/pattern: pattern must be a string"}},
		{"properties not an object", `{"properties":[]}`, []string{"#/properties: properties must be an object of schemas"}},
		{"required twice", `{"required":["a","a"]}`, []string{`#/required: required names "a" twice`}},
		{"required not strings", `{"required":[1]}`, []string{"#/required: required must be an array of property names"}},
		{"oneOf empty", `{"oneOf":[]}`, []string{"#/oneOf: oneOf must be a non-empty array of schemas"}},
		{"title not a string", `{"title":1}`, []string{"#/title: title must be a string"}},
		{"ref remote", `{"$ref":"other.json#/a"}`, []string{`#/$ref: $ref "other.json#/a": only references within this schema`}},
		{"ref absolute", `{"$id":"https://x/s.json","$ref":"https://x/s.json#/$defs/a","$defs":{"a":true}}`,
			[]string{`#/$ref: $ref "https://x/s.json#/$defs/a": only references within this schema`}},
		{"ref anchor", `{"$ref":"#node"}`, []string{`$ref "#node": anchors are not supported`}},
		{"ref to nothing", `{"$ref":"#/$defs/missing"}`, []string{`#/$ref: $ref "#/$defs/missing": no schema at #/$defs/missing`}},
		{"ref to a non-schema", `{"$defs":{"a":{"enum":[{"type":"x"}]}},"$ref":"#/$defs/a/enum/0"}`,
			[]string{`no schema at #/$defs/a/enum/0`}},
		{"ref to $defs itself", `{"$defs":{},"$ref":"#/$defs"}`, []string{`no schema at #/$defs`}},
		{"ref bad escape", `{"$ref":"#/$defs/a~2"}`, []string{`"a~2" is not a JSON pointer token`}},
		{"ref loop to itself", `{"$ref":"#"}`, []string{"#: $ref loops without descending into the document: # → #"}},
		{"ref loop through $defs", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}}}`,
			[]string{"$ref loops without descending into the document: #/$defs/a → #/$defs/b → #/$defs/b/allOf/0 → #/$defs/a"}},
		{"ref loop through oneOf", `{"oneOf":[{"type":"null"},{"$ref":"#"}]}`, []string{"#: $ref loops"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sch, err := Compile([]byte(tc.schema))
			if err == nil {
				t.Fatalf("compiled %s; want a refusal", tc.schema)
			}
			if sch != nil {
				t.Errorf("a refusal with a schema")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nlacks %q", err, w)
				}
			}
		})
	}
}

// TestCompileAccepts: annotations, and recursion that descends into the
// document, compile.
func TestCompileAccepts(t *testing.T) {
	t.Parallel()
	for _, schema := range []string{
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://x/s.json","title":"t","description":"d",
		  "$comment":"c","default":1,"examples":[1,2]}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema#"}`,
		`{"properties":{"kids":{"items":{"$ref":"#"}}}}`,
		`{"$defs":{"n":{"additionalProperties":{"$ref":"#/$defs/n"}}},"$ref":"#/$defs/n"}`,
		`{"properties":{"type":{"type":"string"},"default":{"$ref":"#/properties/type"},"format":true}}`,
		`{"minLength":1.0,"maxItems":1e1,"minItems":0}`,
	} {
		if _, err := Compile([]byte(schema)); err != nil {
			t.Errorf("%s: %v", schema, err)
		}
	}
}

// TestRecordSchemaCompiles: the schema this package exists for compiles,
// and the records runbook writes satisfy it.
func TestRecordSchemaCompiles(t *testing.T) {
	t.Parallel()
	sch := recordSchema(t)
	for name, rec := range realRecords(t) {
		problems, err := sch.Validate(rec)
		if err != nil || len(problems) > 0 {
			t.Errorf("%s: err %v, problems %v", name, err, problems)
		}
	}
}

func recordSchema(t testing.TB) *Schema {
	t.Helper()
	sch, err := Compile(readFile(t, recordSchemaPath))
	if err != nil {
		t.Fatalf("%s: %v", recordSchemaPath, err)
	}
	return sch
}

const recordSchemaPath = "../../runbook/record.schema.json"

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
