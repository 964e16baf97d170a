package assessment

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// recordOf is a as a saved record holds it: encoded, then decoded to
// map[string]any.
func recordOf(t testing.TB, a any) map[string]any {
	t.Helper()
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFromRecordRoundTrip(t *testing.T) {
	t.Parallel()
	var summaries []Summary
	for _, tc := range assessCases {
		summaries = append(summaries, tc.summary)
	}
	summaries = append(summaries,
		Summary{Absences: absences(20), Assumed: assumedValues(15)},
		Summary{Paused: true, Checks: []Check{{Expr: "a", Err: "boom"}}, HonestyRan: []string{"label"}},
	)
	for i, s := range summaries {
		a := Assess(s)
		got, ok := FromRecord(recordOf(t, a))
		if !ok {
			t.Errorf("#%d: FromRecord refused Assess's own output %+v", i, a)
			continue
		}
		if !reflect.DeepEqual(got, a) {
			t.Errorf("#%d: round trip\n got %+v\nwant %+v", i, got, a)
		}
		// A reader of the record rebuilds the same line from the summary.
		if line := LineOf(got, s); line != a.Line {
			t.Errorf("#%d: rebuilt line %q, want %q", i, line, a.Line)
		}
	}
}

func TestFromRecordUseNumber(t *testing.T) {
	t.Parallel()
	b, _ := json.Marshal(Assess(Summary{Checks: []Check{{Expr: "a", Passed: true}}}))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	a, ok := FromRecord(v)
	if !ok || a.Standing != Known || a.Checked[0] != (CheckRun{AnswerChecks, 1, 1}) {
		t.Errorf("FromRecord(json.Number record) = %+v, %v", a, ok)
	}
}

func TestFromRecordIsAFreshCopy(t *testing.T) {
	t.Parallel()
	rec := recordOf(t, Assess(Summary{Stopped: StoppedCancelled, HonestyRan: []string{"label"}}))
	a, ok := FromRecord(rec)
	if !ok {
		t.Fatal("refused")
	}
	rec["reasons"].([]any)[0] = "check-failed"
	rec["checked"].([]any)[0].(map[string]any)["check"] = "other"
	if a.Reasons[0] != StoppedEarly || a.Checked[0].Check != "label" {
		t.Errorf("the copy shares the record: %+v", a)
	}
}

func TestFromRecordRejects(t *testing.T) {
	t.Parallel()
	// Each edit puts one field outside this version's vocabulary, or makes
	// the fields disagree as no writer files them.
	notSure := func() map[string]any {
		return recordOf(t, Assess(Summary{Runbook: "r", Assumed: []Assumed{{Name: "w", Value: "2h"}}, Checks: []Check{{Expr: "c", Err: "e"}},
			HonestyRan: []string{"label"}}))
	}
	known := func() map[string]any {
		return recordOf(t, Assess(Summary{Checks: []Check{{Expr: "c", Passed: true}}, HonestyRan: []string{"label"}}))
	}
	consistent := func() map[string]any { return recordOf(t, Assess(Summary{HonestyRan: []string{"label"}})) }
	notAssessed := func() map[string]any { return recordOf(t, Assess(Summary{})) }
	check := func(m map[string]any, i int) map[string]any { return m["checked"].([]any)[i].(map[string]any) }

	tests := []struct {
		name string
		rec  func() any
	}{
		{"nil", func() any { return nil }},
		{"a string", func() any { return "not-sure" }},
		{"a list", func() any { return []any{notSure()} }},
		{"the Go value, not a record", func() any { return Assess(Summary{}) }},
		{"empty object", func() any { return map[string]any{} }},
		{"version missing", func() any { m := notSure(); delete(m, "version"); return m }},
		{"version 0", func() any { m := notSure(); m["version"] = 0.0; return m }},
		{"version from the future", func() any { m := notSure(); m["version"] = float64(LineVersion + 1); return m }},
		{"version fractional", func() any { m := notSure(); m["version"] = 1.5; return m }},
		{"version NaN", func() any { m := notSure(); m["version"] = math.NaN(); return m }},
		{"version as text", func() any { m := notSure(); m["version"] = "1"; return m }},
		// Regression: wholeNumber parsed a json.Number with strconv, which
		// reads Go's hex floats, so json.Number("0x1p0") was version 1; it
		// is no JSON number.
		{"issue-jsonv version as a hex json.Number", func() any { m := notSure(); m["version"] = json.Number("0x1p0"); return m }},
		{"standing missing", func() any { m := notSure(); delete(m, "standing"); return m }},
		{"standing unknown", func() any { m := notSure(); m["standing"] = "verified"; return m }},
		{"standing in another case", func() any { m := notSure(); m["standing"] = "Not sure"; return m }},
		{"standing not a string", func() any { m := notSure(); m["standing"] = 1.0; return m }},
		{"line missing", func() any { m := notSure(); delete(m, "line"); return m }},
		{"line not a string", func() any { m := notSure(); m["line"] = nil; return m }},
		{"line with another standing's opening", func() any { m := notSure(); m["line"] = "Known — all is well."; return m }},
		{"line without its full stop", func() any { m := notSure(); m["line"] = "Not sure — x"; return m }},
		{"line on two lines", func() any { m := notSure(); m["line"] = "Not sure — x\ny."; return m }},
		{"reasons missing", func() any { m := notSure(); delete(m, "reasons"); return m }},
		{"reasons null", func() any { m := notSure(); m["reasons"] = nil; return m }},
		{"reasons not a list", func() any { m := notSure(); m["reasons"] = "argument-assumed"; return m }},
		{"reason unknown", func() any { m := notSure(); m["reasons"] = []any{"argument-assumed", "sounded-unsure"}; return m }},
		{"reason not a string", func() any { m := notSure(); m["reasons"] = []any{1.0}; return m }},
		{"reason twice", func() any {
			m := notSure()
			m["reasons"] = []any{"argument-assumed", "argument-assumed", "check-failed"}
			return m
		}},
		{"reasons out of order", func() any { m := notSure(); m["reasons"] = []any{"check-failed", "argument-assumed"}; return m }},
		{"not-sure without a reason", func() any { m := consistent(); m["standing"] = "not-sure"; m["line"] = "Not sure — x."; return m }},
		{"known with a reason", func() any { m := known(); m["reasons"] = []any{"stopped-early"}; return m }},
		{"consistent with a reason", func() any { m := consistent(); m["reasons"] = []any{"stopped-early"}; return m }},
		{"not-assessed with a reason", func() any { m := notAssessed(); m["reasons"] = []any{"stopped-early"}; return m }},
		{"checked missing", func() any { m := notSure(); delete(m, "checked"); return m }},
		{"checked null", func() any { m := notAssessed(); m["checked"] = nil; return m }},
		{"checked not a list", func() any { m := notSure(); m["checked"] = map[string]any{}; return m }},
		{"check not an object", func() any { m := notSure(); m["checked"] = []any{"label"}; return m }},
		{"check name missing", func() any { m := notSure(); delete(check(m, 0), "check"); return m }},
		{"check name empty", func() any { m := notSure(); check(m, 0)["check"] = ""; return m }},
		{"check name not a string", func() any { m := notSure(); check(m, 0)["check"] = true; return m }},
		{"check named twice", func() any {
			m := consistent()
			m["checked"] = append(m["checked"].([]any), map[string]any{"check": "label", "ran": 1.0, "of": 1.0})
			return m
		}},
		{"honesty check ran twice", func() any { m := notSure(); check(m, 0)["ran"] = 2.0; check(m, 0)["of"] = 2.0; return m }},
		{"honesty check ran none", func() any { m := consistent(); check(m, 0)["ran"] = 0.0; return m }},
		{"count missing", func() any { m := notSure(); delete(check(m, 1), "of"); return m }},
		{"count negative", func() any { m := notSure(); check(m, 1)["ran"] = -1.0; return m }},
		{"count fractional", func() any { m := notSure(); check(m, 1)["of"] = 1.5; return m }},
		{"count infinite", func() any { m := notSure(); check(m, 1)["of"] = math.Inf(1); return m }},
		{"count too large", func() any { m := notSure(); check(m, 1)["of"] = 1e300; return m }},
		{"count as text", func() any { m := notSure(); check(m, 1)["of"] = "1"; return m }},
		{"ran more than of", func() any { m := known(); check(m, 1)["ran"] = 2.0; return m }},
		{"answer checks of none", func() any { m := known(); check(m, 1)["ran"] = 0.0; check(m, 1)["of"] = 0.0; return m }},
		{"answer checks not last", func() any {
			m := known()
			c := m["checked"].([]any)
			c[0], c[1] = c[1], c[0]
			return m
		}},
		{"check-failed without answer checks", func() any {
			m := notSure()
			m["checked"] = m["checked"].([]any)[:1]
			return m
		}},
		{"an unevaluated answer check without check-failed", func() any {
			m := notSure()
			m["reasons"] = []any{"argument-assumed"}
			return m
		}},
		{"known without answer checks", func() any { m := known(); m["checked"] = m["checked"].([]any)[:1]; return m }},
		{"known with an unevaluated check", func() any { m := known(); check(m, 1)["ran"] = 0.0; return m }},
		{"consistent with answer checks", func() any {
			m := known()
			m["standing"] = "consistent"
			m["line"] = "Consistent with the run's record — x."
			return m
		}},
		{"consistent without checks", func() any { m := consistent(); m["checked"] = []any{}; return m }},
		{"not-assessed with checks", func() any {
			m := consistent()
			m["standing"] = "not-assessed"
			m["line"] = "Not assessed — x."
			return m
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if a, ok := FromRecord(tc.rec()); ok {
				t.Errorf("FromRecord accepted %+v", a)
			}
		})
	}
	// The bases the edits start from are themselves accepted.
	for name, base := range map[string]func() map[string]any{
		"not-sure": notSure, "known": known, "consistent": consistent, "not-assessed": notAssessed,
	} {
		if _, ok := FromRecord(base()); !ok {
			t.Errorf("base %s refused", name)
		}
	}
}

func TestFromRecordIgnoresUnknownKeys(t *testing.T) {
	t.Parallel()
	m := recordOf(t, Assess(Summary{HonestyRan: []string{"label"}}))
	m["addedLater"] = []any{1.0}
	if _, ok := FromRecord(m); !ok {
		t.Error("an added key was refused")
	}
}
