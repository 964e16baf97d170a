package chart

import (
	"strings"
	"testing"
)

// TestRuleThatReadsNothingIsRefused: a decider rule written
// `"${s.stdout}" == "bad"` (a template where templates are not read) or
// `"s.stdout" == "bad"` (a name quoted as text) compares two texts, is
// false on every run, and the default's ok row stood Consistent, Nagios
// OK, over output reading bad. Such a rule is a load error naming it and
// what to write; a literal true or false, and a rule reading a key, the
// time or an input, load.
func TestRuleThatReadsNothingIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		when, err string
	}{
		{`'"${s.stdout}" == "bad"'`, "c.yaml:12:18: stage \"d\": rule 1 when `\"${s.stdout}\" == \"bad\"` reads nothing the run gives (no stage's key, input or var), so it is false on every run and the rule decides nothing; ${…} is a template only in an exec command item or timeout"},
		{`'"s.stdout" != "ok"'`, "so it is true on every run and the rule decides nothing; write the names it should read bare, outside quotes"},
		{`'1 > 2'`, "so it is false on every run"},
		{`'s.stdout == "bad"'`, ""},
		{`'limit > 3'`, ""},
		{`'now() > date("2026-01-01T00:00:00Z")'`, ""},
		{`false`, ""},
		{`'true'`, ""},
	} {
		src := `version: 1
runbook: lit
inputs:
  limit: {type: number, default: 1}
stages:
  - id: s
    exec: {command: [echo, bad], parse: text, into: s}
  - id: d
    name: D
    decide:
      rules:
        - {when: ` + tc.when + `, then: bad, label: Bad}
      default: {branch: ok, label: fine}
    branches:
      bad: [{id: m1, set: {v: '"bad"'}}]
      ok: [{id: m2, set: {v: '"ok"'}}]
`
		_, err := Parse("c.yaml", []byte(src))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.when, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v\nwant an error containing %s", tc.when, err, tc.err)
		}
	}
}
