package chart

import (
	"fmt"
	"strings"
)

// exec reads `exec:`.
func (l *loader) exec(e entry, s *StageSpec) *ExecSpec {
	sid := s.ID
	m, ok := l.block(e, sid, "exec", execKeys)
	if !ok {
		return nil
	}
	x := &ExecSpec{Parse: "text", Into: s.ID}
	ce, hasCmd := m.get("command")
	se, hasShell := m.get("shell")
	switch {
	case hasCmd && hasShell:
		later := se
		if se.keyPos.Line < ce.keyPos.Line || (se.keyPos.Line == ce.keyPos.Line && se.keyPos.Col < ce.keyPos.Col) {
			later = ce
		}
		l.errf(later.keyPos, sid, "exec has both command and shell: give command (an argv list, run without a shell) or shell (one line for /bin/sh), not both")
	case hasCmd:
		items, ok := l.list(ce, sid, "exec command")
		if ok && len(items) == 0 {
			l.errf(ce.valPos, sid, "exec command is an empty list: give the program and its arguments, such as [df, -P]")
		}
		for i, n := range items {
			ie := entry{key: "command", keyPos: ce.keyPos, val: n, valPos: l.pos(n)}
			if w, ok := l.text(ie, sid, fmt.Sprintf("exec command argument %d", i+1)); ok {
				x.Command = append(x.Command, w)
			}
		}
	case hasShell:
		x.Shell, _ = l.word(se, sid, "exec shell")
	default:
		l.errf(e.keyPos, sid, "exec has neither command nor shell: give command: [program, args…] or shell: \"a line for /bin/sh\"")
	}
	if te, ok := m.get("timeout"); ok {
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
				if val, ok := l.text(v, sid, fmt.Sprintf("exec env %q", v.key)); ok {
					x.Env = append(x.Env, EnvVar{Name: v.key, Value: val})
				}
			}
		}
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
		if p, ok := l.oneOf(pe, sid, "exec parse", parseModes...); ok {
			x.Parse = p
		}
	}
	if ie, ok := m.get("into"); ok {
		x.Into, _ = l.word(ie, sid, "exec into")
	}
	if de, ok := m.get("dir"); ok {
		x.Dir, _ = l.word(de, sid, "exec dir")
	}
	if se, ok := m.get("stdin"); ok {
		if a, ok := l.valuer(se, sid, "exec stdin", "stdin"); ok {
			x.Stdin = &a
		}
	}
	return x
}
