package runbook

import (
	"testing"
	"time"

	"github.com/openrunbook/runbook/chart"
)

// TestIssue12ExecRetryJitter is the regression test for `retry.jitter` being
// ignored by exec retries: exec computed its own delay, without jitter,
// while flow's backoff applied it. Exec's wait now comes from the one
// policy settle gives it, so a jittered backoff of 1s waits within
// [500ms, 1s] and not always the full second.
func TestIssue12ExecRetryJitter(t *testing.T) {
	st := &chart.StageSpec{ID: "x", Kind: "exec", Exec: &chart.ExecSpec{Command: []string{"false"}},
		Retry: &chart.RetrySpec{Attempts: 3, Backoff: time.Second, MaxBackoff: 4 * time.Second, Jitter: true}}
	set := settle(st)
	if set.retry == nil || !set.retry.Jitter {
		t.Fatalf("exec's retry policy lost jitter: %+v", set.retry)
	}
	shorter := false
	for range 200 {
		d := set.retry.Delay(1)
		if d < 500*time.Millisecond || d > time.Second {
			t.Fatalf("jittered delay %s outside [500ms, 1s]", d)
		}
		shorter = shorter || d < time.Second
	}
	if !shorter {
		t.Fatal("200 jittered delays were all the full backoff")
	}
}

// TestSettle is the table of every kind's effective bounds: the one place
// each default and timeout is decided.
func TestSettle(t *testing.T) {
	retry := &chart.RetrySpec{Attempts: 2, Backoff: time.Second, On: []string{"timeout"}}
	tests := []struct {
		name                       string
		st                         chart.StageSpec
		timeout, flowTimeout       time.Duration
		execRetry, flowRetry, isOn bool
	}{
		{"exec default", chart.StageSpec{Kind: "exec", Exec: &chart.ExecSpec{}}, chart.DefaultExecTimeout, 0, false, false, false},
		{"exec stage timeout", chart.StageSpec{Kind: "exec", Timeout: time.Second, Exec: &chart.ExecSpec{}}, time.Second, 0, false, false, false},
		{"exec own timeout wins", chart.StageSpec{Kind: "exec", Timeout: time.Second, Exec: &chart.ExecSpec{Timeout: 2 * time.Second}}, 2 * time.Second, 0, false, false, false},
		{"exec retry inside", chart.StageSpec{Kind: "exec", Retry: retry, Exec: &chart.ExecSpec{}}, chart.DefaultExecTimeout, 0, true, false, true},
		{"plugin", chart.StageSpec{Kind: "plugin", Timeout: time.Second, Retry: retry}, time.Second, 0, false, true, true},
		{"set", chart.StageSpec{Kind: "set", Timeout: time.Second, Retry: retry}, 0, time.Second, false, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := settle(&tc.st)
			if s.timeout != tc.timeout || s.flowTimeout != tc.flowTimeout || (s.retry != nil) != tc.execRetry || (s.flowRetry != nil) != tc.flowRetry || (len(s.on) > 0) != tc.isOn {
				t.Fatalf("settle = %+v", s)
			}
			if s.flowRetry != nil && s.flowRetry.On == nil {
				t.Fatal("retry.on dropped from the executor's policy")
			}
		})
	}
}
