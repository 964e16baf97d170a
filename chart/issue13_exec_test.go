package chart

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// issue13Chart is a one-stage chart whose exec block ends with exitCodes.
func issue13Chart(exitCodes string) string {
	return "version: 1\nrunbook: codes\nstages:\n  - id: check\n    exec:\n      command: [check_load]\n      exitCodes: " + exitCodes + "\n"
}

// TestIssue13ExitCodesLoad: exitCodes is the preset nagios or a map of
// whole-number codes 0–255 to non-empty words; anything else is refused at
// its line and column, a misspelt preset with "did you mean".
func TestIssue13ExitCodesLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, codes string
		want        map[int]string
		err         string // the message, file:line:col first
	}{
		{"nagios preset", "nagios", map[int]string{0: "ok", 1: "warning", 2: "critical", 3: "unknown"}, ""},
		{"a map", "{0: fine, 4: degraded}", map[int]string{0: "fine", 4: "degraded"}, ""},
		{"255 is an exit code", "{255: odd}", map[int]string{255: "odd"}, ""},
		{"misspelt preset", "nagois", nil, `c.yaml:7:18: stage "check": exec exitCodes "nagois" is not a preset (known: nagios); did you mean "nagios"?`},
		{"unknown preset", "sensu", nil, `c.yaml:7:18: stage "check": exec exitCodes "sensu" is not a preset (known: nagios); or give a map`},
		{"code past 255", "{256: huge}", nil, `c.yaml:7:19: stage "check": exec exitCodes key "256" is not an exit code: write a whole number from 0 to 255`},
		{"negative code", "{-1: neg}", nil, `c.yaml:7:19: stage "check": exec exitCodes key "-1" is not an exit code`},
		{"not a number", "{two: x}", nil, `key "two" is not an exit code`},
		{"leading zero", "{02: x}", nil, `key "02" is not an exit code`},
		{"empty word", `{2: ""}`, nil, `c.yaml:7:22: stage "check": exec exitCodes word for 2 is empty`},
		{"null word", "{2: }", nil, `exec exitCodes word for 2 is empty`},
		{"a list", "[0, 2]", nil, `c.yaml:7:18: stage "check": exec exitCodes must be a preset name (nagios) or a map of exit codes to words`},
		{"empty map", "{}", nil, `exec exitCodes is an empty map`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spec, err := Parse("c.yaml", []byte(issue13Chart(tc.codes)))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Parse = %v\nwant an error containing %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := spec.Stages[0].Exec.ExitCodes; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ExitCodes = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestIssue13ExitCodesSchema: the schema accepts what Load accepts and
// refuses the shapes Load refuses.
func TestIssue13ExitCodesSchema(t *testing.T) {
	t.Parallel()
	sch := compileChartSchema(t)
	for _, tc := range []struct {
		codes string
		ok    bool
	}{
		{"nagios", true}, {"{0: ok, 2: critical, 255: odd}", true},
		{"nagois", false}, {"{256: huge}", false}, {"{}", false}, {`{2: ""}`, false}, {"[0]", false},
	} {
		js, err := yaml.YAMLToJSON([]byte(issue13Chart(tc.codes)))
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); (err == nil) != tc.ok {
			t.Errorf("exitCodes: %s: schema says %v, want ok=%v", tc.codes, err, tc.ok)
		}
	}
}

// TestIssue13ShellPos: the loader keeps where shell: was written, for the
// run's message when bash is missing.
func TestIssue13ShellPos(t *testing.T) {
	t.Parallel()
	spec, err := Parse("s.yaml", []byte("version: 1\nrunbook: s\nstages:\n  - id: sh\n    exec:\n      shell: false | cat\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := spec.Stages[0].Exec.ShellPos, (Pos{File: "s.yaml", Line: 6, Col: 7}); got != want {
		t.Errorf("ShellPos = %+v, want %+v", got, want)
	}
}
