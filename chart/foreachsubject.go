package chart

import (
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/rules"
)

// checkForeachSubjects refuses a verdict stage in a foreach's body whose
// row is the same for every item: no column but `verdict` reads anything
// that differs between the items (the foreach's as, its index, or a key a
// stage of its body writes). Its rows cannot be told apart, and the table
// reads as one subject judged many times: `subject: '"v.mount"'` (a name
// quoted as text) wrote five rows `v.mount | ok`, Consistent, over five
// filesystems (TestConstantSubjectInAForeachIsRefused). A foreach inside
// another is asked too: `subject: host` in a foreach over a host's disks
// gives every disk of the host one subject. A verdict stage in a subflow
// is not asked (its scope is the subflow's).
func (l *loader) checkForeachSubjects(spec *Spec) {
	eachStage(spec, func(st *StageSpec) {
		if fe := st.ForEach; fe != nil {
			l.foreachSubjects(st, fe)
		}
	})
}

// foreachSubjects asks each verdict stage of one foreach's body.
func (l *loader) foreachSubjects(fst *StageSpec, fe *ForEachSpec) {
	varies := map[string]bool{}
	for _, k := range fe.ItemKeys() {
		varies[k] = true
	}
	var verdicts []*StageSpec
	var walk func(list []StageSpec, inSubflow bool)
	walk = func(list []StageSpec, inSubflow bool) {
		for i := range list {
			st := &list[i]
			for _, k := range st.Writes() {
				varies[k] = true
			}
			if st.Kind == "verdict" && !inSubflow {
				verdicts = append(verdicts, st)
			}
			for _, brs := range [][]BranchSpec{st.Branches, st.Parallel} {
				for _, br := range brs {
					walk(br.Stages, inSubflow)
				}
			}
			if st.ForEach != nil {
				for _, k := range st.ForEach.ItemKeys() {
					varies[k] = true
				}
				walk(st.ForEach.Stages, inSubflow)
			}
			if sf := st.Subflow; sf != nil {
				for _, a := range sf.Inputs {
					varies[a.Key] = true
				}
				walk(sf.Stages, true)
			}
		}
	}
	walk(fe.Stages, false)
	for _, v := range verdicts {
		if varying(v.Verdict, varies) {
			continue
		}
		var cols []string
		pos := v.Pos
		for _, a := range v.Verdict {
			if a.Key == "verdict" {
				continue
			}
			if len(cols) == 0 {
				pos = a.Pos
			}
			cols = append(cols, fmt.Sprintf("%s: %s", a.Key, a.Src))
		}
		what := "it has no column but verdict, so"
		if len(cols) > 0 {
			what = strings.Join(cols, ", ") + " reads nothing that differs between them (" + fe.As + ", index or a key the foreach's stages write), so"
		}
		l.errf(pos, v.ID, "verdict writes one row per item of the foreach %q and %s every row names the same subject and the table cannot tell the items apart; write the subject from the item (subject: %s, or a member of it: %s.name; a name inside quotes is text)",
			fst.ID, what, fe.As, fe.As)
	}
}

// varying says whether a column other than verdict reads one of the
// names (or the whole scope, through $env).
func varying(cols []Assign, names map[string]bool) bool {
	for _, a := range cols {
		if a.Key == "verdict" {
			continue
		}
		x, ok := a.Expr.(*rules.Expr)
		if !ok {
			continue // a literal
		}
		if x.ReadsWholeScope() {
			return true
		}
		for _, r := range x.Roots() {
			if names[r] {
				return true
			}
		}
	}
	return false
}
