package secret

import (
	"bytes"
	"regexp"
	"strings"
)

// ByForm is t with every secret known by its form masked, whoever said
// so or not: a private key's material (PrivateKeys) and a password hash
// (PasswordHashes), an htpasswd file's {SHA}, {SSHA} and {PLAIN} forms
// (HtpasswdForms), an HTTP Authorization header's credentials
// (AuthorizationHeaders), a Redis server's password setting
// (RedisPasswords), upsmon.conf's MONITOR password
// (NUTMonitorPasswords), monitrc's allow USER:PASSWORD
// (MonitAllowPasswords), a PostgreSQL connection string's password and a
// stored password verifier (PostgresPasswords), Squid's cache manager
// password and keepalived's VRRP auth_pass (DirectivePasswords), a WireGuard private or preshared key (WireGuardKeys), and an environment variable's, a config
// setting's or a command-line option's value whose name says it is a
// secret (EnvAssignments, SpacedAssignments, ArgvOptions). It is what every road of a run's bytes into text asks
// (MaskStream, Set.Text, the runbook package's read bytes), so neither
// reaches the scope, the record or any output.
func ByForm(t string) string {
	return namedValues(MonitAllowPasswords(WireGuardKeys(DirectivePasswords(PostgresPasswords(NUTMonitorPasswords(RedisPasswords(AuthorizationHeaders(HtpasswdForms(PasswordHashes(PrivateKeys(t)))))))))))
}

// namedValues is ArgvOptions(SpacedAssignments(EnvAssignments(t))), the
// forms that mask a value by its name (NamedSecret), each a line's own:
// over a long text without NUL bytes they run on each line that could
// name a secret (mayNameSecret) and no other. Each matched every NAME=VALUE
// of a log to ask its name, and masking a 19 KB log of key=value lines
// took 3.7 ms, 5 MB/s (BenchmarkByFormOfALog); each line is masked as
// the whole text would mask it (FuzzNamedValuesLineByLine). NUL-ended records (an
// environ, a cmdline) may carry a value across a line end, and are read
// whole.
func namedValues(t string) string {
	whole := func(t string) string { return ArgvOptions(SpacedAssignments(EnvAssignments(t))) }
	if len(t) < 512 || strings.IndexByte(t, 0) >= 0 {
		if !mayNameSecret(t) {
			return t
		}
		return whole(t)
	}
	var b strings.Builder
	done := 0 // t[:done] is in b, or b is empty and nothing changed
	for start := 0; start < len(t); {
		end := strings.IndexByte(t[start:], '\n')
		if end < 0 {
			end = len(t)
		} else {
			end += start
		}
		if line := t[start:end]; mayNameSecret(line) {
			// after the first, a line is read with the line end before
			// it, as the whole text gives it: ArgvOptions' option begins
			// the text or follows a blank, never a line end
			from := start
			if start > 0 {
				from--
			}
			if m := whole(t[from:end]); m != t[from:end] {
				b.WriteString(t[done:from])
				b.WriteString(m)
				done = end
			}
		}
		start = end + 1
	}
	if done == 0 && b.Len() == 0 {
		return t
	}
	b.WriteString(t[done:])
	return b.String()
}

// mayNameSecret says whether t holds, in any case, a word every name
// NamedSecret calls a secret's holds: key, auth, token, secret, pass or
// pwd. Without one, no value in t is masked by its name.
func mayNameSecret(t string) bool {
	for i := 0; i < len(t); i++ {
		var rest string
		switch t[i] | 0x20 {
		case 'k':
			rest = "ey"
		case 'a':
			rest = "uth"
		case 't':
			rest = "oken"
		case 's':
			rest = "ecret"
		case 'p':
			if foldedAt(t, i+1, "ass") || foldedAt(t, i+1, "wd") {
				return true
			}
			continue
		default:
			continue
		}
		if foldedAt(t, i+1, rest) {
			return true
		}
	}
	return false
}

// foldedAt says whether t holds lower, a word of ASCII lower-case letters,
// at i, in any case.
func foldedAt(t string, i int, lower string) bool {
	if len(t)-i < len(lower) {
		return false
	}
	for j := 0; j < len(lower); j++ {
		if t[i+j]|0x20 != lower[j] {
			return false
		}
	}
	return true
}

// byForm is ByForm over a stream's bytes, which it returns unchanged, not
// copied, when they hold no such form.
func byForm(b []byte) []byte {
	if !bytes.Contains(b, []byte("PRIVATE KEY")) && !bytes.Contains(b, []byte("OpenVPN ")) && !bytes.Contains(b, []byte("rivate-Key")) && !bytes.Contains(b, []byte("rivate-key")) && !bytes.Contains(b, []byte("$")) &&
		!bytes.Contains(b, []byte("*")) && !bytes.Contains(b, []byte("requirepass")) && !bytes.Contains(b, []byte("masterauth")) && !bytes.Contains(b, []byte("MONITOR")) && !bytes.Contains(b, []byte("cachemgr_passwd")) && !bytes.Contains(b, []byte("auth_pass")) && !bytes.Contains(b, []byte("mgr:")) && !bytes.Contains(b, []byte("cache_object:")) &&
		!bytes.Contains(b, []byte("user ")) && !bytes.Contains(b, []byte("passwords")) && !bytes.Contains(b, []byte("llow")) && !bytes.Contains(b, []byte("LLOW")) &&
		!bytes.Contains(b, []byte("{SHA}")) && !bytes.Contains(b, []byte("{SSHA}")) && !bytes.Contains(b, []byte("{PLAIN}")) &&
		!bytes.Contains(b, []byte("uthorization")) && !bytes.Contains(b, []byte("UTHORIZATION")) &&
		!bytes.Contains(b, []byte("=")) && !bytes.Contains(b, []byte("md5")) && !bytes.Contains(b, []byte(`" `)) && !bytes.Contains(b, []byte("\"\t")) && !(bytes.Contains(b, []byte("--")) && bytes.IndexByte(b, 0) >= 0) {
		return b
	}
	return []byte(ByForm(string(b)))
}

// passwordHash is a crypt(3) password hash, as /etc/shadow, `getent
// shadow` and htpasswd files hold them: the scheme between the first two
// "$" (MD5 1, SHA-256 5, SHA-512 6 with its rounds=, yescrypt y and gy,
// bcrypt 2a/2b/2x/2y, scrypt 7, argon2, and Apache's MD5 apr1, the
// scheme `htpasswd` writes by default and nginx's auth_basic_user_file
// reads) and its salt and hash, to the
// end of its alphabet's run. The shortest lengths are each scheme's own,
// so a shell's `$1$HOME/x` is no hash.
var passwordHash = regexp.MustCompile(`\$(?:` +
	`[156]\$(?:rounds=[0-9]+\$)?[./0-9A-Za-z]{1,16}\$[./0-9A-Za-z]{22,}` +
	`|g?y\$[./0-9A-Za-z]+\$[./0-9A-Za-z]*\$[./0-9A-Za-z]{43,}` +
	`|2[abxy]\$[0-9]{2}\$[./0-9A-Za-z]{53,}` +
	`|7\$[./0-9A-Za-z]{11,}\$[./0-9A-Za-z]{43,}` +
	`|apr1\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22}` +
	`|argon2(?:id|i|d)\$v=[0-9]+\$m=[0-9]+,t=[0-9]+,p=[0-9]+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]{16,}` +
	`)`)

// mysqlHash is a mysql_native_password hash, as MySQL's and MariaDB's
// mysql.user, mysql.global_priv, SHOW GRANTS and SHOW CREATE USER print
// it: `*` and 40 upper-case hexadecimal digits (an unsalted SHA-1 of a
// SHA-1), no longer run of them after.
var mysqlHash = regexp.MustCompile(`\*[0-9A-F]{40}\b`)

// erlangCookieHash is the Erlang cookie's hash as RabbitMQ's CLI tools
// print it when they reach no node (`Erlang cookie hash:` and the base64
// of an unsalted MD5): its group is what is kept.
var erlangCookieHash = regexp.MustCompile(`(Erlang cookie hash:\s*)[A-Za-z0-9+/]{22}==`)

// PasswordHashes is t with every password hash in it masked but for its
// scheme: `root:$6$Qx…$9f…:19700:0:99999:7:::` is `root:$6$***:19700:…`.
// A hash is no password, but one read is a password guessed offline: an
// audit chart reading `getent shadow` put every account's hash in the
// record's script row and `runbook explain`'s "stdout ended with". The
// scheme is kept, so a rule can still ask which one a hash uses
// (`h startsWith "$6$"`), and a locked account's leading "!" or an
// empty field is as it was. Idempotent: a masked text is masked again
// unchanged.
//
// So is a mysql_native_password hash, but for its `*`: a chart listing
// the accounts with no password read mysql.user's authentication_string,
// and every account's hash stood in the record
// (TestMySQLPasswordHashesAreMaskedByForm); the empty string such a
// chart asks about is as it was. So is the Erlang cookie's hash in
// rabbitmqctl's reply when it reaches no node: the cookie lets whoever
// holds it run any code on every node of the cluster, and a hand-set one
// is guessed from its MD5 offline; a chart asking whether a node is
// reached kept it in the record's stderr (TestErlangCookieHashIsMaskedByForm,
// wave-mq's design question).
//
//	root:$6$rounds=5000$abc$Fh…(86)…:19700::   root:$6$***:19700::
//	web:$2b$12$R9h…(53)…                      web:$2b$***
//	repl	*3FEBEA1F…(40 hex digits)           repl	****
//	Erlang cookie hash: 9Yb…(22)…==          Erlang cookie hash: ***
//	echo $1$HOME/.config                      as it is
func PasswordHashes(t string) string {
	if strings.Contains(t, "cookie hash") {
		t = erlangCookieHash.ReplaceAllString(t, "${1}"+Masked)
	}
	if strings.Contains(t, "*") {
		t = mysqlHash.ReplaceAllString(t, "*"+Masked)
	}
	if !strings.Contains(t, "$") {
		return t
	}
	return passwordHash.ReplaceAllStringFunc(t, func(m string) string {
		scheme, _, _ := strings.Cut(m[1:], "$")
		return "$" + scheme + "$" + Masked
	})
}

// htpasswdForm is a password in an htpasswd file's other forms, as
// nginx's auth_basic_user_file reads them: `{SHA}` and `{SSHA}` and the
// base64 of an unsalted (salted) SHA-1, and `{PLAIN}` and the password
// itself, to the end of its line (or a JSON text's closing quote).
var htpasswdForm = regexp.MustCompile(`\{(?:SHA|SSHA)\}[A-Za-z0-9+/]+={0,2}|\{PLAIN\}[^\r\n"]*`)

// HtpasswdForms is t with every htpasswd {SHA}, {SSHA} and {PLAIN}
// password masked but for its scheme: `bob:{SHA}8rFP…=` is
// `bob:{SHA}***`, `carol:{PLAIN}hunter2` is `carol:{PLAIN}***`. A chart
// listing the users of an nginx auth_basic_user_file whose scheme is
// weak printed each one's password (PLAIN) or unsalted hash in its table
// and record. Idempotent.
func HtpasswdForms(t string) string {
	if !strings.Contains(t, "{SHA}") && !strings.Contains(t, "{SSHA}") && !strings.Contains(t, "{PLAIN}") {
		return t
	}
	return htpasswdForm.ReplaceAllStringFunc(t, func(m string) string {
		scheme, _, _ := strings.Cut(m, "}")
		return scheme + "}" + Masked
	})
}

// authorizationHeader is an HTTP Authorization header's Basic, Bearer or
// Token credentials, as written in a config (nginx's `proxy_set_header
// Authorization "Basic dXNl…";`, a header line `Authorization: Bearer
// eyJ…`, curl -v's `> Authorization: Basic …`): the header's name, then
// a colon, spaces or a quote, then the scheme and its credentials, the
// part masked.
var authorizationHeader = regexp.MustCompile(`(?i)(\bauthorization["']?\s*[:=]?\s*["']?\s*(?:basic|bearer|token)\s+)([A-Za-z0-9._~+/\-]+=*)`)

// AuthorizationHeaders is t with the credentials of every HTTP
// Authorization header it writes masked, its scheme kept:
// `proxy_set_header Authorization "Basic dXNlcjpzM2NyZXQ=";` is
// `proxy_set_header Authorization "Basic ***";`. `nginx -T` prints the
// whole configuration, and a certificate check reading it put the
// credentials an upstream is sent in the record and explain's output.
// Idempotent.
func AuthorizationHeaders(t string) string {
	if !strings.Contains(t, "uthorization") && !strings.Contains(t, "UTHORIZATION") {
		return t
	}
	return authorizationHeader.ReplaceAllStringFunc(t, func(m string) string {
		sub := authorizationHeader.FindStringSubmatch(m)
		if sub[2] == Masked {
			return m
		}
		return sub[1] + Masked
	})
}
