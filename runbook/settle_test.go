package runbook_test

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestIssue12StageTimeoutBoundsExec is the regression test for a stage-level
// `timeout:` on an exec stage being ignored: the loader set exec's own
// timeout to the 60 s default, so `timeout: 300ms` on `sleep 2` ran the two
// seconds and said timedOut: false.
func TestIssue12StageTimeoutBoundsExec(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, stage string
		timedOut    bool
	}{
		{"stage timeout", `{id: slow, timeout: 300ms, exec: {command: [sleep, "2"]}}`, true},
		{"exec timeout", `{id: slow, exec: {command: [sleep, "2"], timeout: 300ms}}`, true},
		{"exec timeout over the stage's", `{id: slow, timeout: 5s, exec: {command: [sleep, "2"], timeout: 300ms}}`, true},
		{"within the stage timeout", `{id: slow, timeout: 5s, exec: {command: ["true"]}}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rb := parse(t, fmt.Sprintf("version: 1\nrunbook: timeout\nhonesty: []\nstages:\n  - %s\n", tc.stage))
			res, err := rb.Exec(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := res.Record.State["slow"].(map[string]any)
			if got := out["timedOut"]; got != tc.timedOut {
				t.Fatalf("timedOut = %v, want %v (state %v)", got, tc.timedOut, out)
			}
		})
	}
}

// TestIssue12PluginRetryOn is the regression test for `retry.on` being kept
// only for exec stages: a plugin stage's `on:` was dropped, so it retried on
// any failure. A call that runs out of time is retried under `on:
// [timeout]`; a call the plugin answers with an error is filed
// completed-with-failure and retried only under that label; an exit code
// matches no plugin failure.
func TestIssue12PluginRetryOn(t *testing.T) {
	t.Parallel()
	wrapper := waitPlugin(t)
	const waits, fails = "{}", `{fail: '"refused"'}`
	tests := []struct {
		name, args, on string
		attempts       int
	}{
		{"timeout retried", waits, "[timeout]", 3},
		{"exit code matches no plugin failure", waits, `["1"]`, 1},
		{"answered failure retried", fails, "[completed-with-failure]", 3},
		{"answered failure is no timeout", fails, "[timeout]", 1},
		{"answered failure is not unknown", fails, "[outcome-unknown]", 1},
		// Under load the plugin's own timer on the stage deadline can fire
		// first: it answers with its context's error. That is a timeout,
		// not a failure it chose (the stage returned the bare RunError, so
		// `on: [timeout]` made one attempt).
		{"plugin answering its deadline is a timeout", `{fail: '"context deadline exceeded"'}`, "[timeout]", 3},
		{"plugin answering its deadline is no chosen failure", `{fail: '"context deadline exceeded"'}`, "[completed-with-failure]", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rb := parse(t, fmt.Sprintf(`version: 1
runbook: plugin-retry
honesty: []
plugins: {wait: {command: %q}}
stages:
  - {id: call, timeout: 2s, retry: {attempts: 3, on: %s}, plugin: {name: wait, args: %s}}
`, wrapper, tc.on, tc.args))
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := rb.Exec(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var errs []string
			for _, c := range res.Run.Log.Commits() {
				if c.Stage == "call" {
					errs = append(errs, c.Err)
				}
			}
			if len(errs) != tc.attempts || res.Record.Status != "failed" {
				t.Fatalf("%d attempts (%q), status %s; want %d attempts and failed", len(errs), errs, res.Record.Status, tc.attempts)
			}
		})
	}
}
