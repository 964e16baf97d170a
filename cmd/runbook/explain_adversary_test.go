package main

import (
	"strings"
	"testing"
)

// TestExplainOwnWriteReadIsACause: in `set: {n: n + 1, trail: n}` trail
// reads the n the stage itself just wrote; explain said `trail = 2,
// written by inc#3` and nothing under it, as if trail were a constant.
// It now names the stage's own write of n and what that rested on.
func TestExplainOwnWriteReadIsACause(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "own-write")
	out := explainGolden(t, dir, "own-write", "trail.golden", 0, "trail")
	if !strings.Contains(out, "read n = 2, written by inc#3 [commit 3]") || !strings.Contains(out, "read n = 1, written by inc#1 [commit 1]") {
		t.Errorf("trail does not rest on the stage's own n and the n it read:\n%s", out)
	}
}

// TestExplainIntoElementNamesItsBranch: `explain run.json 'out[1].y'` of
// a foreach's into list said `written by each#0`, resting on the read of
// xs alone; the branch commits that computed y from the item and k were
// not in the chain. It now joins y from each~1's last writer of it.
func TestExplainIntoElementNamesItsBranch(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "into")
	out := explainGolden(t, dir, "into", "out-1-y.golden", 0, "out[1].y")
	if !strings.Contains(out, "joined y from the branch commit each~1/bump#2") || !strings.Contains(out, "read k = 10") {
		t.Errorf("out[1].y does not rest on the branch that computed it:\n%s", out)
	}
}
