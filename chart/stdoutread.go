package chart

import "regexp"

// resultMember is a read of a member named result in an expression's
// text: `.result`, `?.result`, `["result"]`, a closure's as well as a
// path's (a closure's member reads are no path of the expression).
var resultMember = regexp.MustCompile(`\.result\b|\[\s*"result"\s*\]`)

// markStdoutRead sets ExecSpec.StdoutRead on every exec stage, in the
// chart and the charts it mounts, whose stdout an expression of the same
// file reads (`v.stdout contains "http_dav_module"`). A stage with no
// `parse:` is taken for an action (a restart printing its progress on
// stderr) and its blank stdout is not judged; one whose stdout a rule
// reads is asked a question, and a blank stdout beside stderr is then no
// answer of none: `nginx -V` writes its module list on stderr and prints
// nothing on stdout, and a chart looking for a forbidden module in
// `v.stdout` said clean, OK, Consistent, over an nginx built with it
// (runbook's stderrOnly; cmd/runbook TestStdoutReadOfActionWithStderrOnlyIsNoAnswer).
// It sets ExecSpec.ReplyResultRead too, on a stage with or without
// `parse:`.
func (s *session) markStdoutRead(spec *Spec) {
	seen := map[*Spec]bool{}
	var charts func(sp *Spec)
	charts = func(sp *Spec) {
		if sp == nil || seen[sp] {
			return
		}
		seen[sp] = true
		walkStages(sp.Stages, func(st *StageSpec) bool {
			if st.Subflow != nil {
				charts(st.Subflow.Spec)
			}
			es := st.Exec
			if es == nil {
				return true
			}
			into := es.Into
			if into == "" {
				into = st.ID
			}
			for _, c := range s.compiled {
				if c.l.file == st.Pos.File && c.x.ReadsMember(into, "stdout") && resultMember.MatchString(c.x.String()) {
					es.ReplyResultRead = true
					break
				}
			}
			if es.ParseGiven {
				return true
			}
			for _, c := range s.compiled {
				if c.l.file == st.Pos.File && c.x.ReadsMember(into, "stdout") {
					es.StdoutRead = true
					break
				}
			}
			return true
		})
	}
	charts(spec)
}
