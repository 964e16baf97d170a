package temporal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/temporal"
)

// TestTheRunReadsTheZoneItWasStartedIn: on Temporal now() was the
// workflow's clock in UTC and date(x, layout, "Local") read the worker's
// zone, so a chart started in Berlin that named last night's backup by
// now().Format(…) or read a log's local stamps answered by the zone of
// whichever worker ran it (and a replay on a worker in another zone took
// another branch). The run now reads the zone it was started in: the one
// RunInput.Zone gives, or the starting machine's.
func TestTheRunReadsTheZoneItWasStartedIn(t *testing.T) {
	_, c := server(t, "zone")
	ex := &temporal.Executor{Client: c, TaskQueue: "zone"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	read := func(in temporal.RunInput) (offset, local any) {
		t.Helper()
		run, err := ex.ExecFileWith(ctx, "testdata/charts/zone.yaml", in)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := run.RunRecord()
		if err != nil {
			t.Fatal(err)
		}
		return rec.Result.State["offset"], rec.Result.State["local"]
	}
	offset, local := read(temporal.RunInput{Zone: &temporal.Zone{Name: "Europe/Berlin", TZif: tzif(t, "Europe/Berlin")}})
	if offset != "+0100" || local != "2026-12-06T09:00:00Z" {
		t.Errorf("a run started in Berlin read now() at %v and 10:00 local as %v; want +0100 and 2026-12-06T09:00:00Z", offset, local)
	}
	// No zone given: the starting machine's, as TZ says it.
	t.Setenv("TZ", "Asia/Kolkata")
	offset, local = read(temporal.RunInput{})
	if offset != "+0530" || local != "2026-12-06T04:30:00Z" {
		t.Errorf("a run started under TZ=Asia/Kolkata read now() at %v and 10:00 local as %v; want +0530 and 2026-12-06T04:30:00Z", offset, local)
	}
}

// TestLocalZoneIsWhatTheMachineReads: LocalZone reads TZ as Go's time
// package does, and says what would be right for a zone it cannot find.
func TestLocalZoneIsWhatTheMachineReads(t *testing.T) {
	for _, tc := range []struct{ tz, name, err string }{
		{"", "UTC", ""},
		{":UTC", "UTC", ""},
		{"Europe/Berlin", "Europe/Berlin", ""},
		{":Europe/Berlin", "Europe/Berlin", ""},
		{"Europe/Berln", "", "TZ=Europe/Berln: no such zone in the tz database"},
	} {
		t.Setenv("TZ", tc.tz)
		z, err := temporal.LocalZone()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("TZ=%q: %v, %v; want an error saying %q", tc.tz, z, err, tc.err)
			}
			continue
		}
		if err != nil || z.Name != tc.name {
			t.Errorf("TZ=%q: %+v, %v; want the zone %s", tc.tz, z, err, tc.name)
		}
	}
}

// tzif is a zone's tz database file from the system's, or nil where the
// machine has none (a bare container): the zone is then read by its name
// from the tz data built into the binary.
func tzif(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/usr/share/zoneinfo", name))
	if err != nil {
		t.Logf("the zone %s by name: %v", name, err)
		return nil
	}
	return b
}
