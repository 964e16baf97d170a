package rules

import (
	"testing"
)

// TestAbsentMemberOfATypedMap: a Go chart's stage may set a typed map
// (map[string]int64, a pod's map[string]string labels). A rule reading a
// member it lacks (`p.RSS` where the key is rssKB) read null, compared
// false and sent the subject to the default with no rule-error, where the
// same typo over a map[string]any is one.
func TestAbsentMemberOfATypedMap(t *testing.T) {
	env := mapEnv{
		"p":      map[string]int64{"rssKB": 500, "pid": 7},
		"labels": map[string]string{"tier": "db"},
		"procs":  []map[string]int64{{"rssKB": 1}},
	}
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`p.RSS > 100`, `p has no member "RSS" (its members: pid, rssKB)`, false},
		{`labels.teir == "db"`, `labels has no member "teir"; did you mean "tier"?`, false},
		{`procs[0].rss > 0`, `procs[0] has no member "rss"`, false},
		{`p.rssKB > 100`, "", true},
		{`labels.tier == "db"`, "", true},
		{`labels?.teir == ""`, "", true}, // expr reads it as the zero value; written to allow absence
		{`(p.RSS ?? 0) == 0`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
}
