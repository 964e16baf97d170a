package rules

import (
	"strings"
	"testing"
)

// TestModeWithinReadsOctalNotDecimal: `stat -c %a` prints 604 for a
// world-readable /etc/shadow, a parse reads it as the decimal number 604,
// and `f.mode > 640` said pass, Consistent. modeWithin reads a mode's text
// bit by bit, octal digits or ls's letters, and refuses a number, which
// cannot say which of 604 and 0o604 it is.
func TestModeWithinReadsOctalNotDecimal(t *testing.T) {
	t.Parallel()
	env := mapEnv{"f": map[string]any{"mode": "604", "n": 604}}
	for _, tc := range []struct {
		expr string
		want any // a bool, or the error's words
	}{
		{`modeWithin("640", "0640")`, true},
		{`modeWithin("600", "640")`, true},
		{`modeWithin(f.mode, "640")`, false},
		{`modeWithin("0o604", "0o644")`, true},
		{`modeWithin("00640", "0640")`, true},
		{`modeWithin("4755", "0755")`, false},
		{`modeWithin("2640", "2750")`, true},
		{`modeWithin("-rw-r-----", "0640")`, true},
		{`modeWithin("-rw----r--", "0640")`, false},
		{`modeWithin("-rwsr-xr-x", "0755")`, false},
		{`modeWithin("-rwsr-xr-x", "4755")`, true},
		{`modeWithin("drwxrwxrwt", "1777")`, true},
		{`modeWithin("-rwSr--r--", "0744")`, false},
		{`modeWithin("rw-r--r--", "-rw-r--r--")`, true},
		{`modeWithin(f.n, "640")`, "is the number 604, and a number is no mode's text"},
		{`modeWithin("689", "640")`, `the mode "689" is no file mode`},
		{`modeWithin("64000", "640")`, `the mode "64000" is no file mode`},
		{`modeWithin("640", "rwx")`, `the limit "rwx" is no file mode`},
		{`modeWithin("-rwxr-xr-q", "777")`, `is no file mode`},
		{`modeWithin(nil, "640")`, "the mode is null"},
		{`modeWithin("640")`, "modeWithin takes 2 arguments"},
	} {
		v, _, err := MustCompile(tc.expr).Value(env)
		if words, ok := tc.want.(string); ok {
			if err == nil || !strings.Contains(err.Error(), words) {
				t.Errorf("%s = %v, %v; want an error saying %q", tc.expr, v, err, words)
			}
			continue
		}
		if err != nil || v != tc.want {
			t.Errorf("%s = %v, %v; want %v", tc.expr, v, err, tc.want)
		}
	}
}

// TestModeWithinReadsStatsModesUnder0100AndLsMarks: stat -c %a and find
// -printf %m write no leading zero, so RHEL's /etc/shadow, mode 0000, is
// "0", and modeWithin said `the mode "0" is no file mode`, a rule error
// over the tightest mode there is; ls -l on an SELinux host ends each
// mode in "." and the check of every file it listed could not be
// evaluated. ls's "+" (an access control list) is refused, saying why: the
// list may grant a user the letters do not name.
func TestModeWithinReadsStatsModesUnder0100AndLsMarks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		expr string
		want any // a bool, or the error's words
	}{
		{`modeWithin("0", "640")`, true},
		{`modeWithin("0", "0")`, true},
		{`modeWithin("40", "640")`, true},
		{`modeWithin("64", "640")`, false},
		{`modeWithin("6", "640")`, false},
		{`modeWithin("-rw-r-----.", "640")`, true},
		{`modeWithin("-rw-r--r--.", "640")`, false},
		{`modeWithin("----------", "0")`, true},
		{`modeWithin("8", "640")`, `the mode "8" is no file mode`},
		{`modeWithin("-rw-r-----+", "640")`, "an access control list"},
	} {
		v, _, err := MustCompile(tc.expr).Value(mapEnv{})
		if words, ok := tc.want.(string); ok {
			if err == nil || !strings.Contains(err.Error(), words) {
				t.Errorf("%s = %v, %v; want an error saying %q", tc.expr, v, err, words)
			}
			continue
		}
		if err != nil || v != tc.want {
			t.Errorf("%s = %v, %v; want %v", tc.expr, v, err, tc.want)
		}
	}
}

// TestModesWrittenAsTextNameModeWithin: `"604" > "640"` is the "numbers
// written as text" rule error, whose advice, float(x), is the decimal
// reading that calls 604 within 640; over three or four octal digits it
// names modeWithin too.
func TestModesWrittenAsTextNameModeWithin(t *testing.T) {
	t.Parallel()
	env := mapEnv{"m": "604", "limit": "640", "big": "12000", "small": "9000"}
	_, _, err := MustCompile(`m > limit`).Value(env)
	if err == nil || !strings.Contains(err.Error(), "modeWithin(x, y)") {
		t.Errorf(`"604" > "640": %v; want advice naming modeWithin`, err)
	}
	_, _, err = MustCompile(`big > small`).Value(env)
	if err == nil || strings.Contains(err.Error(), "modeWithin") {
		t.Errorf(`"12000" > "9000": %v; want the numbers' advice, not modes'`, err)
	}
}
