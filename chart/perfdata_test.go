package chart

import (
	"strings"
	"testing"
)

// TestResultPerfdataIsRefusedWhereItGraphsNothing: result.perfdata that
// reads no stage's key (a misspelt stage, a constant) would write the same
// line on every run or none, and one under a kind with no verdict rows has
// no check to be written by: both are load errors at their place. One
// over a stage's output loads.
func TestResultPerfdataIsRefusedWhereItGraphsNothing(t *testing.T) {
	t.Parallel()
	chart := func(result string) string {
		return "version: 1\nrunbook: p\nresult:\n" + result + "stages:\n  - id: load\n    exec: {command: [check_load], exitCodes: nagios, parse: nagios}\n  - id: v\n    verdict: {subject: '\"load\"', verdict: 'load.status'}\n"
	}
	for _, tc := range []struct{ name, result, says string }{
		{"ok", "  kind: verdict/nagios\n  perfdata: load.stdout.perfdata\n", ""},
		{"object", "  kind: verdict/nagios\n  perfdata: '{l: load.stdout.perfdata}'\n", ""},
		{"misspelt", "  kind: verdict/nagios\n  perfdata: lod.stdout.perfdata\n", `c.yaml:5:13: result perfdata: "lod.stdout.perfdata" reads no key a stage writes, so it graphs nothing this run measured; give a stage's perfdata, as in load.stdout.perfdata; did you mean "load" for "lod"?`},
		{"constant", "  kind: verdict/nagios\n  perfdata: '[{label: \"x\", value: 1}]'\n", `reads no key a stage writes`},
		{"kind", "  kind: report\n  perfdata: load.stdout.perfdata\n", `c.yaml:5:3: result perfdata is written by --format nagios beside its verdict counts, but kind "report" projects no verdict rows`},
	} {
		_, err := Parse("c.yaml", []byte(chart(tc.result)))
		switch {
		case tc.says == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)):
			t.Errorf("%s: %v\nwant an error saying %q", tc.name, err, tc.says)
		}
	}
	r := &ResultSpec{Kind: "report", Perfdata: &Check{Src: "load.stdout.perfdata"}}
	if err := r.Settle(nil); err == nil || !strings.Contains(err.Error(), "projects no verdict rows") {
		t.Errorf("Settle of perfdata under kind report: %v", err)
	}
	r = &ResultSpec{Kind: "verdict/x", Perfdata: &Check{Src: "load.stdout.perfdata"}}
	if err := r.Settle(nil); err != nil || r.Perfdata.Expr == nil {
		t.Errorf("Settle of perfdata: %v, compiled %v", err, r.Perfdata.Expr != nil)
	}
}
