package chart

import (
	"strings"
	"testing"
)

// TestCheckendNotYetValidIsNoted: openssl x509 -checkend judges the end
// date alone and exits 0 over a certificate not yet valid, so a chart
// reading its 0 as valid said `OK valid`, Consistent, over an endpoint
// whose certificate no client accepts yet (testdata/wave-scan/tls-checkend).
// A run warns of it and plan notes it, unless the same x509 prints
// -startdate or -dates; fed by s_client without -verify_return_error, the
// note says what verification s_client passed over.
func TestCheckendNotYetValidIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		cmd        []string
		shell      string
		want, also string
	}{
		{name: "s_client piped", shell: `openssl s_client -connect "$H:$P" -servername "$N" </dev/null 2>/dev/null | openssl x509 -noout -checkend "$S"`,
			want: "not yet valid", also: "-verify_return_error"},
		{name: "a file", cmd: []string{"openssl", "x509", "-in", "c.pem", "-noout", "-checkend", "86400"}, want: "not yet valid"},
		{name: "verified", shell: `openssl s_client -connect "$H:$P" -verify_return_error -verify_hostname "$N" </dev/null | openssl x509 -noout -checkend "$S"`, want: "not yet valid"},
		{name: "with -startdate", cmd: []string{"openssl", "x509", "-in", "c.pem", "-noout", "-startdate", "-checkend", "86400"}},
		{name: "with -dates", shell: `openssl x509 -in c.pem -noout -dates -checkend 86400`},
		{name: "enddate only", shell: `openssl s_client -connect h:443 </dev/null | openssl x509 -noout -enddate`},
	} {
		got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).CheckendEndDateAlone()
		if tc.want == "" {
			if got != "" {
				t.Errorf("%s: noted %q", tc.name, got)
			}
			continue
		}
		if !strings.Contains(got, tc.want) || (tc.also != "") != strings.Contains(got, "s_client without -verify_return_error") {
			t.Errorf("%s: note %q; want it to say %q (and s_client's %q)", tc.name, got, tc.want, tc.also)
		}
		if !strings.Contains(strings.Join((&ExecSpec{Command: tc.cmd, Shell: tc.shell}).RunWarnings(), "\n"), got) {
			t.Errorf("%s: not among the run's warnings", tc.name)
		}
	}
}
