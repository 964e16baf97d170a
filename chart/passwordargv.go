package chart

import (
	"path/filepath"
	"strings"
)

// passwordOptionIn is the option by which argv gives its program a
// password as an argument, written as the chart wrote it ("" when it
// gives none): the options of the clients that take a password only in
// argv or in a file (passwordFromFile says how to give it out of argv),
// and sshpass's, MySQL's and curl's. An option that asks for the password
// instead (ldapsearch -W, mysql -p alone, curl -u NAME) gives none.
func passwordOptionIn(argv []string) string {
	if len(argv) < 2 {
		return ""
	}
	base := filepath.Base(argv[0])
	args := argv[1:]
	// short is a one-letter option taking the password next or glued on
	// (-w PW, -wPW); long, a long one taking it next or after = .
	given := func(short, long string) string {
		for i, a := range args {
			switch {
			case short != "" && a == short && i+1 < len(args),
				long != "" && a == long && i+1 < len(args):
				return a
			case short != "" && len(a) > 2 && strings.HasPrefix(a, short) && !strings.HasPrefix(a, "--"):
				return short
			case long != "" && strings.HasPrefix(a, long+"="):
				return long
			}
		}
		return ""
	}
	switch {
	case openLDAPClients[base]:
		// -w in a group, after options that take no value (-xw PW)
		return grouped(args, "bDeEfHhloOpPRsSTUwXyYz", "w", nil)
	case base == "squidclient":
		return given("-w", "")
	case mosquittoClients[base]:
		return given("-P", "--pw")
	case base == "sshpass":
		// sshpass's own options end at the command it runs: `sshpass -e
		// ssh -p 2222 host` gives ssh a port, not sshpass a password
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-p" && i+1 < len(args), len(a) > 2 && strings.HasPrefix(a, "-p"):
				return "-p"
			case a == "-f" || a == "-d" || a == "-P":
				i++
			case !strings.HasPrefix(a, "-"):
				return ""
			}
		}
	case mysqlClients[base]:
		// -p alone asks a terminal; the password is only ever glued on
		for _, a := range args {
			if len(a) > 2 && strings.HasPrefix(a, "-p") {
				return "-p"
			}
			if strings.HasPrefix(a, "--password=") {
				return "--password"
			}
		}
	case base == "curl":
		// NAME:PW after -u or -U (--proxy-user), alone or at the end of a
		// group (-fsSu NAME:PW); `-u :` is Kerberos' or NTLM's, no
		// password; and a URL's user:password@
		userPass := func(v string) bool { return strings.Contains(v, ":") && v != ":" }
		long := map[string]string{"--user": "-u", "--proxy-user": "-U"}
		for i, a := range args {
			name, v, set := strings.Cut(a, "=")
			if opt, ok := long[name]; ok && (set && userPass(v) || !set && i+1 < len(args) && userPass(args[i+1])) {
				return opt
			}
			if urlPassword.MatchString(a) {
				return "user:password@ in the URL"
			}
		}
		return grouped(args, "AbcCdDeEFHKmoPQrTtuUwxXyYz", "uU", userPass)
	}
	return ""
}

// grouped is the option among pass (each a letter) by which args give a
// password, written alone or in a group of one-letter options
// (`-fsSu NAME:PW`, `-xw PW`), its value glued on or next; values are
// the letters that take a value, which end a group. ok judges the value
// (nil: any). "" when none does.
func grouped(args []string, values, pass string, ok func(string) bool) string {
	for i, a := range args {
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if strings.IndexByte(values, c) < 0 {
				continue
			}
			if strings.IndexByte(pass, c) >= 0 {
				v := a[j+1:]
				if v == "" && i+1 < len(args) {
					v = args[i+1]
				} else if v == "" {
					break
				}
				if ok == nil || ok(v) {
					return "-" + string(c)
				}
			}
			break // the rest of the group is its value
		}
	}
	return ""
}

// mysqlClients are MySQL's and MariaDB's clients, which take a password
// glued to -p or after --password=.
var mysqlClients = map[string]bool{
	"mysql": true, "mysqladmin": true, "mysqldump": true, "mysqlcheck": true, "mysqlshow": true,
	"mariadb": true, "mariadb-admin": true, "mariadb-dump": true, "mariadb-check": true, "mariadb-show": true,
}

// PasswordOptionInArgv is the note for an exec that gives a client its
// password in argv, written in the chart or a template's value ("" for
// none): `[squidclient, -w, cachemgrpw, mgr:info]`, `ldapsearch -x -D
// cn=admin,… -w adminpw`, `mosquitto_sub -P pw`, `sshpass -p pw ssh …`,
// `mysql -pPW`, `curl -u user:pw`. argv is what ps shows every user of
// the host, and the record keeps it as the run rendered it: such a chart
// ran Consistent with the password in the record and nothing said
// (wave-proxy's design question). A template of a secret: true input is
// refused at load (checkTemplateSecrets, checkShellSecrets); this is the
// password the chart holds itself. The advice is passwordFromFile's
// where the client reads a password from a file alone.
//
//	[squidclient, -w, PW, mgr:info]            noted
//	shell: ldapsearch -x -w "$PW" -b …         noted ($PW is no secret input's, or load refused it)
//	[ldapsearch, -x, -y, /dev/stdin, …]         not noted
//	[mysql, -p, -e, "select 1"]                not noted (-p alone asks)
//	[curl, -u, monitor, …]                     not noted (no password given)
func (e *ExecSpec) PasswordOptionInArgv() string {
	return e.noteOfEachCommand(func(argv []string) string {
		opt := passwordOptionIn(argv)
		if opt == "" {
			return ""
		}
		prog := filepath.Base(argv[0])
		say := "it gives " + prog + " a password in its argv (" + opt + "), where ps shows it to every user of the host and the record keeps it as the run rendered it, a password written in the chart unmasked; "
		if a, ok := passwordFromFile(prog); ok {
			return say + a.how
		}
		switch {
		case prog == "sshpass":
			return say + "give it as envFrom: {SSHPASS: password} from a secret: true input with sshpass -e, which reads it there, and the run masks it (or use a key)"
		case mysqlClients[prog]:
			return say + "give it as envFrom: {MYSQL_PWD: password} from a secret: true input, which the client reads, and the run masks it (or an option file only the run can read, --defaults-extra-file)"
		}
		return ""
	})
}
