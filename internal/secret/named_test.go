package secret

import (
	"strings"
	"testing"
)

func TestNamedSecret(t *testing.T) {
	for name, want := range map[string]bool{
		"VAULT_TOKEN": true, "GITHUB_TOKEN": true, "AWS_SECRET_ACCESS_KEY": true,
		"AWS_SESSION_TOKEN": true, "MYSQL_PWD": true, "PGPASSWORD": true,
		"STRIPE_API_KEY": true, "DB_PASSWD": true, "gpg_passphrase": true,
		"NPM_APIKEY": true, "client_secret": true,
		"DB_PASS": true, "smtp_pass": true, "SSHPASS": true,
		"REDISCLI_AUTH": true, "BASIC_AUTH": true, "AUTH_METHOD": false, "AUTH_TYPE": false,
		"PWD": false, "OLDPWD": false, "VAULT_TOKEN_FILE": false,
		"AWS_ACCESS_KEY_ID": false, "SSH_AUTH_SOCK": false, "KUBECONFIG": false,
		"https_proxy": false, "HOME": false, "PASSWORD_PATH": false,
		"TOKENIZER": false, "KEYBOARD": false, "SECRETARY": false,
		"PASSENGER_ROOT": false, "PROXY_BYPASS": false, "COMPASS": false,
		"STOREPASS": true, "keypass": true, "TRUSTSTOREPASS": true, "SRCSTOREPASS": true,
		"STOREPASS_FILE": false, "KEYSTORE_TYPE": false,
	} {
		if got := NamedSecret(name); got != want {
			t.Errorf("NamedSecret(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestInheritedVariableNamedSecretIsMasked: a chart that passes VAULT_TOKEN
// on by inheritEnv: gave `vault token lookup` the runner's token, which it
// prints, and the record kept it; a value the name says is a secret is
// masked whole, a path or a short dev token is not, and a URL's password
// is masked as before.
func TestInheritedVariableNamedSecretIsMasked(t *testing.T) {
	s := New()
	s.AddInherited("VAULT_TOKEN", "hvs.CAESIJtokenbody")
	s.AddInherited("GOOGLE_APPLICATION_CREDENTIALS_TOKEN", "/etc/gcp/key.json")
	s.AddInherited("DEV_TOKEN", "root")
	s.AddInherited("KUBECONFIG", "/home/ops/.kube/config")
	s.AddInherited("https_proxy", "http://ops:pr0xy-Pa55@proxy:3128")
	out := s.Text("id hvs.CAESIJtokenbody policies [root] cfg /home/ops/.kube/config /etc/gcp/key.json via http://ops:pr0xy-Pa55@proxy:3128")
	for _, leak := range []string{"hvs.CAESIJtokenbody", "pr0xy-Pa55"} {
		if strings.Contains(out, leak) {
			t.Errorf("masked text holds %q: %s", leak, out)
		}
	}
	for _, kept := range []string{"[root]", "/home/ops/.kube/config", "/etc/gcp/key.json", "http://ops:"} {
		if !strings.Contains(out, kept) {
			t.Errorf("masked text lost %q, no secret: %s", kept, out)
		}
	}
}

// TestInheritedSecretStartingWithASlashIsMasked: a value under a secret's
// name starting with "/" was taken for a path and left unmasked, and one
// base64 key in 64 starts so: BACKUP_KEY="/k9Qz8Lr2…" stood whole in the
// record. A path is one whose first folder is there; and DB_PASS and
// SSHPASS, the names admins give a password, said no secret.
func TestInheritedSecretStartingWithASlashIsMasked(t *testing.T) {
	s := New()
	s.AddInherited("BACKUP_KEY", "/k9Qz8Lr2Tx7Vb4Nm1Ps6Wd3Yf0Hg5Jc")
	s.AddInherited("DB_PASS", "Sup3rS3cretDb")
	s.AddInherited("SSHPASS", "SshPa55word")
	s.AddInherited("TLS_KEY", "/etc/ssl/private/host.key")
	out := s.Text("b=/k9Qz8Lr2Tx7Vb4Nm1Ps6Wd3Yf0Hg5Jc d=Sup3rS3cretDb s=SshPa55word k=/etc/ssl/private/host.key")
	for _, leak := range []string{"k9Qz8Lr2", "Sup3rS3cretDb", "SshPa55word"} {
		if strings.Contains(out, leak) {
			t.Errorf("masked text holds %q: %s", leak, out)
		}
	}
	if !strings.Contains(out, "/etc/ssl/private/host.key") {
		t.Errorf("masked text lost a path, no secret: %s", out)
	}
}

// TestSecretAsBashQuotesItIsMasked: bash prints a value holding a quote
// in its own quoting under `set -x` and printf %q; the masker held the
// text only as written, and a traced script's stderr showed an inherited
// DB_PASSWORD (or a secret input given by envFrom:) in the text output and
// the record.
func TestSecretAsBashQuotesItIsMasked(t *testing.T) {
	s := New()
	s.AddInherited("DB_PASSWORD", `it's a "secret" pw`)
	s.Add(`p@ss:w0rd!#$%^&*()=+,.<>/?;~`)
	for _, line := range []string{
		`+ true 'it'\''s a "secret" pw'`,
		`+ echo '{"p": "it'\''s a "secret" pw"}'`,
		`it\'s\ a\ \"secret\"\ pw`,
		`p@ss:w0rd\!#\$%\^\&\*\(\)=+\,.\<\>/\?\;~`,
	} {
		if out := s.Text(line); strings.Contains(out, "secret") || strings.Contains(out, "w0rd") {
			t.Errorf("masked text holds the secret: %s", out)
		}
	}
}
