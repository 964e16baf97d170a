package chart

import "slices"

// The honesty stages by name, as honesty: lists them.
const (
	HonestyLabel      = "label"
	HonestyCoverage   = "coverage"
	HonestyAssessment = "assessment"
)

// HonestyOn says whether the chart runs the honesty stage name: every one
// when honesty: is not written, only those it lists when it is.
func (s *Spec) HonestyOn(name string) bool {
	if s.Honesty == nil {
		return true
	}
	return slices.Contains(s.Honesty, name)
}

// RunsScripts says whether any stage of the chart — in branches, foreach
// bodies and subflows, inline or mounted, too — starts a process: an exec
// or a plugin stage, whose outcome the label stage files.
func (s *Spec) RunsScripts() bool { return runsScripts(s, map[*Spec]bool{}) }

func runsScripts(s *Spec, seen map[*Spec]bool) bool {
	if s == nil || seen[s] {
		return false
	}
	seen[s] = true
	found := false
	walkStages(s.Stages, func(st *StageSpec) bool {
		found = st.Exec != nil || st.Plugin != nil || st.Subflow != nil && runsScripts(st.Subflow.Spec, seen)
		return !found
	})
	return found
}
