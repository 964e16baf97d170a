package runbook_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// TestFilterConditionThatCannotJudgeItsValueIsARuleError: a filter rule
// `{used: {gte: 90}}` over a value read as the text "95%" failed with the
// reason "a string cannot be compared with a number", counted as a plain
// no-match, and the run printed / as ok under "Consistent with the run's
// record" — where the same rule written `used >= 90` is a rule-error and
// Not sure. A condition that could not judge the value it read decided
// nothing: it is a rule-error too, said once per decider, rule and reason.
func TestFilterConditionThatCannotJudgeItsValueIsARuleError(t *testing.T) {
	t.Parallel()
	const src = `version: 1
runbook: filter-mixed
inputs:
  volumes: {type: list, required: true}
result: {kind: verdict/fullness, decider: Fullness}
stages:
  - id: each
    foreach:
      items: volumes
      as: v
      maxBranches: 10
      stages:
        - id: fullness
          name: Fullness
          decide:
            rules:
              - {when: {v.used: {gte: 90}}, then: full, label: At or over 90}
              - {when: {v.state: {eq: degraded}}, then: full, label: Degraded}
            default: {branch: ok, label: Under 90}
          branches:
            full: [{id: mark-full, verdict: {subject: v.name, verdict: '"full"'}}]
            ok: [{id: mark-ok, verdict: {subject: v.name, verdict: '"ok"'}}]
`
	tests := []struct {
		name    string
		volumes []any
		want    []string // in the standing line; none: no rule-error
	}{
		{"a number is judged", []any{
			map[string]any{"name": "/", "used": 95, "state": "up"},
			map[string]any{"name": "/var", "used": 10, "state": "up"},
		}, nil},
		// A missing key was read as data, a plain no: /var, with no
		// used at all, stood ok under Consistent. It is no judgement,
		// as an expression reading a member its object lacks is none.
		{"a missing key is no judgement", []any{
			map[string]any{"name": "/", "used": 10, "state": "up"},
			map[string]any{"name": "/var", "state": "up"},
		}, []string{`decider "Fullness" could not evaluate rule 1 ("At or over 90") and counted it as no match: its condition on v.used (gte) read no value: v has no member "used" (its members: name, state); if it may be absent, say what its absence means in a rule before this one: {v.used: {exists: false}}`}},
		{"text where a number was meant", []any{
			map[string]any{"name": "/", "used": "95%", "state": "up"},
			map[string]any{"name": "/var", "used": "12%", "state": "up"},
			map[string]any{"name": "/srv", "used": 5, "state": "up"},
		}, []string{`decider "Fullness" could not evaluate rule 1 ("At or over 90") in 2 of its decisions and counted it as no match each time: its condition on v.used (gte) could not judge the value it read: a string cannot be compared with a number`}},
		{"null has no order, a number is no state", []any{
			map[string]any{"name": "/", "used": nil, "state": 3},
		}, []string{
			`decider "Fullness" could not evaluate rule 1 ("At or over 90") and counted it as no match: its condition on v.used (gte) could not judge the value it read: null cannot be compared with a number`,
			`decider "Fullness" could not evaluate rule 2 ("Degraded") and counted it as no match: its condition on v.state (eq) could not judge the value it read: a number cannot be compared with a string`,
		}},
	}
	rb := parse(t, src)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := exec(t, rb, map[string]any{"volumes": tc.volumes})
			a := rec.Assessment
			if got := slices.Contains(a.Reasons, assessment.RuleError); got != (tc.want != nil) {
				t.Fatalf("rule-error among the reasons = %v, want %v: %s", got, tc.want != nil, a.Line)
			}
			for _, w := range tc.want {
				if !strings.Contains(a.Line, w) {
					t.Errorf("the standing line does not say\n  %s\nit says\n  %s", w, a.Line)
				}
			}
		})
	}
}

// TestFilterRuleErrorUnderAPassingCheckIsNotKnown: with an answer check
// that passes (`len(verdicts) == 2`), the filter rule that could not
// judge "95%" against 90 left / at 95% used as ok under "Known".
func TestFilterRuleErrorUnderAPassingCheckIsNotKnown(t *testing.T) {
	t.Parallel()
	rb, err := runbook.Open("../testdata/goapi/filter-rule-error/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Record.Assessment
	if a.Standing != assessment.NotSure || !slices.Equal(a.Reasons, []assessment.Reason{assessment.RuleError}) {
		t.Errorf("standing %s, reasons %v, want not-sure for rule-error: %s", a.Standing, a.Reasons, a.Line)
	}
}

// TestNewRefusesWhatTheLoaderRefuses: a Go chart's runbook.New took any
// result and inputs; a YAML chart with the same mistakes does not load. A
// misspelled decider left the verdicts without meanings and said nothing,
// a misspelled presentation, standing line or Nagios state was read as the
// default, a default of the wrong type failed only the runs that used it,
// and a check given as its source alone (Src, no Expr) panicked out of
// Exec. Each is now refused by New, in the loader's words; a check's Src
// alone is compiled.
func TestNewRefusesWhatTheLoaderRefuses(t *testing.T) {
	t.Parallel()
	mark := flow.Seq().Stage("mark", func(ctx context.Context, s *flow.Scope) error {
		s.Set(runbook.VerdictsKey, []any{map[string]any{"subject": "/", "verdict": "ok"}})
		return nil
	})
	fc, err := flow.New("fullness").Decide("fullness", []decide.Rule{
		{When: rules.MustCompile("used >= 90"), Then: "ok", Label: "Full"},
	}, decide.Default{Branch: "ok", Label: "Room"}, []flow.Branch{{Name: "ok", Steps: mark}}, flow.Name("Fullness")).Build()
	if err != nil {
		t.Fatal(err)
	}
	used := chart.InputSpec{Name: "used", Type: "number", Default: 95, HasDefault: true}
	tests := []struct {
		name string
		opts []runbook.Option
		want string // "" : New accepts it
	}{
		{"a decider by name", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", Decider: "Fullness"})}, ""},
		{"a decider misspelled", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", Decider: "Fulness"})},
			`result decider "Fulness" names no decide stage; did you mean "Fullness"? (the decide stages: fullness, Fullness)`},
		{"a presentation misspelled", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", Presentation: "pannel"})},
			`result presentation "pannel" is not one of prose, panel; did you mean "panel"?`},
		{"a standing line misspelled", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", StandingLine: "unless-consistant"})},
			`result standingLine "unless-consistant" is not one of always, unless-consistent, not-sure-or-ask; did you mean "unless-consistent"?`},
		{"a nagios state misspelled", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", Nagios: map[string]string{"ok": "critcal"}})},
			`result nagios: verdict "ok": "critcal" is not a check state; did you mean "critical"? (states: ok, warning, critical, unknown)`},
		// A state word is its own state (TestNagiosStateWordMappedToAnotherStateIsRefused).
		{"a state word under another state", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", Nagios: map[string]string{"critical": "ok"}})},
			`result nagios lists verdict "critical" under ok, but "critical" is a check state of its own (CRITICAL): a row reading critical would be shown as OK`},
		{"maxRows below zero", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", MaxRows: -1})},
			`result maxRows -1: write 1 or more (0: the default)`},
		{"no kind", []runbook.Option{runbook.WithResult(chart.ResultSpec{Decider: "Fullness"})},
			`result has no kind: write one, such as verdict/posture`},
		{"a check as source", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", Checks: []chart.Check{{Src: "len(verdicts) == 2"}}})}, ""},
		{"a check that does not compile", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", Checks: []chart.Check{{Src: "len(verdicts) =="}}})},
			`result check 1: expression "len(verdicts) ==" does not compile`},
		{"an empty check", []runbook.Option{runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", Checks: []chart.Check{{}}})},
			`result check 1 is empty: write an expression`},
		{"a default of its type", []runbook.Option{runbook.WithInputs(used)}, ""},
		{"a default of another type", []runbook.Option{runbook.WithInputs(chart.InputSpec{Name: "used", Type: "number", Default: "95%", HasDefault: true})},
			`input "used": its default is not a number: "95%"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rb, err := runbook.New(fc, append([]runbook.Option{runbook.WithInputs(used)}, tc.opts...)...)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("New: %v\nwant an error saying %s", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			res, err := rb.Exec(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "a check as source" {
				if a := res.Record.Assessment; !slices.Contains(a.Reasons, assessment.CheckFailed) {
					t.Errorf("a check given as Src alone did not run: %s", a.Line)
				}
			}
		})
	}
}

// TestSavedRecordKeepsWideIntegers: a run wrote 9007199254740993 and its
// record file holds it exactly, but `runbook explain run.json x` (and
// NewExplain's Key from Go) said x = 9007199254740992: the record reader
// read every number of the log as a float64. The log's values are read
// as the plugin wire reads numbers (jsonv.Decoded): a whole number that
// fits is an int, exactly.
func TestSavedRecordKeepsWideIntegers(t *testing.T) {
	t.Parallel()
	const wide = 9007199254740993 // 2^53 + 1: no float64 holds it
	rb := parse(t, `version: 1
runbook: wide
stages:
  - {id: seed, set: {x: 9007199254740993, half: 2.5}}
  - {id: copy, set: {y: x}}
`)
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, problems := writtenAndRead(t, res)
	x := runbook.NewExplain(rec, problems)
	for _, key := range []string{"x", "y"} {
		e, err := x.Key(key, -1)
		if err != nil {
			t.Fatal(err)
		}
		if e.Value != wide {
			t.Errorf("explain %s: value %v (%T), want %d", key, e.Value, e.Value, wide)
		}
	}
	if e, err := x.Key("half", -1); err != nil || e.Value != 2.5 {
		t.Errorf("explain half: %v %v, want 2.5", e, err)
	}
	// The read the copy made is the exact value too.
	if c := rec.Log.Commits()[1]; len(c.Reads) != 1 || c.Reads[0].Value != wide {
		t.Errorf("copy's reads %+v, want x = %d", c.Reads, wide)
	}
}

// TestResumedRunKeepsWideIntegers: a paused run's checkpoint is read from
// its record as its log is: 9007199254740993 was read back as a float64
// and the resumed run went on with 9007199254740992 (y = x said so in its
// record), while a whole float the run held (3.0) must stay a float.
func TestResumedRunKeepsWideIntegers(t *testing.T) {
	t.Parallel()
	const wide = 9007199254740993
	rb := parse(t, `version: 1
runbook: wide-ask
stages:
  - {id: seed, set: {x: 9007199254740993, f: 'float(3)', n: 4}}
  - id: approve
    ask: {question: '"go on?"', expects: {ok: bool}}
  - {id: copy, set: {y: x, g: f, m: n % 3}}
`)
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "paused.json")
	if err := res.WriteRecord(path); err != nil {
		t.Fatal(err)
	}
	rec, _, err := record.ReadRecord(path)
	if err != nil {
		t.Fatal(err)
	}
	done, err := rb.Resume(context.Background(), rec, map[string]any{"ok": true})
	if err != nil {
		t.Fatal(err)
	}
	st := done.Run.State()
	if done.Record.Status != "completed" || st["y"] != wide || st["g"] != 3.0 || st["m"] != 1 {
		t.Errorf("status %s %+v; y %v (%T), g %v (%T), m %v (%T); want y %d, g float64 3, m int 1",
			done.Record.Status, done.Record.Error, st["y"], st["y"], st["g"], st["g"], st["m"], st["m"], wide)
	}
}

// TestGoStageSecretTextIsMasked holds what the runbook doc says of a Go
// stage and a secret input: its text, in a value the stage writes, a
// verdict row and the stage's error, never reaches the record.
func TestGoStageSecretTextIsMasked(t *testing.T) {
	t.Parallel()
	const tok = "s3cr3t-T0ken-xyz"
	fc, err := flow.New("login").Stage("login", func(ctx context.Context, s *flow.Scope) error {
		tk := s.Value("token").(string)
		s.Set("header", "Bearer "+tk)
		s.Set(runbook.VerdictsKey, []any{map[string]any{"subject": "api " + tk, "verdict": "refused"}})
		return errors.New("login refused " + strconv.Quote(tk))
	}, flow.ContinueOnError("login")).Build()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.New(fc, runbook.WithInputs(chart.InputSpec{Name: "token", Type: "string", Required: true, Secret: true}),
		runbook.WithResult(chart.ResultSpec{Kind: "verdict/login"}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), map[string]any{"token": tok})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.json")
	if err := res.WriteRecord(path); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(saved), "s3cr3t") || !strings.Contains(res.Record.Verdicts.Table, "api ***") {
		t.Errorf("the secret reached the record, or its row is not masked:\n%s", res.Record.Verdicts.Table)
	}
}

// TestReadRecordSettlesEveryNumber: a record is read in one pass with its
// numbers kept as text until each value is read (record.ParseRecord), so
// every section must settle them: the log and the checkpoint exactly, the
// rest as float64s as a plain decode reads them. A json.Number left in any
// part (a section whose values the settling did not reach) would compare
// unequal to every number a reader holds.
func TestReadRecordSettlesEveryNumber(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: numbers
inputs:
  limit: {type: number, default: 90}
result: {kind: verdict/load}
stages:
  - {id: seed, set: {hosts: '[{"h": "a", "load": 95.5}, {"h": "b", "load": 7}]'}}
  - id: per
    foreach:
      items: hosts
      as: x
      maxBranches: 5
      stages:
        - id: judge
          decide:
            rules:
              - {when: {x.load: {gte: 90}}, then: high, label: At the limit}
            default: {branch: fine, label: Under it}
          branches:
            high: [{id: mark-high, verdict: {subject: x.h, verdict: '"high"', load: x.load}}]
            fine: [{id: mark-fine, verdict: {subject: x.h, verdict: '"fine"', load: x.load}}]
  - {id: ask, ask: {question: '"go on?"', expects: {go: bool}}}
`)
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := writtenAndRead(t, res)
	var left []string
	var walk func(v reflect.Value, at string)
	walk = func(v reflect.Value, at string) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				if _, ok := v.Interface().(json.Number); ok {
					left = append(left, at)
					return
				}
				walk(v.Elem(), at)
			}
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), at)
			}
		case reflect.Struct:
			if l, ok := v.Interface().(flow.Log); ok { // its commits are behind a method
				walk(reflect.ValueOf(l.Inputs), at+".Inputs")
				walk(reflect.ValueOf(l.Commits()), at+".Commits")
				return
			}
			for i := range v.NumField() {
				if !v.Type().Field(i).IsExported() {
					continue
				}
				walk(v.Field(i), at+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), at+"[]")
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Value(), at+"{}")
			}
		}
	}
	walk(reflect.ValueOf(rec), "record")
	if len(left) > 0 {
		t.Errorf("numbers left as text at %v", left)
	}
	if v := rec.Result.Inputs.Assumed["limit"]; v != 90.0 {
		t.Errorf("the result's assumed limit is %v (%T), want the float64 a plain decode reads", v, v)
	}
	if rec.Checkpoint == nil {
		t.Fatal("the run did not pause: no checkpoint to read")
	}
}

// writtenAndRead is res's record written to a file and read back, as
// `runbook explain` reads it; the read must find no problem.
func writtenAndRead(t *testing.T, res *runbook.Result) (*record.RunRecord, []string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.json")
	if err := res.WriteRecord(path); err != nil {
		t.Fatal(err)
	}
	rec, problems, err := record.ReadRecord(path)
	if err != nil || len(problems) > 0 {
		t.Fatalf("read: %v %v", err, problems)
	}
	return rec, problems
}
