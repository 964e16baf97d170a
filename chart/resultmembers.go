package chart

import (
	"slices"
	"strings"

	"github.com/openrunbook/runbook/rules"
)

// ExecResultMembers are every member an exec stage's result can hold, the
// value its into: key (its id by default) receives: package runbook writes
// no other (runbook TestExecResultHoldsOnlyTheMembersTheLoaderKnows).
var ExecResultMembers = []string{"stdout", "stderr", "exitCode", "ok", "timedOut", "durationMs", "signal", "status", "bits", "error", "withheld", "parseError", "parseProblems"}

// ReadResultMembers are every member a read: stage's result over one
// path can hold (a glob's is a list of them).
var ReadResultMembers = []string{"path", "exists", "content", "withheld", "parseError", "parseProblems"}

// checkResultMembers refuses an expression that reads a member of an
// exec or read: stage's result that such a result never holds: a typo
// (`st.stdot`) read as null in every run. A member misspelt under the
// guard the runtime itself advises for a value that may be missing
// (`lines.conten ?? []`, `st.stdut?.status`) was an empty list or no
// status, and the check stood Consistent over a file it never read
// (found by misspelling one member at a time in the wave charts:
// TestResultMemberNoStageWritesIsRefused). A key some other stage, an
// input or a var writes too is not judged: its shape is not the
// loader's to know. An exec or read: result holds no reserved af_ member
// either: a declared absence or ledger stands inside its stdout or
// content, where this check does not look.
func (c compiled) checkResultMembers(d *defs, src string) {
	for _, m := range c.x.MemberReads() {
		kind, members := d.resultShape(m.Root)
		if members == nil || slices.Contains(members, m.Member) {
			continue
		}
		pos := c.l.exprPos(c.e, &rules.CompileError{Line: m.Line, Column: m.Column})
		c.l.errf(pos, c.stage, "%s: expression %q reads %s.%s, but %s is %s, which never holds %s%s (its members: %s)",
			c.what, src, m.Root, m.Member, m.Root, kind, m.Member, nearest(m.Member, members), strings.Join(members, ", "))
	}
}

// resultShape is what writes key when only exec stages, or only read:
// stages over one path, do, with the members such a result can hold;
// nil members otherwise.
func (d *defs) resultShape(key string) (kind string, members []string) {
	ws := d.writers[key]
	if d.early[key] || len(ws) == 0 {
		return "", nil
	}
	for _, w := range ws {
		var k string
		var ms []string
		switch st := w.st; {
		case st.Exec != nil && st.Exec.Into == key && len(st.Writes()) == 1:
			k, ms = "an exec stage's result", ExecResultMembers
		case st.Read != nil && st.Read.Into == key && st.Read.Path != nil && len(st.Writes()) == 1:
			k, ms = "a read: stage's result", ReadResultMembers
		default:
			return "", nil
		}
		if kind != "" && kind != k {
			return "", nil
		}
		kind, members = k, ms
	}
	return kind, members
}
