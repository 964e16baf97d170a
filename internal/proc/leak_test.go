package proc

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives its tests: every
// pipe copier and waiter of a child process ends with Run, whatever the
// child did (docs/RELIABILITY.md). No goroutine is ignored.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
