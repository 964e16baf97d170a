package runbook_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPodmanEventsTimeFromAnInputIsRefused: the loader refuses a
// `podman events --since` value written in the chart that podman reads as
// no time, but one given through an input it cannot see: `[podman,
// events, --since, "${since}", --stream=false, --filter, event=died]` run
// with --input since=1d printed no event, exit 0 (podman 4.3 says
// nothing of the value it could not read), and a restart-loop check
// under result.empty: answer said no container died, OK, Consistent.
// Such a value fails the stage before anything runs, with the load
// error's words; a time podman reads runs.
func TestPodmanEventsTimeFromAnInputIsRefused(t *testing.T) {
	t.Parallel()
	podman := filepath.Join(t.TempDir(), "podman")
	if err := os.WriteFile(podman, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	rb := parse(t, fmt.Sprintf(`version: 1
runbook: deaths
inputs:
  since: {type: string, default: 24h}
stages:
  - id: events
    exec: {command: [%s, events, "--since=${since}", --stream=false, --filter, event=died, --format, json], parse: jsonl}
`, podman))
	for _, tc := range []struct {
		since   string
		refused bool
	}{
		{"1d", true},
		{"24h", false},
		{"2026-12-08", false},
	} {
		res, err := rb.Exec(context.Background(), map[string]any{"since": tc.since})
		if err != nil {
			t.Fatal(err)
		}
		rec := res.Record
		if !tc.refused {
			if rec.Status != "completed" {
				t.Errorf("since %s: status %s, want completed: %+v", tc.since, rec.Status, rec.Error)
			}
			continue
		}
		const said = `exec command argument 3 "--since=${since}" rendered "--since=1d", which is no time podman reads for --since, and podman events then prints no event and exits 0, saying nothing, as over a host where nothing happened: a rule counting them would find none; write "24h" for "1d"; nothing was run`
		if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, said) {
			t.Errorf("since %s: status %s, error %+v: want the stage failed, saying %s", tc.since, rec.Status, rec.Error, said)
		}
		if len(rec.Scripts) != 0 {
			t.Errorf("since %s: a script ran: %+v", tc.since, rec.Scripts)
		}
	}
}
