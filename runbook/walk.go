package runbook

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
)

// StageVisit is one stage of a chart as WalkStages meets it.
type StageVisit struct {
	// Scope is where the stage sits: the select and parallel branches,
	// foreach items (index 0: the place every item shares) and subflows
	// around it.
	Scope []flow.ScopeStep
	// Path is the stage's general path, every item index written `*`
	// (`hosts~*/probe`): the place in the chart, not one execution.
	Path   string
	Depth  int    // how many stages it is nested in
	Branch string // the branch it is in, if any
	Stage  *chart.StageSpec
}

// WalkStages calls fn for every stage of the chart in the order written,
// each before the stages inside it: the one home of how a chart's nested
// stages are scoped and named before a run (plan shows them so; validate
// names a plugin stage's problems so). A decide's branches share its
// scope; a select's and a parallel's are each their own.
func (rb *Runbook) WalkStages(fn func(StageVisit)) {
	walkStages(nil, 0, "", rb.spec.Stages, fn)
}

func walkStages(scope []flow.ScopeStep, depth int, branch string, ss []chart.StageSpec, fn func(StageVisit)) {
	for i := range ss {
		st := &ss[i]
		path := st.ID
		if s := flow.GeneralScope(scope); s != "" {
			path = s + "/" + st.ID
		}
		fn(StageVisit{Scope: scope, Path: path, Depth: depth, Branch: branch, Stage: st})
		in := func(step flow.ScopeStep) []flow.ScopeStep { return append(slices.Clip(scope), step) }
		switch st.Kind {
		case "decide", "select":
			for _, b := range st.Branches {
				inner := scope
				if st.Kind == "select" {
					inner = in(flow.ScopeStep{Node: st.ID, Branch: b.Name})
				}
				walkStages(inner, depth+1, b.Name, b.Stages, fn)
			}
		case "parallel":
			for _, b := range st.Parallel {
				walkStages(in(flow.ScopeStep{Node: st.ID, Branch: b.Name}), depth+1, b.Name, b.Stages, fn)
			}
		case "foreach":
			zero := 0
			walkStages(in(flow.ScopeStep{Node: st.ID, Item: &zero}), depth+1, "", st.ForEach.Stages, fn)
		case "subflow":
			sf := st.Subflow
			inner := in(flow.ScopeStep{Node: st.ID})
			if sf.Spec != nil {
				walkStages(inner, depth+1, "", sf.Spec.Stages, fn)
			} else {
				walkStages(inner, depth+1, "", sf.Stages, fn)
			}
		}
	}
}

// SubflowFiles are the bytes of every chart file the chart mounts
// (`subflow: {chart: …}`, at any depth), by the path it was loaded from
// (chart.Sources takes them): what a run started here needs to load the
// same chart where these files are not. Each is read again and must be
// the bytes the chart was loaded from (its SHA-256): a file changed since
// is an error, never another chart.
func (rb *Runbook) SubflowFiles() (map[string][]byte, error) {
	var files map[string][]byte
	var err error
	rb.WalkStages(func(v StageVisit) {
		sf := v.Stage.Subflow
		if err != nil || sf == nil || sf.Spec == nil || sf.Spec.File == "" {
			return
		}
		if _, seen := files[sf.Spec.File]; seen {
			return
		}
		var b []byte
		if b, err = os.ReadFile(sf.Spec.File); err != nil {
			err = fmt.Errorf("subflow chart %s: %w", sf.Spec.File, err)
			return
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sf.Spec.SHA256 {
			err = fmt.Errorf("subflow chart %s changed since the chart was loaded: load it again", sf.Spec.File)
			return
		}
		if files == nil {
			files = map[string][]byte{}
		}
		files[sf.Spec.File] = b
	})
	return files, err
}
