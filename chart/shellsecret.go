package chart

import (
	"fmt"
	"path/filepath"
	"strconv"
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
			if a, ok := passwordFromFile(prog); ok {
				l.errf(es.ShellPos, st.ID, "exec shell: its script gives $%s, the secret input %q, to %s as an argument, and argv is what ps shows every user of the host for as long as it runs; %s: %s",
					v, in, prog, a.how, a.shellForm(v))
				return true
			}
			l.errf(es.ShellPos, st.ID, "exec shell: its script gives $%s, the secret input %q, to %s as an argument, and argv is what ps shows every user of the host for as long as it runs; have %s read it from its environment (mysql reads MYSQL_PWD, psql PGPASSWORD, sshpass -e SSHPASS: envFrom: {MYSQL_PWD: %s}) or its standard input (printf '%%s' \"$%s\" | %s …, or <<< \"$%s\")",
				v, in, prog, prog, in, v, prog, v)
		}
		return true
	})
}

// openLDAPClients are OpenLDAP's command-line clients, which read a bind
// password from -w (argv), a terminal (-W) or a file (-y) alone.
var openLDAPClients = map[string]bool{
	"ldapsearch": true, "ldapwhoami": true, "ldapmodify": true, "ldapadd": true, "ldapdelete": true,
	"ldapmodrdn": true, "ldappasswd": true, "ldapcompare": true, "ldapexop": true, "ldapvc": true,
}

// libmemcachedClients are libmemcached-tools' commands (Debian's memc*
// names), which read a SASL password from -p (--password) in argv alone.
var libmemcachedClients = map[string]bool{
	"memcstat": true, "memccat": true, "memccp": true, "memcdump": true, "memcexist": true, "memcflush": true,
	"memcrm": true, "memcslap": true, "memctouch": true, "memcping": true, "memcparse": true, "memcaslap": true,
}

// mosquittoClients are Mosquitto's command-line clients, which read a
// password from -P (argv) or their options file alone.
var mosquittoClients = map[string]bool{"mosquitto_sub": true, "mosquitto_pub": true, "mosquitto_rr": true}

// fileAdvice is how a program that reads a password from no environment
// variable and not from its standard input alone is given one out of
// argv: how says so and what it reads; shell and command are the form
// it takes in a shell: script (%[1]s the variable holding the secret,
// %[2]s the program) and in a command: item (%[1]s the program, %[2]s
// the secret's name in the chart).
type fileAdvice struct {
	how, shell, command, prog string
}

func (a fileAdvice) shellForm(v string) string      { return fmt.Sprintf(a.shell, v, a.prog) }
func (a fileAdvice) commandForm(name string) string { return fmt.Sprintf(a.command, a.prog, name) }

// passwordFromFile is how prog, a program that reads a password from no
// environment variable and not from its standard input alone, is given
// one out of argv; false for any other program, to which the usual advice
// (its environment, its standard input) applies. `ldapsearch -w
// "$PW"` was refused with "read it from its environment … or its
// standard input (printf … | ldapsearch …)": ldapsearch reads neither,
// binds anonymously or fails, and -W asks a terminal a run does not have
// (TestLDAPPasswordAdviceNamesTheFileOption). mosquitto_sub -P "$PW" was
// refused the same way, and mosquitto_sub reads neither either: it reads
// its options, -P among them, from $XDG_CONFIG_HOME/mosquitto_sub
// (TestMosquittoPasswordAdviceNamesTheOptionsFile). curl -u
// "user:${password}" was told to read $PASSWORD, which curl does not; it
// reads its options from a config on stdin, -K -
// (TestCurlPasswordAdviceNamesItsConfigOnStdin). squidclient -w "$PW"
// mgr:info was told to read $PW, and squidclient reads a password from
// argv alone: curl asks the same cache manager over HTTP
// (TestSquidclientPasswordAdviceNamesCurl). memcstat -p "$PW" was told
// to read $PW or its standard input, and memcstat reads neither
// (TestMemcstatPasswordAdviceNamesTheBinaryProtocol).
func passwordFromFile(prog string) (fileAdvice, bool) {
	base := filepath.Base(prog)
	switch {
	case openLDAPClients[base]:
		return fileAdvice{
			prog:    base,
			how:     base + " reads a bind password from no environment variable, and -W asks a terminal a run does not have: give it a file with -y, /dev/stdin fed the secret (a command: item with stdin: INPUT, or in a script), and nothing after it, since -y reads the file whole and a newline is part of the password",
			shell:   "printf '%%s' \"$%[1]s\" | %[2]s -y /dev/stdin …",
			command: "[%[1]s, …, -y, /dev/stdin, …] with stdin: %[2]s",
		}, true
	case base == "curl":
		return fileAdvice{
			prog:    base,
			how:     `curl reads no secret from its environment: give it its options on standard input, -K - (--config -), one a line, the secret's among them: user = "NAME:PASSWORD" for -u, header = "Authorization: Bearer <TOKEN>" for -H (a " or \ in a value written \" and \\)`,
			shell:   `printf 'user = "%%s"\n' "NAME:$%[1]s" | %[2]s -K - …`,
			command: `[%[1]s, …, -K, -, …] with stdin: 'user = "NAME:' + %[2]s + '"' (or 'header = "Authorization: Bearer ' + %[2]s + '"')`,
		}, true
	case base == "squidclient":
		return fileAdvice{
			prog:    base,
			how:     "squidclient takes the cache manager's password in its argv alone (-w PASSWORD, or mgr:ACTION@ and the password after it), from no environment variable and not from its standard input: ask the cache manager over HTTP with curl, which Squid 3.2 and later serve at /squid-internal-mgr/ACTION, its password on curl's standard input, -K - (--config -), as the line user = \":PASSWORD\" (a \" or \\ in it written \\\" and \\\\)",
			shell:   `printf 'user = ":%%s"\n' "$%[1]s" | curl -sf -K - http://HOST:PORT/squid-internal-mgr/info`,
			command: `[curl, -sf, -K, -, "http://HOST:PORT/squid-internal-mgr/info"] with stdin: 'user = ":' + %[2]s + '"'`,
		}, true
	case libmemcachedClients[base]:
		return fileAdvice{
			prog:    base,
			how:     base + " takes a SASL password in its argv alone (-p, --password), from no environment variable and not from its standard input, as do libmemcached-tools' other memc* commands; memcached under -S answers no ASCII command (stats | nc prints nothing): ask its binary protocol from a script that reads the password from its environment (SASL PLAIN, opcode 0x21, key PLAIN, value NUL USER NUL PASSWORD; then stat, opcode 0x10)",
			shell:   `python3 -c '…os.environ["%[1]s"]…' (no %[2]s)`,
			command: "[python3, -c, …] with envFrom: {MC_PASS: %[2]s}, the script reading os.environ[\"MC_PASS\"] (no %[1]s)",
		}, true
	case base == "radtest" || base == "radclient":
		// radtest is a script that runs radclient with the password and
		// the shared secret in its argv; radclient itself reads the
		// password as an attribute and the secret from a file
		how := "radclient reads the shared secret from its argv or from a file (-S FILE) alone, and a password as the User-Password attribute of the list it reads on standard input (or -f FILE): give it the secret through a pipe bash names /dev/fd/N, and the attributes on its standard input"
		if base == "radtest" {
			how = "radtest puts the password and the shared secret in radclient's argv by design, and reads neither from its environment or standard input; run radclient itself, which " + strings.TrimPrefix(how, "radclient ")
		}
		return fileAdvice{
			prog:    base,
			how:     how,
			shell:   `printf 'User-Name = "NAME"\nUser-Password = "%%s"\n' "$PASSWORD" | radclient -S <(printf '%%s\n' "$%[1]s") HOST:PORT auth (each secret from its own envFrom: variable)`,
			command: `[radclient, -S, FILE, …] with stdin: the attribute list (User-Password from %[2]s), or a shell: script giving -S <(printf '%%s\n' "$SECRET")`,
		}, true
	case mosquittoClients[base]:
		return fileAdvice{
			prog:    base,
			how:     base + " reads a password from no environment variable and not from its standard input: it reads its options file, $XDG_CONFIG_HOME/" + base + " (else ~/.config/" + base + "), one option a line; keep the password there, a line -P PASSWORD (and -u USER) in a file only the account the run uses can read, and name its folder, so the chart holds no secret at all",
			shell:   "XDG_CONFIG_HOME=/etc/mqtt-check %[2]s -h … (no -P, no $%[1]s)",
			command: "[%[1]s, -h, …] with env: {XDG_CONFIG_HOME: /etc/mqtt-check} (no -P, and no input %[2]s)",
		}, true
	}
	return fileAdvice{}, false
}

// secretInArgv is the first variable of vars the script expands in an
// argument of a program (a call that is no argvSafe builtin), the secret
// it holds, and the program; "" when none. A function the script defines
// is no program: a call of it hands its secret arguments to its body as
// $1…, $@ and $*, which is checked with them (copiedSecrets follows copies
// into variables of the script's own).
func secretInArgv(script string, vars map[string]string) (v, in, prog string) {
	f, err := parseBash(script)
	if err != nil {
		return "", "", ""
	}
	a := argvCheck{funcs: map[string]*syntax.Stmt{}}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil && fd.Body != nil {
			a.funcs[fd.Name.Value] = fd.Body
		}
		return true
	})
	vars = copiedSecrets(f, vars)
	named := make(map[string]string, len(vars))
	for k := range vars {
		named[k] = k
	}
	return a.check(f, vars, named, 0)
}

// argvCheck walks a script for a secret in a program's argv.
type argvCheck struct {
	funcs map[string]*syntax.Stmt // the functions the script defines
}

// maxFuncDepth bounds how deep calls of the script's functions are
// followed (a function calling itself would not end).
const maxFuncDepth = 4

// check is secretInArgv over node: vars are the names holding a secret
// (→ the secret input), named the name each is said by (a function's $1
// by the caller's variable it was given).
func (a argvCheck) check(node syntax.Node, vars, named map[string]string, depth int) (v, in, prog string) {
	// tainted is the first name of vars expanded in w, "" for none.
	tainted := func(w syntax.Node) string {
		found := ""
		syntax.Walk(w, func(m syntax.Node) bool {
			if _, ok := m.(*syntax.ProcSubst); ok {
				// <( … ) hands the program a path (/dev/fd/63), not
				// what runs inside it, whose calls are checked as
				// calls of their own: radclient -S <(printf '%s\n'
				// "$SECRET") reads the secret through a pipe
				return false
			}
			pe, ok := m.(*syntax.ParamExp)
			if !ok || found != "" || pe.Param == nil {
				return found == ""
			}
			if _, ok := vars[pe.Param.Value]; ok {
				found = pe.Param.Value
			}
			return found == ""
		})
		return found
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		if v != "" {
			return false
		}
		if fd, ok := n.(*syntax.FuncDecl); ok && depth == 0 {
			if fd.Body == nil {
				return false
			}
			// checked where it is called, with what it is given; its
			// own expansions of the script's secrets, at once
			fv, fin, fprog := a.check(fd.Body, vars, named, maxFuncDepth)
			if fv != "" {
				v, in, prog = fv, fin, fprog
			}
			return false
		}
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		name := literalWord(c.Args[0])
		if argvSafe[name] {
			return true
		}
		if body, ok := a.funcs[name]; ok {
			if depth >= maxFuncDepth {
				return true
			}
			pos := make(map[string]string, len(vars)+3)
			posNamed := make(map[string]string, len(named)+3)
			for k, s := range vars {
				pos[k], posNamed[k] = s, named[k]
			}
			for i, w := range c.Args[1:] {
				if t := tainted(w); t != "" {
					k := strconv.Itoa(i + 1)
					pos[k], posNamed[k] = vars[t], named[t]
					for _, all := range []string{"@", "*"} {
						pos[all], posNamed[all] = vars[t], named[t]
					}
				}
			}
			pos = copiedSecrets(body, pos) // `local p="$1"`
			for k := range pos {
				if _, ok := posNamed[k]; !ok {
					posNamed[k] = k
				}
			}
			v, in, prog = a.check(body, pos, posNamed, depth+1)
			return false
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
			if t := tainted(w); t != "" {
				v, in, prog = named[t], vars[t], name
				if prog == "" {
					prog = "the program it runs"
				}
				return false
			}
		}
		return true
	})
	return v, in, prog
}

// copiedSecrets is vars and every variable the script assigns from one of
// them (`p="$PW"`, `local auth="admin:$PW"`, `tok=$(printf %s "$PW" |
// base64)`), and from those, in any order of the script: a copy given to
// a program is the secret in its argv all the same. Assignments are taken
// wherever they stand (a function's, a prefix's), which may take a name
// for a secret where a run would not: the check refuses, it never runs.
func copiedSecrets(f syntax.Node, vars map[string]string) map[string]string {
	var assigns []*syntax.Assign
	syntax.Walk(f, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.Assign); ok && a.Name != nil {
			assigns = append(assigns, a)
		}
		return true
	})
	if len(assigns) == 0 {
		return vars
	}
	out := make(map[string]string, len(vars))
	for k, v := range vars {
		out[k] = v
	}
	for changed := true; changed; {
		changed = false
		for _, a := range assigns {
			if _, done := out[a.Name.Value]; done {
				continue
			}
			syntax.Walk(a, func(m syntax.Node) bool {
				pe, ok := m.(*syntax.ParamExp)
				if !ok || pe.Param == nil || pe.Param == a.Name {
					return true
				}
				if in, ok := out[pe.Param.Value]; ok {
					if _, done := out[a.Name.Value]; !done {
						out[a.Name.Value] = in
						changed = true
					}
					return false
				}
				return true
			})
		}
	}
	return out
}
