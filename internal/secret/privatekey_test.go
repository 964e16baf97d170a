package secret_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/internal/secret"
)

// TestPrivateKeyMaterialIsMasked: a private key is a secret by its form,
// held by no Set: PEM blocks of any private-key label, whole, JSON-escaped,
// cut at either end, and the private numbers of `openssl pkey -text`, are
// masked between what stays (the armour, the public numbers); a
// certificate is kept whole, and a text masked once is masked again
// unchanged (wave-pki: a folder of HAProxy PEMs put the key in the record).
func TestPrivateKeyMaterialIsMasked(t *testing.T) {
	t.Parallel()
	const body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nQ2xvc2VUaGVEb29yQmVoaW5kWW91"
	cert := "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n"
	tests := []struct{ name, in, want string }{
		{"pem", "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n",
			"-----BEGIN PRIVATE KEY-----\n***\n-----END PRIVATE KEY-----\n"},
		{"certificate and key in one file", cert + "-----BEGIN RSA PRIVATE KEY-----\r\n" + body + "\r\n-----END RSA PRIVATE KEY-----\r\n",
			cert + "-----BEGIN RSA PRIVATE KEY-----\r\n***\r\n-----END RSA PRIVATE KEY-----\r\n"},
		{"two keys", "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\nx\n-----BEGIN ENCRYPTED PRIVATE KEY-----\nBBBB\n-----END ENCRYPTED PRIVATE KEY-----",
			"-----BEGIN EC PRIVATE KEY-----\n***\n-----END EC PRIVATE KEY-----\nx\n-----BEGIN ENCRYPTED PRIVATE KEY-----\n***\n-----END ENCRYPTED PRIVATE KEY-----"},
		{"json-escaped", `{"key":"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\n"}`,
			`{"key":"-----BEGIN OPENSSH PRIVATE KEY-----\n***\n-----END OPENSSH PRIVATE KEY-----\n"}`},
		{"joined by echo", "-----BEGIN PRIVATE KEY----- MIIE QUFB -----END PRIVATE KEY-----",
			"-----BEGIN PRIVATE KEY----- *** -----END PRIVATE KEY-----"},
		{"cut after its begin", "ok\n-----BEGIN PRIVATE KEY-----\n" + body[:30] + "…",
			"ok\n-----BEGIN PRIVATE KEY-----\n***"},
		{"a tail that begins inside it", body[20:] + "\n-----END PRIVATE KEY-----\n",
			"***\n-----END PRIVATE KEY-----\n"},
		{"pkey -text", "Private-Key: (256 bit)\npriv:\n    d7:c2:1a:70:be:a6:fa:97:0f:b8:4f:84:f4:a4:38:\n    48:4e\npub:\n    04:93:1a\nASN1 OID: prime256v1\n",
			"Private-Key: (256 bit)\npriv:\n    ***\npub:\n    04:93:1a\nASN1 OID: prime256v1\n"},
		{"rsa -text", "Private-Key: (2048 bit, 2 primes)\nmodulus:\n    00:c4:11\npublicExponent: 65537 (0x10001)\nprivateExponent:\n    1f:22\nprime1:\n    00:e1\ncoefficient:\n    3a:4b\n",
			"Private-Key: (2048 bit, 2 primes)\nmodulus:\n    00:c4:11\npublicExponent: 65537 (0x10001)\nprivateExponent:\n    ***\nprime1:\n    ***\ncoefficient:\n    ***\n"},
		{"a legacy encrypted key's headers", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,5D3A0C\n\nQUFBQUFB\n-----END RSA PRIVATE KEY-----\n",
			"-----BEGIN RSA PRIVATE KEY-----\n***\n-----END RSA PRIVATE KEY-----\n"},
		{"grep's BEGIN lines, one a file", "/etc/ssl/a.pem:1:-----BEGIN PRIVATE KEY-----\n/etc/ssl/b.key:1:-----BEGIN RSA PRIVATE KEY-----\n/etc/ssl/c.pem:28:-----BEGIN PRIVATE KEY-----\n",
			"/etc/ssl/a.pem:1:-----BEGIN PRIVATE KEY-----\n/etc/ssl/b.key:1:-----BEGIN RSA PRIVATE KEY-----\n/etc/ssl/c.pem:28:-----BEGIN PRIVATE KEY-----\n"},
		{"grep's armour lines", "a.pem:-----BEGIN PRIVATE KEY-----\na.pem:-----END PRIVATE KEY-----\n",
			"a.pem:-----BEGIN PRIVATE KEY-----\na.pem:-----END PRIVATE KEY-----\n"},
		{"a key cut, then other lines", "-----BEGIN PRIVATE KEY-----\n" + body + "\nwriting RSA key done.\n",
			"-----BEGIN PRIVATE KEY-----\n***\nwriting RSA key done.\n"},
		{"grep -A's context lines", "/etc/ssl/my-site.pem:-----BEGIN PRIVATE KEY-----\n/etc/ssl/my-site.pem-MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n/etc/ssl/my-site.pem-QUFB\n/etc/ssl/my-site.pem:-----END PRIVATE KEY-----\n",
			"/etc/ssl/my-site.pem:-----BEGIN PRIVATE KEY-----\n***\n/etc/ssl/my-site.pem:-----END PRIVATE KEY-----\n"},
		{"grep's BEGIN line, then a key", "x.pem:-----BEGIN PRIVATE KEY-----\n-----BEGIN RSA PRIVATE KEY-----\nQUFBQUFB\n-----END RSA PRIVATE KEY-----\n",
			"x.pem:-----BEGIN PRIVATE KEY-----\n-----BEGIN RSA PRIVATE KEY-----\n***\n-----END RSA PRIVATE KEY-----\n"},
		{"certificate alone", cert, cert},
		{"public key", "-----BEGIN PUBLIC KEY-----\nMFkwEwYH\n-----END PUBLIC KEY-----\n", "-----BEGIN PUBLIC KEY-----\nMFkwEwYH\n-----END PUBLIC KEY-----\n"},
		{"words", "the private key does not match", "the private key does not match"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := secret.PrivateKeys(tc.in)
			if got != tc.want {
				t.Fatalf("PrivateKeys(%q)\n= %q\nwant %q", tc.in, got, tc.want)
			}
			if again := secret.PrivateKeys(got); again != got {
				t.Errorf("masked twice: %q", again)
			}
			if shown := secret.New().Text(tc.in); shown != tc.want {
				t.Errorf("Set.Text = %q", shown)
			}
			var zero secret.Set
			if shown := zero.Text(tc.in); shown != tc.want {
				t.Errorf("the zero Set's Text = %q", shown)
			}
			if streamed := string(secret.MaskStream([]byte(tc.in), nil, 0, len(tc.in))); streamed != tc.want {
				t.Errorf("MaskStream = %q", streamed)
			}
			if strings.Contains(got, "QUFB") || strings.Contains(got, "d7:c2") || strings.Contains(got, "1f:22") || strings.Contains(got, "Q2xvc2") {
				t.Errorf("key material left: %q", got)
			}
		})
	}
}

// TestPrivateKeyDERIsTold: a private key or a store of keys in DER is told
// from a certificate, a public key and text: PKCS#1, PKCS#8 and SEC1 keys
// are a SEQUENCE whose first element is a version INTEGER, an encrypted
// PKCS#8 key a SEQUENCE and an OCTET STRING; a certificate's first element
// is a SEQUENCE, a public key's second a BIT STRING (wave-pki: an EC key
// read as a file not UTF-8 had its 32 private bytes quoted in the standing
// line).
func TestPrivateKeyDERIsTold(t *testing.T) {
	t.Parallel()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sec1, _ := x509.MarshalECPrivateKey(ec)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(ec)
	pub, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(0x1E10), Subject: pkix.Name{CommonName: "t"}, NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<32, 0)}
	cert, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &ec.PublicKey, ec)
	if err != nil {
		t.Fatal(err)
	}
	encrypted, _ := asn1.Marshal(struct {
		Alg  pkix.AlgorithmIdentifier
		Data []byte
	}{pkix.AlgorithmIdentifier{Algorithm: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}}, []byte("ciphertext")})
	tests := []struct {
		name string
		b    []byte
		key  bool
	}{
		{"SEC1 EC key", sec1, true},
		{"PKCS#8 key", pkcs8, true},
		{"PKCS#8 key and a newline", append(append([]byte{}, pkcs8...), '\n'), true},
		{"encrypted PKCS#8 key", encrypted, true},
		{"certificate", cert, false},
		{"public key", pub, false},
		{"cut key", sec1[:len(sec1)-3], false},
		{"text", []byte("0\n"), false},
		{"empty", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := secret.PrivateKeyDER(tc.b); got != tc.key {
				t.Errorf("PrivateKeyDER = %v, want %v", got, tc.key)
			}
		})
	}
}

// TestPrivateKeysReadsManyBeginLinesOnce: a text of many BEGIN lines and
// no END (grep -rn's, a megabyte of it) was read from each BEGIN to the
// text's end, twice: 20 000 lines took past 500 seconds, a run stuck at a
// command that had long exited. Each BEGIN now reads the key lines after
// it and the line after them, so the whole is read once.
func TestPrivateKeysReadsManyBeginLinesOnce(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for range 5000 {
		b.WriteString("/etc/ssl/some/long/path/file.pem:1:-----BEGIN RSA PRIVATE KEY-----\n")
	}
	text := b.String()
	done := make(chan string, 1)
	go func() { done <- secret.PrivateKeys(text) }()
	select {
	case got := <-done:
		if got != text {
			t.Errorf("grep's lines were changed")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("5000 BEGIN lines took past 20 seconds")
	}
}
