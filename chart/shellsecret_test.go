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
	for _, tc := range []struct {
		name, exec, err string
	}{
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
	} {
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
