package record

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/flow"
)

// The ledger item of a failure the run went on past gives the error's
// first line: a plugin's recovered panic carries the goroutine's stack
// after it (plugins/sdk guard), and that stack, spelt into the standing
// line, made one "line" of kilobytes. The whole error stays in the
// stage's `into.error` on the record.
func TestContinuedItemGivesTheErrorsFirstLine(t *testing.T) {
	msg := "plugin \"greet\": plugin panicked: boom\n\npanic: boom\ngoroutine 41 [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e"
	e := continuedEntry(flow.Continued{Path: "each~1/greet#2", Stage: "greet", At: "each~1/greet#2", Message: msg}, Masker{})
	why := e.Declaration.NotChecked[0].Why
	if strings.Contains(why, "goroutine") || strings.Contains(why, "\n") || !strings.Contains(why, `plugin "greet": plugin panicked: boom`) {
		t.Errorf("why %q: want the error's first line and not its stack", why)
	}
	one := continuedEntry(flow.Continued{Path: "a#1", Stage: "a", At: "a#1", Message: "exit 3"}, Masker{})
	if got := one.Declaration.NotChecked[0].Why; got != "it failed, and onError: continue let the run go on: exit 3" {
		t.Errorf("a one-line error: why %q", got)
	}
}
