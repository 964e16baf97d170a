package secret

import (
	"strings"
	"testing"
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

// TestPiecesOfALongTextInTime: a question listing many files is read
// whole, its one piece of a secret masked and the rest left as it was
// (its time is BenchmarkPiecesOfALongText's: a piece is never longer than
// a secret, and a place that begins none costs one look-up).
func TestPiecesOfALongTextInTime(t *testing.T) {
	s := New()
	s.Add("Walrus-Key-77xq")
	long := strings.Repeat("/var/crash/core.12345 ", 20000) + "ending y-77xq"
	got := s.Pieces(long)
	if !strings.HasSuffix(got, "ending ***") {
		t.Errorf("the piece at the end was not masked: …%s", got[len(got)-20:])
	}
	if got[:len(long)-len("ending y-77xq")] != long[:len(long)-len("ending y-77xq")] {
		t.Errorf("the listing before the piece was changed")
	}
}

// BenchmarkPiecesOfALongText is how long Pieces takes over a 440 kB
// listing holding one piece of a secret at its end (its speed, asserted
// by a timer in TestPiecesOfALongTextInTime before, failed that test on
// a loaded machine: a place that begins no piece costs one look-up).
func BenchmarkPiecesOfALongText(b *testing.B) {
	s := New()
	s.Add("Walrus-Key-77xq")
	long := strings.Repeat("/var/crash/core.12345 ", 20000) + "ending y-77xq"
	for b.Loop() {
		s.Pieces(long)
	}
}
