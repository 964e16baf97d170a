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

// TestExplainRouteNamesRulesThatCouldNotBeEvaluated: a row's chain said
// "routed … into root: rule 3 matched" of a volume at "95%" whose two
// at-risk rules (a filter and an expression over the text) could not be
// evaluated and were counted as no match: the chain hid why the later
// rule decided, which only --why-not and the standing line said. The
// route now lists each such rule before the one that chose, with its
// error or the condition that could not judge its value.
func TestExplainRouteNamesRulesThatCouldNotBeEvaluated(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "rule-error-route")
	out := explainGolden(t, dir, "rule-error-route", "row.golden", 0, "verdicts[0]")
	for _, want := range []string{
		`into root: rule 3 "The root volume" matched`,
		`✗ rule 1 "Used at or above 90% (filter)" → at-risk could not be evaluated, counted as no match:`,
		`✗ volume.used = "95%" gte 90: a string cannot be compared with a number`,
		`✗ rule 2 "Used at or above 90%" → at-risk could not be evaluated, counted as no match: volume.used >= 90: a number cannot be ordered with a text`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the route does not say %q:\n%s", want, out)
		}
	}
}

// TestExplainWhyNotSelectThatChoseNone: `--why-not mid` of a select no
// rule matched said "pick chose , not mid" — a choice of a branch with no
// name, in the text and in the JSON message alike. It now says the select
// chose no branch, and the JSON's chosen list stays empty.
func TestExplainWhyNotSelectThatChoseNone(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "select-none")
	for _, tc := range []struct{ file, target string }{
		{"why-not-mid.golden", "mid"},
		{"why-not-sb.golden", "sb"},
	} {
		out := explainGolden(t, dir, "select-none", tc.file, 0, "--why-not", tc.target)
		if strings.Contains(out, "chose ,") || !strings.Contains(out, "pick chose no branch (no rule matched), not ") {
			t.Errorf("--why-not %s does not say the select chose no branch:\n%s", tc.target, out)
		}
	}
	r := runCLI(t, dir, "explain", "run.json", "--why-not", "mid", "--format", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"message": "pick chose no branch (no rule matched), not mid"`) || !strings.Contains(r.stdout, `"chosen": []`) {
		t.Errorf("--why-not mid --format json: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestExplainIntoElementThroughAJoin: a foreach inside a select branch
// writes its into list, and the select's join takes it whole. `explain
// 'outs[1].y'` said y rested on every item (each~0, each~1 and each~2's
// stages, and x = 1 and x = 9 among its reads): the element was asked of
// the join, which passed the whole list on to the foreach. The element and
// its member are now asked through the join, so only each~1 is named, in
// the text and in the JSON.
func TestExplainIntoElementThroughAJoin(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "into-select")
	out := explainGolden(t, dir, "into-select", "outs-1-y.golden", 0, "outs[1].y")
	if !strings.Contains(out, "joined y from the branch commit pick~big/each~1/sc#3") {
		t.Errorf("outs[1].y does not rest on item 1's stage:\n%s", out)
	}
	for _, wrong := range []string{"each~0/", "each~2/", "x = 1", "x = 9"} {
		if strings.Contains(out, wrong) {
			t.Errorf("outs[1].y rests on %q, which did not write it:\n%s", wrong, out)
		}
	}
	explainGolden(t, dir, "into-select", "outs-2.golden", 0, "outs[2]")
	r := runCLI(t, dir, "explain", "run.json", "outs[1].y", "--format", "json")
	if r.code != 0 || strings.Contains(r.stdout, "each~0/") || strings.Contains(r.stdout, "each~2/") || !strings.Contains(r.stdout, `"path": "pick~big/each~1/sc#3"`) {
		t.Errorf("outs[1].y --format json: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The whole list still rests on every item.
	out = explainGolden(t, dir, "into-select", "outs.golden", 0, "outs")
	for _, item := range []string{"each~0/sc#3", "each~1/sc#3", "each~2/sc#3"} {
		if !strings.Contains(out, item) {
			t.Errorf("outs does not name %s:\n%s", item, out)
		}
	}
}

// TestExplainSubflowInputRestsOnItsOwnBinding: a subflow mounted with
// `inputs: {h: host, lim: limit, tag: '"t"'}` sees only its bindings, and
// the mount's commit holds the reads of all of them. explain said h rested
// on host and on limit, and lim (and the constant tag) on both too. Each
// binding now rests on what its own expression read.
func TestExplainSubflowInputRestsOnItsOwnBinding(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "subflow-inputs")
	out := explainGolden(t, dir, "subflow-inputs", "out.golden", 0, "out")
	for _, want := range []string{
		"read h = \"web1\", written by sub#1 [commit 1]\n          read host = \"web1\": an input, assumed\n        read lim",
		"read lim = 95, written by sub#1 [commit 1]\n          read limit = 95, written by pre#0 [commit 0]\n    read lvl",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("out does not say %q:\n%s", want, out)
		}
	}
	out = explainGolden(t, dir, "subflow-inputs", "label.golden", 0, "label")
	if strings.Contains(out, "host") || strings.Contains(out, "limit") {
		t.Errorf("label, bound to a constant, rests on a read of the chart:\n%s", out)
	}
	r := runCLI(t, dir, "explain", "run.json", "label", "--format", "json")
	if r.code != 0 || strings.Contains(r.stdout, `"key": "host"`) || strings.Contains(r.stdout, `"key": "limit"`) {
		t.Errorf("label --format json: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestExplainLoopPassRestsOnTheJump: a stage a loop ran again read
// nothing that changed, and explain said of its second pass "read nothing
// and was routed by no decision: nothing else caused it" — the loop's jump
// back, and the while that held over the value it read, were not in the
// chain, though they are why the pass (and what it wrote) exists. A pass
// now rests on the loop that ran it again, with its while and its reads,
// as a branch rests on its decision; the first pass does not.
func TestExplainLoopPassRestsOnTheJump(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "loop-pass")
	out := explainGolden(t, dir, "loop-pass", "last.golden", 0, "last")
	if !strings.Contains(out, "ran again by the loop again#3 [commit 3], whose while held: n < 2\n") || !strings.Contains(out, "read n = 1, written by bump#2 [commit 2]") {
		t.Errorf("last does not rest on the loop's jump:\n%s", out)
	}
	out = explainGolden(t, dir, "loop-pass", "probe-1.golden", 0, "probe#1")
	if strings.Contains(out, "ran again") {
		t.Errorf("the first pass is said to be run again by a loop:\n%s", out)
	}
	r := runCLI(t, dir, "explain", "run.json", "probe", "--format", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"rel": "looped"`) || !strings.Contains(r.stdout, `"while": "n < 2"`) || !strings.Contains(r.stdout, `"path": "again#3"`) {
		t.Errorf("probe --format json does not rest on the loop's jump: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestExplainSelectRouteIntoEachBranchIsSaid: a value resting on two
// branches one select took said of the second route `routed by pick#1
// into mid: rule 2 "K mid" matched (explained above)`, and nothing above
// had said rule 2's condition (✓ k > 1): only the route into big, by rule
// 1, was explained. Each branch's route is now explained where it first
// comes; the decision's reads are still said once.
func TestExplainSelectRouteIntoEachBranchIsSaid(t *testing.T) {
	t.Parallel()
	dir := issue13Record(t, "into-select")
	out := explainGolden(t, dir, "into-select", "total.golden", 0, "total")
	for _, want := range []string{
		"routed by pick#1 [commit 1] into big: rule 1 \"K big\" matched\n          ✓ k > 5 (k = 10)\n",
		"routed by pick#1 [commit 1] into mid: rule 2 \"K mid\" matched\n          ✓ k > 1 (k = 10)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("total does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `into mid: rule 2 "K mid" matched (explained above)`) {
		t.Errorf("the route into mid is said to be explained above:\n%s", out)
	}
}
