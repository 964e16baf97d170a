package chart

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shells are the programs a `command: [SHELL, -c, SCRIPT]` hands a script
// to without pipefail by default.
var shells = []string{"sh", "bash", "dash", "ash", "ksh", "zsh", "busybox"}

// UnguardedPipeline is the note for an exec whose command hands a shell a
// pipeline with -c and no pipefail ("" otherwise): such a pipeline's exit
// is its last command's, so a failing command before a `|` (a collector
// not installed, killed, refused) exits 0 through `| wc -l`. A `shell:`
// stage runs bash -o pipefail, whose exit is the code of the pipeline's
// last command to fail.
func (e *ExecSpec) UnguardedPipeline() string {
	if remote := e.RemoteScript(); remote != "" {
		// ssh's command runs in the remote user's shell, -c and no pipefail
		if strings.Contains(remote, "pipefail") || !hasPipe(remote) {
			return ""
		}
		return "its ssh command runs a pipeline on the host, in the remote user's shell with no pipefail: the pipeline exits with its last command's code, so a failing command before a | (a log not there, a tool not installed) reads as its answer; begin the remote command with set -o pipefail; (bash), or run the command whose failure matters on its own"
	}
	if e == nil || len(e.Command) < 3 || e.Command[1] != "-c" || !slices.Contains(shells, filepath.Base(e.Command[0])) {
		return ""
	}
	script := e.Command[2]
	if strings.Contains(script, "pipefail") || !hasPipe(script) {
		return ""
	}
	return "its command runs a pipeline with " + filepath.Base(e.Command[0]) + " -c and no pipefail: the pipeline exits with its last command's code, so a failing command before a | reads as a success; write the script as shell: (bash -o pipefail), or add set -o pipefail"
}

// ownWords are the builtins a script answers or prints with, never a
// command whose failure its exit code may be (ShellRunsManyCommands).
var ownWords = []string{"exit", "return", "echo", "printf", "true", ":"}

// ShellRunsManyCommands says whether the stage is a shell: script that
// runs more than one command (a pipeline, or a list): under bash -e -o
// pipefail it exits with the code of the first command to fail (in a
// pipeline, the last of its commands to fail), so a code exitCodes:
// declares an answer is not known to be the answering command's
// (record.ItemPipedAnswer): `cd /var/log/app && grep -c ERROR app.log`
// exits with cd's 1 as with grep's. The commands are counted with
// shfmt's parser, an exit, return, echo, printf, true or : not among
// them (ownWords); a script it cannot parse is judged by its pipes.
func (e *ExecSpec) ShellRunsManyCommands() bool {
	if e == nil || e.Shell == "" {
		return false
	}
	f, err := parseBash(e.Shell)
	if err != nil {
		return hasPipe(e.Shell)
	}
	n := 0
	syntax.Walk(f, func(node syntax.Node) bool {
		// An exit or return is the script's own answer, and echo, printf,
		// true and : print or pass: none is a command whose failure the
		// code may be. `echo bad unit >&2; exit 1` answers 1 itself.
		if c, ok := node.(*syntax.CallExpr); ok && len(c.Args) > 0 && !slices.Contains(ownWords, c.Args[0].Lit()) {
			n++
		}
		return n < 2
	})
	return n > 1
}

// ShellRunsCdBesideOne says whether the stage is a shell: script whose
// commands, counted as ShellRunsManyCommands counts them, are cd and one
// other command: `cd "$D" && sha256sum -c SHA256SUMS`, the way a
// computed working directory is written (dir: is literal). Its code is
// that command's unless a cd failed, and bash says so of a cd that
// failed, on stderr (`bash: line 1: cd: /srv/app: No such file or
// directory`), so a run reads its stderr for that line (runbook's
// pipedAnswer). A script it cannot parse is no such script.
func (e *ExecSpec) ShellRunsCdBesideOne() bool {
	if e == nil || e.Shell == "" {
		return false
	}
	f, err := parseBash(e.Shell)
	if err != nil {
		return false
	}
	others, cds, other := 0, 0, true
	syntax.Walk(f, func(node syntax.Node) bool {
		switch n := node.(type) {
		case *syntax.CallExpr:
			if len(n.Args) == 0 || slices.Contains(ownWords, n.Args[0].Lit()) {
				return true
			}
			if n.Args[0].Lit() == "cd" {
				cds++
			} else {
				others++
			}
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			// a cd inside one does not move the script; a body's
			// commands run where it is called
			other = false
		}
		return true
	})
	return other && cds > 0 && others == 1
}

// PipedAnswerNote is plan's note for a shell: script of several commands
// whose exitCodes: declares a non-zero code an answer, or that declares
// exitBits: ("" otherwise): any
// of its commands may exit with it, and a run whose last pipeline's codes
// show an earlier command failed, or that wrote on stderr where those codes
// are not known, is Not sure (record.ItemPipedAnswer).
func (e *ExecSpec) PipedAnswerNote() string {
	if !e.ShellRunsManyCommands() {
		return ""
	}
	var codes []int
	for c := range e.ExitCodes {
		if c != 0 {
			codes = append(codes, c)
		}
	}
	if len(codes) == 0 {
		// exitBits: makes a code of its bits an answer: the lowest is
		// the one any command's failure (1) comes nearest
		for _, b := range e.ExitBits {
			codes = append(codes, b.Bit)
		}
		if len(codes) == 0 {
			return ""
		}
		slices.Sort(codes)
		return fmt.Sprintf("exitBits: declares a code of the bit %d an answer, and the script runs more than one command, which under bash -e -o pipefail exits with the code of the first to fail (in a pipeline, the last to fail): the %d may be another command's failure (a run whose pipeline codes show an earlier command failed is Not sure, and so is one that wrote on stderr where those codes are not known); let only the answering command's code through and judge what it printed, or run the command alone", codes[0], codes[0])
	}
	slices.Sort(codes)
	return fmt.Sprintf("exitCodes: declares %d an answer, and the script runs more than one command, which under bash -e -o pipefail exits with the code of the first to fail (in a pipeline, the last to fail): the %d may be another command's failure (a run whose pipeline codes show an earlier command failed is Not sure, and so is one that wrote on stderr where those codes are not known); let only the answering command's code through (cmd1 | cmd2 || [ \"${PIPESTATUS[*]}\" = \"0 1\" ]) and judge what it printed", codes[0], codes[0])
}

// hasPipe says whether script holds a pipe: a | that is not part of ||,
// outside single and double quotes.
func hasPipe(script string) bool {
	var quote byte
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '|':
			if i+1 < len(script) && script[i+1] == '|' {
				i++
				continue
			}
			if i > 0 && script[i-1] == '>' { // >| is a redirection
				continue
			}
			return true
		}
	}
	return false
}

// ShellReadsChartNames is the note for a shell: script that reads a
// chart's input or var as a bash variable its environment does not set
// ("" otherwise): a script is no template, so `shell: seq 1 ${n}` over an
// input n: 200 ran `seq 1`, bash's n being empty, and a foreach over its
// lines judged one item, Consistent. The loader finds the names
// (ShellChartNames); plan notes it under the stage and a run warns once.
func (e *ExecSpec) ShellReadsChartNames() string {
	if e == nil || len(e.ShellChartNames) == 0 {
		return ""
	}
	n := e.ShellChartNames[0]
	what := "$" + n
	if len(e.ShellChartNames) > 1 {
		what = "$" + strings.Join(e.ShellChartNames, ", $")
	}
	return "its shell script reads " + what + " as a bash variable, which is empty here: a script is no template, and the chart's " + n + " is not in the command's environment; give it with envFrom: {" + n + ": string(" + n + ")} (the script reads $" + n + "), or write command: with ${" + n + "} as a template"
}

// shellVarReads are the names a bash script reads as variables ($NAME,
// ${NAME…}) outside single quotes, each once, in the order first read,
// leaving out those it assigns (NAME=…) and bash's own ($1, $?, $#).
func shellVarReads(script string) []string {
	var out []string
	var quote byte
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
			continue
		case c == '\\':
			i++
			continue
		case c == '\'' && quote == 0:
			quote = c
			continue
		case c == '"':
			if quote == '"' {
				quote = 0
			} else {
				quote = c
			}
			continue
		case c != '$' || i+1 >= len(script):
			continue
		}
		j := i + 1
		if script[j] == '{' {
			j++
		}
		k := j
		for k < len(script) && (script[k] == '_' || script[k] >= 'a' && script[k] <= 'z' || script[k] >= 'A' && script[k] <= 'Z' || k > j && script[k] >= '0' && script[k] <= '9') {
			k++
		}
		if name := script[j:k]; name != "" && !slices.Contains(out, name) && !assigns(script, name) {
			out = append(out, name)
		}
		i = k - 1
	}
	return out
}

// assigns reports whether script assigns name (NAME=…, read NAME, for
// NAME in …, local/export/declare NAME) anywhere: a variable the script
// sets itself is its own.
func assigns(script, name string) bool {
	for i := 0; ; {
		j := strings.Index(script[i:], name)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(name)
		before := byte(' ')
		if at > 0 {
			before = script[at-1]
		}
		if before != '$' && before != '{' && !identByte(before) && end <= len(script) && (end == len(script) || !identByte(script[end])) {
			if end < len(script) && script[end] == '=' {
				return true
			}
			if setter(script[:at]) {
				return true
			}
		}
		i = end
	}
}

// setters are the commands that set the variables their words name.
var setters = []string{"read", "for", "select", "local", "export", "declare", "readonly", "typeset"}

// setter reports whether the statement head leads up to a word that one
// of setters sets (`read -r n`, `for n in`, `export n`): its first word,
// past the keywords that open a statement, is a setter.
func setter(head string) bool {
	stmt := head[strings.LastIndexAny(head, ";\n&|(")+1:]
	words := strings.Fields(stmt)
	for len(words) > 0 && slices.Contains([]string{"do", "then", "else", "while", "until", "if", "!", "{"}, words[0]) {
		words = words[1:]
	}
	return len(words) > 0 && slices.Contains(setters, words[0])
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// AnswerFromASubshellPipeline says whether the stage is a shell: script
// whose last command is a subshell, `( … )`, that ends in a pipeline:
// `(cd /dev && smartctl -H sda | grep -q FAILED)`. The codes runbook reads
// of the script's last pipeline (bash's PIPESTATUS, proc's
// Result.PipeStatus) are then the subshell's one code, and a command of
// its pipeline that failed before the last is not among them: smartctl's
// 2 over a disk it could not open, printed on stdout into grep, ended in
// grep's 1, "passed", Nagios OK (record.ItemPipedAnswer). A script the
// parser cannot read is not one.
func (e *ExecSpec) AnswerFromASubshellPipeline() bool {
	if e == nil || e.Shell == "" {
		return false
	}
	f, err := parseBash(e.Shell)
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	return subshellEndsInPipeline(f.Stmts[len(f.Stmts)-1])
}

// subshellEndsInPipeline says whether st is a subshell (or a subshell's
// subshell) whose last statement ends in a pipeline (endsInPipeline).
func subshellEndsInPipeline(st *syntax.Stmt) bool {
	sub, ok := st.Cmd.(*syntax.Subshell)
	if !ok || st.Negated || len(sub.Stmts) == 0 {
		return false
	}
	return endsInPipeline(sub.Stmts[len(sub.Stmts)-1])
}

// endsInPipeline says whether st's code is a pipeline's: a pipeline, a
// list whose last part is one (`cd /dev && smartctl -H sda | grep -q
// FAILED`; a guard after it, `|| [ "${PIPESTATUS[*]}" = "0 1" ]`, is its
// own code), or a group or subshell whose last statement is one.
func endsInPipeline(st *syntax.Stmt) bool {
	if st.Negated {
		return false
	}
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			return true
		case syntax.AndStmt, syntax.OrStmt:
			return endsInPipeline(c.Y)
		}
	case *syntax.Subshell:
		return len(c.Stmts) > 0 && endsInPipeline(c.Stmts[len(c.Stmts)-1])
	case *syntax.Block:
		return len(c.Stmts) > 0 && endsInPipeline(c.Stmts[len(c.Stmts)-1])
	}
	return false
}

// PipesIntoACompound says whether the stage's shell: script pipes into a
// command that is no simple command (a group, a subshell, a loop, an if):
// `cat m.prom | { grep x | sh -c lint; }`. That command's one code in the
// pipeline's codes (bash's PIPESTATUS) may be a pipeline's inside it, whose
// earlier command failed, so codes whose last alone is non-zero do not
// show the answer is the last command's own. A script the parser cannot
// read is one.
func (e *ExecSpec) PipesIntoACompound() bool {
	if e == nil || e.Shell == "" {
		return false
	}
	f, err := parseBash(e.Shell)
	if err != nil {
		return true
	}
	return anyNode(f, func(node syntax.Node) bool {
		b := pipe(node)
		if b == nil {
			return false
		}
		switch y := b.Y.Cmd.(type) {
		case *syntax.CallExpr:
			return false
		case *syntax.BinaryCmd:
			return y.Op != syntax.Pipe && y.Op != syntax.PipeAll
		}
		return true
	})
}

// grepShortArgs are grep's one-letter options that take an argument: in
// a group such as -eq the letters after one are its argument (the
// pattern "q"), not options.
const grepShortArgs = "efmABCdD"

// QuietGrepEndsPipe is the note for a shell: script with a pipeline that
// ends in grep -q (--quiet, --silent) ("" otherwise): grep -q exits at
// its first match and closes the pipe, and under pipefail the command
// before it then fails writing, curl's 23 (`Failure writing output to
// destination`) or a SIGPIPE's 141, whenever its output outgrows the
// pipe's buffer: `curl -sSf URL | grep -q '^node_textfile_scrape_error
// 0$'` over the node exporter's page (some 100 KiB) answered "read" on
// one run and failed with curl's 23 on the next, the check flapping
// UNKNOWN. grep reading to its end (`grep … > /dev/null`, `grep -c`)
// does not close the pipe early.
func (e *ExecSpec) QuietGrepEndsPipe() string {
	if !e.shellAny(func(node syntax.Node) bool {
		b := pipe(node)
		return b != nil && quietGrep(b.Y)
	}) {
		return ""
	}
	return "its pipeline ends in grep -q, which exits at its first match and closes the pipe: under pipefail the command before it then fails writing (curl's 23, a SIGPIPE's 141) whenever its output outgrows the pipe's buffer, so a match reads as a failure on some runs; let grep read to the end (grep … > /dev/null, or grep -c)"
}

// quietGrep says whether st is grep given -q (--quiet, --silent).
func quietGrep(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || !slices.Contains([]string{"grep", "egrep", "fgrep"}, filepath.Base(c.Args[0].Lit())) {
		return false
	}
	for _, w := range c.Args[1:] {
		a := w.Lit()
		switch {
		case a == "--":
			return false
		case a == "--quiet" || a == "--silent":
			return true
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
			for _, l := range a[1:] {
				if l == 'q' {
					return true
				}
				if strings.ContainsRune(grepShortArgs, l) {
					break
				}
			}
		}
	}
	return false
}
