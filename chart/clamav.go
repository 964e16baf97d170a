package chart

import (
	"path/filepath"
	"slices"
	"strings"
)

// clamavScanners are ClamAV's scanning commands: clamscan, which loads
// the signatures itself, and clamdscan, which hands the paths to clamd.
var clamavScanners = []string{"clamscan", "clamdscan"}

// clamavInfoModes are the options under which a ClamAV scanner scans
// nothing and prints about itself.
var clamavInfoModes = []string{"--version", "-V", "--help", "-h", "--ping", "--reload", "--wait"}

// ClamAVScan says whether the exec runs clamscan or clamdscan to scan
// (not --version, --help): a run reads what the scanner says of the paths
// it could not scan and of its signatures' age (runbook's clamavUnscanned,
// record.ClamAVUnscanned).
func (e *ExecSpec) ClamAVScan() bool {
	return e.noteOfEachCommand(func(argv []string) string {
		if !clamavScanArgv(argv) {
			return ""
		}
		return "clamav"
	}) != ""
}

// clamavScanArgv says whether argv runs a ClamAV scanner to scan.
func clamavScanArgv(argv []string) bool {
	if !slices.Contains(clamavScanners, filepath.Base(argv[0])) {
		return false
	}
	for _, a := range argv[1:] {
		if slices.Contains(clamavInfoModes, a) {
			return false
		}
	}
	return true
}

// ClamscanPassesOverLimits notes clamscan run without --alert-exceeds-max:
// a file past its limits (--max-filesize, 100 MB by default;
// --max-scansize, 400 MB; an archive's --max-files and --max-recursion)
// is scanned in part or not at all, printed `PATH: OK` and counted clean,
// exit 0, nothing said on stderr: a 30 MB file holding a signature in its
// first bytes said OK under --max-filesize=1M (testdata/wave-av/files;
// TestClamscanPassingOverLimitsIsNoted). With the option it prints
// `Heuristics.Limits.Exceeded.MaxFileSize FOUND` and exits 1, which a
// chart can read as unscanned. So is an encrypted archive without
// --alert-encrypted: `PATH: OK`. clamdscan's limits are clamd.conf's
// (AlertExceedsMax), which no argv shows. "" for none.
func (e *ExecSpec) ClamscanPassesOverLimits() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if filepath.Base(argv[0]) != "clamscan" || !clamavScanArgv(argv) {
			return ""
		}
		for _, a := range argv[1:] {
			if a == "--alert-exceeds-max" || a == "--alert-exceeds-max=yes" {
				return ""
			}
		}
		return "it runs clamscan without --alert-exceeds-max: a file past its limits (--max-filesize, 100 MB by default; --max-scansize, 400 MB; an archive's --max-files, --max-recursion) is scanned in part or not at all and printed PATH: OK, exit 0, with nothing said, so its clean is no scan of that file; add --alert-exceeds-max (it then prints Heuristics.Limits.Exceeded.… FOUND and exits 1: read that name as unscanned), and --alert-encrypted for archives it cannot open, which it calls OK too"
	})
}

// ClamscanErrorsUnsaid notes clamscan run with -i (--infected) and
// --no-summary together: -i leaves out the line of each directory it
// could not open and each file it could not read (`PATH: Can't open
// directory.`, `PATH: Access denied`), and --no-summary its `Total
// errors: N`, so nothing it prints says a path went unscanned; its exit 2
// says so when it found nothing, but a finding makes it 1, and the list
// of infected files reads as whole (testdata/wave-av/files;
// TestClamscanHidingItsErrorsIsNoted). "" for none.
func (e *ExecSpec) ClamscanErrorsUnsaid() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if filepath.Base(argv[0]) != "clamscan" || !clamavScanArgv(argv) {
			return ""
		}
		infected, summary := false, true
		for _, a := range argv[1:] {
			switch {
			case a == "--infected" || a == "--infected=yes":
				infected = true
			case a == "--no-summary" || a == "--no-summary=yes":
				summary = false
			case len(a) > 1 && a[0] == '-' && a[1] != '-' && !strings.ContainsAny(a[1:], "dlf"):
				// a cluster of short flags (-ri); -d, -l and -f take a value
				infected = infected || strings.ContainsRune(a[1:], 'i')
			}
		}
		if !infected || summary {
			return ""
		}
		return "it runs clamscan with -i (--infected) and --no-summary: -i leaves out each directory it could not open and each file it could not read (PATH: Can't open directory., PATH: Access denied), --no-summary its Total errors: N line, and when it finds an infected file it exits 1 as over a whole scan, so its list reads as whole over paths it never scanned; keep the summary (leave --no-summary out: a run then reads its Total errors line), or leave -i out and read each line"
	})
}

// ClamscanDepthLimit notes clamscan run recursively (-r, --recursive)
// without --max-dir-recursion: it descends at most 15 folders below the
// path given and passes over deeper ones saying nothing, even under
// --alert-exceeds-max and --debug: `clamscan -r deep` over a file 20
// folders down printed `Scanned directories: 15`, `Infected files: 0` and
// exited 0, and found it under --max-dir-recursion=30
// (testdata/wave-av/files; TestClamscanDepthLimitIsNoted). A tree of
// node_modules, or / with /var/lib/docker/overlay2 under it, goes past 15.
// clamdscan's is clamd.conf's MaxDirectoryRecursion (15 too), which no
// argv shows. "" for none.
func (e *ExecSpec) ClamscanDepthLimit() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if filepath.Base(argv[0]) != "clamscan" || !clamavScanArgv(argv) {
			return ""
		}
		recursive := false
		for _, a := range argv[1:] {
			switch {
			case a == "--max-dir-recursion" || strings.HasPrefix(a, "--max-dir-recursion="):
				return ""
			case a == "--recursive" || a == "--recursive=yes":
				recursive = true
			case len(a) > 1 && a[0] == '-' && a[1] != '-' && !strings.ContainsAny(a[1:], "dlf"):
				recursive = recursive || strings.ContainsRune(a[1:], 'r')
			}
		}
		if !recursive {
			return ""
		}
		return "it runs clamscan -r without --max-dir-recursion: it descends at most 15 folders below each path given and passes over deeper ones saying nothing (no line, no error, not under --alert-exceeds-max), exit 0, so a file deeper down (node_modules, /var/lib/docker/overlay2) is never scanned and reads as clean; give --max-dir-recursion=N deeper than the tree (clamd.conf's MaxDirectoryRecursion for clamdscan)"
	})
}
