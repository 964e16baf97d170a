package main

import (
	"reflect"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// TestMeaningThatIsItsWordIsNotSaid: a decider that never ran left its
// branches' names as their meanings, and the text printed `at-risk —
// at-risk` and `ok — ok` under an empty table
// (testdata/issue13/null-items); such a line says nothing and is left
// out, a meaning of its own kept.
func TestMeaningThatIsItsWordIsNotSaid(t *testing.T) {
	rows := []record.Row{{Values: map[string]any{"subject": "/", "verdict": "ok"}}}
	got := meaningsInOrder(rows, map[string]string{"ok": "ok", "at-risk": "Nearly full", "many": "many"})
	if want := [][2]string{{"at-risk", "Nearly full"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("meanings %v, want %v", got, want)
	}
}
