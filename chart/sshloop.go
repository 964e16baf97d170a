package chart

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// SSHReadsLoopInput is what is wrong with a shell: script that runs ssh
// inside a `while read` (or `until read`) loop with ssh's stdin left as
// the loop's ("" when none does): ssh reads its stdin to send it to the
// remote command, so the first host's ssh takes every line the loop had
// not read yet, and the loop ends after one host. `while read -r h; do
// l=$(ssh "$h" uptime); echo "$h $l"; done <<< "$HOSTS"` over three hosts
// printed the first alone, exit 0, nothing on stderr, and the check said
// `OK - 1 ok`, Consistent, the other two dropped with nothing saying so
// (TestSSHInAReadLoopIsALoadError, testdata/wave-fleet/loop). ssh -n, a
// `< /dev/null` (or any input redirect) on its command, and -o
// StdinNull=yes leave the loop's input alone.
func SSHReadsLoopInput(script string) string {
	f, err := parseBash(script)
	if err != nil {
		return ""
	}
	msg := ""
	syntax.Walk(f, func(node syntax.Node) bool {
		if msg != "" {
			return false
		}
		w, ok := node.(*syntax.WhileClause)
		if !ok || !readsLines(w.Cond) {
			return true
		}
		for _, st := range w.Do {
			syntax.Walk(st, func(n syntax.Node) bool {
				if msg != "" {
					return false
				}
				s, ok := n.(*syntax.Stmt)
				if !ok {
					return true
				}
				c, ok := s.Cmd.(*syntax.CallExpr)
				if !ok || len(c.Args) == 0 || c.Args[0].Lit() != "ssh" || sshStdinNull(c) || inputRedirected(s) {
					return true
				}
				msg = fmt.Sprintf("ssh at line %d, column %d of the script runs inside a while read loop with the loop's input as its stdin: ssh reads it all to send to the remote command, so the loop ends after the first host and the other hosts are dropped with nothing said; give ssh -n (or < /dev/null)",
					c.Pos().Line(), c.Pos().Col())
				return false
			})
		}
		return msg == ""
	})
	return msg
}

// readsLines says whether a loop's condition runs read.
func readsLines(cond []*syntax.Stmt) bool {
	found := false
	for _, st := range cond {
		syntax.Walk(st, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Args[0].Lit() == "read" {
				found = true
			}
			return !found
		})
	}
	return found
}

// sshStdinNull says whether an ssh call is given no stdin of its own:
// -n (alone or in a group of flags before any that takes an argument) or
// -o StdinNull=yes.
func sshStdinNull(c *syntax.CallExpr) bool {
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i].Lit()
		switch {
		case a == "--" || a == "":
			// options end at --, and a word with a quote or a $ in it is
			// the destination ("$h")
			return false
		case strings.HasPrefix(strings.ToLower(a), "-ostdinnull=yes"):
			return true
		case a == "-o" && i+1 < len(c.Args) && strings.EqualFold(strings.ReplaceAll(c.Args[i+1].Lit(), " ", "="), "StdinNull=yes"):
			return true
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, r := range a[1:] {
				if r == 'n' {
					return true
				}
				if strings.ContainsRune(sshArgOptions, r) {
					if strings.HasSuffix(a, string(r)) {
						i++
					}
					break
				}
			}
		default:
			return false // the destination: options end here
		}
	}
	return false
}

// inputRedirected says whether a statement's stdin is redirected (<,
// <<, <<<, <&).
func inputRedirected(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn, syntax.RdrInOut:
			if r.N == nil || r.N.Value == "0" {
				return true
			}
		}
	}
	return false
}
