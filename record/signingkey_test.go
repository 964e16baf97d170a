package record

import "testing"

// TestKeyNotValidReadsGnuPGsOwnLines: gpg's and gpgv's lines saying the
// key of a signature is revoked or expired are the rule; the same words
// from another tool, and gpg's other notes (a trustdb made, a key not
// certified), are not.
func TestKeyNotValidReadsGnuPGsOwnLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ stderr, want string }{
		{"gpg: Good signature from \"Old\" [ultimate]\ngpg: WARNING: This key has been revoked by its owner!\n", "gpg: WARNING: This key has been revoked by its owner!"},
		{"gpg: Note: This key has expired!\n", "gpg: Note: This key has expired!"},
		{"gpgv: Note: signature key 6F1B0EDFB2F903BE expired Tue Dec  8 14:20:09 2026 UTC\n", "gpgv: Note: signature key 6F1B0EDFB2F903BE expired Tue Dec  8 14:20:09 2026 UTC"},
		{"gpg: Note: signature key 04592D414B963C47 has been revoked\n", "gpg: Note: signature key 04592D414B963C47 has been revoked"},
		{"gpg: WARNING: This key is not certified with a trusted signature!\ngpg: /root/.gnupg/trustdb.gpg: trustdb created\n", ""},
		{"certificate has been revoked\n", ""},
	} {
		if got := KeyNotValid("", tc.stderr); got != tc.want {
			t.Errorf("KeyNotValid(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
}

// TestKeyNotValidStandsDownOverStatusLines: the item's words advise
// reading gpg's status lines (--status-fd 1) and judging REVKEYSIG and
// EXPKEYSIG in the chart; a chart that did so still stood Not sure, the
// stderr warning read as a gap beside the very answer that says it
// (wave-integrity's design question). Where stdout holds the status
// line of the key's state, the answer says it, and no item is filed.
func TestKeyNotValidStandsDownOverStatusLines(t *testing.T) {
	t.Parallel()
	stderr := "gpg: Good signature from \"Old\" [ultimate]\ngpg: WARNING: This key has been revoked by its owner!\n"
	for _, tc := range []struct{ stdout, want string }{
		{"[GNUPG:] NEWSIG\n[GNUPG:] KEYREVOKED\n[GNUPG:] REVKEYSIG 04592D414B963C47 Old <old@example.org>\n", ""},
		{"[GNUPG:] NEWSIG\n[GNUPG:] KEYEXPIRED 1765118409\n[GNUPG:] EXPKEYSIG 6F1B0EDFB2F903BE Rel <rel@example.org>\n", ""},
		{"[GNUPG:] NEWSIG\n[GNUPG:] GOODSIG 04592D414B963C47 Old <old@example.org>\n", "gpg: WARNING: This key has been revoked by its owner!"},
		{"", "gpg: WARNING: This key has been revoked by its owner!"},
	} {
		if got := KeyNotValid(tc.stdout, stderr); got != tc.want {
			t.Errorf("KeyNotValid(%q, …) = %q, want %q", tc.stdout, got, tc.want)
		}
	}
}
