package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// btrfsFixture is a real btrfs-progs 6.2 output kept under
// testdata/wave-btrfs.
func btrfsFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "wave-btrfs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBtrfsScrubCorrectedIsNoAnswerOfClean: btrfs-scrub(8) exits 3 over
// uncorrectable errors and 0 over a scrub that succeeded, errors found
// and corrected or none, so `btrfs scrub start -B MNT` under `exitCodes:
// {0: clean, 3: uncorrectable}` said `OK - 1 clean`, Consistent, over a
// RAID1 scrub that repaired 16 checksum errors of one disk (stderr:
// `WARNING: errors detected during scrubbing, corrected`;
// testdata/wave-btrfs/scrub-start), and over a scrub started without
// -B, which btrfs leaves running in the background, exiting 0 at once
// (`scrub started on MNT, fsid … (pid=N)`). Now a not-checked item
// (code-not-answer): Not sure, UNKNOWN. A scrub that found none is
// still clean, and 3 still uncorrectable.
func TestBtrfsScrubCorrectedIsNoAnswerOfClean(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, fixture string
		exit          int
		status        string
		code          int
		said          string
		wait          string
	}{
		{"background", "background", 0, "scrub UNKNOWN - 1 stage did not check everything (scrub), 1 clean (1 not judged: /srv)", 3,
			`it started the scrub in the background and returned though it exited 0, which the chart declares the answer "clean": "scrub started on mnt/r, fsid e52d3f26-32a9-4a5c-b667-5c7d743a9629 (pid=11948)"`, "-d"},
		{"corrected", "corrected", 0, "scrub UNKNOWN - 1 stage did not check everything (scrub), 1 clean (1 not judged: /srv)", 3,
			`it said on stderr what that code does not: "WARNING: errors detected during scrubbing, corrected"; so "clean" is not known: btrfs scrub exits 0 over errors it found and corrected too`, ""},
		{"clean", "clean", 0, "scrub OK - 1 clean", 0, "Consistent", ""},
		{"uncorrectable", "uncorrectable", 3, "scrub CRITICAL - 1 uncorrectable", 2, "Consistent", ""},
	} {
		if tc.wait == "" {
			tc.wait = "-B"
		}
		tool := fakeTool(t, filepath.Join(dir, tc.name, "btrfs"),
			btrfsFixture(t, "scrub-start/"+tc.fixture+".txt"), btrfsFixture(t, "scrub-start/"+tc.fixture+".err.txt"), tc.exit)
		chart := writeChart(t, dir, tc.name+".yaml", `version: 1
runbook: scrub
result: {kind: verdict/scrub, decider: Scrub, nagios: {critical: [uncorrectable], ok: [clean]}}
stages:
  - id: scrub
    exec:
      command: [`+tool+`, scrub, start, `+tc.wait+`, /srv]
      exitCodes: {0: clean, 3: uncorrectable}
  - id: judge
    name: Scrub
    decide:
      rules:
        - {when: scrub.status == "uncorrectable", then: bad, label: errors it could not correct}
      default: {branch: ok, label: no uncorrectable errors}
    branches:
      bad: [{id: b, verdict: {subject: '"/srv"', verdict: '"uncorrectable"'}}]
      ok: [{id: c, verdict: {subject: '"/srv"', verdict: '"clean"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestBtrfsMissingDeviceIsNoAnswer: over a RAID1 mounted -o degraded,
// its second disk gone, btrfs device stats prints the missing device's
// counters as last written, named `devid:2`, and exits 0 (-c too when
// they are zero); a check of each device's counters said `OK - 2 clean`,
// Consistent, `devid:2: clean` among them (testdata/wave-btrfs/
// device-stats). Now a not-checked item (btrfs-device-missing) over
// every form it prints the device in, and over filesystem usage's
// Device missing: Not sure, UNKNOWN. A filesystem with every device
// there is still clean.
func TestBtrfsMissingDeviceIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, fixture, status string
		code                  int
		said                  string
	}{
		{"stats", "device-stats/degraded-zero.txt", "stats UNKNOWN - 1 stage did not check everything (stats), 1 clean (1 not judged: /srv)", 3,
			`it says a device of the btrfs filesystem is missing (mounted degraded) though it exited 0, which the chart declares the answer "clean": "[devid:2].write_io_errs    0"`},
		{"table", "device-stats/degraded-table.txt", "stats UNKNOWN", 3, `"2    devid:2            0`},
		{"json", "device-stats/degraded-json.txt", "stats UNKNOWN", 3, `"\"device\": \"devid:2\","`},
		{"usage", "usage/degraded.txt", "stats UNKNOWN", 3, `"Device missing:\t\t         314572800"`},
		{"usage human", "usage/degraded-human.txt", "stats UNKNOWN", 3, `"Device missing:\t\t 300.00MiB"`},
		{"device usage", "usage/device-usage-degraded.txt", "stats UNKNOWN", 3, `"missing, ID: 2"`},
		{"usage table", "usage/table-degraded.txt", "stats UNKNOWN", 3, `"Device missing:\t\t 300.00MiB"`},
		{"show", "usage/show-degraded.txt", "stats UNKNOWN", 3, `"devid    2 size 0 used 0 path  MISSING"`},
		{"every device there", "device-stats/healthy.txt", "stats OK - 1 clean", 0, "Consistent"},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		tool := fakeTool(t, filepath.Join(dir, name, "btrfs"), btrfsFixture(t, tc.fixture), "", 0)
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: stats
result: {kind: verdict/device-errors, decider: Counters, nagios: {critical: [errors], ok: [clean]}}
stages:
  - id: stats
    exec:
      command: [`+tool+`, device, stats, -c, /srv]
      exitCodes: {0: clean, 64: errors}
  - id: counters
    name: Counters
    decide:
      rules:
        - {when: stats.status == "errors", then: errors, label: a counter above zero}
      default: {branch: clean, label: every counter zero}
    branches:
      errors: [{id: e, verdict: {subject: '"/srv"', verdict: '"errors"'}}]
      clean: [{id: c, verdict: {subject: '"/srv"', verdict: '"clean"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestBtrfsQgroupInconsistentIsNoWholeAnswer: btrfs qgroup show over
// quota accounting marked inconsistent (a qgroup assigned to a parent
// with --no-rescan) says `WARNING: qgroup data inconsistent, rescan
// recommended` on stderr and exits 0, and the accounting has stopped: a
// subvolume holding 20 MiB under a 10 MiB limit read 16384 referenced
// bytes, and a check of qgroup limits said `sv2: ok`, Consistent
// (testdata/wave-btrfs/qgroup). Now a not-checked item (denied): Not
// sure, its rows not judged. After a rescan (no warning) the rows stand.
func TestBtrfsQgroupInconsistentIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, fixture, stderr, status string
		code                          int
		said                          string
	}{
		{"inconsistent", "qgroup/inconsistent.txt", "WARNING: qgroup data inconsistent, rescan recommended\n",
			"qgroup CRITICAL - 1 stage did not check everything (show), 2 over (sv1, sv1s), 1 ok (1 not judged: sv2)", 2,
			`it said on stderr that the qgroup numbers it printed may be wrong`},
		{"rescan running", "qgroup/inconsistent.txt", "WARNING: rescan is running, qgroup data may be incorrect\n",
			"qgroup CRITICAL - 1 stage did not check everything (show)", 2, "rescan and wait (btrfs quota rescan -w MNT)"},
		{"rescanned", "qgroup/rescanned.txt", "", "qgroup CRITICAL - 3 over (sv1, sv2, sv1s)", 2, "Consistent"},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		tool := fakeTool(t, filepath.Join(dir, name, "btrfs"), btrfsFixture(t, tc.fixture), tc.stderr, 0)
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: qgroup
result: {kind: verdict/qgroup, decider: Limit, nagios: {critical: [over], ok: [ok]}}
stages:
  - id: show
    exec:
      command: [`+tool+`, qgroup, show, -re, --raw, /srv]
      parse: {as: regex, pattern: '^(?P<qgroup>\d+/\d+)\s+(?P<rfer>\d+)\s+(?P<excl>\d+)\s+(?P<max_rfer>\d+|none)\s+(?P<max_excl>\d+|none)\s+(?P<path>.*?)\s*$', skip: 2}
  - id: limited
    set:
      groups: 'filter(show.stdout, string(#.max_rfer) != "none")'
  - id: per
    foreach:
      items: groups
      as: g
      maxBranches: 100
      stages:
        - id: limit
          name: Limit
          decide:
            rules:
              - {when: g.rfer >= g.max_rfer, then: over, label: at or over its limit}
            default: {branch: ok, label: under its limit}
          branches:
            over: [{id: o, verdict: {subject: g.path, verdict: '"over"'}}]
            ok: [{id: k, verdict: {subject: g.path, verdict: '"ok"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestTestparmUnknownParameterIsNoAnswerOfValid: `testparm -s` over a
// share written `guest okk = yes` printed `Unknown parameter encountered:
// "guest okk"` and `Ignoring unknown parameter "guest okk"` on stderr,
// then `Loaded services file OK.`, and exited 0 (Samba 4.17: it exits 1
// only over a file it cannot load), and a check of smb.conf under
// `exitCodes: {0: valid, 1: invalid}` said valid, OK, Consistent, over a
// share Samba serves without guest access (wave-samba's design
// question). Now a not-checked item (code-not-answer): Not sure,
// UNKNOWN. A file testparm knows whole is still valid; a chart that
// parses the dump it prints judges that.
func TestTestparmUnknownParameterIsNoAnswerOfValid(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const dump = "# Global parameters\n[global]\n\tworkgroup = WG\n\n[pub]\n\tpath = /srv/pub\n"
	const load = "Load smb config files from /etc/samba/smb.conf\n"
	for _, tc := range []struct {
		name, stderr, status string
		code                 int
		said                 string
	}{
		{"a parameter misspelt", load + "Unknown parameter encountered: \"guest okk\"\nIgnoring unknown parameter \"guest okk\"\nLoaded services file OK.\nWeak crypto is allowed\n", "smb UNKNOWN - 1 stage did not check everything (tp), 1 valid", 3,
			`it said on stderr what that code does not: "Unknown parameter encountered: \"guest okk\""; so "valid" is not known: testparm exits 0 over a parameter it does not know`},
		{"a file it knows whole", load + "Loaded services file OK.\nWeak crypto is allowed\n", "smb OK - 1 valid", 0, "Consistent"},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		tool := fakeTool(t, filepath.Join(dir, name, "testparm"), dump, tc.stderr, 0)
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: smb
result: {kind: verdict/config, nagios: {ok: [valid], critical: [invalid]}}
stages:
  - id: tp
    exec: {command: [`+tool+`, -s], exitCodes: {0: valid, 1: invalid}}
  - {id: v, verdict: {subject: '"/etc/samba/smb.conf"', verdict: tp.status}}
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}
