package rules

import (
	"strconv"
	"strings"
)

// debVersion is a text read as a Debian package version, [epoch:]upstream[-revision].
type debVersion struct {
	epoch, upstream, revision string
}

// versionOf reads s as a Debian version (deb-version(7)): an optional
// epoch of digits and a colon, an upstream part that begins with a digit,
// and an optional revision after the last hyphen, of letters, digits and
// ". + ~" (and "-" in the upstream part). It must hold a separator
// (".", "+", "~" or "-") after any epoch, so a bare number, a word or a
// time of day ("9:30") is no version. ok is false for any other text.
func versionOf(s string) (v debVersion, ok bool) {
	if len(s) == 0 || len(s) > 256 || uuid(s) {
		return v, false
	}
	rest := s
	if i := strings.IndexByte(s, ':'); i >= 0 {
		v.epoch, rest = s[:i], s[i+1:]
		if v.epoch == "" || strings.Trim(v.epoch, "0123456789") != "" {
			return v, false
		}
	}
	if rest == "" || rest[0] < '0' || rest[0] > '9' || !strings.ContainsAny(rest, ".+~-") {
		return v, false
	}
	v.upstream = rest
	if i := strings.LastIndexByte(rest, '-'); i >= 0 {
		v.upstream, v.revision = rest[:i], rest[i+1:]
		if v.revision == "" {
			return v, false
		}
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte(".+~-", c) >= 0) {
			return v, false
		}
	}
	return v, true
}

// uuid reports whether s is written as a UUID (8-4-4-4-12 hex digits):
// an id, whose text order is the only one it has, though one that begins
// with a digit and holds hyphens is a version's syntax too (sorting
// systemd's boot ids or filesystem UUIDs was a rule error).
func uuid(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// versionCompare orders two Debian versions as dpkg --compare-versions
// does: the epochs as numbers, then the upstream parts, then the
// revisions, each by verrevcmp.
func versionCompare(a, b debVersion) int {
	if c := digitsCompare(a.epoch, b.epoch); c != 0 {
		return c
	}
	if c := verrevcmp(a.upstream, b.upstream); c != 0 {
		return c
	}
	return verrevcmp(a.revision, b.revision)
}

// digitsCompare orders two runs of digits as the numbers they spell,
// whatever their length ("" is 0).
func digitsCompare(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return sign(len(a) - len(b))
	}
	return strings.Compare(a, b)
}

// versionOrder is dpkg's weight of one character of a version's
// non-digit run: "~" before everything, the end of the text next,
// letters, then every other character; a digit ends the run (0).
func versionOrder(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	switch c := s[i]; {
	case c >= '0' && c <= '9':
		return 0
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return int(c)
	case c == '~':
		return -1
	default:
		return int(c) + 256
	}
}

// verrevcmp is dpkg's comparison of two upstream parts or revisions:
// alternately a run of non-digits, compared character by character by
// versionOrder, and a run of digits, compared as a number.
func verrevcmp(a, b string) int {
	digit := func(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		for i < len(a) && !digit(a, i) || j < len(b) && !digit(b, j) {
			ac, bc := versionOrder(a, i), versionOrder(b, j)
			if ac != bc {
				return sign(ac - bc)
			}
			i++
			j++
		}
		si, sj := i, j
		for digit(a, i) {
			i++
		}
		for digit(b, j) {
			j++
		}
		if c := digitsCompare(a[si:i], b[sj:j]); c != 0 {
			return c
		}
	}
	return 0
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// preRelease says whether one of a and b is the other with a semver
// pre-release after a hyphen ("4.17.21-beta.1" and "4.17.21"), the other
// being dotted numbers alone, and whether that one is a (true) or b.
// Semver puts it before the release; text and dpkg put it after (a
// Debian revision), and the text cannot say which scheme it is in.
func preRelease(a, b string) (aIsPre, ok bool) {
	release := func(s string) bool { return strings.Trim(s, "0123456789.") == "" && strings.Contains(s, ".") }
	switch {
	case strings.HasPrefix(a, b+"-") && release(b):
		return true, true
	case strings.HasPrefix(b, a+"-") && release(a):
		return false, true
	}
	return false, false
}

// readPastName is a and b read past the name of a version scheme both
// begin with, followed by a digit: one "v" (Kubernetes', Go modules' and
// Node's "v1.28.10", which text puts before "v1.28.9") or Go's "go"
// ("go1.10.1", which text put before "go1.9.2": go version -m's first
// line; TestGoToolchainVersionsHaveNoTextOrder). Any other word before a
// number is no scheme's ("web9.example.com"): a and b as they are.
func readPastName(a, b string) (string, string) {
	for _, name := range []string{"v", "V", "go"} {
		ra, okA := strings.CutPrefix(a, name)
		rb, okB := strings.CutPrefix(b, name)
		if okA && okB && ra != "" && rb != "" && ra[0] >= '0' && ra[0] <= '9' && rb[0] >= '0' && rb[0] <= '9' {
			return ra, rb
		}
	}
	return a, b
}

// versionsReason is why two texts that are both versions have no order
// here: text orders them otherwise than a version's order does ("3.0.9"
// after "3.0.15", "1.0~rc1" after "1.0", "1:9.18.47" before "9.18.49"),
// so a rule `installed < minimum` called a package patched that was not.
// "" when either is no version or the two orders agree (or the texts are
// equal). Two that both begin with one "v", or Go's "go", are read past
// it (readPastName). A dotted address ("10.0.0.9", "10.0.0.10") is judged the same,
// its numbers compared as numbers.
func versionsReason(a, b string) string {
	if a == b {
		return ""
	}
	ta, tb := readPastName(a, b)
	va, okA := versionOf(ta)
	vb, okB := versionOf(tb)
	if !okA || !okB {
		return ""
	}
	if first, ok := preRelease(ta, tb); ok {
		pre, rel := a, b
		if !first {
			pre, rel = b, a
		}
		return strconv.Quote(pre) + " and " + strconv.Quote(rel) + " are versions whose order depends on their scheme: semver's (npm, Cargo, Go modules, Helm charts) puts the pre-release " +
			strconv.Quote(pre) + " before " + strconv.Quote(rel) + ", where text and dpkg's order (a Debian revision) put it after; ask the tool whose versions they are, which owns the order (semver's own comparison for npm's or Cargo's, an exec of dpkg --compare-versions A lt B for a Debian package's)"
	}
	vc, tc := versionCompare(va, vb), strings.Compare(a, b)
	if vc == tc {
		return ""
	}
	first, second := a, b
	if tc > 0 {
		first, second = b, a
	}
	order := "after"
	if vc == 0 {
		order = "as the same version as"
	}
	return strconv.Quote(a) + " and " + strconv.Quote(b) + " are versions written as text (or dotted numbers, as an address), and text orders them by character, " +
		strconv.Quote(first) + " before " + strconv.Quote(second) + ", where a version's order (dpkg's: numbers compared as numbers, an epoch \"1:\" first, \"~\" before anything) puts " +
		strconv.Quote(first) + " " + order + " " + strconv.Quote(second) +
		"; ask the tool that owns the order: for a Debian package's versions an exec of dpkg --compare-versions A lt B with exitCodes: {0: older, 1: not-older}, for most others (go1.9.2, v1.28.10, 1.10.0) printf '%s\\n' A B | sort -V, whose first line is the older"
}
