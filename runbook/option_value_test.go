package runbook_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestOptionFromAnItemIsRefused: a host list's item "-V" rendered as
// ssh's host argument made ssh print its version and exit 0, so
// `[ssh, …, "${host}", "pgrep -x sshd"]` under `exitCodes: {0: running}`
// said a host nobody reached was running, OK, Consistent
// (testdata/wave-fleet/service). A value of the run that puts a leading
// "-" in front of an argument fails the stage before anything runs; a
// dash the chart wrote, a number and an argument after a literal "--"
// are taken as written.
func TestOptionFromAnItemIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, item, command string
		refused             bool
	}{
		{"an item read as an option", "-V", `[sh, -c, 'exit 0', sh, "${host}"]`, true},
		{"an item glued after the value's dash", "-oProxyCommand=true", `[sh, -c, 'exit 0', sh, "${host}x"]`, true},
		{"a plain host", "web1", `[sh, -c, 'exit 0', sh, "${host}"]`, false},
		{"a negative number", "-5", `[sh, -c, 'exit 0', sh, "${host}"]`, false},
		{"after a literal --", "-V", `[sh, -c, 'exit 0', sh, --, "${host}"]`, false},
		{"the chart's own dash", "V", `[sh, -c, 'exit 0', sh, "-${host}"]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rb := parse(t, fmt.Sprintf(`version: 1
runbook: option-value
inputs:
  host: {type: string, required: true}
stages:
  - id: probe
    exec: {command: %s, exitCodes: {0: running, 1: stopped}}
`, tc.command))
			res, err := rb.Exec(context.Background(), map[string]any{"host": tc.item})
			if err != nil {
				t.Fatal(err)
			}
			rec := res.Record
			if !tc.refused {
				if rec.Status != "completed" {
					t.Fatalf("status %s, want completed: %+v", rec.Status, rec.Error)
				}
				return
			}
			if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, "reads it as an option") {
				t.Fatalf("status %s, error %+v: want the stage failed, saying the value is read as an option", rec.Status, rec.Error)
			}
			if len(rec.Scripts) != 0 {
				t.Errorf("a script ran: %+v", rec.Scripts)
			}
		})
	}
}
