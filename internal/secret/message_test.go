package secret

import (
	"strings"
	"testing"
	"time"
)

// TestMessageMasksAQuotedPieceOfASecret: an error quotes the value an
// expression failed on, and a slice or a case of a secret (token[3:],
// upper(token)) was never a value the run held: `with the text
// "rus-Key-77xq"` showed twelve of its fifteen bytes. A quoted piece of
// MinFragment bytes or more is masked; a short quote ("+") and a quoted
// text that is no piece of it stay.
func TestMessageMasksAQuotedPieceOfASecret(t *testing.T) {
	s := New()
	s.Add("Walrus-Key-77xq")
	for in, want := range map[string]string{
		`a number cannot be used in "+" with the text "rus-Key-77xq" (1:11)`:      `a number cannot be used in "+" with the text "***" (1:11)`,
		`cannot parse "WALRUS-KEY-77XQ" as a number`:                              `cannot parse "***" as a number`,
		`cannot parse "lrus-Ke" as a date`:                                        `cannot parse "***" as a date`,
		`no member "hostname" in "Walrus-Key-77xq"`:                               `no member "hostname" in "***"`,
		`escaped "a \"quoted\" text" and "Key-77" after it`:                       `escaped "a \"quoted\" text" and "***" after it`,
		`the text "Key" is too short to tell anything, "abc-77xq-zz" is no piece`: `the text "Key" is too short to tell anything, "abc-77xq-zz" is no piece`,
	} {
		if got := s.Message(in); got != want {
			t.Errorf("Message(%q)\n = %q\nwant %q", in, got, want)
		}
	}
	if got := New().Message(`"rus-Key-77xq"`); got != `"rus-Key-77xq"` {
		t.Errorf("an empty set masked %q", got)
	}
}

// TestPiecesMasksEveryPieceOfASecret: a question made from a secret held
// pieces of it that no value of the run held ("y-77xq" of token[9:],
// "WALRUS" of upper(token[0:6])); each longest piece of MinFragment bytes
// or more is masked, in any case, and the words around it stay.
func TestPiecesMasksEveryPieceOfASecret(t *testing.T) {
	s := New()
	s.Add("Walrus-Key-77xq")
	for in, want := range map[string]string{
		"Rotate the key ending y-77xq (starts WALRUS)?": "Rotate the key ending *** (starts ***)?",
		"Rotate Walrus-Key-77xq now?":                   "Rotate *** now?",
		"Rotate the key ending 7xq?":                    "Rotate the key ending 7xq?",
		"Rotate the key for alice?":                     "Rotate the key for alice?",
	} {
		if got := s.Pieces(in); got != want {
			t.Errorf("Pieces(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// TestPiecesOfALongTextInTime: a question listing many files is read in
// time linear in its length: a piece is never longer than a secret.
func TestPiecesOfALongTextInTime(t *testing.T) {
	s := New()
	s.Add("Walrus-Key-77xq")
	long := strings.Repeat("/var/crash/core.12345 ", 20000) + "ending y-77xq"
	start := time.Now()
	got := s.Pieces(long)
	if !strings.HasSuffix(got, "ending ***") {
		t.Errorf("the piece at the end was not masked: …%s", got[len(got)-20:])
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Pieces of %d bytes took %s", len(long), d)
	}
}
