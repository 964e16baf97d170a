package runbook

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/golden"
)

// TestOpenBad opens every chart of the bad-input catalogue (../testdata/bad,
// shared with cmd/runbook) and compares the full error text (every error,
// one a line) with NAME.golden. Open is the whole front end: the loader's
// shape checks, then flow's structural rules at the positions the loader
// filed (a chart with shape errors gets those first, as a compiler reports
// syntax before types: a structural judgement about a half-read chart
// would be a guess).
func TestOpenBad(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/bad/*.yaml")
	if err != nil || len(files) < 30 {
		t.Fatalf("want ≥ 30 refusals under ../testdata/bad, got %d (%v)", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rb, err := Open(f)
			if err == nil {
				t.Fatalf("Open(%s) = nil error; want a refusal", f)
			}
			if rb != nil {
				t.Errorf("Open(%s) returned a runbook with its errors", f)
			}
			var les chart.LoadErrors
			if !errors.As(err, &les) {
				t.Fatalf("error is %T, want LoadErrors", err)
			}
			// The catalogue is shared with the CLI's test, which runs from the
			// repository root: messages name files as it sees them.
			msg := strings.ReplaceAll(err.Error(), "../testdata/bad/", "testdata/bad/")
			golden.Check(t, strings.TrimSuffix(f, ".yaml")+".golden", []byte(msg+"\n"))
		})
	}
}

// TestIssue12StructureIsFlowsAlone: the loader checks shape only — a chart
// whose one problem is structural loads — and Open reports flow's refusal
// at the key flow names, in the loader's positions. Before the cut the
// loader judged structure itself, beside flow.
func TestIssue12StructureIsFlowsAlone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, src, want string }{
		{"unreachable branch", `version: 1
runbook: r
stages:
  - id: d
    decide:
      rules: [{when: "true", then: a}]
      default: a
    branches:
      a: []
      b: []
`, `c.yaml:10:7: stage "d": branch "b" can never be taken: no rule's then and not the default names it (add a rule for it, or remove it)`},
		{"loop out of a foreach body", `version: 1
runbook: r
stages:
  - id: top
    set: {xs: '[1]'}
  - id: each
    foreach:
      items: xs
      maxBranches: 1
      stages:
        - id: back
          loop: {to: top, while: "false"}
`, `c.yaml:12:22: stage "back": loop to "top" names no stage of this chart; a foreach body or a subflow is a chart of its own and a loop cannot leave it (there is no earlier stage it could jump to)`},
		{"third use of an id", `version: 1
runbook: r
stages:
  - {id: a, set: {x: 1}}
  - {id: a, set: {x: 2}}
  - {id: a, set: {x: 3}}
`, "c.yaml:5:10: id \"a\" is used twice in this chart: ids are unique in a chart, branch stages included (first at 4:10)\n" +
			"c.yaml:6:10: id \"a\" is used twice in this chart: ids are unique in a chart, branch stages included (first at 4:10)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spec, err := chart.Parse("c.yaml", []byte(tc.src))
			if err != nil {
				t.Fatalf("chart.Parse refused a chart whose only problem is structural: %v", err)
			}
			_, err = Build(spec)
			if err == nil || err.Error() != tc.want {
				t.Errorf("Build:\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}
