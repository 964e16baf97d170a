package secret_test

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/secret"
)

// TestPasswordHashesAreMaskedByForm: an audit chart read `getent shadow`
// to find accounts with no password, and every account's SHA-512 hash
// stood in the record's script row and in explain's "stdout ended with":
// a hash read is a password guessed offline. A crypt(3) hash is masked
// but for its scheme, by any Set, as a private key is.
func TestPasswordHashesAreMaskedByForm(t *testing.T) {
	t.Parallel()
	sha512 := "$6$rounds=5000$Qx3kP0aZ$" + strings.Repeat("9fA.", 21) + "Zz"
	yescrypt := "$y$j9T$Fq1/X2dHkO5xk3vZ$" + strings.Repeat("a", 43)
	bcrypt := "$2b$12$" + strings.Repeat("R9h/cIPz0gi.URNNX3kh2O", 2) + "PST9/PgBk"
	md5 := "$1$saltsalt$" + strings.Repeat("b", 22)
	argon := "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$" + strings.Repeat("h", 43)
	var zero secret.Set
	for in, want := range map[string]string{
		"root:" + sha512 + ":19700:0:99999:7:::": "root:$6$***:19700:0:99999:7:::",
		"ada:" + yescrypt + ":19700::":           "ada:$y$***:19700::",
		"web:" + bcrypt:                          "web:$2b$***",
		"old:!" + md5 + ":1::":                   "old:!$1$***:1::",
		`{"hash": "` + argon + `"}`:              `{"hash": "$argon2id$***"}`,
		"nobody:*:19700::":                       "nobody:*:19700::",
		"echo $1$HOME/.config/runbook/cache":     "echo $1$HOME/.config/runbook/cache",
		"awk '{print $1$2}'":                     "awk '{print $1$2}'",
	} {
		if got := zero.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		if got := secret.ByForm(secret.ByForm(in)); got != want {
			t.Errorf("ByForm twice (%q) = %q, want %q", in, got, want)
		}
	}
	out := secret.MaskStream([]byte("root:"+sha512+":19700::\n"), nil, 0, len("root:"+sha512+":19700::\n"))
	if strings.Contains(string(out), "Qx3kP0aZ") {
		t.Errorf("a captured stream kept the hash: %s", out)
	}
}

// TestMySQLPasswordHashesAreMaskedByForm: a chart listing MariaDB
// accounts with no password read mysql.user's authentication_string, and
// every mysql_native_password hash (`*` and 40 hexadecimal digits, an
// unsalted double SHA-1) stood in the record 14 times and in --format
// json. It is masked as a crypt(3) hash is, its `*` kept; the empty
// string a chart asks about is as it was, and so are 40 hexadecimal
// digits with no `*` (a commit, a SHA-1 sum) and a longer run.
func TestMySQLPasswordHashesAreMaskedByForm(t *testing.T) {
	t.Parallel()
	const h = "*70A1B5C748903CF24CE664A85283E7DCA1C88500"
	var zero secret.Set
	for in, want := range map[string]string{
		"monitor\tlocalhost\tmysql_native_password\t" + h + "\n": "monitor\tlocalhost\tmysql_native_password\t****\n",
		`[{"user": "repl", "hash": "` + h + `"}]`:                "[{\"user\": \"repl\", \"hash\": \"****\"}]",
		"ALTER USER x IDENTIFIED BY PASSWORD '" + h + "'":        "ALTER USER x IDENTIFIED BY PASSWORD '****'",
		"nopass\t%\tmysql_native_password\t\n":                   "nopass\t%\tmysql_native_password\t\n",
		"commit 70A1B5C748903CF24CE664A85283E7DCA1C88500":        "commit 70A1B5C748903CF24CE664A85283E7DCA1C88500",
		h + "FF": h + "FF",
	} {
		if got := zero.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		if got := secret.ByForm(secret.ByForm(in)); got != want {
			t.Errorf("ByForm twice (%q) = %q, want %q", in, got, want)
		}
	}
	out := secret.MaskStream([]byte("repl\t"+h+"\n"), nil, 0, len("repl\t"+h+"\n"))
	if strings.Contains(string(out), "70A1B5C7") {
		t.Errorf("a captured stream kept the hash: %s", out)
	}
}

// TestEnvironmentSecretsAreMaskedByForm: a chart asking whether a process
// runs with LD_PRELOAD read /proc/PID/environ, and the service's
// DB_PASSWORD and AWS_SECRET_ACCESS_KEY stood in the record, in explain's
// chain and in a verdict column, though the run was given no secret. A
// variable whose name says it is a secret has its value masked wherever
// an environment is listed (NUL-ended, a line, export, declare -x), its
// name kept; an id, a path, a short value and another name are left.
func TestEnvironmentSecretsAreMaskedByForm(t *testing.T) {
	t.Parallel()
	var zero secret.Set
	for in, want := range map[string]string{
		"HOME=/root\x00DB_PASSWORD=hunter2secret\x00LD_PRELOAD=/tmp/evil.so\x00":                "HOME=/root\x00DB_PASSWORD=***\x00LD_PRELOAD=/tmp/evil.so\x00",
		"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG\nAWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n": "AWS_SECRET_ACCESS_KEY=***\nAWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n",
		"export VAULT_TOKEN=hvs.CAESIJabcdef\r\n":                                               "export VAULT_TOKEN=***\r\n",
		`declare -x GITHUB_TOKEN="ghp_abcdefghijkl"` + "\n":                                     "declare -x GITHUB_TOKEN=***\n",
		"HOME=/root\x00DEPLOY_TOKEN=line-one\nline-two\x00X=1\x00":                              "HOME=/root\x00DEPLOY_TOKEN=***\x00X=1\x00",
		"PGPASSWORD=root\nPWD=/home/ops\nVAULT_TOKEN_FILE=/etc/vault/token\n":                   "PGPASSWORD=root\nPWD=/home/ops\nVAULT_TOKEN_FILE=/etc/vault/token\n",
		"net.ipv4.ip_forward = 0\nkernel.tainted = 0\n":                                         "net.ipv4.ip_forward = 0\nkernel.tainted = 0\n",
		"echo TOKEN=abcdefghij\n":                                                               "echo TOKEN=abcdefghij\n",
	} {
		if got := zero.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		if got := secret.ByForm(secret.ByForm(in)); got != want {
			t.Errorf("ByForm twice (%q) = %q, want %q", in, got, want)
		}
	}
	env := "HOME=/root\x00DB_PASSWORD=hunter2secret\x00"
	if got := string(secret.MaskStream([]byte(env), nil, 0, len(env))); got != "HOME=/root\x00DB_PASSWORD=***\x00" {
		t.Errorf("MaskStream = %q", got)
	}
}

// TestArgvSecretsAreMaskedByForm: a chart listing which processes run
// with a deprecated flag read /proc/*/cmdline, and a service started
// with --db-password=… (or vault's --token and its value, the next
// argument) stood in the record whole. An option whose name says it
// holds a secret has its value masked, the option kept; a short value, a
// path, and another name are left.
func TestArgvSecretsAreMaskedByForm(t *testing.T) {
	t.Parallel()
	var zero secret.Set
	for in, want := range map[string]string{
		"mysqld\x00--db-password=hunter2pw\x00--port=3306\x00":                               "mysqld\x00--db-password=***\x00--port=3306\x00",
		"vault\x00agent\x00--token\x00hvs.CAESIJabc\x00-v\x00":                               "vault\x00agent\x00--token\x00***\x00-v\x00",
		"/usr/bin/app --api-key=sk_live_abcdef --verbose\n":                                  "/usr/bin/app --api-key=*** --verbose\n",
		"java\x00-Dspring.datasource.password=s3cretpw\x00-jar\x00app.jar\x00":               "java\x00-Dspring.datasource.password=***\x00-jar\x00app.jar\x00",
		"py\x00--insecure\x00--db-password=hunter2secret\x00--token\x00hvs.CAESIJabcdef\x00": "py\x00--insecure\x00--db-password=***\x00--token\x00***\x00",
		"sort\x00--key=2\x00":                    "sort\x00--key=2\x00",
		"app\x00--key-file=/etc/app/key.pem\x00": "app\x00--key-file=/etc/app/key.pem\x00",
		"ls\x00--color=always\x00--\x00-x\x00":   "ls\x00--color=always\x00--\x00-x\x00",
		"keytool\x00-list\x00-storepass\x00changeit\x00-keystore\x00/etc/app/ks.jks\x00": "keytool\x00-list\x00-storepass\x00***\x00-keystore\x00/etc/app/ks.jks\x00",
		"openssl\x00s_client\x00-key\x00/etc/ssl/k.pem\x00":                              "openssl\x00s_client\x00-key\x00/etc/ssl/k.pem\x00",
		"mysql\x00-p\x00-u\x00monitor\x00":                                               "mysql\x00-p\x00-u\x00monitor\x00",
	} {
		if got := zero.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		if got := secret.ByForm(secret.ByForm(in)); got != want {
			t.Errorf("ByForm twice (%q) = %q, want %q", in, got, want)
		}
	}
	argv := "vault\x00--token\x00hvs.CAESIJabc\x00"
	if got := string(secret.MaskStream([]byte(argv), nil, 0, len(argv))); got != "vault\x00--token\x00***\x00" {
		t.Errorf("MaskStream = %q", got)
	}
}

// TestHtpasswdPasswordsAreMaskedByForm: a chart listing the users of an
// nginx auth_basic_user_file whose scheme is weak printed, in its table
// and its record, each apr1 hash (htpasswd's default, `$apr1$salt$…`),
// each unsalted {SHA} hash and each {PLAIN} password whole: only the
// crypt(3) schemes were known by form. Each is masked but for its
// scheme, so a rule can still ask which scheme a user has.
func TestHtpasswdPasswordsAreMaskedByForm(t *testing.T) {
	t.Parallel()
	var zero secret.Set
	for in, want := range map[string]string{
		"alice:$apr1$abcdefgh$aQ26yFH6V5G5PJBY/utXg/\n": "alice:$apr1$***\n",
		"bob:{SHA}8rFPaOuZX6yzocNSh7d41b14VRE=\n":       "bob:{SHA}***\n",
		"erin:{SSHA}hA0f8oP1nQ2bZy3Xv5c7d9e0fg==\n":     "erin:{SSHA}***\n",
		"carol:{PLAIN}hunter 2\ndave:x\n":               "carol:{PLAIN}***\ndave:x\n",
		`[{"user": "carol", "hash": "{PLAIN}hunter2"}]`: `[{"user": "carol", "hash": "{PLAIN}***"}]`,
		"a {SHA} word and {PLAIN} alone":                "a {SHA} word and {PLAIN}***",
		"echo $apr1$HOME":                               "echo $apr1$HOME",
	} {
		if got := zero.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		if got := secret.ByForm(secret.ByForm(in)); got != want {
			t.Errorf("ByForm twice (%q) = %q, want %q", in, got, want)
		}
	}
	out := secret.MaskStream([]byte("carol:{PLAIN}hunter2\n"), nil, 0, len("carol:{PLAIN}hunter2\n"))
	if strings.Contains(string(out), "hunter2") {
		t.Errorf("a captured stream kept the password: %s", out)
	}
}

// TestAuthorizationHeadersAreMaskedByForm: nginx -T prints the whole
// configuration, and a certificate check that read it put an upstream's
// `proxy_set_header Authorization "Basic dXNlcjpzM2NyZXQ=";` (user and
// password in base64) in the record and in explain's output. An HTTP
// Authorization header's Basic, Bearer or Token credentials are masked
// by form, the scheme kept.
func TestAuthorizationHeadersAreMaskedByForm(t *testing.T) {
	t.Parallel()
	var zero secret.Set
	for in, want := range map[string]string{
		`    proxy_set_header Authorization "Basic dXNlcjpzM2NyZXQ=";`: `    proxy_set_header Authorization "Basic ***";`,
		"> Authorization: Bearer eyJhbGciOi.eyJzdWIi.SflKxw-c_d\r\n":   "> Authorization: Bearer ***\r\n",
		"AUTHORIZATION: token ghp_abc123XYZ":                           "AUTHORIZATION: token ***",
		`{"authorization": "Basic Zm9vOmJhcg=="}`:                      `{"authorization": "Basic ***"}`,
		"WWW-Authenticate: Basic realm=\"x\"":                          "WWW-Authenticate: Basic realm=\"x\"",
		"proxy_set_header Authorization $http_authorization;":          "proxy_set_header Authorization $http_authorization;",
	} {
		if got := zero.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		if got := secret.ByForm(secret.ByForm(in)); got != want {
			t.Errorf("ByForm twice (%q) = %q, want %q", in, got, want)
		}
	}
}
