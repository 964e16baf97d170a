package runbook_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/runbook"
)

// keyLine is a line of a private key's material: what no output may show.
const keyLine = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgS2V5TWF0ZXJpYWw"

// TestPrivateKeyReadOrPrintedIsMaskedEverywhere: a chart that reads a
// folder of PEM files, one holding a certificate and its key (HAProxy's
// form), or runs a command that prints a key (openssl rsa -check prints it
// after "RSA key ok"), put the key in the scope, the record, --format json
// and runbook explain, though no input was secret. The key's material is
// masked where the bytes are read, a file's and a command's alike; the
// armour stays, so a rule still sees that a file holds a key.
func TestPrivateKeyReadOrPrintedIsMaskedEverywhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cert := "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGVCb2R5TGluZTEwCgYIKoZIzj0EAwIw\n-----END CERTIFICATE-----\n"
	key := "-----BEGIN PRIVATE KEY-----\n" + keyLine + "\nVGhpc0lzVGhlU2Vjb25kTGluZU9mVGhlS2V5TWF0ZXJpYWxYWVo=\n-----END PRIVATE KEY-----\n"
	site := filepath.Join(dir, "certs", "site.pem")
	if err := os.MkdirAll(filepath.Dir(site), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(site, []byte(cert+key), 0o600); err != nil {
		t.Fatal(err)
	}
	src := `version: 1
runbook: keys
result: {kind: verdict/pem}
stages:
  - id: files
    read: {glob: '"certs/*.pem"'}
  - id: printed
    exec: {command: [cat, "` + site + `"]}
  - id: per
    foreach:
      items: files
      as: f
      maxBranches: 10
      stages:
        - id: v
          verdict:
            subject: f.path
            verdict: 'f.content contains "-----BEGIN PRIVATE KEY-----" ? "holds-key" : "cert-only"'
            printed: printed.stdout
`
	p := filepath.Join(dir, "chart.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := rb.Exec(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	for _, shown := range []string{string(whole), res.Record.Verdicts.Table} {
		if strings.Contains(shown, keyLine) || strings.Contains(shown, "VGhpc0lzVGhlU2Vjb25kTGluZU9m") {
			t.Fatalf("the key's material is shown:\n%s", shown)
		}
	}
	if !strings.Contains(string(whole), `-----BEGIN PRIVATE KEY-----\n***\n-----END PRIVATE KEY-----`) {
		t.Errorf("the record does not show the key masked between its armour:\n%s", whole)
	}
	if !strings.Contains(string(whole), "MIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGVCb2R5TGluZTEw") {
		t.Errorf("the certificate was masked too:\n%s", whole)
	}
	if rows := res.Record.Verdicts.Rows; len(rows) != 1 || rows[0].Values["verdict"] != "holds-key" {
		t.Errorf("rows %v: want the file judged to hold a key", rows)
	}
}

// TestDERPrivateKeyIsMaskedWhole: a chart that read a folder of key files
// (`read: {glob: …}`) met an EC key in DER, whose bytes are not UTF-8: the
// run quoted them, with Go's escapes, in the coverage item, the standing
// line and the record, and its 32 private bytes begin at the eighth. A
// command that printed one (openssl ec -outform DER) showed its last bytes
// as its stdout's tail. A key in DER is masked whole now, where it is read
// and in the tail; the ledger still says none of it was read, and a
// certificate in DER is told to be read with openssl, not iconv.
func TestDERPrivateKeyIsMaskedWhole(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalECPrivateKey(ec)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<32, 0)}
	cert, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &ec.PublicKey, ec)
	if err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(dir, "keys")
	if err := os.MkdirAll(keys, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"site.key.der": der, "site.crt.der": cert} {
		if err := os.WriteFile(filepath.Join(keys, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	src := `version: 1
runbook: der
stages:
  - id: files
    read: {glob: '"keys/*"'}
  - id: printed
    exec: {command: [cat, "` + filepath.Join(keys, "site.key.der") + `"]}
`
	p := filepath.Join(dir, "chart.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := rb.Exec(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	private, err := ec.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	for _, piece := range [][]byte{private[:8], private[12:20], private[24:]} {
		for _, shown := range []string{fmt.Sprintf("%q", piece), string(piece)} {
			shown = strings.Trim(shown, `"`)
			if strings.Contains(string(whole), shown) || strings.Contains(res.Record.Assessment.Line, shown) {
				t.Fatalf("the key's private bytes %x are shown as %s", piece, shown)
			}
		}
	}
	for _, want := range []string{"are a private key (or a store of keys) in DER", `"stdout":"***"`, `"stdoutTail":"***"`, "openssl, storeutl"} {
		if !strings.Contains(string(whole), want) {
			t.Errorf("the record does not say %s", want)
		}
	}
	if strings.Contains(string(whole), "iconv") {
		t.Errorf("a certificate in DER is told to be converted with iconv")
	}
	if res.Record.Assessment.Standing != "not-sure" {
		t.Errorf("standing %s: a file none of which was read is no answer", res.Record.Assessment.Standing)
	}
}
