package runbook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/runbook"
)

// TestSecretCarrierNamesWhereASecretIsHanded: what a run elsewhere
// (Temporal) asks before it stores a run's inputs: a secret input, a
// mounted chart's secret input (its value comes from a plain one of the
// chart that mounts it), and an envFrom: variable whose name says it holds
// a secret (PGPASSWORD given a plain input), which the run masks; a chart
// with none of them hands none.
func TestSecretCarrierNamesWhereASecretIsHanded(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("login.yaml", `version: 1
runbook: login
inputs:
  token: {type: string, secret: true}
stages:
  - {id: use, exec: {command: ["true"], envFrom: {T: token}}}
`)
	for _, c := range []struct{ name, src, want string }{
		{"secret.yaml", `version: 1
runbook: s
inputs:
  token: {type: string, secret: true}
stages:
  - {id: use, exec: {command: ["true"], envFrom: {T: token}}}
`, `input "token" is secret`},
		{"mounts.yaml", `version: 1
runbook: m
inputs:
  tok: {type: string}
stages:
  - {id: sub, subflow: {chart: ./login.yaml, inputs: {token: tok}}}
`, `input "token" of the chart stage "sub" mounts (./login.yaml) is secret`},
		{"named.yaml", `version: 1
runbook: n
inputs:
  pw: {type: string}
stages:
  - {id: conn, exec: {command: ["true"], envFrom: {PGPASSWORD: pw}}}
`, `stage "conn" hands its command PGPASSWORD (envFrom:)`},
		{"plain.yaml", `version: 1
runbook: p
inputs:
  host: {type: string}
stages:
  - {id: conn, exec: {command: ["true"], envFrom: {PGHOST: host, VAULT_TOKEN_FILE: host}}}
`, ""},
	} {
		rb, err := runbook.Open(write(c.name, c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := rb.SecretCarrier()
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: SecretCarrier() = %q, want %q", c.name, got, c.want)
		}
	}
}
