package chart

import (
	"strings"
	"testing"
)

// TestCheckThatReadsNothingOfTheRunIsRefused: a result check that reads no
// key a stage writes ('true', '1 == 1', a check over an input alone) holds
// on every run, so it cannot check this one; since passing checks make the
// standing Known, the loader refuses it at its place. Before,
// `checks: ['true']` loaded and every run of the chart said "Known — all 1
// declared answer checks passed." A check that reads what a stage wrote,
// or the whole scope through $env, still loads.
func TestCheckThatReadsNothingOfTheRunIsRefused(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nrunbook: x\ninputs:\n  limit: {type: number, default: 90}\nresult:\n  kind: verdict/x\n  checks: ["
	const tail = "]\nstages:\n  - {id: v, verdict: {subject: '\"disk\"', verdict: '\"ok\"'}}\n"
	tests := []struct {
		name, check, want string
	}{
		{"a constant", `'true'`, `x.yaml:7:12: result check 1: "true" reads nothing of the run, so it gives the same answer on every run`},
		{"an equality of constants", `'1 == 1'`, `x.yaml:7:12: result check 1: "1 == 1" reads nothing of the run`},
		{"the clock alone", `'now() > date("2020-01-01")'`, `result check 1: "now() > date(\"2020-01-01\")" reads nothing of the run`},
		{"an input alone", `'limit > 0'`, `result check 1: "limit > 0" reads no key a stage writes, only the inputs and vars limit, so it gives the same answer on every run`},
		{"the rows", `'len(verdicts) == 1'`, ""},
		{"an input beside the rows", `'all(verdicts, .verdict == "ok") && limit > 0'`, ""},
		{"the whole scope", `'len($env) > 0'`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("x.yaml", []byte(head+tc.check+tail))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && err == nil:
				t.Errorf("loaded; want it refused saying %q", tc.want)
			case tc.want != "" && !strings.Contains(loadErrText(t, err), tc.want):
				t.Errorf("error:\n%v\nwant it to say %q", err, tc.want)
			}
		})
	}
}
