package chart

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/openrunbook/runbook/internal/parse"
)

// TestIssue14ParseModesLoad: `parse:` on exec and read takes every mode of
// internal/parse, by name or as {as: MODE, …options}, and the chart's Spec
// carries what the parser will be given.
func TestIssue14ParseModesLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, stage string
		want        parse.Spec
	}{
		{"default is text", `{id: a, exec: {command: [df]}}`, parse.Spec{Mode: "text"}},
		{"a name", `{id: a, exec: {command: [df], parse: kv}}`, parse.Spec{Mode: "kv"}},
		{"nagios", `{id: a, exec: {command: [x], parse: nagios}}`, parse.Spec{Mode: "nagios"}},
		{"a map, no options", `{id: a, exec: {command: [df], parse: {as: columns}}}`, parse.Spec{Mode: "columns"}},
		{"a map with options", `{id: a, exec: {command: [df], parse: {as: columns, skip: 1, last: rest, numbers: false}}}`,
			parse.Spec{Mode: "columns", Options: map[string]any{"skip": 1, "last": "rest", "numbers": false}}},
		{"names", `{id: a, exec: {command: [x], parse: {as: csv, header: false, names: [host, port]}}}`,
			parse.Spec{Mode: "csv", Options: map[string]any{"header": false, "names": []any{"host", "port"}}}},
		{"regex", `{id: a, exec: {command: [x], parse: {as: regex, pattern: '(?P<k>\w+)=(?P<v>.*)'}}}`,
			parse.Spec{Mode: "regex", Options: map[string]any{"pattern": `(?P<k>\w+)=(?P<v>.*)`}}},
		{"read", `{id: a, read: {path: '"/proc/meminfo"', parse: {as: kv, trim: true}}}`,
			parse.Spec{Mode: "kv", Options: map[string]any{"trim": true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spec, err := Parse("c.yaml", []byte("version: 1\nrunbook: r\nstages:\n  - "+tc.stage+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			st := spec.Stages[0]
			got := parse.Spec{}
			if st.Exec != nil {
				got = st.Exec.Parse
			} else {
				got = st.Read.Parse
			}
			if !reflect.DeepEqual(normal(got), normal(tc.want)) {
				t.Errorf("Parse = %#v\nwant %#v", got, tc.want)
			}
			if err := parse.Check(got); err != nil {
				t.Errorf("the loaded spec fails parse.Check: %v", err)
			}
		})
	}
}

// normal makes whole numbers comparable whatever Go type YAML gave them.
func normal(s parse.Spec) parse.Spec {
	for k, v := range s.Options {
		switch n := v.(type) {
		case uint64:
			s.Options[k] = int(n)
		case int64:
			s.Options[k] = int(n)
		}
	}
	return s
}

// TestIssue14ParseModesLoadErrors: a bad mode or option is a load error at
// its line and column, saying what would be right.
func TestIssue14ParseModesLoadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, stage, err string }{
		{"unknown mode", `{id: a, exec: {command: [df], parse: colums}}`,
			`c.yaml:4:42: stage "a": exec parse: parse mode "colums" is not one of columns, csv, json, jsonl, kv, ldif, lines, nagios, regex, text, tsv (did you mean "columns"?)`},
		{"unknown mode in as", `{id: a, exec: {command: [df], parse: {as: nagois}}}`,
			`c.yaml:4:47: stage "a": exec parse: parse mode "nagois" is not one of`},
		{"no as", `{id: a, exec: {command: [df], parse: {skip: 1}}}`,
			`c.yaml:4:43: stage "a": exec parse is a map with no as: name the mode, such as {as: columns, skip: 1}`},
		{"unknown option", `{id: a, exec: {command: [df], parse: {as: columns, skp: 1}}}`,
			`c.yaml:4:56: stage "a": exec parse: parse mode columns has no option "skp"; its options are header, names, skip, last, numbers, records (did you mean "skip"?)`},
		{"option of another mode", `{id: a, exec: {command: [df], parse: {as: kv, skip: 1}}}`,
			`c.yaml:4:51: stage "a": exec parse: parse mode kv has no option "skip"`},
		{"a mode without options", `{id: a, exec: {command: [df], parse: {as: json, skip: 1}}}`,
			`c.yaml:4:53: stage "a": exec parse: parse mode json takes no options, and "skip" was given`},
		{"wrong kind of value", `{id: a, exec: {command: [df], parse: {as: columns, skip: many}}}`,
			`c.yaml:4:62: stage "a": exec parse: parse mode columns: option skip is a string, want a whole number of 0 or more`},
		{"regex without pattern", `{id: a, exec: {command: [df], parse: regex}}`,
			`c.yaml:4:42: stage "a": exec parse: parse mode regex needs pattern: an RE2 pattern with named groups, such as '(?P<key>\w+)=(?P<value>.*)'; give its options in the map form, parse: {as: regex, …}`},
		{"regex pattern not RE2", `{id: a, read: {path: '"x"', parse: {as: regex, pattern: '(?P<a>x'}}}`,
			`c.yaml:4:61: stage "a": read parse: parse mode regex: pattern "(?P<a>x" is not RE2`},
		{"header false without names", `{id: a, exec: {command: [df], parse: {as: csv, header: false}}}`,
			`stage "a": exec parse: parse mode csv: header: false needs names: [...] to key the columns`},
		{"parse a list", `{id: a, exec: {command: [df], parse: [kv]}}`,
			`c.yaml:4:42: stage "a": exec parse must be text, not a list`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("c.yaml", []byte("version: 1\nrunbook: r\nstages:\n  - "+tc.stage+"\n"))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Parse = %v\nwant an error containing %s", err, tc.err)
			}
		})
	}
}

// TestIssue14SchemaDescribesEveryParseMode: chart.schema.json's parse
// definition names every mode parse.Modes() has, and under each mode
// exactly the options the parser takes, so an editor completes them; and
// the schema accepts the forms the loader does and refuses a misspelt mode
// or an option of another mode.
func TestIssue14SchemaDescribesEveryParseMode(t *testing.T) {
	t.Parallel()
	var doc struct {
		Defs struct {
			ParseMode struct {
				Enum []string `json:"enum"`
			} `json:"parseMode"`
			Parse struct {
				OneOf []struct {
					Properties map[string]any `json:"properties"`
					OneOf      []struct {
						Properties map[string]any `json:"properties"`
					} `json:"oneOf"`
				} `json:"oneOf"`
			} `json:"parse"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(ChartSchema(), &doc); err != nil {
		t.Fatal(err)
	}
	modes := slices.Clone(doc.Defs.ParseMode.Enum)
	slices.Sort(modes)
	if !reflect.DeepEqual(modes, parse.Modes()) {
		t.Errorf("the schema's modes %v, the parser's %v", modes, parse.Modes())
	}
	if len(doc.Defs.Parse.OneOf) != 2 {
		t.Fatalf("the parse definition is not (a name | a map): %+v", doc.Defs.Parse)
	}
	samples := map[string]any{"sep": "=", "trim": true, "header": false, "names": []any{"a"}, "skip": 1, "last": "rest", "numbers": false, "pattern": "(?P<a>x)"}
	described := map[string]bool{}
	for k := range doc.Defs.Parse.OneOf[1].Properties {
		described[k] = true
	}
	seen := map[string]bool{}
	for _, alt := range doc.Defs.Parse.OneOf[1].OneOf {
		as, _ := alt.Properties["as"].(map[string]any)["const"].(string)
		seen[as] = true
		for _, opt := range parseOptionNames {
			_, inSchema := alt.Properties[opt]
			err := parse.Check(parse.Spec{Mode: as, Options: map[string]any{opt: samples[opt]}})
			takes := err == nil || !(strings.Contains(err.Error(), fmt.Sprintf("option %q", opt)) || strings.Contains(err.Error(), "takes no options"))
			if inSchema != takes {
				t.Errorf("mode %s option %s: in the schema %v, the parser takes it %v (%v)", as, opt, inSchema, takes, err)
			}
			if inSchema && !described[opt] {
				t.Errorf("option %s has no description in the parse definition", opt)
			}
		}
	}
	for _, m := range parse.Modes() {
		if !seen[m] {
			t.Errorf("the schema's map form has no alternative for mode %s", m)
		}
	}

	sch := compileChartSchema(t)
	for _, tc := range []struct {
		parse string
		ok    bool
	}{
		{"kv", true}, {"nagios", true}, {"{as: columns, skip: 1, last: rest}", true},
		{"{as: regex, pattern: '(?P<a>x)'}", true}, {"{as: csv, header: false, names: [a, b]}", true},
		{"colums", false}, {"regex", false}, {"{as: kv, skip: 1}", false}, {"{as: json, numbers: false}", false}, {"{skip: 1}", false},
	} {
		src := "version: 1\nrunbook: r\nstages:\n  - {id: a, exec: {command: [x], parse: " + tc.parse + "}}\n"
		js, err := yaml.YAMLToJSON([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); (err == nil) != tc.ok {
			t.Errorf("parse: %s: schema says %v, want valid %v", tc.parse, err, tc.ok)
		}
		if _, err := Parse("c.yaml", []byte(src)); (err == nil) != tc.ok {
			t.Errorf("parse: %s: the loader says %v, want valid %v", tc.parse, err, tc.ok)
		}
	}
}

// parseOptionNames are the options chart-yaml.md "Parse modes" names.
var parseOptionNames = []string{"sep", "trim", "header", "names", "skip", "last", "numbers", "pattern"}
