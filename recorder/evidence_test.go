package recorder

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/rules"
)

type mapEnv map[string]any

func (m mapEnv) Get(k string) (any, bool) { v, ok := m[k]; return v, ok }

// The condition line from evidence built by the real decide and rules
// packages, not by hand.
func TestNarrativeFromRealEvidence(t *testing.T) {
	t.Parallel()
	env := mapEnv{"used": 95, "state": "ok", "volume": map[string]any{"replicas": 2}}
	rs := []decide.Rule{
		{When: rules.MustFilter(rules.Where("used", rules.OpGt, 90), rules.Where("state", rules.OpEq, "degraded")), Then: "at-risk", Label: "Nearly full and degraded"},
		{When: rules.MustCompile("volume.replicas < 3"), Then: "thin", Label: "Few replicas"},
	}
	tests := []struct {
		name string
		ev   decide.Evidence
		want string
	}{
		{"matched expression", decide.Decide(env, rs, decide.Default{Branch: "declined", Label: "No rule reached a verdict"}),
			`Classify evaluated rule 1 "Nearly full and degraded": used 95 gt 90 ✓, state "ok" eq "degraded" ✗; evaluated rule 2 "Few replicas": volume.replicas < 3 with volume.replicas = 2 ✓; and chose thin.`},
		{"fell through", decide.Decide(mapEnv{"used": 10, "state": "ok", "volume": map[string]any{"replicas": 3}}, rs, decide.Default{Branch: "declined", Label: "No rule reached a verdict"}),
			`no rule matched; fell back to the default declined ("No rule reached a verdict").`},
		{"select", decide.Select(env, rs), `; and selected thin.`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ev := tc.ev
			kind := Decision
			if ev.Kind == decide.KindSelect {
				kind = Select
			}
			lines := narrate([]Event{{Kind: kind, Path: "classify#1", StageID: "classify", StageName: "Classify", Decision: &ev, Branches: ev.Chosen}})
			if len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
				t.Errorf("line %q\nwant it to contain %q", lines, tc.want)
			}
		})
	}
}
