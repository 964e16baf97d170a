package runbook_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// TestLoopPassNamesItsOwnSetAndRead: a chart polled a status in a loop and
// judged it with a set: stage (ready: p.stdout.state == "ready") or read
// it with a read: stage. The second pass's write equalled the first's
// (false, or the same file content), so the commit left it out, and the
// loop's second jump read ready "written by judge#1": explain named the
// FIRST pass's output as the reason for the third poll, never the second
// pass's, whose answer the loop acted on. A set: key rests on what its
// expression read now, and a read: gathered the file now: each pass's
// write is kept, named to that pass.
func TestLoopPassNamesItsOwnSetAndRead(t *testing.T) {
	dir := t.TempDir()
	count, status := filepath.Join(dir, "n"), filepath.Join(dir, "status")
	charts := map[string]string{
		"set": `
version: 1
runbook: poll-set
inputs:
  count: {type: string, required: true}
stages:
  - id: poll
    exec:
      shell: 'n=$(cat "$F" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$F"; [ $n -ge 3 ] && echo ready || echo pending'
      envFrom: {F: count}
      into: p
  - id: judge
    set: {ready: 'trim(p.stdout) == "ready"'}
  - id: again
    loop: {to: poll, while: '!ready', max: 5}
`,
		"read": `
version: 1
runbook: poll-read
inputs:
  count: {type: string, required: true}
  status: {type: string, required: true}
stages:
  - id: poll
    exec:
      shell: 'n=$(cat "$F" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$F"; [ $n -ge 3 ] && echo ready > "$S" || echo pending > "$S"'
      envFrom: {F: count, S: status}
      into: p
  - id: judge
    read: {path: status, parse: text, into: st}
  - id: again
    loop: {to: poll, while: 'trim(st.content) != "ready"', max: 5}
`,
	}
	inputs := map[string]map[string]any{"set": {"count": count}, "read": {"count": count, "status": status}}
	for name, src := range charts {
		t.Run(name, func(t *testing.T) {
			os.Remove(count)
			os.Remove(status)
			rb := parse(t, src)
			res, err := rb.Exec(context.Background(), inputs[name])
			if err != nil {
				t.Fatal(err)
			}
			last, jumps := "", 0
			for _, c := range res.Run.Log.Commits() {
				switch c.Stage {
				case "judge":
					last = c.Path
				case "again":
					jumps++
					for _, r := range c.Reads {
						if r.Writer != last {
							t.Errorf("%s read %s from %s, want %s: the pass whose answer it acted on", c.Path, r.Key, r.Writer, last)
						}
					}
				}
			}
			if jumps != 3 {
				t.Errorf("the loop was judged %d times, want 3", jumps)
			}
		})
	}
}

// TestResumedRunCountsAnInputReadThroughAVar: a chart's decider read warn,
// a var computed from the input limit, which the run took from its
// default. Run straight through, the standing said "limit = 80 was
// assumed"; paused at an ask: before the decider and resumed, the
// continued run knew no var's inputs, and it said "Consistent" over a
// verdict that rested on the assumed default. The inputs each var reads
// are the chart's (Runbook.varsFrom), whichever run asks.
func TestResumedRunCountsAnInputReadThroughAVar(t *testing.T) {
	rb := parse(t, `
version: 1
runbook: var-after-ask
inputs:
  limit: {type: number, default: 80}
  used: {type: number, required: true}
vars:
  warn: 'limit - 10'
result:
  kind: verdict/usage
  decider: D
stages:
  - id: ask
    ask: {question: '"go?"', expects: {go: bool}}
  - id: D
    decide:
      rules:
        - {when: 'used >= warn', then: hi, label: over warn}
      default: {branch: lo, label: under}
    branches:
      hi: [{id: h, verdict: {subject: '"x"', verdict: '"hi"'}}]
      lo: [{id: l, verdict: {subject: '"x"', verdict: '"lo"'}}]
`)
	res, err := rb.Exec(context.Background(), map[string]any{"used": 75})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := record.ParseRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	done, err := rb.Resume(context.Background(), rec, map[string]any{"go": true})
	if err != nil {
		t.Fatal(err)
	}
	a := done.Record.Assessment
	if a == nil || a.Standing == assessment.Consistent || !strings.Contains(a.Line, "limit = 80 was assumed") {
		t.Errorf("the resumed run's standing: %+v; want it to say limit = 80 was assumed (its decider read warn = limit - 10)", a)
	}
}

// TestJoinOfADerivedValueThatChangedNothing: a set: key is written at
// every execution (TestLoopPassNamesItsOwnSetAndRead), and a join carries
// it on as the evidence of the branch that computed it; but beside a
// branch that changed the key, it yields, as it did when it wrote
// nothing: parallel branches' set: {worst: max(worst, 0)} and
// max(worst, 2) are no conflict, in either order. A subflow mounted twice
// whose set: gave the same value again names the second mount.
func TestJoinOfADerivedValueThatChangedNothing(t *testing.T) {
	for _, order := range [][2]string{{"0", "2"}, {"2", "0"}} {
		rb := parse(t, `
version: 1
runbook: worst-of
stages:
  - {id: init, set: {worst: 0}}
  - id: both
    parallel:
      a: [{id: sa, set: {worst: 'max(worst, `+order[0]+`)'}}]
      b: [{id: sb, set: {worst: 'max(worst, `+order[1]+`)'}}]
`)
		res, err := rb.Exec(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Record.Status != "completed" || res.Record.State["worst"] != 2 {
			t.Errorf("branches giving %v: status %s, worst = %v (%+v); want completed, 2", order, res.Record.Status, res.Record.State["worst"], res.Record.Error)
		}
	}
	rb := parse(t, `
version: 1
runbook: mounted-twice
stages:
  - id: first
    subflow: {stages: [{id: calc1, set: {level: '"high"'}}]}
  - id: second
    subflow: {stages: [{id: calc2, set: {level: '"high"'}}]}
`)
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	last := ""
	for _, c := range res.Run.Log.Commits() {
		for _, w := range c.Writes {
			if w.Key == "level" {
				last = c.Path
			}
		}
	}
	if !strings.HasPrefix(last, "second#") {
		t.Errorf("level was last written by %s, want the second mount's join", last)
	}
}

// TestExplainOfAKeyWrittenOnlyInBranchesSaysWhere: a reviewer asked
// explain for p, the key every foreach item's probe wrote, and was told
// "p was never written and is not an input": false, it was written 3
// times, each in an item's own scope, which the chart's state never
// holds. explain says where it was written and what to ask instead.
func TestExplainOfAKeyWrittenOnlyInBranchesSaysWhere(t *testing.T) {
	rb := parse(t, `
version: 1
runbook: per-item
stages:
  - id: each
    foreach:
      items: '[1, 2, 3]'
      as: n
      maxBranches: 10
      stages:
        - {id: probe, set: {p: 'n * 10'}}
`)
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	_, err = runbook.NewExplain(rec, problems).Query("p", -1)
	if err == nil || strings.Contains(err.Error(), "never written") || !strings.Contains(err.Error(), "each~0/probe") || !strings.Contains(err.Error(), "each[0].p") {
		t.Errorf("explain p: %v; want where it was written (each~0/probe, …) and what to ask instead (each[0].p), never that it was never written", err)
	}
}
