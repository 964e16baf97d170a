package secret_test

import (
	"testing"

	"github.com/openrunbook/runbook/internal/secret"
)

// A secret's text in the other case is masked when it is long enough to
// be no ordinary word: a stage plugin's error quoting the token it
// upper-cased (`auth failed for token HUNTER2SECRET99`) reached the run's
// error, the record and the terminal in the clear. A secret of letters
// alone is a word, whose other case is not held.
func TestCaseVariantsOfASecretAreMasked(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add("Hunter2Secret99")
	s.Add("Ab1x")     // shorter than MinDerived: its other case is not held
	s.Add("postgres") // letters alone: a word, whose other case tools print
	for _, tc := range []struct{ in, want string }{
		{"auth failed for token HUNTER2SECRET99", "auth failed for token ***"},
		{"key hunter2secret99 refused", "key *** refused"},
		{`{"t":"HUNTER2SECRET99"}`, `{"t":"***"}`},
		{"AB1X and ab1x", "AB1X and ab1x"},
		{"Ab1x", "***"},
		{"POSTGRES_USER=app", "POSTGRES_USER=app"},
	} {
		if got := s.Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
