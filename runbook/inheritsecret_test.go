package runbook_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/runbook"
)

// TestInheritedProxyPasswordIsMasked: an exec stage that inherits a
// proxy variable (inheritEnv: [https_proxy]) gives its command the
// runner's credentials, and curl -v says so on stderr, "* Uses proxy env
// variable https_proxy == 'http://user:PASSWORD@proxy:3128'", then sends
// "Proxy-Authorization: Basic base64(user:PASSWORD)": both were kept in
// the record and printed by explain. The password a URL in an inherited
// value carries is a secret of the run, masked in every form.
func TestInheritedProxyPasswordIsMasked(t *testing.T) {
	t.Setenv("https_proxy", "http://ops:pr0xy-Pa55@127.0.0.1:3128")
	t.Setenv("RB_PLAIN", "http://127.0.0.1:3128")
	rb := parse(t, `version: 1
runbook: proxy
stages:
  - id: probe
    exec:
      shell: |
        echo "* Uses proxy env variable https_proxy == '$https_proxy'" >&2
        echo "> Proxy-Authorization: Basic $(printf ops:pr0xy-Pa55 | base64)" >&2
        echo "via $https_proxy and $RB_PLAIN"
      inheritEnv: [https_proxy, RB_PLAIN]
`)
	rec := recordOfRun(t, rb, nil)
	basic := base64.StdEncoding.EncodeToString([]byte("ops:pr0xy-Pa55"))
	for _, leak := range []string{"pr0xy-Pa55", basic} {
		if strings.Contains(rec, leak) {
			t.Errorf("the record holds the inherited proxy password as %q", leak)
		}
	}
	if !strings.Contains(rec, "http://127.0.0.1:3128") || !strings.Contains(rec, "ops:") {
		t.Errorf("what is not the password was masked too: %s", rec)
	}
}

// TestInheritedTokenIsMasked: a chart passed VAULT_TOKEN on by
// inheritEnv: and ran `vault token lookup`, which prints the token it was
// given (and a script under set -x prints the header it sends): the
// record and the run's output held the runner's token. A value whose name
// says it is a secret is masked whole, as a secret input is.
func TestInheritedTokenIsMasked(t *testing.T) {
	const token = "hvs.CAESIJ9xQ2-runner-token"
	t.Setenv("VAULT_TOKEN", token)
	rb := parse(t, `version: 1
runbook: vault
stages:
  - id: lookup
    exec:
      shell: |
        set -x
        : curl -H "X-Vault-Token: $VAULT_TOKEN" https://vault:8200/v1/auth/token/lookup-self
        printf '{"id": "%s", "policies": ["default"], "ttl": 3600}\n' "$VAULT_TOKEN"
      inheritEnv: [VAULT_TOKEN]
      parse: json
`)
	rec := recordOfRun(t, rb, nil)
	if strings.Contains(rec, token) || strings.Contains(rec, "9xQ2-runner") {
		t.Errorf("the record holds the inherited token: %s", rec)
	}
	if !strings.Contains(rec, `"ttl":3600`) || !strings.Contains(rec, "X-Vault-Token: ***") {
		t.Errorf("the record lost what is not the token: %s", rec)
	}
}

// TestEnvFromNamedSecretIsMasked: an input the chart did not mark secret,
// handed to a command as PGPASSWORD by envFrom:, stood in the clear in the
// record wherever the command printed it (and in the inputs given), where
// the same value inherited under that name was masked. A variable whose
// name says it is a secret is one, whatever its value came from.
func TestEnvFromNamedSecretIsMasked(t *testing.T) {
	const pw = "Hunter2-db-Secret"
	rb := parse(t, `version: 1
runbook: db
inputs:
  pw: {type: string}
  host: {type: string}
stages:
  - id: q
    exec:
      shell: 'echo "psql: connecting to $PGHOST with $PGPASSWORD"'
      envFrom: {PGPASSWORD: pw, PGHOST: host}
      parse: lines
`)
	rec := recordOfRun(t, rb, map[string]any{"pw": pw, "host": "db.example.org"})
	if strings.Contains(rec, pw) || strings.Contains(rec, "db-Secret") {
		t.Errorf("the record holds the password: %s", rec)
	}
	if !strings.Contains(rec, "connecting to db.example.org with ***") {
		t.Errorf("the record lost what is not the password: %s", rec)
	}
}

// TestEnvFromRedisCLIAuthIsMasked: redis-cli reads its password from
// REDISCLI_AUTH (so no -a puts it in argv, where ps shows it), and a chart
// that gave it so from an input left unmarked kept the password whole in
// the record, 7 times (the input, the script's output): the name's last
// word AUTH says it holds a secret, as PGPASSWORD's does.
func TestEnvFromRedisCLIAuthIsMasked(t *testing.T) {
	const pw = "s3cret-Redis-Pw"
	rb := parse(t, `version: 1
runbook: cache
inputs:
  pw: {type: string}
stages:
  - id: q
    exec:
      shell: 'echo "redis-cli: AUTH $REDISCLI_AUTH"'
      envFrom: {REDISCLI_AUTH: pw}
      parse: lines
`)
	rec := recordOfRun(t, rb, map[string]any{"pw": pw})
	if strings.Contains(rec, pw) || strings.Contains(rec, "Redis-Pw") {
		t.Errorf("the record holds the password: %s", rec)
	}
	if !strings.Contains(rec, "redis-cli: AUTH ***") {
		t.Errorf("the record lost what is not the password: %s", rec)
	}
}

// TestInheritedLocaleIsWarned: a stage naming LC_ALL in inheritEnv: under a
// runner's LC_ALL=de_DE.UTF-8 undid the number and time pinning in silence;
// the run warns of it, and not where the runner's value is C's.
func TestInheritedLocaleIsWarned(t *testing.T) {
	src := `version: 1
runbook: loc
stages:
  - id: p
    exec: {shell: 'true', inheritEnv: [LC_ALL]}
`
	for value, warned := range map[string]bool{"de_DE.UTF-8": true, "C.UTF-8": false} {
		t.Setenv("LC_ALL", value)
		rb := parse(t, src)
		res, err := rb.Exec(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range res.Record.Warnings {
			got = got || strings.Contains(w, "inheritEnv: passes the runner's LC_ALL="+value)
		}
		if got != warned {
			t.Errorf("LC_ALL=%s: warned %v, want %v: %q", value, got, warned, res.Record.Warnings)
		}
	}
}

// recordOfRun runs rb with given, a minute at most, and is its record's
// JSON, where every test here looks for a secret.
func recordOfRun(t *testing.T, rb *runbook.Runbook, given map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := rb.Exec(ctx, given)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
