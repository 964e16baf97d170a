package chart

import "testing"

// TestWireGuardPrivateKeyPrintedIsNoted: `wg show wg0 private-key`
// prints the interface's private key alone, which no form tells from a
// public key, and the record kept it (wave-vpn). A plan notes it now,
// and a run warns of it once; public-key, the dump and showconf (masked
// by their place) are not noted.
func TestWireGuardPrivateKeyPrintedIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"wg", "show", "wg0", "private-key"}}, true},
		{ExecSpec{Command: []string{"/usr/bin/wg", "genkey"}}, true},
		{ExecSpec{Shell: `wg genkey | tee /tmp/k | wg pubkey`}, true},
		{ExecSpec{Command: []string{"wg", "show", "wg0", "public-key"}}, false},
		{ExecSpec{Command: []string{"wg", "show", "all", "dump"}}, false},
		{ExecSpec{Command: []string{"wg", "showconf", "wg0"}}, false},
	} {
		got := tc.e.WireGuardPrivateKeyPrinted()
		if (got != "") != tc.want {
			t.Errorf("%v %q: noted %q, want a note: %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
		if tc.want && !contains(tc.e.RunWarnings(), got) {
			t.Errorf("%v %q: a run does not warn of it", tc.e.Command, tc.e.Shell)
		}
	}
}
