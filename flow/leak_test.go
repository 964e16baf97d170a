package flow_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives its tests: a
// cancelled or failed run leaves none behind (docs/RELIABILITY.md). No
// goroutine is ignored.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
