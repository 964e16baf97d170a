package chart

import (
	"strings"
	"testing"
)

// TestFilterValueSpellingANameIsRefused: a filter's value is a literal,
// and `{v.Avail: {lt: minFree}}` compared df -h's "6.5G", "24G" and
// "980M" with the text "minFree" — by character, all before "m" — so
// every filesystem was low, the input never read, the standing
// Consistent. An unquoted filter value (or in-list item) that spells a
// name the chart defines is refused at its place, saying how to read the
// name (an expression) or keep the text (quote it).
func TestFilterValueSpellingANameIsRefused(t *testing.T) {
	t.Parallel()
	const chart = `version: 1
runbook: r
inputs:
  minFree: {type: string, default: "2G"}
  wanted: {type: list, default: [ext4]}
vars: {fsType: '"ext4"'}
stages:
  - id: df
    exec: {command: [df, -h], parse: {as: columns, last: rest}}
  - id: per
    foreach:
      items: df.stdout
      as: v
      maxBranches: 10
      stages:
        - id: judge
          decide:
            rules:
              - {when: %s, then: bad, label: Bad}
            default: ok
          branches:
            bad: [{id: b, verdict: {subject: v.Filesystem, verdict: '"bad"'}}]
            ok: [{id: o, verdict: {subject: v.Filesystem, verdict: '"ok"'}}]
`
	tests := []struct {
		name, when, want string
	}{
		{"an input", `{v.Avail: {lt: minFree}}`, `c.yaml:19:39: stage "judge": rule 1 when: condition on "v.Avail" (lt) compares with the text "minFree", not with the value of the input or var minFree: a filter's value is a literal; to compare with minFree write the rule as an expression (when: v.Avail < minFree), or quote the word (lt: "minFree") if the text is meant`},
		{"a var", `{v.Type: {eq: fsType}}`, `(when: v.Type == fsType)`},
		{"an in-list item", `{v.Type: {notIn: [xfs, wanted]}}`, `(when: v.Type not in [wanted])`},
		{"a stage's key", `{v.Filesystem: {startsWith: df}}`, `not with the value of the key df`},
		{"the foreach item", `{v.Used: {ne: v}}`, `not with the value of the key v`},
		{"quoted", `{v.Avail: {lt: "minFree"}}`, ""},
		{"single-quoted", `{v.Avail: {eq: 'df'}}`, ""},
		{"a word no name spells", `{v.Type: {in: [tmpfs, devtmpfs]}}`, ""},
		{"a pattern", `{v.Type: {matches: wanted}}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("c.yaml", []byte(strings.Replace(chart, "%s", tc.when, 1)))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(loadErrText(t, err), tc.want) {
				t.Fatalf("error %v; want one saying %q", err, tc.want)
			}
		})
	}
}
