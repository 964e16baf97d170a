package record

import "testing"

// TestKeepalivedConfigMissingIsNotThere: keepalived 2.2.7's config test
// (keepalived -t -f PATH) exits 0 over a -f path misspelt, saying only
// `Config files missing 'PATH'.` on stderr, and over an include that
// matches no file, `(Line 21) Config files missing '/etc/keepalived/
// conf.d/*.conf'.`: a check declaring {0: valid, 5: invalid} said valid,
// OK, Consistent, of a config nobody read (wave-proxy keepalived-config).
// The line is a file it could not find; a keyword it refuses is not.
func TestKeepalivedConfigMissingIsNotThere(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"Config files missing '/etc/keepalived/keepalived.cnf'.",
		"(Line 21) Config files missing '/etc/keepalived/conf.d/*.conf'.",
	} {
		if got := Denied(line + "\n"); got != line {
			t.Errorf("Denied(%q) = %q; want the line", line, got)
		}
		if got := deniedCause(line); got != causeNotThere {
			t.Errorf("deniedCause(%q) = %q; want %q", line, got, causeNotThere)
		}
	}
	for _, line := range []string{
		"(/etc/keepalived/keepalived.conf: Line 9) Unknown keyword 'virtual_router_idd'",
		"(VI_1) No VIP specified; at least one is sensible",
	} {
		if got := Denied(line + "\n"); got != "" {
			t.Errorf("Denied(%q) = %q; want none", line, got)
		}
	}
}
