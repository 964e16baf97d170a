package chart

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/internal/suggest"
)

// exec reads `exec:`.
func (l *loader) exec(e entry, s *StageSpec) *ExecSpec {
	sid := s.ID
	m, ok := l.block(e, sid, "exec", execKeys)
	if !ok {
		return nil
	}
	x := &ExecSpec{Parse: parse.Spec{Mode: "text"}, Into: s.ID}
	ce, hasCmd := m.get("command")
	se, hasShell := m.get("shell")
	switch {
	case hasCmd && hasShell:
		later := se
		if se.keyPos.Line < ce.keyPos.Line || (se.keyPos.Line == ce.keyPos.Line && se.keyPos.Col < ce.keyPos.Col) {
			later = ce
		}
		l.errf(later.keyPos, sid, "exec has both command and shell: give command (an argv list, run without a shell) or shell (a script for bash, run with pipefail), not both")
	case hasCmd:
		items, ok := l.list(ce, sid, "exec command")
		if ok && len(items) == 0 {
			l.errf(ce.valPos, sid, "exec command is an empty list: give the program and its arguments, such as [df, -P]")
		}
		for i, n := range items {
			ie := entry{key: "command", keyPos: ce.keyPos, val: n, valPos: l.pos(n)}
			what := fmt.Sprintf("exec command argument %d", i+1)
			if w, ok := l.text(ie, sid, what); ok {
				x.Command = append(x.Command, w)
				l.noteForeign(ie.valPos, sid, what, foreignArg, w, x.Command[0]) // foreigntemplate.go
			}
		}
		if len(x.Command) > 0 && len(items) > 0 {
			if words := strings.Fields(x.Command[0]); len(words) > 1 && !strings.Contains(x.Command[0], "/") && !strings.Contains(x.Command[0], "${") {
				// ["iostat -x 1 1"]: one item is one argument, so the
				// program looked for is named "iostat -x 1 1", which plan
				// called not found and told to install.
				quoted := make([]string, len(words))
				for i, w := range words {
					quoted[i] = w
					if _, err := strconv.ParseFloat(w, 64); err == nil {
						quoted[i] = strconv.Quote(w)
					}
				}
				l.errf(l.pos(items[0]), sid, "exec command's program %q holds spaces: each item of command: is one argument, run without a shell, so no program by that name is found; write each word as its own item, [%s], or write the line as shell: (run by bash)", x.Command[0], strings.Join(quoted, ", "))
			}
		}
		if i, why := ArgvProblem(x.Command); i >= 0 && len(items) == len(x.Command) {
			l.errf(l.pos(items[i]), sid, "exec command argument %d %q %s", i+1, x.Command[i], why)
		}
		x.Args = l.commandTemplates(ce, items, x.Command, sid) // exec_templates.go
	case hasShell:
		x.Shell, _ = l.word(se, sid, "exec shell")
		x.ShellPos = se.keyPos
		l.noteForeign(se.valPos, sid, "exec shell", foreignShell, x.Shell, "")
		if msg := UnfinishedScript(x.Shell); msg != "" {
			l.errf(se.valPos, sid, "exec shell: %s", msg)
		} else if msg := SSHReadsLoopInput(x.Shell); msg != "" {
			l.errf(se.valPos, sid, "exec shell: %s", msg)
		}
	default:
		l.errf(e.keyPos, sid, "exec has neither command nor shell: give command: [program, args…] or shell: \"a script for bash\"")
	}
	if te, ok := m.get("timeout"); ok && isTemplate(te) {
		x.TimeoutTemplate, _ = l.template(te, sid, "exec timeout")
	} else if ok {
		if d, ok := l.duration(te, sid, "exec timeout"); ok {
			if d == 0 {
				l.errf(te.valPos, sid, "exec timeout is 0: give a positive duration (default %s)", DefaultExecTimeout)
			} else {
				x.Timeout = d
			}
		}
	}
	if ee, ok := m.get("env"); ok {
		if em, ok := l.asMap(ee.val, ee.keyPos, sid, "exec env"); ok {
			for _, v := range em.entries {
				if v.key == "" || strings.ContainsAny(v.key, "=\x00") {
					l.errf(v.keyPos, sid, "exec env name %q is not a variable name: no '=' and not empty", v.key)
					continue
				}
				if isTemplate(v) {
					l.errf(v.valPos, sid, "exec env %q holds ${…}, but env: values are literal (templates are command items and timeout): the command would see the text %q; compute it with envFrom: {%s: EXPR}", v.key, v.val.(*ast.StringNode).Value, v.key)
					continue
				}
				if val, ok := l.text(v, sid, fmt.Sprintf("exec env %q", v.key)); ok {
					x.Env = append(x.Env, EnvVar{Name: v.key, Value: val})
					l.noteForeign(v.valPos, sid, fmt.Sprintf("exec env %q", v.key), foreignEnv, val, "")
				}
			}
		}
	}
	if ie, ok := m.get("inheritEnv"); ok {
		x.InheritEnv = l.inheritEnv(ie, sid) // exec_templates.go
	}
	if fe, ok := m.get("envFrom"); ok {
		for _, a := range l.assigns(fe, sid, "exec envFrom", true) {
			if a.Key == "" || strings.ContainsAny(a.Key, "=\x00") {
				l.errf(a.Pos, sid, "exec envFrom name %q is not a variable name: no '=' and not empty", a.Key)
				continue
			}
			x.EnvFrom = append(x.EnvFrom, a)
		}
	}
	if pe, ok := m.get("parse"); ok {
		if p, ok := l.parseSpec(pe, sid, "exec parse"); ok {
			x.Parse = p
			x.ParseGiven = true
			if msg := x.headerlessTable(); msg != "" {
				l.errf(pe.valPos, sid, "%s", msg)
			}
		}
	}
	if ie, ok := m.get("into"); ok {
		x.Into, _ = l.word(ie, sid, "exec into")
	}
	if de, ok := m.get("dir"); ok && isTemplate(de) {
		l.errf(de.valPos, sid, "exec dir holds ${…}, but dir: is literal (templates are command items and timeout): the command would start in a directory named %q; write the path, or change to it in a shell: script (shell: cd \"$D\" && …, envFrom: {D: EXPR})", de.val.(*ast.StringNode).Value)
	} else if ok {
		x.Dir, _ = l.word(de, sid, "exec dir")
		if what := l.named[x.Dir]; what != "" {
			// dir: project beside an input project ran in a folder named
			// "project", saying only "working directory not found"
			// (TestExecDirNamingAnInputSaysItIsLiteral)
			l.errf(de.valPos, sid, "exec dir %q is the name of the chart's %s %s, but dir: is literal: the command would start in a folder named %q in runbook's own; write the path, or change to it in a shell: script (shell: cd \"$D\" && …, envFrom: {D: %s})", x.Dir, what, x.Dir, x.Dir, x.Dir)
		}
	}
	if se, ok := m.get("stdin"); ok {
		if a, ok := l.valuer(se, sid, "exec stdin", "stdin"); ok {
			x.Stdin = &a
		}
	}
	if ce, ok := m.get("exitCodes"); ok {
		x.ExitCodes, x.AnswerStderr = l.exitCodes(ce, sid)
	}
	if be, ok := m.get("exitBits"); ok {
		x.ExitBits = l.exitBits(be, sid)
	}
	if me, ok := m.get("maxOutput"); ok {
		x.MaxOutput = l.size(me, sid, "exec maxOutput")
	}
	return x
}

// exitBits reads `exitBits:`: a map from the bits of a bitmask exit code
// (1, 2, 4 … 128) to their words, in the order written, which is the
// order a code's word is picked in (ExecSpec.ExitBits). nil when nothing
// valid was written.
func (l *loader) exitBits(e entry, sid string) []ExitBit {
	const what = "exec exitBits"
	if _, isMap := e.val.(*ast.MappingNode); !isMap {
		if _, isPair := e.val.(*ast.MappingValueNode); !isPair {
			l.errf(e.valPos, sid, "%s must be a map of the bits of an exit code to words, the most telling first, such as {4: errors, 1: corrected} (fsck's), not %s", what, l.describe(e.val))
			return nil
		}
	}
	m, ok := l.asMap(e.val, e.keyPos, sid, what)
	if !ok {
		return nil
	}
	var out []ExitBit
	for _, c := range m.entries {
		bit, err := strconv.Atoi(c.key)
		if err != nil || strconv.Itoa(bit) != c.key || bit < 1 || bit > 128 || bit&(bit-1) != 0 {
			hint := ""
			if err == nil && bit > 0 && bit <= 255 {
				// exitCodes: first: most codes are no bitmask (rsync's
				// 24, timeout's 124), and listing their bits makes
				// every other sum of them an answer
				word := "WORD"
				if w, ok := c.val.(*ast.StringNode); ok && w.Value != "" {
					word = w.Value
				}
				hint = fmt.Sprintf(" (%d is a sum of bits: a code that is no bitmask, such as rsync's 24 or timeout's 124, takes its word under exitCodes: ({%d: %s}); list bits here only for a tool whose manual adds them to make its code, as fsck's and smartctl's do)", bit, bit, word)
			}
			l.errf(c.keyPos, sid, "%s key %q is not a bit of an exit code: write one of 1, 2, 4, 8, 16, 32, 64, 128%s", what, c.key, hint)
			continue
		}
		if word, ok := l.word(c, sid, fmt.Sprintf("%s word for %d", what, bit)); ok {
			out = append(out, ExitBit{Bit: bit, Word: word})
		}
	}
	if len(out) == 0 && len(m.entries) == 0 {
		l.errf(e.valPos, sid, "%s is an empty map: list the bits that are answers, such as {4: errors, 1: corrected}, or leave it out", what)
	}
	return out
}

// sizeUnits are the units a size may be written in, in bytes.
var sizeUnits = map[string]int{"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}

// size reads a number of bytes written with a unit (64MiB, 512KiB, 1GiB)
// or as a whole number of bytes, from 1 KiB to MaxOutputLimit; 0 when
// what was written is none (the problem is reported at its position).
func (l *loader) size(e entry, sid, what string) int {
	s, ok := l.word(e, sid, what)
	if !ok {
		return 0
	}
	num, unit := strings.TrimSpace(s), "B"
	for u := range sizeUnits {
		if n, ok := strings.CutSuffix(num, u); ok && u != "B" {
			num, unit = strings.TrimSpace(n), u
			break
		}
	}
	if n, ok := strings.CutSuffix(num, "B"); ok && unit == "B" {
		num = strings.TrimSpace(n)
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		l.errf(e.valPos, sid, "%s %q is not a size: write a whole number with a unit, B, KiB, MiB or GiB (64MiB), or a number of bytes", what, s)
		return 0
	}
	if n > MaxOutputLimit/sizeUnits[unit] || n*sizeUnits[unit] < 1<<10 {
		l.errf(e.valPos, sid, "%s %s is out of range: from 1KiB to 1GiB (the default is 1MiB)", what, s)
		return 0
	}
	return n * sizeUnits[unit]
}

// exitCodePresets are the words exitCodes: may name instead of a map.
var exitCodePresets = map[string]map[int]string{
	"nagios": {0: "ok", 1: "warning", 2: "critical", 3: "unknown"},
}

// exitCodes reads `exitCodes:`: a preset's name, or a map from exit codes
// (whole numbers 0–255) to their words (non-empty text). nil when nothing
// valid was written (each problem is reported at its position).
func (l *loader) exitCodes(e entry, sid string) (map[int]string, map[int]string) {
	const what = "exec exitCodes"
	switch e.val.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
	case *ast.StringNode:
		names := make([]string, 0, len(exitCodePresets))
		for name := range exitCodePresets {
			names = append(names, name)
		}
		slices.Sort(names)
		word, ok := l.word(e, sid, what)
		if !ok {
			return nil, nil
		}
		if preset, ok := exitCodePresets[word]; ok {
			return maps.Clone(preset), nil
		}
		hint := ""
		if near := suggest.Nearest(word, names); near != "" {
			hint = fmt.Sprintf("; did you mean %q?", near)
		}
		l.errf(e.valPos, sid, "%s %q is not a preset (known: %s)%s; or give a map of codes to words, such as {0: ok, 2: critical}", what, word, strings.Join(names, ", "), hint)
		return nil, nil
	default:
		l.errf(e.valPos, sid, "%s must be a preset name (nagios) or a map of exit codes to words, such as {0: ok, 2: critical}, not %s", what, l.describe(e.val))
		return nil, nil
	}
	m, ok := l.asMap(e.val, e.keyPos, sid, what)
	if !ok {
		return nil, nil
	}
	if len(m.entries) == 0 {
		l.errf(e.valPos, sid, "%s is an empty map: list the exit codes that are answers, such as {0: ok, 2: critical}, or leave it out", what)
		return nil, nil
	}
	out := make(map[int]string, len(m.entries))
	var stderr map[int]string
	for _, c := range m.entries {
		code, err := strconv.Atoi(c.key)
		if err != nil || code < 0 || code > 255 || strconv.Itoa(code) != c.key {
			l.errf(c.keyPos, sid, "%s key %q is not an exit code: write a whole number from 0 to 255", what, c.key)
			continue
		}
		if !isMapNode(l.deref(c.val, sid)) {
			if word, ok := l.word(c, sid, fmt.Sprintf("%s word for %d", what, code)); ok {
				out[code] = word
			}
			continue
		}
		word, text, ok := l.exitAnswer(c, sid, code)
		if !ok {
			continue
		}
		out[code] = word
		if stderr == nil {
			stderr = map[int]string{}
		}
		stderr[code] = text
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, stderr
}

// exitAnswer reads a code's answer written as `{word: W, stderr: TEXT}`:
// the word, given only when stderr holds TEXT (ExecSpec.Answer).
func (l *loader) exitAnswer(c entry, sid string, code int) (string, string, bool) {
	what := fmt.Sprintf("exec exitCodes %d", code)
	m, ok := l.block(c, sid, what, []string{"word", "stderr"})
	if !ok {
		return "", "", false
	}
	we, okw := m.get("word")
	se, oks := m.get("stderr")
	if !okw {
		l.missing(m, "word", c.keyPos, sid, "%s has no word: write {word: WORD, stderr: TEXT}, the answer and the text its stderr says with it", what)
	}
	if !oks {
		l.missing(m, "stderr", c.keyPos, sid, "%s has no stderr: write {word: WORD, stderr: TEXT}, or the word alone (%d: WORD) to take the code as the answer whatever stderr says", what, code)
	}
	if !okw || !oks {
		return "", "", false
	}
	word, okw := l.word(we, sid, what+" word")
	text, oks := l.word(se, sid, what+" stderr")
	if !okw || !oks {
		return "", "", false
	}
	if code == 0 {
		l.errf(c.keyPos, sid, "%s gives exit 0 a stderr text, but a command that exits 0 has succeeded whatever its stderr says; give the stderr text to the non-zero code it goes with, and write 0: %s", what, word)
		return "", "", false
	}
	return word, text, true
}
