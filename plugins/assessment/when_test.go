package assessment

import (
	"strings"
	"testing"
)

func TestSaid(t *testing.T) {
	t.Parallel()
	// Every mode × every standing; the zero mode and an unknown one read
	// as always.
	want := map[When]map[Standing]bool{
		Always:           {Ask: true, NotSure: true, Known: true, Consistent: true, NotAssessed: true},
		UnlessConsistent: {Ask: true, NotSure: true, Known: true, Consistent: false, NotAssessed: true},
		NotSureOrAsk:     {Ask: true, NotSure: true, Known: false, Consistent: false, NotAssessed: false},
		"":               {Ask: true, NotSure: true, Known: true, Consistent: true, NotAssessed: true},
		"sometimes":      {Ask: true, NotSure: true, Known: true, Consistent: true, NotAssessed: true},
	}
	for when, row := range want {
		for _, st := range Standings() {
			t.Run(string(when)+"/"+string(st), func(t *testing.T) {
				t.Parallel()
				if got := Said(when, st); got != row[st] {
					t.Errorf("Said(%q, %q) = %v, want %v", when, st, got, row[st])
				}
			})
		}
	}
}

func TestParseWhen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want When
		ok   bool
	}{
		{"", Always, true},
		{"always", Always, true},
		{"unless-consistent", UnlessConsistent, true},
		{"not-sure-or-ask", NotSureOrAsk, true},
		{"Always", "", false},
		{"never", "", false},
		{" always", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseWhen(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Fatalf("ParseWhen(%q) = %q, %v", tc.in, got, err)
			}
			if err != nil {
				for _, mode := range []string{"always", "unless-consistent", "not-sure-or-ask", tc.in} {
					if !strings.Contains(err.Error(), mode) {
						t.Errorf("error %q does not name %q", err, mode)
					}
				}
			}
		})
	}
}
