package secret

import "testing"

// maskedByForm holds ByForm to each case: the text in, masked as want,
// masked again the same (ByForm is idempotent), and byForm, the stream's
// road, giving the same.
func maskedByForm(t *testing.T, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		got := ByForm(in)
		if got != want {
			t.Errorf("ByForm(%q) = %q, want %q", in, got, want)
		}
		if again := ByForm(got); again != got {
			t.Errorf("ByForm is not idempotent over %q: %q", got, again)
		}
		if b := string(byForm([]byte(in))); b != want {
			t.Errorf("byForm(%q) = %q, want %q", in, b, want)
		}
	}
}
