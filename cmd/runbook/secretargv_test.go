package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretInputOnTheCommandLineIsWarnedOf: a FreeRADIUS check given its
// shared secret as --input secret=… ran with no word of it (wave-radius),
// though runbook's own argv held the secret while the run lasted, where
// ps shows it to every user of the host. A run warns of each secret input
// so given, naming the --inputs file that keeps it out of argv and never
// the value; one given in a file, and an input that is no secret, are
// not warned of.
func TestSecretInputOnTheCommandLineIsWarnedOf(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := `version: 1
runbook: sec
inputs:
  token: {type: string, secret: true, required: true}
  host: {type: string, default: localhost}
stages:
  - id: s
    exec:
      shell: 'test -n "$T" && echo ok'
      envFrom: {T: token}
`
	if err := os.WriteFile(filepath.Join(dir, "chart.yaml"), []byte(chart), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secrets.json"), []byte(`{"token": "hunter2secret"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	const warning = `--input token=… puts the secret input "token" in runbook's own argv`
	r := runCLI(t, dir, "exec", "chart.yaml", "--input", "token=hunter2secret", "--input", "host=db-1")
	if !strings.Contains(r.stderr, warning) || !strings.Contains(r.stderr, "--inputs file") {
		t.Errorf("no warning of the secret in argv:\n%s", r.stderr)
	}
	if strings.Count(r.stderr, "runbook: warning:") != 1 || strings.Contains(r.stderr, "hunter2secret") || strings.Contains(r.stdout, "hunter2secret") {
		t.Errorf("want one warning and no value shown:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	r = runCLI(t, dir, "exec", "chart.yaml", "--inputs", "secrets.json", "--input", "host=db-1")
	if strings.Contains(r.stderr, "argv") {
		t.Errorf("a secret given in a file is warned of:\n%s", r.stderr)
	}
}
