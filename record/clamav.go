package record

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemScanErrors is the kind of the not-checked item filed for a ClamAV
// scan (clamscan, clamdscan) that ended as an answer while it said it
// could not scan a path it was given or met: a directory it could not
// open, a file it could not read, a path not there. It exits 1 when it
// found an infected file elsewhere, whatever else went wrong (its 2, an
// error, only when it found none), so a list of the infected files read
// as the whole scan's. Run as a user over a tree with one folder it may
// not open, `clamscan -r` printed `/srv/locked: Can't open directory.` and
// `Total errors: 1` on stdout, exited 1 for the one infected file it did
// read, and a check said `CRITICAL - 1 infected`, Consistent, over a
// second in the folder it never opened (cmd/runbook
// TestClamAVScanErrorsAreNoWholeAnswer, testdata/wave-av/files). The
// rows it printed stand (each is a signature matched): the item is not
// one of NotJudged's, and says only that the list is not whole.
const ItemScanErrors = "scan-errors"

// ItemStaleSignatures is the kind of the not-checked item filed for a
// ClamAV scan that said its signature database is out of date (`LibClamAV
// Warning: ***  The virus database is older than 7 days!  ***`, on
// stderr, from a daily.cvd freshclam has not replaced: a host with no
// network, a freshclam that fails). clamscan scans on, prints `PATH: OK`
// for every file no old signature matches and exits 0, and a check of
// the infected files said `OK - no verdict rows`, Consistent, over a
// database a month old (cmd/runbook TestClamAVStaleSignaturesAreNoAnswer,
// testdata/wave-av/files). Its clean rests on signatures the scanner
// itself says to update, so the rows are not judged (NotJudged).
const ItemStaleSignatures = "stale-signatures"

// ClamAV scanners' words, ClamAV 1.x (clamscan and clamdscan share the
// summary); none is translated. Each is read where the scanner writes
// it: a result line is `PATH: RESULT`, so only its end is the scanner's.
//
//	stdout  "Total errors: N", N ≥ 1       the summary (not under --no-summary)
//	stdout  "PATH: Can't open directory."  clamscan, a folder it may not open (not under -i)
//	stdout  "PATH: Access denied"          clamscan, a file it may not read (not under -i)
//	stdout  "PATH: … ERROR"                clamdscan, a path clamd could not scan
//	                                       (`File path check failure: Permission denied. ERROR`)
//	stderr  "WARNING: PATH: Can't access file"  clamscan, a path not there
//	stderr  "ERROR: …", "LibClamAV Error: …"    either, an error of its own
//	                                            (clamdscan: "ERROR: Can't access file PATH")
//	stderr  "The virus database is older than"  either, a database freshclam has not renewed
//	stdout  "Known viruses: 0"             the summary: no signature loaded
//	stderr  "cli_loaddbdir", "No supported database files found", "…: Malformed database"
//	                                       its database not loaded
//
// (--stdout sends its stderr's lines to stdout: those are read on both.)
const (
	clamavTotalErrors = "Total errors: "
	clamavStale       = "The virus database is older than"
)

// ItemNoSignatures is the kind of the not-checked item filed for a
// ClamAV scan that ended as no failure with no signatures loaded: its
// summary's `Known viruses: 0`, or its own words that it could not load
// its database (`LibClamAV Error: cli_loaddbdir: No supported database
// files found in /var/lib/clamav`, `Malformed database`). clamscan exits 2
// over it, but `clamscan -r -i /srv || true` (a cron script's) makes that
// 0, and a check of its summary's `Infected files: 0` said `OK - 1 clean`,
// Consistent, over a scan of nothing (`Scanned files: 0`) with two
// infected files there (cmd/runbook TestClamAVWithNoSignaturesIsNoAnswer,
// testdata/wave-av/summary). Its rows are not judged (NotJudged).
const ItemNoSignatures = "no-signatures"

// ItemScanFailed is the kind of the not-checked item filed for a ClamAV
// scan that exited 0 beside its own words that it could not scan a path
// or failed (its error lines, ClamAVUnscanned's): clamscan and clamdscan
// exit 2 over an error unless they found an infected file (1), so their
// 0 beside one is a code a script made so (`|| true`), and a clean over
// it is no answer: its rows are not judged (NotJudged). So is its 1 beside
// them with no FOUND line printed (--quiet): no infected file it printed
// stands, and a check of its FOUND lines said `OK - no verdict rows`.
const ItemScanFailed = "scan-failed"

// ClamAVUnscanned is the first line a ClamAV scan that exited exit
// printed saying it scanned with no signatures or stale ones, or did not
// scan a path, and the kind of item it is (ItemNoSignatures,
// ItemStaleSignatures, ItemScanErrors, or ItemScanFailed for its errors
// under exit 0); "", "" when none does. The signatures are said first:
// they weigh on every row. A line of stdout that is no line of the
// scanner's (a file name holding a line end splits its result line in
// two, and the row is made of the part after it: `/srv/evil` then
// `name.bin: Sig FOUND`) is a scan error too: the row names a path that
// is not the file's.
func ClamAVUnscanned(exit int, stdout, stderr string) (line, kind string) {
	// --stdout sends its warnings where its results go: both are read
	both := stderr + "\n" + stdout
	if l := firstLine(both, clamavNoSignatures); l != "" {
		return l, ItemNoSignatures
	}
	if l := firstLine(both, func(l string) bool { return strings.Contains(l, clamavStale) }); l != "" {
		return l, ItemStaleSignatures
	}
	// its errors leave standing only the infected files it printed: under
	// exit 0 (|| true), or a 1 with no FOUND line (--quiet), none stands
	errs := ItemScanFailed
	if exit != 0 && strings.Contains(stdout, " FOUND") {
		errs = ItemScanErrors
	}
	if l := firstLine(stdout, clamavErrorLine); l != "" {
		return l, errs
	}
	if l := firstLine(both, func(l string) bool {
		l = strings.TrimSpace(l)
		return strings.HasPrefix(l, "WARNING: ") && strings.HasSuffix(l, ": Can't access file") ||
			strings.HasPrefix(l, "ERROR: ") || strings.HasPrefix(l, "LibClamAV Error: ")
	}); l != "" {
		return l, errs
	}
	return "", ""
}

// clamavNoSignatures says whether a line is a ClamAV scanner saying it
// scanned with no signatures: its summary's count of none, or its words
// that its database could not be loaded.
func clamavNoSignatures(l string) bool {
	l = strings.TrimSpace(l)
	return l == "Known viruses: 0" || strings.Contains(l, "cli_loaddbdir") ||
		strings.Contains(l, "No supported database files found") || strings.HasSuffix(l, ": Malformed database")
}

// clamavErrorLine says whether a line of a ClamAV scan's stdout says it
// could not scan a path, or is no line the scanner writes (a name split
// by a line end).
func clamavErrorLine(l string) bool {
	l = strings.TrimRight(l, "\r")
	if n, ok := strings.CutPrefix(l, clamavTotalErrors); ok {
		count, err := strconv.Atoi(strings.TrimSpace(n))
		return err != nil || count > 0
	}
	if strings.HasSuffix(l, ": Can't open directory.") || strings.HasSuffix(l, ": Access denied") || strings.HasSuffix(l, " ERROR") {
		return true
	}
	t := strings.TrimSpace(l)
	// every line it writes holds ": " (a result, a summary field, a
	// warning --stdout sends here), bar the summary's rule, --verbose's
	// "Scanning PATH" and blank lines
	return t != "" && !strings.Contains(t, ": ") && !strings.HasPrefix(t, "-----------") && !strings.HasPrefix(t, "Scanning ")
}

// ClamAVUnscannedEntry is the ledger's entry for a ClamAV scan whose
// output says a path went unscanned or its signatures are stale
// (ClamAVUnscanned): exit is its exit code, word the answer the chart
// declared for it ("" when none), line the first such line (masked
// already), kind the item's.
func ClamAVUnscannedEntry(path string, exit int, word, line, kind string) coverage.Entry {
	if kind == ItemNoSignatures {
		return outputEntry(path, fmt.Sprintf("it said it scanned with no signatures (its summary's Known viruses: 0, or a database it could not load) %s, so its OK is no scan: clamscan exits 2 over a database it cannot load, and a 0 beside it is a code a script made so (|| true); its first such line: %q; give it a database (freshclam, or a mirror's daily.cvd copied in; -d names another folder), and let its 2 through (exitCodes: {0: clean, 1: found})",
			exitedThough(exit, word), cutLine(line)), kind)
	}
	if kind == ItemScanFailed {
		why := "clamscan and clamdscan exit 2 over their errors unless they found an infected file, so a 0 beside one is a code a script made so (|| true)"
		fix := "let its 2 through (exitCodes: {0: clean, 1: found}) and check the paths"
		if exit != 0 {
			why = "its code says it found an infected file, but it printed no FOUND line (--quiet prints its errors alone), so no row stands on what it found"
			fix = "leave --quiet out, and check the paths"
		}
		return outputEntry(path, fmt.Sprintf("it said it could not scan a path, or failed, %s: %s, and what it did not scan is not known to be clean; its first such line: %q; %s",
			exitedThough(exit, word), why, cutLine(line), fix), kind)
	}
	if kind == ItemStaleSignatures {
		return outputEntry(path, fmt.Sprintf("it said its signature database is out of date %s, so a file it called OK is clean only of the signatures that old database holds; its first such line: %q; renew the database (freshclam, or a mirror's daily.cvd copied in) and judge its age in the chart (sigtool --info daily.cvd prints its Build time)",
			exitedThough(exit, word), cutLine(line)), kind)
	}
	if !strings.Contains(line, ": ") && !strings.HasPrefix(strings.TrimSpace(line), "WARNING:") {
		return outputEntry(path, fmt.Sprintf("it printed a line that is no result line of the scanner's (PATH: RESULT) %s: a file name holding a line end splits its result line in two, so a row made of the part after it names a path that is not the file's; its first such line: %q; find the file (find DIR -name $'*\\n*') and rename it",
			exitedThough(exit, word), cutLine(line)), kind)
	}
	return outputEntry(path, fmt.Sprintf("it said it could not scan a path it was given or met (a folder it could not open, a file it could not read, a path not there) %s: it exits 1 when it found an infected file elsewhere, whatever else went wrong, so its list of infected files is not the whole tree's, and what it did not scan is not known to be clean; its first such line: %q; run it with the privilege to read every file (clamdscan --fdpass hands clamd files it may not open itself), and check the paths",
		exitedThough(exit, word), cutLine(line)), kind)
}

// ClamAVFoundUnprintedEntry is the ledger's entry for a ClamAV scan read
// by its stdout that exited 1 (word the answer the chart declared for it),
// its code for an infected file found, and printed no `PATH: SIG FOUND`
// line: `clamscan --quiet` prints nothing but its errors, and a check of
// its FOUND lines said `OK - no verdict rows`, Consistent, over two
// infected files (cmd/runbook TestClamAVFoundUnprintedIsNoAnswerOfNone,
// testdata/wave-av/files). Of the kind ItemFindingElsewhere.
func ClamAVFoundUnprintedEntry(path string, exit int, word string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, the scanner's code for an infected file found, but it printed no FOUND line, so the rows made of its stdout hold none of what it found: --quiet prints nothing but its errors, and a script may send its stdout elsewhere (> /dev/null beside a --log file); leave --quiet out (-i keeps the infected files alone), and read the stdout it prints",
		exit, word), ItemFindingElsewhere)
}
