package chart

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Substitution is a command substitution in a shell: script whose exit
// status bash does not keep: one inside a word of a command (`echo
// "$(cat /etc/x.conf)"`, `[ "$(…)" = y ]`, `local v=$(…)`), whose status
// is that command's. Under bash -e only a substitution that is all of an
// assignment's value (`v=$(cat /etc/x.conf)`) fails the script; any other
// that fails leaves an empty or partial text in what the script prints,
// and the script exits 0.
type Substitution struct {
	// Line and Col are where it starts in the script, from 1.
	Line, Col int
	// Text is the substitution as written, cut to 60 bytes.
	Text string
	// In is the command whose word holds it ("echo"), or "" where there is
	// no command word (a test, a for list, a redirection).
	In string
}

// HiddenSubstitutions lists the command and process substitutions of the
// shell: script whose failure bash does not see, in order (nil for a
// command: stage, a script with none, or one bash would not parse: that
// fails when it runs). The syntax is read by mvdan.cc/sh, the parser of
// shfmt, so quotes, here-documents and nesting are bash's own.
func (e *ExecSpec) HiddenSubstitutions() []Substitution {
	if e == nil || e.Shell == "" || !strings.ContainsAny(e.Shell, "$`<>") {
		return nil
	}
	f, err := parseBash(e.Shell)
	if err != nil {
		return nil
	}
	var out []Substitution
	var stack []syntax.Node
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		switch s := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			if !seen(stack) && !printsWordsAlone(s) {
				out = append(out, substitution(e.Shell, s, stack))
			}
		}
		stack = append(stack, n)
		return true
	})
	return out
}

// printsWordsAlone says whether every command a substitution runs is
// printf or echo with no redirection: bash's own, which run no program
// and read no file, so nothing in it can fail unseen. A substitution
// nested in it is judged on its own (HiddenSubstitutions walks to it).
// radclient reads its shared secret from a file alone, given as -S
// <(printf '%s\n' "$SECRET"), and a run over an Access-Reject (exit 1, a
// line on stderr) stood Not sure, told to assign <(printf …) first
// (TestSubstitutionOfPrintfAloneFailsNoCommand).
func printsWordsAlone(sub syntax.Node) bool {
	alone := true
	syntax.Walk(sub, func(n syntax.Node) bool {
		if !alone || n == nil {
			return false
		}
		if n != sub {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false
			}
		}
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(st.Redirs) > 0 || len(call.Args) == 0 || st.Background || st.Coprocess {
			alone = false
			return false
		}
		if name := call.Args[0].Lit(); name != "printf" && name != "echo" {
			alone = false
			return false
		}
		return true
	})
	return alone
}

// parseBash reads a shell: script as bash does, with mvdan.cc/sh: the
// one parser of scripts here (HiddenSubstitutions, ShellRunsManyCommands).
func parseBash(script string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
}

// anyNode says whether match holds of some node under root, walking no
// further once it has.
func anyNode(root syntax.Node, match func(syntax.Node) bool) bool {
	found := false
	syntax.Walk(root, func(n syntax.Node) bool {
		found = found || n != nil && match(n)
		return !found
	})
	return found
}

// shellAny is anyNode over the exec's shell: script: false when it has
// none, or one bash's grammar as mvdan.cc/sh reads it cannot parse (bash
// judges that script).
func (e *ExecSpec) shellAny(match func(syntax.Node) bool) bool {
	if e == nil || e.Shell == "" {
		return false
	}
	f, err := parseBash(e.Shell)
	if err != nil {
		return false
	}
	return anyNode(f, match)
}

// pipe is node as a pipeline's | (or |&), nil when it is none.
func pipe(node syntax.Node) *syntax.BinaryCmd {
	if b, ok := node.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
		return b
	}
	return nil
}

// UnfinishedScript is what is wrong with a shell: script that ends
// before it is finished ("" when it does not): a here-document never
// closed, which bash reads to the script's end saying only a warning, and
// runs; or a `&&`, `||` or `|` with no command after it, which bash fails
// as a syntax error only once it has run every line before it. Either
// would take in what follows the script, and internal/proc's runner puts
// a line after it: `cat <<EOF` printed the runner's text as the script's
// output. Other syntax mvdan.cc/sh does not read as bash does is left to
// bash.
func UnfinishedScript(script string) string {
	_, err := parseBash(script)
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return ""
	}
	at := fmt.Sprintf("line %d, column %d of the script", pe.Pos.Line(), pe.Pos.Col())
	switch {
	case strings.Contains(pe.Text, "unclosed here-document"):
		return fmt.Sprintf("its %s, opened at %s: bash would read every line after it into the document, with a warning only; end it with a line holding its word alone", pe.Text, at)
	case strings.HasSuffix(pe.Text, "must be followed by a statement") && pe.Incomplete:
		op, _, _ := strings.Cut(pe.Text, " must")
		return fmt.Sprintf("it ends with %s at %s and no command after it: bash runs every line before it, then fails on a syntax error; give the command it leads to, or take the %s out", op, at, strings.Trim(op, "`"))
	}
	return ""
}

// nearestStmt is the innermost statement among a node's ancestors, stack;
// nil when there is none.
func nearestStmt(stack []syntax.Node) *syntax.Stmt {
	for i := len(stack) - 1; i >= 0; i-- {
		if st, ok := stack[i].(*syntax.Stmt); ok {
			return st
		}
	}
	return nil
}

// seen reports whether bash keeps the exit status of a substitution whose
// ancestors are stack: its nearest statement is an assignment alone
// (`v=$(…)`, no command word, not local/export/declare), whose status is
// the last substitution's.
func seen(stack []syntax.Node) bool {
	st := nearestStmt(stack)
	if st == nil {
		return false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) == 0 && len(call.Assigns) > 0
}

// substitution describes s as written in script.
func substitution(script string, s syntax.Node, stack []syntax.Node) Substitution {
	from, to := s.Pos().Offset(), s.End().Offset()
	text := ""
	if int(to) <= len(script) && from < to {
		text = script[from:to]
	}
	if len(text) > 60 {
		cut := 60
		for cut > 0 && text[cut]&0xC0 == 0x80 {
			cut-- // never half a character
		}
		text = text[:cut] + "…"
	}
	sub := Substitution{Line: int(s.Pos().Line()), Col: int(s.Pos().Col()), Text: text}
	if st := nearestStmt(stack); st != nil {
		switch c := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(c.Args) > 0 {
				sub.In = c.Args[0].Lit()
			}
		case *syntax.DeclClause:
			sub.In = c.Variant.Value
		}
	}
	return sub
}

// Where says where the substitution is, as plan's note and the run's
// ledger item say it: "line 1:20, inside a word of echo".
func (s Substitution) Where() string {
	where := fmt.Sprintf("line %d:%d", s.Line, s.Col)
	if s.In != "" {
		where += ", inside a word of " + s.In
	}
	return where
}

// HiddenSubstitutionsNote is plan's note for a shell: script with such
// substitutions ("" for none): which, where, and what a run makes of
// one (record.ItemUnseenFailure).
func (e *ExecSpec) HiddenSubstitutionsNote() string {
	subs := e.HiddenSubstitutions()
	if len(subs) == 0 {
		return ""
	}
	s := subs[0]
	where := s.Where()
	more := ""
	if len(subs) > 1 {
		more = fmt.Sprintf(" (and %d more such)", len(subs)-1)
	}
	return "its script's " + s.Text + " (" + where + ")" + more + " fails unseen by bash -e, so a run that writes on stderr over it stands Not sure; assign it first, v=" + s.Text + ", and use \"$v\""
}
