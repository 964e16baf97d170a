package record

import (
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemKeyNotValid is the kind of the not-checked item filed for an exec
// stage whose command ended as no failure (exit 0, or a code the chart
// declared an answer) while GnuPG said on stderr that the key that made
// the signature it checked is revoked or expired: its code is the one it
// gives a good signature by a valid key, so it is no answer of a good
// signature.
//
// gpg --verify (2.2) over a detached signature whose key was revoked
// since prints `gpg: Good signature from "…"`, then `gpg: WARNING: This
// key has been revoked by its owner!` and `This could mean that the
// signature is forged.`, and exits 0; over a key that has expired, `gpg:
// Note: This key has expired!`, exit 0. `gpg --verify SIG FILE` under
// `exitCodes: {0: good, 1: bad}` said good, OK, Consistent, over a
// release signed by a revoked key (TestRevokedKeySignatureIsNoAnswerOfGood,
// testdata/wave-integrity/release-sig). apt refuses both (REVKEYSIG,
// EXPKEYSIG in gpg's status lines). git verify-commit and verify-tag pass
// gpg's lines on, and are read the same. gpgv says neither on stderr,
// only in its status lines (--status-fd), and is not seen here.
const ItemKeyNotValid = "key-not-valid"

// KeyNotValid is stderr's first line on which GnuPG (a line led by `gpg:`
// or `gpgv:`) says the key of a signature is revoked or expired, "" when
// none does. The rule, in any case:
//
//	"has been revoked"        WARNING: This key has been revoked by its owner!
//	                          Note: signature key … has been revoked
//	"this key has expired"    Note: This key has expired!
//	"signature key" "expired" Note: signature key … expired …
//
// Where stdout holds gpg's own status line for that state (--status-fd 1:
// REVKEYSIG, EXPKEYSIG, KEYREVOKED, KEYEXPIRED), the answer the chart
// reads says it, as the item's words advise: "" then, so a chart that
// judges those lines stands where its rules put it (wave-integrity: it
// stood Not sure over the very form the words gave).
func KeyNotValid(stdout, stderr string) string {
	for _, st := range []string{"[GNUPG:] REVKEYSIG", "[GNUPG:] EXPKEYSIG", "[GNUPG:] KEYREVOKED", "[GNUPG:] KEYEXPIRED"} {
		if strings.Contains(stdout, st) {
			return ""
		}
	}
	return firstLine(stderr, func(l string) bool {
		low := strings.ToLower(strings.TrimSpace(l))
		if !strings.HasPrefix(low, "gpg:") && !strings.HasPrefix(low, "gpgv:") {
			return false
		}
		return strings.Contains(low, "has been revoked") || strings.Contains(low, "this key has expired") ||
			strings.Contains(low, "signature key") && strings.Contains(low, "expired")
	})
}

// KeyNotValidEntry is the ledger's entry for such a stage, filed under
// its path: exit is the exit code, word the answer the chart declared for
// it ("" when none), line stderr's first line saying so (masked already;
// KeyNotValid).
func KeyNotValidEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("gpg said on stderr that the key of the signature it checked is revoked or expired %s, the code it gives a good signature by a valid key, so it is no answer of a good signature (a revoked key's signature may be forged); stderr's first such line: %q; read gpg's status lines (--status-fd 1: GOODSIG for a good signature by a valid key, REVKEYSIG and EXPKEYSIG for one by a revoked or expired key) and judge them in the chart, or take the key out of the keyring the check reads",
		exitedThough(exit, word), cutLine(line)), ItemKeyNotValid)
}
