package chart

import "testing"

// TestShellGivingASecretToAProgramsArgvIsRefused: `mysql
// --password="$PW"` with envFrom: {PW: password}, password a secret
// input, loaded and ran Consistent, the password in mysql's argv, which ps
// shows every user, for as long as it ran, where a command: item's
// ${password} is refused. A script that expands a variable holding a
// secret (from a secret input, or a name computed from one) in a
// program's arguments is a load error naming the program and how to pass
// it; a builtin's arguments, a here-string and a prefix assignment reach
// no argv and load.
func TestShellGivingASecretToAProgramsArgvIsRefused(t *testing.T) {
	t.Parallel()
	shellSecretCases(t, []shellSecretCase{
		{"mysql's option", `{shell: 'mysql --password="$PW" -e "select 1"', envFrom: {PW: password}}`, `c.yaml:10:12: stage "q": exec shell: its script gives $PW, the secret input "password", to mysql as an argument, and argv is what ps shows every user of the host for as long as it runs; have mysql read it from its environment`},
		{"inside a word", `{shell: 'curl -su "admin:$PW" https://h/api', envFrom: {PW: password}}`, `to curl as an argument`},
		{"a name computed from it", `{shell: 'curl -sH "Authorization: $AUTH" https://h/api', envFrom: {AUTH: auth}}`, `gives $AUTH, the secret input "password", to curl`},
		{"env's argv", `{shell: 'env PW="$PW" tool', envFrom: {PW: password}}`, `to tool as an argument`},
		{"in a command substitution", `{shell: 'echo "$(sshpass -p "$PW" ssh h true)"', envFrom: {PW: password}}`, `to sshpass as an argument`},
		{"its environment", `{shell: 'mysql -e "select 1"', envFrom: {MYSQL_PWD: password}}`, ""},
		{"a builtin's pipe", `{shell: 'printf "%s" "$PW" | tool --password-stdin', envFrom: {PW: password}}`, ""},
		{"a here-string", `{shell: 'tool --password-stdin <<< "$PW"', envFrom: {PW: password}}`, ""},
		{"a prefix assignment", `{shell: 'SSHPASS="$PW" sshpass -e ssh h true', envFrom: {PW: password}}`, ""},
		{"a test", `{shell: '[ -n "$PW" ] && echo set', envFrom: {PW: password}}`, ""},
		{"no secret", `{shell: 'ping -c1 "$H"', envFrom: {H: host}}`, ""},
	})
}

// TestShellCopyingASecretIntoAVariableIsFollowed: a script that copies the
// secret into a variable of its own first (`p="$PW"`, `local auth="admin:$PW"`,
// `tok=$(printf %s "$PW" | base64)`) and gives that to a program put it in
// the program's argv all the same, and loaded: the check followed only the
// names envFrom: set. A variable assigned from a secret's (in any order of
// the script, and through such copies) is one now.
func TestShellCopyingASecretIntoAVariableIsFollowed(t *testing.T) {
	t.Parallel()
	shellSecretCases(t, []shellSecretCase{
		{"a plain copy", `{shell: 'p="$PW"; mysql --password="$p" -e "select 1"', envFrom: {PW: password}}`, `gives $p, the secret input "password", to mysql as an argument`},
		{"a local in a function", `{shell: 'q() { local auth="admin:$PW"; curl -su "$auth" https://h/api; }; q', envFrom: {PW: password}}`, `gives $auth, the secret input "password", to curl`},
		{"a command substitution", `{shell: 'tok=$(printf %s "$PW" | base64); curl -sH "Authorization: Basic $tok" https://h', envFrom: {PW: password}}`, `gives $tok, the secret input "password", to curl`},
		{"a copy of a copy", `{shell: 'a="$PW"; b="x$a"; tool --key "$b"', envFrom: {PW: password}}`, `gives $b, the secret input "password", to tool`},
		{"an export", `{shell: 'export MYSQL_PWD="$PW"; mysql -e "select 1"', envFrom: {PW: password}}`, ""},
		{"a copy given to stdin", `{shell: 'p="$PW"; printf "%s" "$p" | tool --password-stdin', envFrom: {PW: password}}`, ""},
		{"a copy of no secret", `{shell: 'h="$H"; ping -c1 "$h"', envFrom: {H: host, PW: password}}`, ""},
	})
}

// TestShellFunctionGivenASecretIsFollowed: a function the script defines
// is no program. `f() { mysql -p"$1"; }; f "$PW"` was refused naming f,
// and `f() { printf '%s' "$1" | tool --password-stdin; }; f "$PW"`, which
// puts the secret in no argv, was refused as well; the check now follows
// the argument into the function's body.
func TestShellFunctionGivenASecretIsFollowed(t *testing.T) {
	t.Parallel()
	shellSecretCases(t, []shellSecretCase{
		{"into a program's argv", `{shell: 'f() { mysql -p"$1" -e "select 1"; }; f "$PW"', envFrom: {PW: password}}`, `gives $PW, the secret input "password", to mysql as an argument`},
		{"through $@", `{shell: 'g() { tool --key "$@"; }; g "$PW"', envFrom: {PW: password}}`, `gives $PW, the secret input "password", to tool`},
		{"a function calling a function", `{shell: 'h() { tool --key "$2"; }; f() { h x "$1"; }; f "$PW"', envFrom: {PW: password}}`, `gives $PW, the secret input "password", to tool`},
		{"through a local copy", `{shell: 'f() { local p="$1"; mysql -p"$p"; }; f "$PW"', envFrom: {PW: password}}`, `gives $p, the secret input "password", to mysql`},
		{"into its stdin", `{shell: 'f() { printf "%s" "$1" | tool --password-stdin; }; f "$PW"', envFrom: {PW: password}}`, ""},
		{"another argument", `{shell: 'f() { ping -c1 "$2"; }; f "$PW" db1', envFrom: {PW: password}}`, ""},
	})
}

// FuzzSecretInArgv: any script text, however odd its functions and
// assignments (a function calling itself, one defined twice, a copy of a
// copy), is checked to an end, without a panic.
func FuzzSecretInArgv(f *testing.F) {
	for _, s := range []string{
		`f() { mysql -p"$1"; }; f "$PW"`,
		`f() { f "$@"; }; f "$PW"`,
		`a="$b"; b="$a$PW"; tool "$a"`,
		`g() { local p="$1"; h "$p"; }; h() { tool --key "$1"; }; g "$PW"`,
		`printf '%s' "$PW" | tool --password-stdin`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		secretInArgv(script, map[string]string{"PW": "password"})
	})
}

// shellSecretCase is one script of the shell secret tests: the stage's
// exec: (a flow map), and the load error it must hold ("" for none).
type shellSecretCase struct{ name, exec, err string }

// shellSecretCases loads each case's exec: as stage q of a chart with a
// secret input password, an input host and a var auth computed from the
// password.
func shellSecretCases(t *testing.T, cases []shellSecretCase) {
	t.Helper()
	for _, tc := range cases {
		src := `version: 1
runbook: t
inputs:
  password: {type: string, secret: true, required: true}
  host: {type: string, default: db1}
vars:
  auth: '"Basic " + password'
stages:
  - id: q
    exec: ` + tc.exec + `
`
		loadErr(t, tc.name, src, tc.err)
	}
}

// TestShellProcessSubstitutionOfASecretIsNoArgv: radclient reads the
// shared secret from argv or from a file (-S FILE) alone, so a chart
// gives it `-S <(printf '%s\n' "$RSECRET")`, which hands radclient
// /dev/fd/63 and the secret through a pipe; the check took the words
// inside <( ) for radclient's argument and refused the chart, telling it
// to have radclient read the secret from its environment or its standard
// input, neither of which radclient reads it from (wave-radius). A
// process substitution's program is checked as any other call: a real
// program given the secret in it is still refused, and so is a command
// substitution, whose output is the argument.
func TestShellProcessSubstitutionOfASecretIsNoArgv(t *testing.T) {
	t.Parallel()
	shellSecretCases(t, []shellSecretCase{
		{"radclient's secret file", `{shell: 'printf "User-Password = \"%s\"\n" "$PW" | radclient -S <(printf "%s\n" "$PW") 127.0.0.1:1812 auth', envFrom: {PW: password}}`, ""},
		{"a file read by redirection", `{shell: 'tool --key-file /dev/stdin < <(printf "%s" "$PW")', envFrom: {PW: password}}`, ""},
		{"a program inside it", `{shell: 'radclient -S <(tool --print "$PW") h auth', envFrom: {PW: password}}`, `gives $PW, the secret input "password", to tool as an argument`},
		{"a command substitution", `{shell: 'radclient -S "$(printf "%s" "$PW")" h auth', envFrom: {PW: password}}`, `to radclient as an argument`},
	})
}

// TestRADIUSSecretAdviceNamesRadclientsFile: `radtest monitor "$PW"
// HOST 0 "$SECRET"` was refused with "have radtest read it from its
// environment … or its standard input", and radtest reads neither: it
// puts the password and the shared secret in radclient's argv by design.
// radclient reads the password as an attribute from its standard input
// (or -f FILE) and the shared secret from -S FILE, which is the advice.
func TestRADIUSSecretAdviceNamesRadclientsFile(t *testing.T) {
	t.Parallel()
	shellSecretCases(t, []shellSecretCase{
		{"radtest", `{shell: 'radtest monitor "$PW" 127.0.0.1 0 s3', envFrom: {PW: password}}`, `radtest puts the password and the shared secret in radclient's argv`},
		{"radclient's secret in argv", `{shell: 'printf "User-Name = monitor\n" | radclient 127.0.0.1 auth "$PW"', envFrom: {PW: password}}`, `-S <(printf '%s\n' "$PW")`},
	})
}
