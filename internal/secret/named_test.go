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
		"PWD": false, "OLDPWD": false, "VAULT_TOKEN_FILE": false,
		"AWS_ACCESS_KEY_ID": false, "SSH_AUTH_SOCK": false, "KUBECONFIG": false,
		"https_proxy": false, "HOME": false, "PASSWORD_PATH": false,
		"TOKENIZER": false, "KEYBOARD": false, "SECRETARY": false,
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
