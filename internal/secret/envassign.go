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

// envRecord is envAssignment over NUL-ended records (/proc/PID/environ),
// whose values may hold line ends.
var envRecord = regexp.MustCompile(`((?:^|\x00)([A-Za-z_][A-Za-z0-9_]*)=)([^\x00]*)`)

// EnvAssignments is t with the value of every environment variable whose
// name says it holds a secret (NamedSecret) masked, its name kept, as a
// variable a command is given by name is held (AddInherited): at least
// MinDerived bytes and no path. A process's environment is where a
// service is handed its database password and its cloud keys, and a
// chart asking whether a process runs with LD_PRELOAD, reading
// /proc/PID/environ, put DB_PASSWORD's and AWS_SECRET_ACCESS_KEY's values
// in the record, in `runbook explain`'s chain and in the rows, though the
// run was given no secret. So is such an assignment written as a JSON
// string of its own (envJSON) or between blanks (envListed): a
// container's environment in `podman inspect`, and `{{.Config.Env}}`'s
// list; or on a systemd unit's Environment= line (unitEnvironment). The
// name is kept, so a rule can still ask whether one is
// set. Idempotent.
//
//	DB_PASSWORD=hunter2pw␀LD_PRELOAD=/x.so     DB_PASSWORD=***␀LD_PRELOAD=/x.so
//	export VAULT_TOKEN=hvs.CAESIJ…             export VAULT_TOKEN=***
//	AWS_ACCESS_KEY_ID=AKIA…                    as it is (an id)
//	PGPASSWORD=root                            as it is (under MinDerived)
//	"Env": ["DB_PASSWORD=s3cretPW"]            "Env": ["DB_PASSWORD=***"]
func EnvAssignments(t string) string {
	if !strings.Contains(t, "=") {
		return t
	}
	if strings.Contains(t, "\"") {
		t = envJSON.ReplaceAllStringFunc(t, func(m string) string {
			sub := envJSON.FindStringSubmatch(m)
			if !assignedSecret(sub[2], sub[3]) {
				return m
			}
			return sub[1] + Masked + `"`
		})
	}
	re := envAssignment
	if strings.Contains(t, "\x00") {
		// NUL-ended records: a value runs to its NUL, line ends and all
		// (a key in PEM handed over in one variable).
		re = envRecord
	}
	t = maskAssigned(re, t)
	if strings.Contains(t, "[") {
		t = envList.ReplaceAllStringFunc(t, func(l string) string { return maskAssigned(envListed, l) })
	}
	if strings.Contains(t, "Environment=") {
		t = unitEnvironment.ReplaceAllStringFunc(t, func(l string) string {
			return maskAssigned(unitUnquoted, maskAssigned(unitQuoted, l))
		})
	}
	return t
}

// unitEnvironment is a systemd unit's environment on one line, from
// `Environment=` to the line's end: `systemctl show -p Environment app`
// prints `Environment=LANG=C DB_PASSWORD=…`, and a unit file's directive
// (`systemctl cat app`) is written so, a value holding blanks quoted
// whole ("DB_PASSWORD=a b"). unitQuoted is one quoted assignment in
// it, its value to the closing quote; unitUnquoted one unquoted, its
// value to the next blank or quote. Their groups are envJSON's.
var (
	unitEnvironment = regexp.MustCompile(`(?m)^[ \t]*Environment=[^\r\n]*`)
	unitQuoted      = regexp.MustCompile(`((?:=|[ \t])"([A-Za-z_][A-Za-z0-9_]*)=)([^"\r\n]*)`)
	unitUnquoted    = regexp.MustCompile(`((?:Environment=|[ \t])([A-Za-z_][A-Za-z0-9_]*)=)([^\s"]*)`)
)

// maskAssigned is t with the value of every assignment re finds (groups:
// what is kept, the name, the value) masked where it is a secret
// (assignedSecret).
func maskAssigned(re *regexp.Regexp, t string) string {
	return re.ReplaceAllStringFunc(t, func(m string) string {
		sub := re.FindStringSubmatch(m)
		if !assignedSecret(sub[2], sub[3]) {
			return m
		}
		return sub[1] + Masked
	})
}

// envJSON is one variable's assignment as a JSON string of its own, as
// a container's environment is listed by `podman inspect` and `docker
// inspect` (Config.Env: ["DB_PASSWORD=…", …]), and as its CreateCommand
// holds the argument that gave it, `--env=NAME=…` or `-e=NAME=…` when
// written so: the string opens after a blank, "[" or ",", and its value
// runs, escapes and all, to the string's closing quote. Its groups: what
// is kept (the opening, the option and NAME=), the name, and the value.
var envJSON = regexp.MustCompile(`((?:^|[\[,\s])"(?:--env=|-e=)?([A-Za-z_][A-Za-z0-9_]*)=)((?:[^"\\\n]|\\.)*)"`)

// envList is a list of assignments as Go prints a container's Config.Env
// (`podman inspect --format '{{.Config.Env}}'`: [A=b DB_PASSWORD=…
// HOME=/root]), from its "[" to the line's last "]"; envListed is one
// assignment in it, after a blank or the "[", its value to the next
// blank, "]" or quote. A value holding one of those is cut there: that
// form cannot say where such a value ends. Only such a list is read so:
// a blank before NAME=… elsewhere (a script's `echo TOKEN=…`) is no
// environment. envListed's groups are envJSON's.
var (
	envList   = regexp.MustCompile(`\[[A-Za-z_][A-Za-z0-9_]*=[^\n]*\]`)
	envListed = regexp.MustCompile(`((?:[ \t\[])([A-Za-z_][A-Za-z0-9_]*)=)([^\s\]"]*)`)
)

// argvOption is a command-line option given its value after "=", where a
// process's arguments are listed: `--NAME=VALUE` (or `-DNAME=VALUE`, a
// JVM's property) after a NUL byte (/proc/PID/cmdline) or a blank (ps -o
// args). Its groups: what is kept (the separator, the option and its =),
// the option's name, and the value.
var argvOption = regexp.MustCompile(`((?:^|[\x00 \t])--?([A-Za-z][A-Za-z0-9_.-]*)=)([^\x00\s]*)`)

// ArgvOptions is t with the value of every command-line option whose name
// says it holds a secret (NamedSecret, its dashes and dots read as
// underscores: --db-password as DB_PASSWORD) masked, the option kept,
// under the rule EnvAssignments keeps: at least MinDerived bytes and no
// path. The value is the option's after "=", or, in NUL-ended arguments,
// the argument after `--NAME` or `-NAME` (keytool's `-storepass PW`, a
// Java service's /proc/PID/cmdline read by a chart that lists which
// processes run with a retired flag, stood whole: wave-jks' design
// question). A chart listing which processes run with a
// retired flag read /proc/PID/cmdline, and a service started with
// --db-password=… stood in the record whole. Idempotent.
//
//	mysqld␀--db-password=hunter2pw␀    mysqld␀--db-password=***␀
//	vault␀--token␀hvs.CAESIJabc␀       vault␀--token␀***␀
//	keytool␀-storepass␀changeit␀       keytool␀-storepass␀***␀
//	sort --key=2                       as it is (under MinDerived)
//	app --key-file=/etc/app/key.pem    as it is (a path's name)
func ArgvOptions(t string) string {
	if !strings.Contains(t, "-") {
		return t
	}
	t = argvOption.ReplaceAllStringFunc(t, func(m string) string {
		sub := argvOption.FindStringSubmatch(m)
		if !argvSecret(sub[2], sub[3]) {
			return m
		}
		return sub[1] + Masked
	})
	if !strings.Contains(t, "\x00-") {
		return t
	}
	args := strings.Split(t, "\x00")
	for i := 0; i+1 < len(args); i++ {
		// --token, and keytool's and openssl's single dash (-storepass)
		name := strings.TrimPrefix(strings.TrimPrefix(args[i], "-"), "-")
		if len(name) < len(args[i]) && name != "" && !strings.Contains(name, "=") && argvSecret(name, args[i+1]) {
			args[i+1] = Masked
		}
	}
	return strings.Join(args, "\x00")
}

// argvSecret says whether a setting named name (an option, a config
// file's key) holds value as a secret.
func argvSecret(name, value string) bool {
	return assignedSecret(optionWords.Replace(name), value)
}

// assignedSecret says whether a variable named name holds value as a
// secret: its name says so, and the value is at least MinDerived bytes
// and no path (a key file's name).
func assignedSecret(name, value string) bool {
	return NamedSecret(name) && len(value) >= MinDerived && !isPath(value)
}

// optionWords reads an option's name as a variable's: --db-password as
// DB_PASSWORD, -Dapp.db.password as APP_DB_PASSWORD.
var optionWords = strings.NewReplacer("-", "_", ".", "_")
