package sdktest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/record"
)

// Result is one run's result record and the assertions a plugin's tests
// make on it. Each Expect method reports a mismatch with t.Errorf, showing
// what the record holds, and returns whether it matched.
type Result struct {
	t testing.TB
	// Record is the run's result record, as `runbook exec --format json` writes it.
	Record *record.Record
	// inert: this is the re-executed plugin process, where the test's
	// other Run calls run nothing and assert nothing.
	inert bool
}

func (r *Result) check(ok bool, format string, args ...any) bool {
	r.t.Helper()
	if r.inert || ok {
		return true
	}
	r.t.Errorf(format, args...)
	return false
}

// ExpectStatus: the run's status is want (completed, failed, cancelled,
// paused). A failed run's error is shown.
func (r *Result) ExpectStatus(want string) bool {
	r.t.Helper()
	if r.inert {
		return true
	}
	why := ""
	if r.Record.Error != nil {
		why = "; its error: " + r.Record.Error.Stage + ": " + r.Record.Error.Message
	}
	return r.check(r.Record.Status == want, "status %q, want %q%s", r.Record.Status, want, why)
}

// ExpectError: the run failed with an error whose message contains substr.
func (r *Result) ExpectError(substr string) bool {
	r.t.Helper()
	if r.inert {
		return true
	}
	if r.Record.Error == nil {
		return r.check(false, "no run error, want one containing %q (status %q)", substr, r.Record.Status)
	}
	return r.check(strings.Contains(r.Record.Error.Message, substr), "run error %q, want it to contain %q", r.Record.Error.Message, substr)
}

// ExpectVerdict: some verdict row has every key of want, each with an
// equal value (compared as JSON, so 5400 and 5400.0 are equal).
func (r *Result) ExpectVerdict(want map[string]any) bool {
	r.t.Helper()
	if r.inert {
		return true
	}
	rows := r.Verdicts()
	for _, row := range rows {
		if sameJSON(want, row) {
			return true
		}
	}
	return r.check(false, "no verdict row has %s; the rows: %s", jsonText(want), jsonText(rows))
}

// Verdicts are the record's verdict rows, each as its keys and values.
func (r *Result) Verdicts() []map[string]any {
	if r.inert || r.Record.Verdicts == nil {
		return nil
	}
	out := make([]map[string]any, len(r.Record.Verdicts.Rows))
	for i, row := range r.Record.Verdicts.Rows {
		out[i] = row.Values
	}
	return out
}

// ExpectStanding: the assessment's standing is want (known, consistent,
// not-sure …).
func (r *Result) ExpectStanding(want string) bool {
	r.t.Helper()
	if r.inert {
		return true
	}
	got := ""
	if a := r.Record.Assessment; a != nil {
		got = string(a.Standing)
	}
	return r.check(got == want, "standing %q, want %q (line: %s)", got, want, r.line())
}

// ExpectReason: the assessment gives reason want (argument-assumed,
// outcome-unknown …).
func (r *Result) ExpectReason(want string) bool {
	r.t.Helper()
	if r.inert {
		return true
	}
	return r.check(slices.Contains(r.reasons(), want), "reasons %v, want %q among them (line: %s)", r.reasons(), want, r.line())
}

// ExpectAssumed: the host filled the plugin's argument name from its
// declared default — an ASSUMED value, which the standing line attributes
// to the plugin (`name = … was assumed by plugin's rule`, reason argument-assumed).
func (r *Result) ExpectAssumed(plugin, name string) bool {
	r.t.Helper()
	if r.inert {
		return true
	}
	return r.check(slices.Contains(r.assumedBy(plugin), name), "argument %q not assumed by %s: reasons %v, line: %s", name, plugin, r.reasons(), r.line())
}

// ExpectNoneAssumed: the host assumed no argument of plugin (the chart
// gave every one).
func (r *Result) ExpectNoneAssumed(plugin string) bool {
	r.t.Helper()
	if r.inert {
		return true
	}
	got := r.assumedBy(plugin)
	return r.check(len(got) == 0, "arguments %v assumed by %s: %s", got, plugin, r.line())
}

// assumedBy is the names of plugin's arguments that the host filled from
// their declared defaults, as the record holds them
// (record.PluginRun.Assumed), when the standing gives argument-assumed as a
// reason: both must hold, so a plugin whose default the record names but
// the standing does not doubt fails ExpectAssumed. The standing line's words
// are not parsed: a default whose text held `, fake = ` read as a second
// argument (TestExpectAssumedReadsTheRecordNotTheLine).
func (r *Result) assumedBy(plugin string) []string {
	if !slices.Contains(r.reasons(), "argument-assumed") {
		return nil
	}
	var out []string
	for _, p := range r.Record.Plugins {
		if p.Name != plugin {
			continue
		}
		for _, a := range p.Assumed {
			if !slices.Contains(out, a.Name) {
				out = append(out, a.Name)
			}
		}
	}
	return out
}

// ExpectCoverage: the coverage ledger has, at stage path, an item of kind
// (checked, not-checked, cannot-cover, or absence for what an absence
// looked for) whose words are what.
func (r *Result) ExpectCoverage(path, kind, what string) bool {
	r.t.Helper()
	if r.inert {
		return true
	}
	var have []string
	for _, e := range r.Record.Coverage {
		items := map[string][]coverage.Item{"checked": e.Checked, "not-checked": e.NotChecked, "cannot-cover": e.CannotCover}
		if e.Kind == coverage.KindAbsence {
			items["absence"] = []coverage.Item{{What: e.LookedFor}}
		}
		for k, its := range items {
			for _, it := range its {
				if e.Path == path && k == kind && it.What == what {
					return true
				}
				have = append(have, e.Path+" "+k+" "+it.What)
			}
		}
	}
	return r.check(false, "no coverage item %s %s %q; the ledger: %v", path, kind, what, have)
}

// ExpectScript: the script row at stage path has label want (completed,
// completed-with-failure, reported-failure, outcome-unknown …).
func (r *Result) ExpectScript(path, want string) bool {
	r.t.Helper()
	if r.inert {
		return true
	}
	var have []string
	for _, row := range r.Record.Scripts {
		if row.Path == path {
			return r.check(string(row.Label) == want, "script row %s: label %q, want %q (%s)", path, row.Label, want, row.Words)
		}
		have = append(have, row.Path)
	}
	return r.check(false, "no script row at %s; rows at: %v", path, have)
}

func (r *Result) reasons() []string {
	var out []string
	if a := r.Record.Assessment; a != nil {
		for _, x := range a.Reasons {
			out = append(out, string(x))
		}
	}
	return out
}

func (r *Result) line() string {
	if a := r.Record.Assessment; a != nil {
		return a.Line
	}
	return "(no assessment)"
}

// sameJSON: every key of want is in got with the same JSON text.
func sameJSON(want, got map[string]any) bool {
	for k, v := range want {
		g, ok := got[k]
		if !ok || jsonText(v) != jsonText(g) {
			return false
		}
	}
	return true
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	// 5400 and 5400.0 are one number.
	var n any
	if json.Unmarshal(b, &n) == nil {
		b, _ = json.Marshal(n)
	}
	return string(b)
}
