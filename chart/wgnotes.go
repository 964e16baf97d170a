package chart

import "path/filepath"

// WireGuardPrivateKeyPrinted is the note for an exec stage that asks wg
// for a private key on its own, "" otherwise: `wg show IFACE
// private-key` and `wg genkey` print the key alone, 44 characters of
// base64 no form tells from a public key's, so masking by form does not
// know it, and the run keeps the stage's output: the record would hold
// the interface's private key (wave-vpn's design question; the dump's
// and showconf's keys are masked by their place, secret.WireGuardKeys).
// A chart asking which key an interface runs with asks public-key.
//
//	[wg, show, wg0, private-key]          noted
//	shell: wg genkey | tee k | wg pubkey  noted
//	[wg, show, wg0, public-key]           not noted
func (e *ExecSpec) WireGuardPrivateKeyPrinted() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if len(argv) < 2 || filepath.Base(argv[0]) != "wg" {
			return ""
		}
		switch {
		case argv[1] == "genkey",
			argv[1] == "show" && len(argv) >= 4 && argv[3] == "private-key":
			return "wg prints the private key alone here, 44 characters of base64 that no form tells from a public key, so the run cannot mask it and the record would keep it; ask wg show IFACE public-key for the key the interface runs with (its dump and showconf are masked)"
		}
		return ""
	})
}
