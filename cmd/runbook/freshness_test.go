package main

import (
	"strings"
	"testing"
)

// backupAgeChart judges a backup's age by the stamp in its name, against
// the time given as checked (a fixed clock for the test).
const backupAgeChart = `
version: 1
runbook: backup-age
inputs:
  checked: {type: string, required: true}
result:
  kind: verdict/backup
  decider: Age
stages:
  - id: ls
    exec:
      command: [printf, 'db-20261206020000.sql.gz\n']
      parse: {as: regex, pattern: '^db-(?P<stamp>\d{14})\.sql\.gz$', numbers: false}
  - id: age
    name: Age
    decide:
      rules:
        - {when: 'date(checked) - date(ls.stdout[0].stamp, "20060102150405") > duration("24h")', then: stale, label: Older than a day}
      default: {branch: fresh, label: Made within the day}
    branches:
      stale: [{id: ms, verdict: {subject: '"db"', verdict: '"stale"'}}]
      fresh: [{id: mf, verdict: {subject: '"db"', verdict: '"fresh"'}}]
`

// TestBackupStampWithNoZoneIsNotFresh: a backup named by its host's local
// start (db-20261206020000.sql.gz, written at 02:00 in Berlin, 01:00 UTC)
// judged at 01:30 UTC the next day is 24h30m old; date(stamp,
// "20060102150405") read the stamp as UTC, 23h30m, and the check said
// "fresh", Consistent, exit 0 under --fail-on not-sure. The time has no
// zone: the run now says so, and the gate fires.
func TestBackupStampWithNoZoneIsNotFresh(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", backupAgeChart)
	r := runCLI(t, dir, "exec", chart, "--input", "checked=2026-12-07T01:30:00Z", "--fail-on", "not-sure")
	if r.code != 3 || strings.Contains(r.stdout, "Consistent") || !strings.Contains(r.stdout, "the time has no zone") {
		t.Errorf("exit %d; want 3, the stamp's missing zone said, never Consistent:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestBackupStampReadAsANumberSaysSo: the same stamp read by a parse mode
// that makes digits a number (the regex mode's default) made the rule's
// error Go's "interface conversion: interface {} is int, not string (1:17)";
// the standing line now says the value is a number and how to read it as
// text.
func TestBackupStampReadAsANumberSaysSo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", strings.Replace(backupAgeChart, ", numbers: false}", "}", 1))
	r := runCLI(t, dir, "exec", chart, "--input", "checked=2026-12-07T01:30:00Z")
	if strings.Contains(r.stdout, "interface conversion") || !strings.Contains(r.stdout, "date(20261206020000): date reads text, and this is a number") {
		t.Errorf("exit %d; want the number said, and how to read it as text:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestChartTestPassesAlikeInEveryZone: `runbook test` over a chart that
// reads its log's local stamps (date(x, layout, "Local")) gave one answer
// on a host in Berlin and another in UTC, though each case fixed its
// clock with now:: a case written on a laptop passed there and failed in
// CI, or passed in CI over a chart that is wrong in production. The
// case's now: is now the zone "Local" reads, whatever TZ the test runs
// under.
func TestChartTestPassesAlikeInEveryZone(t *testing.T) {
	t.Parallel()
	for _, tz := range []string{"UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"} {
		r := runCLIEnv(t, "../..", []string{"TZ=" + tz}, "test", "testdata/charttest/logage")
		if r.code != 0 || !strings.Contains(r.stdout, "3 passed, 0 failed") {
			t.Errorf("TZ=%s: exit %d; want every case to pass:\n%s\n%s", tz, r.code, r.stdout, r.stderr)
		}
	}
}

// TestValidateSaysDirIsNoTemplate: a chart with `dir: ${dir}` validated,
// planned ("every check passed") and ran, and its run said only "could not
// be started: working directory not found". validate now refuses it at the
// value, exit 1, saying how to run in a computed directory.
func TestValidateSaysDirIsNoTemplate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: sums
inputs:
  dir: {type: string, required: true}
stages:
  - id: sums
    exec:
      command: [sha256sum, -c, SHA256SUMS]
      dir: ${dir}
`)
	r := runCLI(t, dir, "validate", chart)
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, `c.yaml:9:12: stage "sums": exec dir holds ${…}, but dir: is literal`) {
		t.Errorf("exit %d; want 1 and the dir refused at its value:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestValidateSaysWhichBlockAKeyBelongsTo: exitCodes: one indent too far
// left, beside exec:, was refused with the list of stage keys, which does
// not hold it; validate now says it is exec:'s and to indent it.
func TestValidateSaysWhichBlockAKeyBelongsTo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: probe
stages:
  - id: probe
    exec:
      command: [curl, -s, -o, /dev/null, -w, '%{http_code}', http://svc/]
    exitCodes: {0: answered, 7: unreachable}
`)
	r := runCLI(t, dir, "validate", chart)
	if r.code != 1 || !strings.Contains(r.stdout+r.stderr, `c.yaml:7:5: stage "probe": unknown key "exitCodes" in the stage: it is a key of exec:, so indent it under exec:`) {
		t.Errorf("exit %d; want 1 and the block named:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestForeachOverAnObjectSaysHowToGoOverIt: a foreach over a manifest's
// object ({"db.sql.gz": 6, …}) failed the run with "items files gave
// map[string]interface {}, not a list", Go's words; it now says an object
// and how to go over its keys in order.
func TestForeachOverAnObjectSaysHowToGoOverIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: sizes
inputs:
  files: {type: object, required: true}
stages:
  - id: each
    foreach:
      items: files
      as: f
      maxBranches: 10
      stages:
        - {id: seen, set: {name: f}}
`)
	r := runCLI(t, dir, "exec", chart, "--input", `files={"db.sql.gz": 6}`)
	if r.code != 1 || strings.Contains(r.stdout+r.stderr, "map[string]interface") || !strings.Contains(r.stdout+r.stderr, "items files gave an object, not a list: a foreach goes over a list; to go over the object's keys, in order, write items: sort(keys(files))") {
		t.Errorf("exit %d; want 1, the object named and how to go over it:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestDurationInputComparedAsIsSaysReadIt: maxAge: {type: duration} is the
// text "26h" in the scope; a rule `date(checked) - date(made) > maxAge`
// was Not sure over "invalid operation: time.Duration > string (1:38)".
// The standing line now names the text and says duration(x).
func TestDurationInputComparedAsIsSaysReadIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: age
inputs:
  maxAge: {type: duration, required: true}
  made: {type: string, required: true}
  checked: {type: string, required: true}
result:
  kind: verdict/backup
  decider: Age
stages:
  - id: age
    name: Age
    decide:
      rules:
        - {when: 'date(checked) - date(made) > maxAge', then: stale, label: Older than maxAge}
      default: {branch: fresh, label: Within maxAge}
    branches:
      stale: [{id: ms, verdict: {subject: '"db"', verdict: '"stale"'}}]
      fresh: [{id: mf, verdict: {subject: '"db"', verdict: '"fresh"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--input", "maxAge=26h", "--input", "made=2026-12-06T02:00:00Z", "--input", "checked=2026-12-07T05:00:00Z")
	if !strings.Contains(r.stdout, `a duration cannot be ordered with the text "26h"`) || !strings.Contains(r.stdout, "read it with duration(x)") || strings.Contains(r.stdout, "time.Duration > string") {
		t.Errorf("exit %d; want the text named and duration(x) said:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
