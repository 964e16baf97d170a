package runbook_test

import (
	"context"
	"testing"
	"time"

	"github.com/openrunbook/runbook/runbook"
)

// TestIssue13DeclaredAnswerIsNotRetried: under retry: with no on:, a
// Nagios check exiting 2 (declared an answer by exitCodes: nagios) ran
// three times, as if its measurement were a fault. Now it runs once; an
// undeclared 127 is still retried to the last attempt, and an on: that
// lists the answer's code is honoured as written.
func TestIssue13DeclaredAnswerIsNotRetried(t *testing.T) {
	t.Parallel()
	rb, err := runbook.Open("../testdata/issue13/answer-no-retry/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := rb.Exec(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	attempts := map[string]int{}
	for _, row := range res.Record.Scripts {
		attempts[row.Path]++
	}
	for stage, want := range map[string]int{"load": 1, "gone": 3, "asked": 2} {
		if attempts[stage] != want {
			t.Errorf("%s ran %d times, want %d (script rows %+v)", stage, attempts[stage], want, res.Record.Scripts)
		}
	}
}
