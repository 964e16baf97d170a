package chart

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/openrunbook/runbook/rules"
)

// argvSafe are bash's builtins that run no program, so a value in their
// arguments reaches no process's argv: `printf '%s' "$PW" | tool
// --password-stdin` passes a secret as it should. exec, command and eval
// run a program with what they are given, and are not among them.
var argvSafe = map[string]bool{
	"echo": true, "printf": true, "export": true, "local": true, "declare": true, "typeset": true,
	"readonly": true, "read": true, "test": true, "[": true, "set": true, "unset": true, "shift": true,
	"true": true, "false": true, ":": true, "return": true, "exit": true, "let": true, "cd": true,
	"mapfile": true, "readarray": true, "getopts": true, "wait": true, "trap": true, "pwd": true,
}

// checkShellSecrets refuses a shell: script that gives a secret, handed
// to it in its environment (envFrom: from a secret input, or from a name
// computed from one), to a program as an argument: argv is what ps shows
// every user of the host, as a command: item's template of a secret is
// refused (checkTemplateSecrets). `mysql --password="$PW"` with envFrom:
// {PW: password} loaded and ran Consistent, the password in mysql's argv
// for as long as it ran (TestShellGivingASecretToAProgramsArgvIsRefused;
// wave-mysql's design question). A builtin's arguments (printf, echo,
// test) reach no argv, nor does a here-string or a prefix assignment.
//
// from is secretNames': each name that holds a secret, and the secret
// input it holds.
func (l *loader) checkShellSecrets(spec *Spec, from map[string]string) {
	walkStages(spec.Stages, func(st *StageSpec) bool {
		es := st.Exec
		if es == nil || es.Shell == "" || len(es.EnvFrom) == 0 {
			return true
		}
		vars := map[string]string{} // a variable of the script → the secret input it holds
		for _, a := range es.EnvFrom {
			x, ok := a.Expr.(*rules.Expr)
			if !ok || x == nil {
				continue
			}
			for _, r := range x.Roots() {
				if in, ok := from[r]; ok {
					vars[a.Key] = in
				}
			}
		}
		if len(vars) == 0 {
			return true
		}
		if v, in, prog := secretInArgv(es.Shell, vars); v != "" {
			l.errf(es.ShellPos, st.ID, "exec shell: its script gives $%s, the secret input %q, to %s as an argument, and argv is what ps shows every user of the host for as long as it runs; have %s read it from its environment (mysql reads MYSQL_PWD, psql PGPASSWORD, sshpass -e SSHPASS: envFrom: {MYSQL_PWD: %s}) or its standard input (printf '%%s' \"$%s\" | %s …, or <<< \"$%s\")",
				v, in, prog, prog, in, v, prog, v)
		}
		return true
	})
}

// secretInArgv is the first variable of vars the script expands in an
// argument of a program (a call that is no argvSafe builtin), the secret
// it holds, and the program; "" when none.
func secretInArgv(script string, vars map[string]string) (v, in, prog string) {
	f, err := parseBash(script)
	if err != nil {
		return "", "", ""
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || v != "" || len(c.Args) == 0 {
			return v == ""
		}
		name := literalWord(c.Args[0])
		if argvSafe[name] {
			return true
		}
		if name == "exec" || name == "command" || name == "nohup" || name == "sudo" || name == "env" {
			// a wrapper: the program it runs is its first plain word, and
			// every word after the wrapper is in an argv
			for _, w := range c.Args[1:] {
				if n := literalWord(w); n != "" && !strings.Contains(n, "=") && !strings.HasPrefix(n, "-") {
					name = n
					break
				}
			}
		}
		for _, w := range c.Args[1:] {
			syntax.Walk(w, func(m syntax.Node) bool {
				pe, ok := m.(*syntax.ParamExp)
				if !ok || v != "" || pe.Param == nil {
					return v == ""
				}
				if s, ok := vars[pe.Param.Value]; ok {
					v, in, prog = pe.Param.Value, s, name
					if prog == "" {
						prog = "the program it runs"
					}
				}
				return v == ""
			})
			if v != "" {
				break
			}
		}
		return v == ""
	})
	return v, in, prog
}
