package chart

import (
	"strconv"
	"strings"
)

// BranchWords is, by the name and the id of each decide: or select:
// stage of the chart and by its branch, the verdict words the verdict
// stages under the branch write, where each writes one word, a string
// literal (`verdict: '"unaudited"'`); a branch one of whose verdict
// stages computes its word (`verdict: h.status`) has nil. A verdict stage
// belongs to the nearest choice above it, through foreach bodies,
// parallel branches and mounted subflows, as the meanings read it
// (record.Projection.Words).
//
// The meanings were keyed by branch: a branch `cut` that writes
// `unaudited` gave the table `unaudited` and the meanings `cut — …`, a
// word no row had (wave-av, wave-scan).
func (s *Spec) BranchWords() map[string]map[string][]string {
	out := map[string]map[string][]string{}
	type place struct{ decider, id, branch string }
	computed := map[place]bool{}
	var under func(stages []StageSpec, at place)
	under = func(stages []StageSpec, at place) {
		for i := range stages {
			st := &stages[i]
			if st.Decide != nil {
				for _, br := range st.Branches {
					under(br.Stages, place{st.Name, st.ID, br.Name})
				}
				continue // its rows are its own branches'
			}
			if at.branch != "" {
				for _, a := range st.Verdict {
					if a.Key != "verdict" {
						continue
					}
					w, ok := verdictLiteral(a.Src)
					for _, d := range []string{at.decider, at.id} {
						if d == "" {
							continue
						}
						if out[d] == nil {
							out[d] = map[string][]string{}
						}
						if ok && !contains(out[d][at.branch], w) {
							out[d][at.branch] = append(out[d][at.branch], w)
						}
					}
					if !ok {
						computed[at] = true
					}
				}
			}
			for _, br := range st.Branches {
				under(br.Stages, at)
			}
			for _, br := range st.Parallel {
				under(br.Stages, at)
			}
			if st.ForEach != nil {
				under(st.ForEach.Stages, at)
			}
			if st.Subflow != nil {
				under(st.Subflow.Stages, at)
				if st.Subflow.Spec != nil {
					under(st.Subflow.Spec.Stages, at)
				}
			}
		}
	}
	under(s.Stages, place{})
	for at := range computed {
		for _, d := range []string{at.decider, at.id} {
			if out[d] != nil {
				out[d][at.branch] = nil
			}
		}
	}
	return out
}

// verdictLiteral is the word an expression's source writes when it is one
// string literal, `"unaudited"` or `'unaudited'`.
func verdictLiteral(src string) (string, bool) {
	src = strings.TrimSpace(src)
	if len(src) < 2 {
		return "", false
	}
	switch {
	case src[0] == '"':
		w, err := strconv.Unquote(src)
		return w, err == nil
	case src[0] == '\'' && src[len(src)-1] == '\'' && !strings.ContainsAny(src[1:len(src)-1], `'\`):
		return src[1 : len(src)-1], true
	}
	return "", false
}
