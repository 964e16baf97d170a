package runbook

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
)

// TestIssue19BuildBoundsSharedMounts: Build builds every mount anew, so a
// Spec that shares one mounted chart along many paths (2^30 here, from 31
// Specs) or mounts itself is refused by chart.CheckMounts before anything
// is built. Before, Build expanded every path (exponential) or recursed
// without end.
func TestIssue19BuildBoundsSharedMounts(t *testing.T) {
	t.Parallel()
	spec := &chart.Spec{Version: 1, Name: "leaf", Stages: []chart.StageSpec{{ID: "s", Kind: "fail"}}}
	for range 30 {
		spec = &chart.Spec{Version: 1, Name: "n", Stages: []chart.StageSpec{
			{ID: "a", Kind: "subflow", Subflow: &chart.SubflowSpec{Chart: "x.yaml", Spec: spec}},
			{ID: "b", Kind: "subflow", Subflow: &chart.SubflowSpec{Chart: "x.yaml", Spec: spec}},
		}}
	}
	if _, err := Build(spec); err == nil || !strings.Contains(err.Error(), "mounts charts more than 1000 times") {
		t.Errorf("Build of 2^30 mounts: %v; want the mount bound named", err)
	}
	cyc := &chart.Spec{Version: 1, Name: "c", Stages: []chart.StageSpec{{ID: "a", Kind: "subflow", Subflow: &chart.SubflowSpec{Chart: "c.yaml"}}}}
	cyc.Stages[0].Subflow.Spec = cyc
	if _, err := Build(cyc); err == nil {
		t.Error("Build of a Spec that mounts itself returned no error")
	}
}
