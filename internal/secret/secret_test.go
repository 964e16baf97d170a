package secret_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/secret"
)

// TestIssue19MaskEveryRepresentation: a secret is masked exact, JSON
// escaped, Go-quoted, inside larger text and cut at a boundary (issue #19:
// the masker knew only the exact text, so an escaped or cut secret was
// shown).
func TestIssue19MaskEveryRepresentation(t *testing.T) {
	t.Parallel()
	const sec = `pa"ss\w0rd<&>é`
	s := secret.New()
	s.Add(sec)
	jsonText, _ := json.Marshal(sec)
	tests := []struct{ name, in, want string }{
		{"exact", sec, "***"},
		{"inside", "x " + sec + " y", "x *** y"},
		{"json", "v=" + string(jsonText), `v="***"`},
		{"go-quoted", fmt.Sprintf("v=%q", sec), `v="***"`},
		{"ascii-quoted", "v=" + strings.Trim(fmt.Sprintf("%+q", sec), ""), `v="***"`},
		{"cut at end", "token " + sec[:6], "token ***"},
		{"cut before ellipsis", "token " + sec[:6] + "… more", "token ***… more"},
		{"cut json before dots", "v=" + string(jsonText)[:8] + "...", `v="***...`},
		{"cut at start", sec[5:] + " rest", "*** rest"},
		{"cut after ellipsis", "…" + sec[4:] + " rest", "…*** rest"},
		{"short piece kept", "to " + sec[:3], "to " + sec[:3]},
		{"unrelated", "nothing here", "nothing here"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := s.Text(tc.in); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestIssue19SecretObjectMembers: each string and number of a secret
// object is masked inside text; a short member only as a whole value
// (issue #19: creds.password was shown where it was read).
func TestIssue19SecretObjectMembers(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add(map[string]any{"user": "admin-x", "password": "pw-778899", "pin": 4321, "port": 22, "on": true})
	for _, in := range []string{"password pw-778899", "pin 4321", "user admin-x"} {
		if got := s.Text(in); strings.ContainsAny(got, "0123456789") && !strings.Contains(got, "***") {
			t.Errorf("Text(%q) = %q: a member is shown", in, got)
		}
	}
	if got := s.Text("port 22 of 1022"); got != "port 22 of 1022" {
		t.Errorf("a short member masked inside text: %q", got)
	}
	if !s.Whole(22) || !s.Whole(4321.0) {
		t.Error("a number member is not masked as a whole value")
	}
	if s.Whole(23) {
		t.Error("a number that is no member is masked")
	}
}

// TestIssue19DerivedValues: a value derived from a secret is held as a
// whole when it is long enough, and a short one is not held.
func TestIssue19DerivedValues(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add("hunter2-but-longer")
	if !s.Holds(map[string]any{"h": "Bearer hunter2-but-longer"}) {
		t.Fatal("Holds misses a secret inside an object")
	}
	s.Derived("HUNTER2-BUT-LONGER")
	s.Derived(18)
	if got := s.Text("x HUNTER2-BUT-LONGER y"); got != "x *** y" {
		t.Errorf("derived value not masked: %q", got)
	}
	if got := s.Text("took 18 ms"); got != "took 18 ms" {
		t.Errorf("a short derived value masked other text: %q", got)
	}
	var zero secret.Set
	if zero.Text("abc") != "abc" || !zero.Empty() || zero.Holds("abc") {
		t.Error("the zero Set masks")
	}
}

// TestIssue19NumberPrintedAsFloat: a secret number is masked as Go prints
// it as a float64 too (expr's string(73914021) is "7.3914021e+07").
func TestIssue19NumberPrintedAsFloat(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add(73914021)
	if got := s.Text("pin-7.3914021e+07-x"); got != "pin-***-x" {
		t.Errorf("Text = %q", got)
	}
}

// TestDerivedPieceOfASecretIsHeld: a derived text shorter than MinDerived
// but at least MinFragment bytes that is a piece of a held text (a split
// part, a slice) is held; a short derived text that is no piece of one is
// not (regression: split("S3cr3t-Zebra-Value", "-") showed "Zebra" and
// "Value", and token[0:5] showed "S3cr3" — with the longer part masked,
// the secret was still there to read in its pieces).
func TestDerivedPieceOfASecretIsHeld(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add("S3cr3t-Zebra-Value")
	s.Derived([]any{"S3cr3t", "Zebra", "Value"})
	s.Derived("S3cr3")
	s.Derived("Other")
	s.Derived("lue")
	got := s.Text(`parts ["S3cr3t","Zebra","Value"] sub S3cr3 other Other end lue`)
	if want := `parts ["***","***","***"] sub *** other Other end lue`; got != want {
		t.Errorf("Text = %q\nwant   %q", got, want)
	}
}

// TestSecretWithSpaceAroundOrLines: a secret string with white space
// around it (a YAML block scalar's trailing newline, a file's) is masked
// as a shell prints it stripped, and a secret of several lines (a PEM key)
// is masked line by line, as `echo $KEY` joins them with spaces
// (regression: token "Trail-Secret-Value-5\n", printed by
// t=$(printf %s "$TOKEN"); echo "[$t]", was in the record in the clear).
func TestSecretWithSpaceAroundOrLines(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add("Trail-Secret-Value-5\n")
	s.Add(map[string]any{"key": "-----BEGIN KEY-----\r\nMIIEowIBAAKCAQEA\r\n  q7Zr2pXw\r\n-----END KEY-----\n", "pin": "12\n"})
	tests := []struct{ in, want string }{
		{"[Trail-Secret-Value-5] done", "[***] done"},
		{"-----BEGIN KEY----- MIIEowIBAAKCAQEA q7Zr2pXw -----END KEY-----", "*** *** *** ***"},
		{"port 12 of 1012", "port 12 of 1012"},
	}
	for _, tc := range tests {
		if got := s.Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A key is masked where a secret's text is inside it, never for a cut
// piece: masking keys with Text took the state's key "used" for the end
// of a derived "the token … was refused" (cmd/runbook
// TestSecretNeverInAnyOutput found the state's "used" gone).
func TestKeyMasksTheSecretNotAPiece(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add("tok-9f3Kq7Zr2pXw")
	s.Derived("the token tok-9f3Kq7Zr2pXw was refused")
	for in, want := range map[string]string{
		"used":                    "used",
		"the":                     "the",
		"tok-9f3Kq7Zr2pXw":        "***",
		"id tok-9f3Kq7Zr2pXw":     "id ***",
		"tok-9f3K":                "tok-9f3K",
		"was refused and nothing": "was refused and nothing",
	} {
		if got := s.Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
	if s.Holds(map[string]any{"used": 1}) {
		t.Error(`Holds says {"used": 1} holds a secret`)
	}
}

// TestSecretInBase64IsMasked: a secret encoded as base64, alone or inside a
// longer encoded text (a Basic auth header of `user:TOKEN`, at each of the
// three places a 3-byte group can start), is masked: before, a plugin's
// error quoting the header it sent showed the token to anyone who decodes
// it, and the record kept it.
func TestSecretInBase64IsMasked(t *testing.T) {
	t.Parallel()
	const sec = "s3cr3t-Tok-9911"
	s := secret.New()
	s.Add(sec)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding} {
		for _, user := range []string{"", "u:", "us:", "use:"} {
			b64 := enc.EncodeToString([]byte(user + sec))
			got := s.Text("Authorization: Basic " + b64)
			if strings.Contains(got, b64) || len(got) > len("Authorization: Basic ")+len(b64)-len(sec) {
				t.Errorf("base64 of %q: Text = %q, the token's characters are left", user+sec, got)
			}
			if dec := decodeRest(got); strings.Contains(dec, sec[2:len(sec)-2]) {
				t.Errorf("base64 of %q: %q still decodes to the token", user+sec, got)
			}
		}
	}
	short := secret.New()
	short.Add("abcde") // under MinBase64: its base64 is not held
	if got := short.Text("id YWJjZGU="); got != "id YWJjZGU=" {
		t.Errorf("a short secret's base64 was masked: %q", got)
	}
	if got := s.Text("sha256 n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg="); strings.Contains(got, "***") {
		t.Errorf("unrelated base64 was masked: %q", got)
	}
}

// decodeRest is what a reader recovers from the base64 left after "Basic ".
func decodeRest(masked string) string {
	_, rest, _ := strings.Cut(masked, "Basic ")
	var out strings.Builder
	for _, part := range strings.Split(rest, secret.Masked) {
		b, _ := base64.RawStdEncoding.DecodeString(strings.TrimRight(part, "="))
		out.Write(b)
	}
	return out.String()
}

// TestSecretURLEscapedIsMasked: an API key with + / = in it, in the query
// or path of a request line a plugin's error quotes, was shown: the masker
// knew the key's text, not its escaped form.
func TestSecretURLEscapedIsMasked(t *testing.T) {
	t.Parallel()
	const sec = "k3y+Ab/Cd=="
	s := secret.New()
	s.Add(sec)
	for _, in := range []string{
		"GET /v1/status?key=" + url.QueryEscape(sec) + "&x=1",
		"GET /v1/keys/" + url.PathEscape(sec) + "/status",
	} {
		if got := s.Text(in); strings.Contains(got, "k3y") {
			t.Errorf("Text(%q) = %q: the key shows", in, got)
		}
	}
}

// TestHoldsReadsNoPieceAtAWholeValuesEnds: Holds, the taint test and the
// argv check, reads a piece of a secret only at a cut mark; a value that
// begins with the secret's last bytes or ends with its first is whole
// and holds nothing (regression: under "Winter-2026" every snapshot time
// "2026-12-06T…" Held the secret, so restic's whole output was a derived
// secret and every host name in it masked). Text, which masks what is
// shown and may have been cut at its ends (an output's tail), still masks
// such a piece.
func TestHoldsReadsNoPieceAtAWholeValuesEnds(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add("Winter-2026")
	for _, tc := range []struct {
		v    any
		want bool
	}{
		{"2026-12-06T09:00:00Z", false}, // begins with the secret's last four bytes
		{"report Wint", false},          // ends with its first four
		{"Winter-2026", true},
		{"pw=Winter-2026;", true},
		{"log: …2026", true}, // a piece after a cut mark
		{"Winte… more", true},
		{[]any{"2026-12-06T09:00:00Z", "web1"}, false},
		{map[string]any{"time": "2026-12-06"}, false},
	} {
		if got := s.Holds(tc.v); got != tc.want {
			t.Errorf("Holds(%#v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// TestShownTextsEndsMaskOnlyALongPiece: Text masks a piece of a secret at
// a shown text's own start or end (an output's tail may begin inside
// one), but under a password ending "2026" every restic snapshot time
// read "***-12-06T09:00:00Z", telling whoever read the table the
// password's last four bytes. A piece there is masked from
// MinEndFragment bytes; at a cut mark from MinFragment, as before.
func TestShownTextsEndsMaskOnlyALongPiece(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add("Winter-2026")
	for in, want := range map[string]string{
		"2026-12-06T09:00:00Z": "2026-12-06T09:00:00Z", // a year, not a cut
		"report Wint":          "report Wint",
		"r-2026 rest":          "*** rest", // six bytes at the start: a cut tail
		"user Winter-":         "user ***",
		"log: …2026 rest":      "log: …*** rest", // after a cut mark: four bytes
		"Wint… more":           "***… more",
		"2026":                 "***", // a whole text that is a piece
		"Winter":               "***",
	} {
		if got := s.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConnectionStringPasswordIsMasked: a chart kept a PostgreSQL
// connection URI secret (`dsn: {secret: true}`, psql "$DSN"), and psql,
// refusing it, quoted its password alone: `psql: error: invalid
// percent-encoded token: "s3c%zzretPW"`. The whole URI was held, no part
// of it, so the password stood in the script's stderr, the text output
// and the record (testdata/wave-dba/dsn.yaml). A connection string's
// password is held too, as written and decoded: a URI's userinfo (any
// scheme), and a key=value string's or a query's password=.
func TestConnectionStringPasswordIsMasked(t *testing.T) {
	t.Parallel()
	tests := []struct{ secret, shown, leak string }{
		{"postgresql://postgres:s3c%zzretPW@127.0.0.1:5499/shop", `psql: error: invalid percent-encoded token: "s3c%zzretPW"`, "s3c%zzretPW"},
		{"postgres://app:p%40ssw0rd@db:5432/app?sslmode=require", `password for "p@ssw0rd" refused`, "p@ssw0rd"},
		{"mysql://root:hunter22@db/x", "hunter22", "hunter22"},
		{"host=db port=5432 user=app password=Tr0ub4dor dbname=app", `password "Tr0ub4dor" is wrong`, "Tr0ub4dor"},
		{"host=db password='it\\'s a \\'secret\\'' dbname=app", `it's a 'secret'`, "it's a 'secret'"},
		{"postgresql://db/app?user=app&password=qwerty123", "qwerty123", "qwerty123"},
	}
	for _, tc := range tests {
		s := secret.New()
		s.Add(tc.secret)
		if got := s.Text(tc.shown); strings.Contains(got, tc.leak) {
			t.Errorf("secret %q: Text(%q) = %q, which shows %q", tc.secret, tc.shown, got, tc.leak)
		}
		if out := secret.MaskStream([]byte(tc.shown), s.Forms(), 0, len(tc.shown)); strings.Contains(string(out), tc.leak) {
			t.Errorf("secret %q: a command's output %q was captured as %q", tc.secret, tc.shown, out)
		}
	}
	s := secret.New()
	s.Add("postgresql://db:5432/app") // no password: the host is no secret of its own
	if got := s.Text("could not connect to db:5432"); got != "could not connect to db:5432" {
		t.Errorf("a URI without a password masked its parts: %q", got)
	}
}
