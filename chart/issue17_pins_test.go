package chart

import (
	"runtime"
	"strings"
	"testing"
)

// TestIssue17PerPlatformPins: a plugin's sha256 may be one digest or a
// digest per GOOS/GOARCH; the pin is this platform's. A per-platform map
// without this platform is a load error (the binary would run unchecked),
// and a bad platform key or digest names where and what is right.
// Regression: only one digest per chart could be written.
func TestIssue17PerPlatformPins(t *testing.T) {
	t.Parallel()
	here := runtime.GOOS + "/" + runtime.GOARCH
	a, b := strings.Repeat("a", 64), strings.Repeat("B", 64)
	chart := func(pin string) string {
		return "version: 1\nrunbook: pins\nplugins:\n  probe:\n    command: ./probe\n    sha256: " + pin + "\nstages:\n  - id: p\n    plugin: {name: probe, into: p}\n"
	}
	for _, tc := range []struct {
		name, pin, want, err string
	}{
		{"one digest", a, a, ""},
		{"this platform's", "{" + here + ": " + b + ", plan9/386: " + a + "}", strings.ToLower(b), ""},
		{"this platform missing", "{plan9/386: " + a + "}", "", "pins plan9/386 but not " + here + ", the platform this runs on"},
		{"bad platform key", "{" + here + ": " + a + ", linux: " + a + "}", "", `sha256 platform "linux": write GOOS/GOARCH`},
		{"bad digest for a platform", "{" + here + ": nope}", "", `sha256 for ` + here + ` "nope" is not a SHA-256 digest`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spec, err := Parse("pins.yaml", []byte(chart(tc.pin)))
			if tc.err != "" {
				if err == nil || !strings.Contains(loadErrText(t, err), tc.err) || !strings.Contains(err.Error(), "pins.yaml:6:") {
					t.Fatalf("err = %v, want one at pins.yaml:6 containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := spec.Plugins[0].SHA256; got != tc.want {
				t.Errorf("pin = %q, want %q", got, tc.want)
			}
		})
	}
}
