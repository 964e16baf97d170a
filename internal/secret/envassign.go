package secret

import (
	"regexp"
	"strings"
)

// envAssignment is one variable's assignment where a text lists an
// environment: a record of its own, ended by a newline or a NUL byte
// (/proc/PID/environ, `env`, a .env file, /etc/environment), or a shell's
// `export NAME=…` and `declare -x NAME=…`. Its groups are what is kept (the
// record's start and NAME=), the name, and the value to the record's end.
var envAssignment = regexp.MustCompile(`(?m)((?:^|\x00)(?:export[ \t]+|declare -x[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=)([^\r\n\x00]*)`)

// EnvAssignments is t with the value of every environment variable whose
// name says it holds a secret (NamedSecret) masked, its name kept, as a
// variable a command is given by name is held (AddInherited): at least
// MinDerived bytes and no path. A process's environment is where a
// service is handed its database password and its cloud keys, and a
// chart asking whether a process runs with LD_PRELOAD, reading
// /proc/PID/environ, put DB_PASSWORD's and AWS_SECRET_ACCESS_KEY's values
// in the record, in `runbook explain`'s chain and in the rows, though the
// run was given no secret. The name is kept, so a rule can still ask
// whether one is set. Idempotent.
//
//	DB_PASSWORD=hunter2pw␀LD_PRELOAD=/x.so     DB_PASSWORD=***␀LD_PRELOAD=/x.so
//	export VAULT_TOKEN=hvs.CAESIJ…             export VAULT_TOKEN=***
//	AWS_ACCESS_KEY_ID=AKIA…                    as it is (an id)
//	PGPASSWORD=root                            as it is (under MinDerived)
func EnvAssignments(t string) string {
	if !strings.Contains(t, "=") {
		return t
	}
	return envAssignment.ReplaceAllStringFunc(t, func(m string) string {
		sub := envAssignment.FindStringSubmatch(m)
		keep, name, value := sub[1], sub[2], sub[3]
		if !NamedSecret(name) || len(value) < MinDerived || isPath(value) {
			return m
		}
		return keep + Masked
	})
}
