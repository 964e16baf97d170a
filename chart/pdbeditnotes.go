package chart

import (
	"path/filepath"
	"strings"
)

// PdbeditPrintsHashes is the note for an exec stage that runs pdbedit
// with -w (--smbpasswd-style), "" otherwise: that form prints each
// account's LM and NT password hashes (`alice:1001:XXXX…:048C457B…:[U
// ]:LCT-…:`), and an NT hash logs in as the password does (pass the
// hash). It is the compact form of the account flags a chart of accounts
// whose password never expires ([UX ]) or that are disabled ([UD ])
// reads, and a run keeps the stage's output, so the record held every
// account's hash, with nothing said. pdbedit -L -v prints the flags with
// no hash.
//
//	[pdbedit, -L, -w]                    noted
//	shell: pdbedit -Lw | grep -v '^#'    noted
//	[pdbedit, -L, -v]                    not noted
func (e *ExecSpec) PdbeditPrintsHashes() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || filepath.Base(argv[0]) != "pdbedit" {
			return ""
		}
		for _, a := range argv[1:] {
			if a == "--smbpasswd-style" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'w') && onlyLetters(a[1:]) {
				return "pdbedit -w (--smbpasswd-style) prints each account's LM and NT password hashes, and an NT hash logs in as the password does: the run keeps the stage's output, so the record would hold every account's hash; read the account flags from pdbedit -L -v (Account Flags: [UX         ]), which prints no hash"
			}
		}
		return ""
	})
}
