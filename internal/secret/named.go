package secret

import (
	"os"
	"strings"
)

// NamedSecret says whether an environment variable's name says it holds a
// secret whole: a word of it (split at '_', in any case) is TOKEN, SECRET,
// PASSWORD, PASSWD, PASSPHRASE, PASS, SSHPASS or PWD (not the shell's own
// PWD and OLDPWD, a folder) or ends in keytool's STOREPASS or KEYPASS
// (storepass, keypass, truststorepass), or it ends in KEY, APIKEY or AUTH
// (redis-cli's REDISCLI_AUTH, a password; AUTH_METHOD is no secret, and
// SSH_AUTH_SOCK ends in SOCK). A name whose last word
// says it holds where the secret is (FILE, PATH, DIR, SOCK, URL, ID) is
// not one: VAULT_TOKEN_FILE is a path, AWS_ACCESS_KEY_ID a public id.
//
//	VAULT_TOKEN, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY   secret
//	MYSQL_PWD, PGPASSWORD, STRIPE_API_KEY             secret
//	DB_PASS, SMTP_PASS, SSHPASS                       secret
//	STOREPASS, KEYPASS, TRUSTSTOREPASS                secret
//	REDISCLI_AUTH, BASIC_AUTH                         secret
//	PWD, VAULT_TOKEN_FILE, AWS_ACCESS_KEY_ID          not
//	SSH_AUTH_SOCK, KUBECONFIG, https_proxy            not
//
// The name is a guess the chart did not make, so a wrong yes costs a
// masked value and a wrong no is what the chart wrote before; a secret
// the name does not tell belongs in a `secret: true` input.
func NamedSecret(name string) bool {
	words := strings.Split(strings.ToUpper(name), "_")
	switch words[len(words)-1] {
	case "FILE", "PATH", "DIR", "SOCK", "SOCKET", "URL", "ID", "NAME", "TYPE":
		return false
	case "KEY", "APIKEY", "AUTH": // REDISCLI_AUTH: redis-cli's password
		return true
	}
	for _, w := range words {
		switch {
		case w == "TOKEN" || w == "SECRET" || w == "PASSWORD" || w == "PASSWD" || w == "PASSPHRASE":
			return true
		case strings.HasSuffix(w, "PASSWORD"): // PGPASSWORD
			return true
		case w == "PASS" || w == "SSHPASS": // DB_PASS, SMTP_PASS; sshpass -e's SSHPASS
			return true
		case strings.HasSuffix(w, "STOREPASS") || strings.HasSuffix(w, "KEYPASS"):
			// keytool's own words, which a chart names its input after:
			// storepass, keypass, srcstorepass, truststorepass
			return true
		case w == "PWD":
			return name != "PWD" && name != "OLDPWD"
		}
	}
	return false
}

// AddInherited holds what a variable a command is given by name carries
// that is a secret, the variable not being a secret input: one of the
// runner's own environment (inheritEnv:) or one a stage's envFrom:
// computes. That is the passwords in it (a proxy URL's user:PASSWORD@, a
// password= key: its host is no secret), and the value whole when its
// name says it is a secret (NamedSecret) and it is at least MinDerived
// bytes and no path (isPath). `vault token lookup` prints its token, and a
// script under `set -x` prints `curl -H 'Authorization: Bearer …'` on
// stderr; the record kept both. A shorter value (a dev server's token
// "root") is left, as a derived value that short is: masked, it would hide
// every such word of the run's output.
//
//	AddInherited("https_proxy", "http://ops:pr0xy-Pa55@proxy:3128")   holds "pr0xy-Pa55"
//	AddInherited("VAULT_TOKEN", "hvs.CAESIJ…")                         holds it whole
//	AddInherited("KUBECONFIG", "/home/ops/.kube/config")               holds nothing
func (s Set) AddInherited(name, value string) {
	if s.set == nil {
		return
	}
	if NamedSecret(name) && len(value) >= MinDerived && !isPath(value) {
		s.Add(value) // as a secret input's text, its passwords too
		return
	}
	s.addPasswords(value)
}

// isPath says whether value, a variable's whole value, is a path on this
// machine rather than a secret: it starts with "/" and its first part is a
// folder here (/etc/gcp/key.json, /run/secrets/db). A "/" alone says
// nothing: base64's alphabet holds it, and a BACKUP_KEY of
// "/k9Qz8Lr2Tx7Vb4Nm1Ps6W…" was passed on unmasked as a path, the key
// whole in the record.
// IsPath says whether value is an absolute path under a folder this
// machine has (/etc/passwd, /run/secrets/token): where a secret is, not
// the secret. An input whose default is one names a file, whatever its
// name says (chart's judgement of a template reading it).
func IsPath(value string) bool { return isPath(value) }

func isPath(value string) bool {
	rest, ok := strings.CutPrefix(value, "/")
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(rest, "/")
	if first == "" {
		return false
	}
	fi, err := os.Stat("/" + first)
	return err == nil && fi.IsDir()
}
