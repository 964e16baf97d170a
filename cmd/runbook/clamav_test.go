package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// clamavChart is a check a sysadmin writes over a ClamAV scanner: a row
// per infected file of its FOUND lines, CRITICAL on any, none found the
// answer.
func clamavChart(t *testing.T, dir, name, tool string) string {
	t.Helper()
	return clamavChartOf(t, dir, name, tool, `'map(filter(scan.stdout, # endsWith " FOUND"), split(#, ": ", 2)[0])'`, `{subject: f, verdict: '"infected"'}`)
}

// clamavChartOf is clamavChart with its foreach's items and its row's
// verdict stage as given.
func clamavChartOf(t *testing.T, dir, name, tool, items, verdict string) string {
	t.Helper()
	return writeChart(t, dir, name+".yaml", `version: 1
runbook: av
result: {kind: verdict/file, empty: answer, nagios: {critical: [infected]}}
stages:
  - id: scan
    exec:
      command: [`+tool+`, -r, --alert-exceeds-max, /srv]
      exitCodes: {0: clean, 1: found}
      parse: lines
  - id: per
    foreach:
      items: `+items+`
      as: f
      maxBranches: 100
      stages:
        - {id: i, verdict: `+verdict+`}
`)
}

// TestClamAVScanErrorsAreNoWholeAnswer: ClamAV 1.4.6's clamscan, run as
// a user over a tree with one folder it may not open, printed
// `/srv/locked: Can't open directory.` and `Total errors: 1` on stdout
// and exited 1 for the one infected file it did read (its 2, an error,
// only when it finds none), and a check of the infected files said
// `CRITICAL - 1 infected`, Consistent, over a second in the folder it
// never opened (testdata/wave-av/files). So did clamdscan's `… ERROR`
// line (clamd, as the clamav user, refused a folder), a path not there
// beside one scanned (`WARNING: /srv/nope: Can't access file` on
// stderr), and a file whose name holds a line end, whose row named the
// part after it. Now a not-checked item (scan-errors): the rows stand,
// CRITICAL, the check names the stage that did not check everything, and
// the standing is Not sure. A whole scan is Consistent.
func TestClamAVScanErrorsAreNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	found := "/srv/pub/bad.bin: Eicar-Signature FOUND\n"
	summary := func(errs string) string {
		return "\n----------- SCAN SUMMARY -----------\nKnown viruses: 8708412\nEngine version: 1.4.6\nScanned directories: 2\nScanned files: 1\nInfected files: 1\n" + errs + "Data scanned: 0.00 MB\n"
	}
	for _, tc := range []struct {
		name, tool, stdout, stderr string
		said                       string
	}{
		{"clamscan over a folder it may not open", "clamscan", "/srv/locked: Can't open directory.\n" + found + summary("Total errors: 1\n"), "",
			`its first such line: "/srv/locked: Can't open directory."`},
		{"clamscan -i and its summary alone", "clamscan", found + summary("Total errors: 2\n"), "",
			`its first such line: "Total errors: 2"`},
		{"clamscan over a file it may not read", "clamscan", "/srv/pub/secret.db: Access denied\n" + found, "",
			`"/srv/pub/secret.db: Access denied"`},
		{"clamdscan refused by clamd", "clamdscan", "/srv/locked: File path check failure: Permission denied. ERROR\n" + found, "",
			`"/srv/locked: File path check failure: Permission denied. ERROR"`},
		{"clamscan over a path not there", "clamscan", found + summary(""), "/srv/nope: No such file or directory\nWARNING: /srv/nope: Can't access file\n",
			`"WARNING: /srv/nope: Can't access file"`},
		{"clamdscan over a path not there", "clamdscan", found, "ERROR: Can't access file /srv/nope\n",
			`"ERROR: Can't access file /srv/nope"`},
		{"a name holding a line end", "clamscan", "/srv/pub/evil\nname.bin: Eicar-Signature FOUND\n" + summary(""), "",
			`no result line of the scanner's`},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), tc.tool), tc.stdout, tc.stderr, 1)
		chart := clamavChart(t, dir, strings.ReplaceAll(tc.name, " ", "-"), tool)
		nagiosSays(t, dir, tc.name, "av CRITICAL - 1 stage did not check everything (scan), 1 infected", 2, tc.said, "exec", chart, "--format", "nagios")
		nagiosSays(t, dir, tc.name, "av CRITICAL - 1 stage did not check everything (scan), 1 infected", 2, "Not sure", "exec", chart, "--format", "nagios")
	}
	whole := fakeTool(t, filepath.Join(dir, "whole", "clamscan"), found+summary(""), "", 1)
	nagiosSays(t, dir, "a whole scan", "av CRITICAL - 1 infected (/srv/pub/bad.bin)", 2, "Consistent", "exec", clamavChart(t, dir, "whole", whole), "--format", "nagios")
}

// TestEmptyAnswerOverScanErrorsIsNoOK: a check of infected files that
// leaves out a vendor's known false positive (result.empty: answer) over
// clamscan exit 1 with `/srv/locked: Can't open directory.` and the one
// FOUND line it left out said `OK - no verdict rows`, exit 0, and the
// table "nothing to report", beside a Not sure standing: the scan-errors
// item leaves the FOUND rows standing, so it was none of NotJudged's and
// no check counted it. So did a table of a row per file clamscan printed
// OK. Now the item holds a check to no better than UNKNOWN (a CRITICAL
// row stays CRITICAL, TestClamAVScanErrorsAreNoWholeAnswer), and no rows
// is no answer of none over it. The same scans whole are OK (wave-av's
// design question).
func TestEmptyAnswerOverScanErrorsIsNoOK(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fp := "/srv/tools/agent.exe: PUA.Win.Tool.Vendor FOUND\n"
	chart := func(name, tool string) string {
		return clamavChartOf(t, dir, name, tool, `'filter(scan.stdout, # endsWith ": OK" || # endsWith " FOUND" && !(# contains "PUA.Win.Tool.Vendor"))'`,
			`{subject: 'split(f, ": ", 2)[0]', verdict: 'f endsWith ": OK" ? "ok" : "infected"'}`)
	}
	for _, tc := range []struct {
		name, stdout, status string
		code                 int
		said                 string
	}{
		{"a folder it could not open", "/srv/locked: Can't open directory.\n" + fp, "av UNKNOWN - 1 stage did not check everything (scan), no verdict rows", 3,
			`"/srv/locked: Can't open directory."`},
		{"whole", fp, "av OK - no verdict rows", 0, "Consistent"},
		{"rows of files it read, a folder it could not open", "/srv/a.txt: OK\n/srv/locked: Can't open directory.\n" + fp, "av UNKNOWN - 1 stage did not check everything (scan), 1 ok", 3,
			`"/srv/locked: Can't open directory."`},
		{"rows of files it read, whole", "/srv/a.txt: OK\n" + fp, "av OK - 1 ok", 0, "Consistent"},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		name = strings.ReplaceAll(name, ",", "")
		tool := fakeTool(t, filepath.Join(dir, name, "clamscan"), tc.stdout, "", 1)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart(name, tool), "--format", "nagios")
		if r := runCLI(t, dir, "exec", filepath.Join(dir, name+".yaml")); tc.code != 0 && strings.Contains(r.stdout, "nothing to report") {
			t.Errorf("%s: the table calls no rows the chart's answer over a scan not whole:\n%s", tc.name, r.stdout)
		}
	}
}

// TestClamAVStaleSignaturesAreNoAnswer: clamscan over a daily.cvd a
// month old (a host with no network for freshclam) writes `LibClamAV
// Warning: ***  The virus database is older than 7 days!  ***` on
// stderr, prints `PATH: OK` for every file no old signature matches and
// exits 0, and a check of the infected files said `OK - no verdict
// rows`, Consistent (testdata/wave-av/files). Now a not-checked item
// (stale-signatures), one that leaves the subjects unjudged: UNKNOWN. A
// database renewed is OK.
func TestClamAVStaleSignaturesAreNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stale := "LibClamAV Warning: **************************************************\nLibClamAV Warning: ***  The virus database is older than 7 days!  ***\nLibClamAV Warning: ***   Please update it as soon as possible.    ***\nLibClamAV Warning: **************************************************\n"
	out := "/srv/a.txt: OK\n\n----------- SCAN SUMMARY -----------\nInfected files: 0\n"
	for _, tc := range []struct {
		name, stderr, status string
		code                 int
		said                 string
	}{
		{"a month old", stale, "av UNKNOWN - 1 stage did not check everything (scan), no verdict rows", 3,
			`it said its signature database is out of date though it exited 0, which the chart declares the answer "clean"`},
		{"renewed", "", "av OK - no verdict rows", 0, "Consistent"},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "clamscan"), out, tc.stderr, 0)
		chart := clamavChart(t, dir, strings.ReplaceAll(tc.name, " ", "-"), tool)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestRootkitHunterAsAUserIsNoAnswer: rkhunter 1.4.6 run as a user prints
// `You must be the root user to run this program.` on stdout and exits
// 1, its code for warnings found, and a check of its warnings under
// `exitCodes: {0: clean, 1: warnings}` with `result.empty: answer` said
// `OK - no verdict rows`, Consistent, over a scan that never ran
// (testdata/wave-av/rkhunter); chkrootkit's `… needs root privileges` is
// the same. Now a denied item: UNKNOWN. Its warnings as root are read,
// one quoting a refusal too: only the tools' own words are read on stdout.
func TestRootkitHunterAsAUserIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, tool, stdout, status string
		code                       int
		said                       string
	}{
		{"rkhunter as a user", "rkhunter", "You must be the root user to run this program.\n", "rk UNKNOWN - 1 stage did not check everything (check), no verdict rows", 3,
			`"You must be the root user to run this program."`},
		{"chkrootkit as a user", "chkrootkit", "/usr/sbin/chkrootkit needs root privileges\n", "rk UNKNOWN - 1 stage did not check everything (check), no verdict rows", 3,
			`"/usr/sbin/chkrootkit needs root privileges"`},
		{"rkhunter as root", "rkhunter", "Warning: The command '/usr/bin/lwp-request' has been replaced by a script: /usr/bin/lwp-request: Perl script text executable\n", "rk WARNING - 1 warning", 1,
			"Consistent"},
		{"rkhunter as root quoting a refusal", "rkhunter", "Warning: The file '/srv/app/run.sh' could not be read: Permission denied\n", "rk WARNING - 1 warning", 1,
			"Consistent"},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), tc.tool), tc.stdout, "", 1)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", rkhunterChart(tool))
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestRkhunterWarningsUnreadAreNoAnswerOfNone: rkhunter 1.4.6 with
// LANGUAGE=de in rkhunter.conf prints `Warnung: Die
// SSH-Konfigurationsvariable 'PermitRootLogin' has not been set.` under
// --rwo and exits 1, and a check of its `Warning:` lines under `{0:
// clean, 1: warnings}` and `result.empty: answer` said `OK - no verdict
// rows`, Consistent (testdata/wave-av/rkhunter); so did its run without
// --rwo (`[ Warning ]` beside each check, the text in its log) and its
// own error, `Unknown enabled test name given: hidden_dirs`, exit 1. Now
// a not-checked item (finding-elsewhere): UNKNOWN.
func TestRkhunterWarningsUnreadAreNoAnswerOfNone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stdout, said string
	}{
		{"in German", "Warnung: Die SSH-Konfigurationsvariable 'PermitRootLogin' has not been set.\n         Der Standard-Wert kann 'yes' enthalten, um Root-Zugang zu erlauben.\n",
			`its output's first line: "Warnung: Die SSH-Konfigurationsvariable 'PermitRootLogin' has not been set."`},
		{"without rwo", "[ Rootkit Hunter version 1.4.6 ]\n\nChecking the local host...\n    Checking if SSH root access is allowed                   [ Warning ]\n\nOne or more warnings have been found while checking the system.\nPlease check the log file (/var/log/rkhunter.log)\n",
			`its output's first line: "[ Rootkit Hunter version 1.4.6 ]"`},
		{"an unknown test", "Unknown enabled test name given: hidden_dirs\n", `"Unknown enabled test name given: hidden_dirs"`},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "rkhunter"), tc.stdout, "", 1)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", rkhunterChart(tool))
		nagiosSays(t, dir, tc.name, "rk UNKNOWN - 1 stage did not check everything (check), no verdict rows", 3, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestDaemonUnreachedIsSaidSo: with clamd not running, `clamdscan
// --version` prints its own `ClamAV 1.4.6` alone (no database's number
// and date), writes `ERROR: Could not connect to clamd on LocalSocket
// /var/run/clamav/clamd.ctl: No such file or directory` and exits 0. The
// run said it could not find a file it was given, "a missing log is no
// log without errors", and to give it the files that exist
// (testdata/wave-av/db-age); it says now that the client reached no
// daemon, and that what it printed is its own.
func TestDaemonUnreachedIsSaidSo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := fakeTool(t, filepath.Join(dir, "bin", "clamdscan"), "ClamAV 1.4.6\n", "ERROR: Could not connect to clamd on LocalSocket /var/run/clamav/clamd.ctl: No such file or directory\n", 0)
	chart := writeChart(t, dir, "db.yaml", `version: 1
runbook: db
result: {kind: verdict/database, nagios: {ok: [loaded], unknown: [none]}}
stages:
  - id: version
    exec:
      command: [`+tool+`, --version]
      parse: text
  - {id: v, verdict: {subject: '"clamd"', verdict: 'version.stdout contains "/" ? "loaded" : "none"'}}
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if !strings.HasPrefix(r.stdout, "db UNKNOWN - 1 stage did not check everything (version)") || r.code != 3 ||
		!strings.Contains(r.stdout, "could not connect to the daemon it asks though it exited 0, so what it printed is its own") ||
		strings.Contains(r.stdout, "could not find a file") {
		t.Errorf("exit %d:\n%s", r.code, r.stdout)
	}
}

// TestLynisAsAUserIsNoWholeAnswer: lynis 3.0.8 run as a user prints
// `NON-PRIVILEGED SCAN MODE` in a box on stdout, skips every test that
// needs root and exits 0; its report holds 3 of the 5 warnings root's
// run gave and no word of the tests skipped (testdata/wave-av/lynis).
// With nothing on stderr (a home it may write its log in, 2>/dev/null) a
// check of its warnings stood Consistent over the skipped tests; its
// banner is now a denied item. Root's run is Consistent.
func TestLynisAsAUserIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	banner := "[ Lynis 3.0.8 ]\n\n[+] Initializing program\n------------------------------------\n\n  ###################################################################\n  #                                                                 #\n  #   NON-PRIVILEGED SCAN MODE                                      #\n  #                                                                 #\n  ###################################################################\n\n  NOTES:\n  --------------\n  * Some tests will be skipped (as they require root permissions)\n"
	for _, tc := range []struct {
		name, stdout, status string
		code                 int
		said                 string
	}{
		{"as a user", banner, "lynis UNKNOWN - 1 stage did not check everything (audit)", 3, `it printed "NON-PRIVILEGED SCAN MODE" in its output`},
		{"as root", "[ Lynis 3.0.8 ]\n\n[+] Initializing program\n", "lynis OK - 1 done", 0, "Consistent"},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "lynis"), tc.stdout, "", 0)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: lynis
result: {kind: verdict/audit, nagios: {ok: [done]}}
stages:
  - id: audit
    exec:
      command: [`+tool+`, audit, system, --quick]
  - {id: v, verdict: {subject: '"audit"', verdict: 'audit.ok ? "done" : "failed"'}}
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestClamAVWithNoSignaturesIsNoAnswer: `clamscan -r -i /srv || true` (a
// cron script's) over a /var/lib/clamav freshclam never filled wrote
// `LibClamAV Error: cli_loaddbdir: No supported database files found`,
// printed its summary (`Known viruses: 0`, `Scanned files: 0`, `Infected
// files: 0`) and exited 2, which `|| true` made 0, and a check of the
// summary's count said `OK - 1 clean`, Consistent, with two infected
// files there (testdata/wave-av/summary); a path not there under `||
// true` was the same. Now not-checked items that leave the row unjudged
// (no-signatures, scan-failed): UNKNOWN. A whole scan is OK.
func TestClamAVWithNoSignaturesIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	summary := func(known, scanned string) string {
		return "\n----------- SCAN SUMMARY -----------\nKnown viruses: " + known + "\nEngine version: 1.4.6\nScanned directories: 1\nScanned files: " + scanned + "\nInfected files: 0\n"
	}
	for _, tc := range []struct {
		name, stdout, stderr, status string
		code, exit                   int
		said                         string
	}{
		{"no database", summary("0", "0"), "LibClamAV Error: cli_loaddbdir: No supported database files found in /var/lib/clamav\nERROR: Can't open file or directory\n", "av UNKNOWN - 1 stage did not check everything (scan), 1 clean", 3, 2,
			`it said it scanned with no signatures`},
		{"a path not there", summary("8708412", "0"), "/srv/nope: No such file or directory\nWARNING: /srv/nope: Can't access file\n", "av UNKNOWN - 1 stage did not check everything (scan), 1 clean", 3, 2,
			`"WARNING: /srv/nope: Can't access file"`},
		{"a whole scan", summary("8708412", "3"), "", "av OK - 1 clean", 0, 0, "Consistent"},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "clamscan"), tc.stdout, tc.stderr, tc.exit)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: av
result: {kind: verdict/directory, nagios: {critical: [infected], ok: [clean]}}
stages:
  - id: scan
    exec:
      shell: `+tool+` -r -i /srv || true
      parse: lines
  - id: n
    set:
      infected: 'int(trimPrefix(first(filter(scan.stdout, # startsWith "Infected files: ")), "Infected files: "))'
  - {id: v, verdict: {subject: '"/srv"', verdict: 'infected > 0 ? "infected" : "clean"'}}
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestClamAVFoundUnprintedIsNoAnswerOfNone: `clamscan --quiet -r -i`
// over two infected files printed nothing and exited 1, its code for an
// infected file found, and a check of its FOUND lines under `{0: clean,
// 1: found}` and `result.empty: answer` said `OK - no verdict rows`,
// Consistent (testdata/wave-av/files). Now a not-checked item
// (finding-elsewhere): UNKNOWN.
func TestClamAVFoundUnprintedIsNoAnswerOfNone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := fakeTool(t, filepath.Join(dir, "quiet", "clamscan"), "", "", 1)
	nagiosSays(t, dir, "quiet", "av UNKNOWN - 1 stage did not check everything (scan), no verdict rows", 3,
		"the scanner's code for an infected file found, but it printed no FOUND line", "exec", clamavChart(t, dir, "quiet", tool), "--format", "nagios")
	// --quiet beside a path not there: its error is the first word, and
	// with no FOUND line printed nothing stands (it was OK, Not sure)
	both := fakeTool(t, filepath.Join(dir, "quiet-missing", "clamscan"), "", "WARNING: /srv/nope: Can't access file\n", 1)
	nagiosSays(t, dir, "quiet beside a path not there", "av UNKNOWN - 1 stage did not check everything (scan), no verdict rows", 3,
		"but it printed no FOUND line (--quiet prints its errors alone)", "exec", clamavChart(t, dir, "quiet-missing", both), "--format", "nagios")
}

// rkhunterChart is a check of a rootkit hunter's Warning: lines, one row
// each, under {0: clean, 1: warnings}, the tool at tool.
func rkhunterChart(tool string) string {
	return `version: 1
runbook: rk
result: {kind: verdict/check, empty: answer, nagios: {warning: [warning]}}
stages:
  - id: check
    exec:
      command: [` + tool + `, --check, --sk, --rwo]
      exitCodes: {0: clean, 1: warnings}
      parse: lines
  - id: per
    foreach:
      items: 'filter(check.stdout, # startsWith "Warning: ")'
      as: w
      maxBranches: 100
      stages:
        - {id: w, verdict: {subject: w, verdict: '"warning"'}}
`
}
