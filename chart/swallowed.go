package chart

import (
	"mvdan.cc/sh/v3/syntax"
)

// SwallowedFailure notes a shell: script that silences a command's
// failure twice over: its stderr sent to /dev/null and its exit turned
// into success by `|| true` (or `|| :`). `findmnt -J … --bad-flag
// 2>/dev/null | jq … || true` over an older util-linux printed nothing,
// said nothing and exited 0, and the chart read "no read-only mount", OK,
// Consistent (testdata/wave-jq/design/swallowed.yaml): with no code and
// no error, runbook has nothing to judge the empty output by
// (TestSwallowedFailureIsNoted). Either half alone leaves a trace — a
// code, or a line on stderr — and is not noted. "" for none.
func (e *ExecSpec) SwallowedFailure() string {
	if !e.shellAny(func(node syntax.Node) bool {
		b, ok := node.(*syntax.BinaryCmd)
		return ok && b.Op == syntax.OrStmt && succeeds(b.Y) && stderrToNull(b.X)
	}) {
		return ""
	}
	return "its script sends a command's stderr to /dev/null and turns its failure into success with || true: a failure of it (a flag its version does not know, a file it cannot read, a tool not installed) leaves runbook no exit code and no error to judge, and what it printed — nothing — reads as the answer; keep its stderr (runbook reads it), or let the code through and declare the codes that are answers (exitCodes:)"
}

// succeeds says whether st is `true` or `:`, a command that only succeeds.
func succeeds(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 1 || len(st.Redirs) > 0 {
		return false
	}
	w := c.Args[0].Lit()
	return w == "true" || w == ":"
}

// stderrToNull says whether a redirection in st sends stderr to
// /dev/null: 2>/dev/null, 2>>/dev/null, &>/dev/null, or 2>&- (closed).
func stderrToNull(st *syntax.Stmt) bool {
	return anyNode(st, func(node syntax.Node) bool {
		r, ok := node.(*syntax.Redirect)
		if !ok {
			return false
		}
		fd, to := "", ""
		if r.N != nil {
			fd = r.N.Value
		}
		if r.Word != nil {
			to = r.Word.Lit()
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob:
			return fd == "2" && to == "/dev/null"
		case syntax.RdrAll, syntax.AppAll:
			return to == "/dev/null"
		case syntax.DplOut:
			return fd == "2" && to == "-"
		}
		return false
	})
}
