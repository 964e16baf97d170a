package chart

import (
	"mvdan.cc/sh/v3/syntax"
)

// MergesStderr says whether a shell: script sends a command's stderr into
// its stdout (`2>&1`, `|&`), where runbook reads it as output, not as
// stderr. `nginx -t … 2>&1` with `exitCodes: {0: valid, 1: invalid}`, run
// as a user who may not read the config, printed `open() "…/nginx.conf"
// failed (13: Permission denied)` on stdout, and the refusal the runtime
// reads on stderr under a declared non-zero code was not seen: invalid,
// CRITICAL, Consistent, over a config nobody read (runbook's denied;
// cmd/runbook TestRefusalMergedIntoStdoutIsNoAnswer).
//
//	nginx -t 2>&1                      merges
//	nginx -t |& tail -n 3              merges
//	nginx -t 2>/dev/null               does not
//	[nginx, -t] (no shell)             does not
func (e *ExecSpec) MergesStderr() bool {
	return e.shellAny(func(node syntax.Node) bool {
		if b, ok := node.(*syntax.BinaryCmd); ok && b.Op == syntax.PipeAll {
			return true
		}
		r, ok := node.(*syntax.Redirect)
		if !ok || r.Op != syntax.DplOut || r.N == nil || r.N.Value != "2" || r.Word == nil {
			return false
		}
		return r.Word.Lit() == "1"
	})
}
