package record

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemKadminError is the kind of the not-checked item filed for an exec
// stage that runs MIT kadmin or kadmin.local, exited 0 (or with a code
// the chart declared an answer) and said on stderr that its request
// failed. kadmin 1.20 runs a -q request (or one read on stdin), prints
// its failure on stderr and exits 0 whatever the request did, with
// `Authenticating as principal root/admin@REALM with password.` on
// stdout: `kadmin.local -q 'getprinc carrol'` (a principal misspelt, or
// of another realm) says `get_principal: Principal does not exist while
// retrieving "carrol@TEST.LAN".`, and a check of passwords about to
// expire that read its `Password expiration date:` line said `OK
// carrol: ok`, Consistent, of a principal nobody read (cmd/runbook
// TestKadminQueryFailureIsNoAnswer, testdata/wave-krb/password-expiry).
const ItemKadminError = "kadmin-error"

// kadminFailure is a line kadmin writes on stderr when a request failed,
// in com_err's form, the request (or the program) named first and what
// it was doing after "while":
//
//	get_principal: Principal does not exist while retrieving "bob@OTHER.LAN".
//	get_principal: Operation requires ``get'' privilege while retrieving "bob@TEST.LAN".
//	get_policy: Policy does not exist while retrieving policy "nosuch".
//	kadmin.local: Cannot open DB2 database '…': Permission denied while initializing kadmin.local interface
//
// or a request's usage line, which it prints for arguments it cannot
// read (`usage: get_principal [-terse] principal`). Its routine notices
// (`No policy specified for bob@TEST.LAN; defaulting to no policy`,
// `WARNING: no policy specified …`) and its password prompt are neither.
var kadminFailure = regexp.MustCompile(`^([A-Za-z][\w.-]*: .+ while .+|usage: \S.*)$`)

// KadminError is stderr's first line saying a kadmin request failed
// (kadminFailure), "" when none does. Judged over a stage that runs
// kadmin or kadmin.local and exited 0, or with a code the chart declared
// an answer without its stderr (runbook's kadminError).
func KadminError(stderr string) string {
	return firstLine(stderr, func(l string) bool { return kadminFailure.MatchString(strings.TrimSpace(l)) })
}

// KadminErrorEntry is the ledger's entry for such a stage, filed under
// its path: exit is the exit code, word the answer the chart declared
// for it ("" under exit 0), line stderr's first such line (masked
// already; KadminError).
func KadminErrorEntry(path string, exit int, word, line string) coverage.Entry {
	const fix = "name the principal or policy as the KDC holds it (kadmin.local -q 'listprincs' lists them), run it where it may read the database (root on the KDC) or as an admin principal the ACL lets get, and read the request's answer only when stderr is empty"
	if word != "" {
		return answerEntry(path, fmt.Sprintf("kadmin said on stderr that its request failed, though it exited %d, which exitCodes: declares the answer %q, so %q is not known: %s; stderr's first such line: %q", exit, word, word, fix, cutLine(line)), ItemKadminError)
	}
	return outputEntry(path, fmt.Sprintf("kadmin said on stderr, though it exited %d, that its request failed, so what it printed (its banner, Authenticating as principal …) holds no answer to it: %s; stderr's first such line: %q", exit, fix, cutLine(line)), ItemKadminError)
}

// ItemKlistSilent is the kind of the not-checked item filed for an exec
// stage that runs `klist -s` (chart.ExecSpec.KlistSilent) and exited 1
// under a word the chart declared for it: klist -s prints nothing and
// exits 1 over a cache with no valid ticket, a cache it may not read
// (another user's, mode 600: klist without -s says `Credentials cache
// permissions incorrect`), a cache not there and a cache name it cannot
// read alike. A check of each service's ticket cache run by the
// monitoring user under `exitCodes: {0: valid, 1: expired}` said
// expired, Consistent, of a ticket valid ten more hours (cmd/runbook
// TestKlistSilentExitIsNoAnswer, testdata/wave-krb/ccache). Its 0 is an
// answer: a ticket it read and found valid.
const ItemKlistSilent = "klist-silent"

// KlistSilentEntry is the ledger's entry for such a stage, filed under
// its path: exit is its exit code, word the answer the chart declared.
func KlistSilentEntry(path string, exit int, word string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("klist -s prints nothing and exits %d over a cache with no valid ticket and as much over one it may not read (another user's), one not there or a cache name it cannot read, so %q is not known; run klist without -s (klist -c CACHE says why on stderr, and prints the tickets' Expires column to judge), as the cache's owner", exit, word), ItemKlistSilent)
}
