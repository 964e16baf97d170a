package charttest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCaseNowFixesTheClock: a chart that judges a certificate's expiry
// against now() had no test that passed on every day: now() read the
// host's clock, so the case "expires in ten days" passed until the
// certificate's date and failed after it, and its record said nothing of
// the time it judged against. A case's now: is the time every now() of its
// run reads, and the rule's evidence holds it (the input now()).
func TestCaseNowFixesTheClock(t *testing.T) {
	t.Parallel()
	res := allPass(t, "../../testdata/charttest/cert/chart_test.yaml", 3)
	d := res.Cases[0].Record.Decisions[0]
	var read any
	for _, in := range d.Rules[1].Inputs {
		if in.Path == "now()" {
			read = in.Value
		}
	}
	if read != "2026-12-10T10:00:00Z" {
		t.Errorf("rule 2's evidence read now() = %v (inputs %+v); want the case's 2026-12-10T10:00:00Z", read, d.Rules[1].Inputs)
	}
}

// TestCaseNowFixesTheZone: a chart reading its log's local stamps with
// date(x, layout, "Local") read them in the zone of the host running the
// test, while now: fixed the clock: a case at 08:50 Berlin over a 07:55
// stamp passed on a laptop in Berlin (55 minutes, silent) and failed in CI
// in UTC (07:55 UTC is 08:55 Berlin, written "in the future"), or the
// other way round. The case's now: is now the host's zone too: each case
// here, one in Berlin and one in New York, passes on every host.
func TestCaseNowFixesTheZone(t *testing.T) {
	t.Parallel()
	allPass(t, "../../testdata/charttest/logage/chart_test.yaml", 3)
}

// TestCaseNowFixesTheZoneOfVars: a case's now: fixed the zone of its
// stages' and rules' "Local", but a vars: expression and timezone("Local")
// still read the zone of the host running the test: a change window
// opening at 08:00 local was open at 08:50 Berlin on a laptop in Berlin
// and closed in CI in UTC (08:00 UTC is after 08:50 Berlin's 07:50 UTC).
// Each case here, in Berlin and in New York, passes on every host.
func TestCaseNowFixesTheZoneOfVars(t *testing.T) {
	t.Parallel()
	allPass(t, "../../testdata/charttest/windowvars/chart_test.yaml", 3)
}

// TestCaseZoneReadsAZoneAbbreviation: a case's zone: is this machine's
// zone for date(x, layout) too, whose layout reads a zone's abbreviation
// (MST): keytool on a host in Berlin prints "CET", which Go looks up in
// the zone of the host running the test, so a case with zone:
// Europe/Berlin passed on a laptop in Berlin and failed in CI in UTC ("the
// zone CET has no offset this machine knows") (wave-pki,
// testdata/wave-pki/keystore_test.yaml). Each case here passes on every
// host.
func TestCaseZoneReadsAZoneAbbreviation(t *testing.T) {
	t.Parallel()
	allPass(t, "../../testdata/charttest/zoneabbrev/chart_test.yaml", 3)
}

// allPass runs a chart test file and wants its n cases, each passing.
func allPass(t *testing.T, file string, n int) *FileResult {
	t.Helper()
	f, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	if len(res.Cases) != n {
		t.Fatalf("%d cases ran, want %d", len(res.Cases), n)
	}
	for _, c := range res.Cases {
		if !c.Passed() {
			t.Errorf("case %q: %v", c.Case.Name, c.Failures)
		}
	}
	return res
}

// TestCaseZoneCrossesADaylightSavingChange: a case's now: fixes an offset,
// so a stamp in local time read across a daylight-saving change was read
// in the wrong one: an archive from 02:00 CET on 28 March, judged at 03:30
// CEST on the 29th, was 25h30m old and stale where a host in Berlin says
// 24h30m and ok (wave-backup's finding). zone: names the zone the case's
// clock and this machine's zone are read in; a name no zone has is
// refused at its place.
func TestCaseZoneCrossesADaylightSavingChange(t *testing.T) {
	t.Parallel()
	allPass(t, "../../testdata/charttest/dstzone/chart_test.yaml", 2)
	dir := t.TempDir()
	chart, err := os.ReadFile("../../testdata/charttest/dstzone/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chart.yaml"), chart, 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad_test.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\nchart: chart.yaml\ncases:\n  - name: x\n    zone: Europe/Berlinn\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), `bad_test.yaml:5:11`) || !strings.Contains(err.Error(), `zone "Europe/Berlinn" is no zone name`) {
		t.Errorf("a misspelled zone: %v", err)
	}
}
