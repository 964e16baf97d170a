package flow_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/flow"
)

// TestTimedOutStageThatIgnoresItsContext holds what Timeout's doc says of
// a Go stage that does not watch its context: it fails with
// ErrStageTimeout; what it writes before it returns within the abandon
// grace commits beside that failure; past the grace nothing more does.
func TestTimedOutStageThatIgnoresItsContext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		grace    time.Duration
		wantLate bool
	}{
		{"returns within the grace", 5 * time.Second, true},
		{"abandoned past the grace", 10 * time.Millisecond, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			defer close(release)
			c, err := flow.New("stubborn").
				Stage("slow", func(ctx context.Context, s *flow.Scope) error {
					s.Set("early", true)
					<-ctx.Done() // past its timeout, and it goes on regardless
					if tc.wantLate {
						s.Set("late", true)
						return nil
					}
					<-release
					s.Set("late", true)
					return nil
				}, flow.Timeout(10*time.Millisecond), flow.ContinueOnError("slow")).
				Build()
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Run(context.Background(), flow.WithAbandonGrace(tc.grace))
			if err != nil {
				t.Fatal(err)
			}
			commit := res.Log.Commits()[0]
			if !strings.Contains(commit.Err, flow.ErrStageTimeout.Error()) || len(res.Continued) != 1 || !strings.Contains(res.Continued[0].Message, flow.ErrStageTimeout.Error()) {
				t.Errorf("commit error %q, continued %+v; want the stage's timeout", commit.Err, res.Continued)
			}
			if res.State()["early"] != true {
				t.Errorf("early = %v, want true: writes before the timeout commit", res.State()["early"])
			}
			if _, late := res.State()["late"]; late != tc.wantLate {
				t.Errorf("late in the state: %v, want %v", late, tc.wantLate)
			}
		})
	}
}
