package jsonschema

import (
	"slices"
	"strings"
	"testing"
)

// TestValidate: each keyword, a value it admits and values it refuses, with
// the exact problems (Problem.String) a refusal gives.
func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema string
		doc    string
		want   []string // nil: valid
	}{
		// type
		{"type string", `{"type":"string"}`, `"x"`, nil},
		{"type string, got integer", `{"type":"string"}`, `3`, []string{"/: got number, want string"}},
		{"type integer", `{"type":"integer"}`, `-7`, nil},
		{"type integer, 1.0 is one", `{"type":"integer"}`, `1.0`, nil},
		{"type integer, 1e2 is one", `{"type":"integer"}`, `1e2`, nil},
		{"type integer, 1.5e1 is one", `{"type":"integer"}`, `1.5e1`, nil},
		{"type integer, 1.5 is not", `{"type":"integer"}`, `1.5`, []string{"/: got number, want integer"}},
		{"type integer, 1e-2 is not", `{"type":"integer"}`, `1e-2`, []string{"/: got number, want integer"}},
		{"type integer, a huge exponent", `{"type":"integer"}`, `1e999999999999999999999`, nil},
		{"type integer, string", `{"type":"integer"}`, `"1"`, []string{"/: got string, want integer"}},
		{"type number admits integers", `{"type":"number"}`, `3`, nil},
		{"type null", `{"type":"null"}`, `null`, nil},
		{"type null, got false", `{"type":"null"}`, `false`, []string{"/: got boolean, want null"}},
		{"type boolean", `{"type":"boolean"}`, `true`, nil},
		{"type list", `{"type":["object","null"]}`, `null`, nil},
		{"type list, refused", `{"type":["array","object","null"]}`, `"x"`, []string{"/: got string, want array, object or null"}},
		{"type array, got object", `{"type":"array"}`, `{}`, []string{"/: got object, want array"}},
		{"wrong type says only that", `{"type":"string","minLength":3,"enum":["abc"]}`, `1`, []string{"/: got number, want string"}},

		// const
		{"const number by value", `{"const":1}`, `1.0`, nil},
		{"const 1e0", `{"const":1}`, `1e0`, nil},
		{"const refused", `{"const":1}`, `2`, []string{"/: got 2, want 1"}},
		{"const string is not number", `{"const":1}`, `"1"`, []string{`/: got "1", want 1`}},
		{"const object regardless of order", `{"const":{"a":1,"b":[true,null]}}`, `{"b":[true,null],"a":1.00}`, nil},
		{"const object refused", `{"const":{"a":1}}`, `{"a":1,"b":2}`, []string{`/: got {"a":1,"b":2}, want {"a":1}`}},
		{"const array order matters", `{"const":[1,2]}`, `[2,1]`, []string{"/: got [2,1], want [1,2]"}},
		{"const null", `{"const":null}`, `false`, []string{"/: got false, want null"}},

		// enum
		{"enum", `{"enum":["a","b"]}`, `"b"`, nil},
		{"enum refused", `{"enum":["a","b"]}`, `"x"`, []string{`/: "x" is not one of ["a","b"]`}},
		{"enum numbers by value", `{"enum":[0.5,"a"]}`, `5e-1`, nil},
		{"enum empty admits nothing", `{"enum":[]}`, `1`, []string{"/: 1 is not one of []"}},
		{"enum long value is cut", `{"enum":["a"]}`, `"` + strings.Repeat("é", 30) + `"`,
			[]string{`/: "` + strings.Repeat("é", 19) + `… is not one of ["a"]`}},

		// minimum, maximum
		{"minimum met", `{"minimum":0}`, `0`, nil},
		{"minimum refused", `{"minimum":0}`, `-3`, []string{"/: got -3, want at least 0"}},
		{"minimum -0 is 0", `{"minimum":0}`, `-0.0`, nil},
		{"minimum fraction", `{"minimum":0.25}`, `0.2499999999999999999999`, []string{"/: got 0.2499999999999999999999, want at least 0.25"}},
		{"maximum met", `{"maximum":1e3}`, `1000.0`, nil},
		{"maximum refused", `{"maximum":5}`, `7`, []string{"/: got 7, want at most 5"}},
		{"minimum ignores strings", `{"minimum":5}`, `"1"`, nil},

		// minLength, maxLength, pattern
		{"minLength met", `{"minLength":1}`, `"a"`, nil},
		{"minLength refused", `{"minLength":1}`, `""`, []string{"/: has 0 characters, want at least 1"}},
		{"minLength counts code points", `{"minLength":2}`, `"é"`, []string{"/: has 1 character, want at least 2"}},
		{"maxLength counts code points", `{"maxLength":2}`, `"éé"`, nil},
		{"maxLength refused", `{"maxLength":2}`, `"abc"`, []string{"/: has 3 characters, want at most 2"}},
		{"pattern", `{"pattern":"^(sha256|structure):[0-9a-f]{4}$"}`, `"sha256:00af"`, nil},
		{"pattern refused", `{"pattern":"^a+$"}`, `"abc"`, []string{`/: "abc" does not match ^a+$`}},
		{"pattern unanchored", `{"pattern":"b"}`, `"abc"`, nil},
		{"pattern ignores numbers", `{"pattern":"^a$"}`, `1`, nil},

		// minItems, maxItems, items
		{"minItems refused", `{"minItems":1}`, `[]`, []string{"/: has 0 items, want at least 1"}},
		{"maxItems refused", `{"maxItems":1}`, `[1,2]`, []string{"/: has 2 items, want at most 1"}},
		{"maxItems met", `{"maxItems":1}`, `[1]`, nil},
		{"items each", `{"items":{"type":"integer"}}`, `[1,"2",3,null]`,
			[]string{"/1: got string, want integer", "/3: got null, want integer"}},
		{"items false", `{"items":false}`, `[1]`, []string{"/0: no value is allowed here"}},
		{"items ignores objects", `{"items":{"type":"integer"}}`, `{"a":"b"}`, nil},

		// required, properties, additionalProperties
		{"required", `{"required":["index","path"]}`, `{"path":"a","index":0}`, nil},
		{"required refused, each", `{"required":["index","path"]}`, `{}`,
			[]string{`/: missing required property "index"`, `/: missing required property "path"`}},
		{"required ignores arrays", `{"required":["a"]}`, `[]`, nil},
		{"properties", `{"properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`, `{"a":1,"b":"x","c":null}`,
			[]string{"/a: got number, want string", "/b: got string, want integer"}},
		{"properties true and false", `{"properties":{"a":true,"b":false}}`, `{"a":1,"b":2}`, []string{"/b: no value is allowed here"}},
		{"additionalProperties false", `{"properties":{"a":true},"additionalProperties":false}`, `{"a":1,"z":1,"m":2}`,
			[]string{`/: property "m" is not allowed`, `/: property "z" is not allowed`}},
		{"additionalProperties schema", `{"additionalProperties":{"type":"string"}}`, `{"x":"a","y":2}`, []string{"/y: got number, want string"}},
		{"additionalProperties leaves properties alone", `{"properties":{"n":{"type":"integer"}},"additionalProperties":{"type":"string"}}`, `{"n":1,"s":"x"}`, nil},
		{"pointer escapes", `{"additionalProperties":{"type":"string"}}`, `{"a/b":1,"c~d":2}`,
			[]string{"/a~1b: got number, want string", "/c~0d: got number, want string"}},

		// allOf, anyOf, oneOf
		{"allOf", `{"allOf":[{"minimum":0},{"maximum":9}]}`, `5`, nil},
		{"allOf each", `{"allOf":[{"type":"integer"},{"minimum":3}]}`, `2.5`,
			[]string{"/: got number, want integer", "/: got 2.5, want at least 3"}},
		{"allOf repeats said once", `{"allOf":[{"type":"string"},{"type":"string"}]}`, `1`, []string{"/: got number, want string"}},
		{"anyOf", `{"anyOf":[{"type":"string"},{"minimum":0}]}`, `1`, nil},
		{"anyOf none", `{"anyOf":[{"type":"string"},{"minimum":0}]}`, `-1`,
			[]string{"/: matches none of anyOf's 2 schemas (0: got number, want string; 1: got -1, want at least 0)"}},
		{"oneOf one", `{"oneOf":[{"type":"null"},{"type":"object"}]}`, `null`, nil},
		{"oneOf none", `{"oneOf":[{"type":"null"},{"type":"object","properties":{"m":{"type":"string"}}}]}`, `5`,
			[]string{"/: matches none of oneOf's 2 schemas (0: got number, want null; 1: got number, want object)"}},
		{"oneOf none, deep reason", `{"oneOf":[{"type":"null"},{"type":"object","properties":{"m":{"type":"string"}}}]}`, `{"m":5}`,
			[]string{"/: matches none of oneOf's 2 schemas (0: got object, want null; 1: /m: got number, want string)"}},
		{"oneOf several", `{"oneOf":[{"minimum":0},{"type":"integer"},{"maximum":1}]}`, `1`,
			[]string{"/: matches oneOf's schemas 0, 1 and 2; want exactly one"}},
		{"oneOf two", `{"oneOf":[{"minimum":0},{"type":"integer"}]}`, `1`,
			[]string{"/: matches oneOf's schemas 0 and 1; want exactly one"}},

		// $ref, $defs
		{"ref", `{"$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n"}}}`, `{"a":"x"}`,
			[]string{"/a: got string, want integer"}},
		{"ref with a sibling", `{"$defs":{"n":{"type":"integer"}},"$ref":"#/$defs/n","minimum":3}`, `2`,
			[]string{"/: got 2, want at least 3"}},
		{"ref escapes", `{"$defs":{"a/b":{"type":"integer"},"c~d":{"type":"string"},"e f":{"type":"null"}},
			"properties":{"x":{"$ref":"#/$defs/a~1b"},"y":{"$ref":"#/$defs/c~0d"},"z":{"$ref":"#/$defs/e%20f"}}}`,
			`{"x":"1","y":1,"z":1}`,
			[]string{"/x: got string, want integer", "/y: got number, want string", "/z: got number, want null"}},
		{"ref to the root recurses", `{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}},"required":["v"]}`,
			`{"v":1,"kids":[{"v":2},{"kids":[]}]}`, []string{`/kids/1: missing required property "v"`}},
		{"ref to a property's schema", `{"properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"}}}`, `{"b":1}`,
			[]string{"/b: got number, want string"}},

		// the false schema and order
		{"false", `false`, `{}`, []string{"/: no value is allowed here"}},
		{"true", `true`, `{"any":[1]}`, nil},
		{"problems in document order", `{"required":["z"],"properties":{"arr":{"items":{"type":"string"}},"b":{"type":"string"}}}`,
			`{"b":1,"arr":[0,1,2,3,4,5,6,7,8,9,10]}`,
			[]string{`/: missing required property "z"`, "/arr/0: got number, want string", "/arr/1: got number, want string",
				"/arr/2: got number, want string", "/arr/3: got number, want string", "/arr/4: got number, want string",
				"/arr/5: got number, want string", "/arr/6: got number, want string", "/arr/7: got number, want string",
				"/arr/8: got number, want string", "/arr/9: got number, want string", "/arr/10: got number, want string",
				"/b: got number, want string"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sch, err := Compile([]byte(tc.schema))
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			problems, err := sch.Validate([]byte(tc.doc))
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("problems:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestProblemAt: At is the bare pointer ("" for the document), String
// writes the document as "/".
func TestProblemAt(t *testing.T) {
	t.Parallel()
	sch, err := Compile([]byte(`{"type":"object","properties":{"log":{"properties":{"commits":{"items":{"properties":{"index":{"type":"integer"}}}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	problems, err := sch.Validate([]byte(`{"log":{"commits":[{"index":"0"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Problem{{At: "/log/commits/0/index", Message: "got string, want integer"}}
	if !slices.Equal(problems, want) {
		t.Errorf("got %#v, want %#v", problems, want)
	}
	problems, _ = sch.Validate([]byte(`[]`))
	if len(problems) != 1 || problems[0].At != "" || problems[0].String() != "/: got array, want object" {
		t.Errorf("got %#v", problems)
	}
}

// TestValidateNotJSON: a document that is not one JSON value is an error,
// never a problem.
func TestValidateNotJSON(t *testing.T) {
	t.Parallel()
	sch, err := Compile([]byte(`true`))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{``, `{`, `{"a":1}x`, `1 2`, `nul`} {
		problems, err := sch.Validate([]byte(doc))
		if err == nil || problems != nil {
			t.Errorf("%q: problems %v, err %v: want an error", doc, problems, err)
		}
	}
	if _, err := sch.Validate([]byte(" {} \n")); err != nil {
		t.Errorf("white space around the value: %v", err)
	}
}

func TestComparePointers(t *testing.T) {
	t.Parallel()
	sorted := []string{"", "/0", "/2", "/10", "/10/a", "/", "/a", "/a/0", "/a/b", "/b"}
	for i := range sorted {
		for j := range sorted {
			got := comparePointers(sorted[i], sorted[j])
			if (got < 0) != (i < j) || (got == 0) != (i == j) {
				t.Errorf("comparePointers(%q, %q) = %d", sorted[i], sorted[j], got)
			}
		}
	}
}
