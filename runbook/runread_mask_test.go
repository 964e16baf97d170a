package runbook_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/runbook"
)

// TestRunReadMasksKeysBeforeTheyLeave: a read: of a TLS key on a Temporal
// worker sent the key whole in the read's answer, which the workflow's
// history stores (a chart with no secret input runs with no codec); the
// record masked it, the history did not. The worker's half of a read
// masks a secret known by its form before the answer leaves it, keeping
// the armour a rule reads, and a file past the cap stays past it.
func TestRunReadMasksKeysBeforeTheyLeave(t *testing.T) {
	dir := t.TempDir()
	const material = "MC4CAQAwBQYDK2VwBCIEIJYmigA/1sVHXA5ckbvEtCZwRLnCMQRT+nCBnh3ffy33"
	key := "-----BEGIN PRIVATE KEY-----\n" + material + "\n-----END PRIVATE KEY-----\n"
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat(key, 2000) // past a 64 KiB cap, masked or not
	if err := os.WriteFile(filepath.Join(dir, "big.pem"), []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	stub, err := runbook.RunRead(context.Background(), runbook.ReadCall{Stage: "k", Glob: "*.pem", Dir: dir, MaxSize: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(stub.Files) != 2 {
		t.Fatalf("read %d files, want 2", len(stub.Files))
	}
	for _, f := range stub.Files {
		got := string(f.Content)
		if strings.Contains(got, material[:16]) {
			t.Errorf("%s: the read's answer holds the key's material", f.Path)
		}
		switch f.Path {
		case "big.pem":
			if len(f.Content) <= 64<<10 {
				t.Errorf("big.pem: %d bytes in the answer; want it still past the 65536-byte cap", len(f.Content))
			}
		default:
			if !strings.Contains(got, "-----BEGIN PRIVATE KEY-----") {
				t.Errorf("%s: %q; want the armour kept", f.Path, got)
			}
		}
	}
}
