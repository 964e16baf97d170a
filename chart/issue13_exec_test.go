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
		{"{0: present, 1: {word: missing, stderr: No such file}}", true},
		{"{1: {word: missing}}", false}, {"{1: {word: missing, stdrr: x}}", false},
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

// TestExitCodeWithItsStderrLoads: a non-zero code's answer may be written
// `{word: W, stderr: TEXT}`, the word given only when stderr holds TEXT
// (ExecSpec.Answer); exit 0 with a stderr text, a missing word or stderr
// and an unknown key are refused where they were written.
func TestExitCodeWithItsStderrLoads(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, codes string
		want        map[int]string
		stderr      map[int]string
		err         string
	}{
		{"word and stderr", "{0: present, 1: {word: missing, stderr: No such file or directory}}",
			map[int]string{0: "present", 1: "missing"}, map[int]string{1: "No such file or directory"}, ""},
		{"block form", "\n        0: present\n        1:\n          word: missing\n          stderr: 'No such file'",
			map[int]string{0: "present", 1: "missing"}, map[int]string{1: "No such file"}, ""},
		{"exit 0 with stderr", "{0: {word: ok, stderr: warning}}", nil, nil,
			`c.yaml:7:19: stage "check": exec exitCodes 0 gives exit 0 a stderr text, but a command that exits 0 has succeeded whatever its stderr says`},
		{"no stderr", "{1: {word: missing}}", nil, nil, `exec exitCodes 1 has no stderr: write {word: WORD, stderr: TEXT}, or the word alone (1: WORD)`},
		{"no word", "{1: {stderr: No such file}}", nil, nil, `exec exitCodes 1 has no word`},
		{"misspelt key", "{1: {word: missing, stdrr: No such file}}", nil, nil, `unknown key "stdrr" in exec exitCodes 1; did you mean "stderr"?`},
		{"empty stderr", `{1: {word: missing, stderr: ""}}`, nil, nil, `exec exitCodes 1 stderr is empty`},
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
			e := spec.Stages[0].Exec
			if !reflect.DeepEqual(e.ExitCodes, tc.want) || !reflect.DeepEqual(e.AnswerStderr, tc.stderr) {
				t.Errorf("ExitCodes = %v, AnswerStderr = %v; want %v, %v", e.ExitCodes, e.AnswerStderr, tc.want, tc.stderr)
			}
		})
	}
}

// TestAnswerTakesTheCodeOnlyWithItsStderr: ExecSpec.Answer is the one
// judgement of whether an exit is an answer.
func TestAnswerTakesTheCodeOnlyWithItsStderr(t *testing.T) {
	t.Parallel()
	e := &ExecSpec{ExitCodes: map[int]string{0: "present", 1: "missing", 2: "odd"}, AnswerStderr: map[int]string{1: "no such file"}}
	code := func(c int) *int { return &c }
	for _, tc := range []struct {
		code   *int
		stderr string
		want   string
	}{
		{nil, "", ""},
		{code(0), "anything", "present"},
		{code(1), "stat: cannot statx 'x': No such file or directory\n", "missing"},
		{code(1), "stat: cannot statx 'x': Permission denied\n", ""},
		{code(1), "", ""},
		{code(2), "whatever", "odd"},
		{code(3), "", ""},
	} {
		if got := e.Answer(tc.code, nil, []byte(tc.stderr)); got != tc.want {
			t.Errorf("Answer(%v, %q) = %q, want %q", tc.code, tc.stderr, got, tc.want)
		}
	}
}
