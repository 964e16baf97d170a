package recorder

import (
	"fmt"
	"time"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/rules"
)

// script builds event sequences the way the engine emits them (see the
// engine's emit points): one counter per run for stage paths, the subflow
// prefix on every stage path beneath a mount or a foreach branch.
type script struct {
	events []Event
	n      int
	// sub and place are the Subflow and Place of the stage events added.
	sub, place string
}

func newScript(chart string) *script {
	s := &script{}
	s.add(Event{Kind: RunStart, StageName: chart})
	return s
}

func (s *script) add(e Event) { s.events = append(s.events, e) }

// at fills the stage fields of e.
func (s *script) at(e Event, path, id, name string) Event {
	e.Path, e.StageID, e.StageName, e.Subflow, e.Place = path, id, name, s.sub, s.place
	return e
}

func (s *script) path(id string) string {
	p := fmt.Sprintf("%s#%d", id, s.n)
	s.n++
	if s.sub != "" {
		p = s.sub + "/" + p
	}
	return p
}

// step is one read or write a stage makes.
type step struct {
	kind    Kind
	key     string
	value   any
	deleted bool
}

func rd(k string, v any) step { return step{kind: Read, key: k, value: v} }
func wr(k string, v any) step { return step{kind: Write, key: k, value: v} }
func del(k string) step       { return step{kind: Write, key: k, deleted: true} }

// begin emits StageStart and the steps; finish emits Commit and StageEnd.
func (s *script) begin(id, name string, steps ...step) string {
	p := s.path(id)
	s.add(s.at(Event{Kind: StageStart}, p, id, name))
	s.steps(p, id, name, steps...)
	return p
}

func (s *script) steps(p, id, name string, steps ...step) {
	for _, st := range steps {
		s.add(s.at(Event{Kind: st.kind, Key: st.key, Value: st.value, Deleted: st.deleted}, p, id, name))
	}
}

func (s *script) finish(p, id, name string, writes int) {
	s.add(s.at(Event{Kind: Commit, Index: writes}, p, id, name))
	s.add(s.at(Event{Kind: StageEnd, Elapsed: 1500 * time.Microsecond}, p, id, name))
}

// stage is a plain stage that runs its steps and moves on to next.
func (s *script) stage(id, name, next string, steps ...step) {
	p := s.begin(id, name, steps...)
	w := 0
	for _, st := range steps {
		if st.kind == Write {
			w++
		}
	}
	s.finish(p, id, name, w)
	if next != "" {
		s.add(s.at(Event{Kind: Next, Target: next}, p, id, name))
	}
}

// decider reads, decides with ev, commits.
func (s *script) decider(id, name string, ev decide.Evidence, reads ...step) {
	p := s.begin(id, name, reads...)
	s.add(s.at(Event{Kind: Decision, Decision: &ev, Branches: ev.Chosen}, p, id, name))
	s.finish(p, id, name, 0)
}

func (s *script) selector(id, name string, ev decide.Evidence, reads ...step) string {
	p := s.begin(id, name, reads...)
	s.add(s.at(Event{Kind: Select, Decision: &ev, Branches: ev.Chosen}, p, id, name))
	s.finish(p, id, name, 0)
	return p
}

func (s *script) end() { s.add(Event{Kind: RunEnd, Elapsed: 42 * time.Millisecond}) }

// filter and expression evidence helpers.
func cond(key string, op rules.Op, expected, actual any, pass bool) rules.ConditionEvidence {
	return rules.ConditionEvidence{Key: key, Op: op, Expected: expected, Actual: actual, Present: true, Pass: pass}
}

func filterRule(i int, label, then string, cs ...rules.ConditionEvidence) decide.RuleEvidence {
	matched := true
	for _, c := range cs {
		matched = matched && c.Pass
	}
	return decide.RuleEvidence{Index: i, Label: label, Then: then, Outcome: rules.Outcome{Matched: matched, Conditions: cs}}
}

func exprRule(i int, label, then, expr string, result any, inputs ...rules.Input) decide.RuleEvidence {
	b, _ := result.(bool)
	return decide.RuleEvidence{Index: i, Label: label, Then: then,
		Outcome: rules.Outcome{Matched: b, Expr: expr, Result: result, Inputs: inputs}}
}

// ---- the fixtures, one per golden file ----

func fixtureLinear() []Event {
	s := newScript("Linear")
	s.stage("seed", "Seed", "load", wr("host", "db-1"), wr("limits", map[string]any{"used": 90, "free": 5}))
	s.stage("load", "Load", "classify", rd("host", "db-1"), wr("used", 95), wr("mounts", []any{"/", "/var", "/home"}))
	s.stage("note", "Note", "", rd("used", 95),
		wr("note", "a very long note that goes on and on past the width the narrative shows for a single value, so it is cut"),
		del("scratch"))
	s.end()
	return s.events
}

// a decider that matched rule 2 of 3 (filter form)
func fixtureDecideFilter() []Event {
	s := newScript("Disk triage")
	s.stage("load", "Load", "classify", wr("used", 95), wr("state", "degraded"))
	ev := decide.Evidence{Kind: decide.KindDecide, Chosen: []string{"at-risk"},
		Default: &decide.Default{Branch: "declined", Label: "No rule reached a verdict"},
		Rules: []decide.RuleEvidence{
			filterRule(0, "Nearly full", "full", cond("used", rules.OpGt, 98, 95, false)),
			filterRule(1, "Degraded and busy", "at-risk",
				cond("used", rules.OpGt, 90, 95, true), cond("state", rules.OpEq, "degraded", "degraded", true)),
		}}
	s.decider("classify", "Classify", ev, rd("used", 95), rd("state", "degraded"))
	s.stage("at-risk-note", "Note at-risk", "", wr("verdict", "at-risk"))
	s.end()
	return s.events
}

// no rule matched: the labelled default was taken
func fixtureFallThrough() []Event {
	s := newScript("Disk triage")
	s.stage("load", "Load", "classify", wr("used", 40))
	missing := rules.ConditionEvidence{Key: "state", Op: rules.OpEq, Expected: "degraded", Present: false, Pass: false, Reason: "key state is missing"}
	ev := decide.Evidence{Kind: decide.KindDecide, Chosen: []string{"declined"},
		Default: &decide.Default{Branch: "declined", Label: "No rule reached a verdict"},
		Rules: []decide.RuleEvidence{
			filterRule(0, "Nearly full", "full", cond("used", rules.OpGt, 90, 40, false)),
			filterRule(1, "Degraded", "at-risk", missing),
			filterRule(2, "Odd type", "odd", rules.ConditionEvidence{Key: "used", Op: rules.OpStartsWith, Expected: "9", Actual: 40, Present: true, Reason: "startsWith needs a string, got number"}),
		}}
	s.decider("classify", "Classify", ev, rd("used", 40))
	s.stage("declined-note", "Note declined", "", wr("verdict", "declined"))
	s.end()
	return s.events
}

// an expression rule with its inputs; one rule errored
func fixtureExpression() []Event {
	s := newScript("Replicas")
	s.stage("load", "Load", "posture", wr("volume", map[string]any{"name": "vol-0", "replicas": 2}))
	ev := decide.Evidence{Kind: decide.KindDecide, Chosen: []string{"at-risk"},
		Default: &decide.Default{Branch: "declined"},
		Rules: []decide.RuleEvidence{
			{Index: 0, Label: "Broken", Then: "broken", Outcome: rules.Outcome{Expr: "volume.size / volume.zero > 1",
				Inputs: rules.Inputs{{Path: "volume.size", Value: 10}, {Path: "volume.zero", Value: 0}}, Err: "integer divide by zero"}},
			exprRule(1, "No replica", "unprotected", "volume.replicas < 1", false, rules.Input{Path: "volume.replicas", Value: 2}),
			exprRule(2, "Single spare", "at-risk", `volume.replicas < 3 && volume.name startsWith "vol"`, true,
				rules.Input{Path: "volume.replicas", Value: 2}, rules.Input{Path: "volume.name", Value: "vol-0"}),
		}}
	s.decider("posture", "Protection posture", ev, rd("volume", map[string]any{"name": "vol-0", "replicas": 2}))
	s.end()
	return s.events
}

// a selector that picked two of three branches, run in parallel
func fixtureSelect() []Event {
	s := newScript("Health")
	s.stage("seed", "Seed", "pick", wr("disk", 95), wr("net", "up"), wr("cpu", 97))
	ev := decide.Evidence{Kind: decide.KindSelect, Chosen: []string{"disk", "cpu"},
		Rules: []decide.RuleEvidence{
			filterRule(0, "Disk hot", "disk", cond("disk", rules.OpGte, 90, 95, true)),
			filterRule(1, "Net down", "net", cond("net", rules.OpEq, "down", "up", false)),
			filterRule(2, "CPU hot", "cpu", cond("cpu", rules.OpGt, 90, 97, true)),
		}}
	p := s.selector("pick", "Pick checks", ev, rd("disk", 95), rd("net", "up"), rd("cpu", 97))
	s.add(s.at(Event{Kind: Fork, Branches: []string{"disk", "cpu"}}, p, "pick", "Pick checks"))
	for i, b := range []string{"disk", "cpu"} {
		s.add(s.at(Event{Kind: BranchStart, Branch: b, Index: i}, p, "pick", "Pick checks"))
		s.stage(b+"-check", "Check "+b, "", rd(b, 95), wr(b+"-verdict", "hot"))
		s.add(s.at(Event{Kind: BranchEnd, Branch: b, Index: i}, p, "pick", "Pick checks"))
	}
	s.add(s.at(Event{Kind: Join, Branches: []string{"disk", "cpu"}}, p, "pick", "Pick checks"))
	s.stage("report", "Report", "", rd("disk-verdict", "hot"))
	s.end()
	return s.events
}

// a foreach over 4 items bounded at 3 branches
func fixtureForEach() []Event {
	s := newScript("Volumes")
	vols := []any{"vol-0", "vol-1", "vol-2", "vol-3"}
	s.stage("seed", "Seed", "per-volume", wr("volumes", vols))
	p := s.path("per-volume")
	s.add(s.at(Event{Kind: StageStart}, p, "per-volume", "Per volume"))
	s.add(s.at(Event{Kind: Truncated, Total: 4, Index: 3}, p, "per-volume", "Per volume"))
	s.add(s.at(Event{Kind: Fork, Total: 3}, p, "per-volume", "Per volume"))
	for i := range 3 {
		br := fmt.Sprintf("per-volume~%d", i)
		s.add(s.at(Event{Kind: BranchStart, Branch: br, Index: i, Total: 3}, p, "per-volume", "Per volume"))
		s.sub, s.place = br, "per-volume~*"
		s.stage("load", "Load", "posture", rd("item", vols[i]), wr("replicas", 3-i))
		chosen, matched := "protected", i == 0
		if !matched {
			chosen = "declined"
		}
		ev := decide.Evidence{Kind: decide.KindDecide, Chosen: []string{chosen},
			Default: &decide.Default{Branch: "declined", Label: "No rule reached a verdict"},
			Rules:   []decide.RuleEvidence{filterRule(0, "Three replicas", "protected", cond("replicas", rules.OpGte, 3, 3-i, matched))}}
		s.decider("posture", "Protection posture", ev, rd("replicas", 3-i))
		s.sub, s.place = "", ""
		s.add(s.at(Event{Kind: BranchEnd, Branch: br, Index: i, Total: 3}, p, "per-volume", "Per volume"))
	}
	s.add(s.at(Event{Kind: Join}, p, "per-volume", "Per volume"))
	s.finish(p, "per-volume", "Per volume", 1)
	s.end()
	return s.events
}

func fixtureSubflow() []Event {
	s := newScript("Host check")
	s.stage("seed", "Seed", "check-disk", wr("host", "db-1"))
	p := s.path("check-disk")
	s.add(s.at(Event{Kind: SubflowEnter}, p, "check-disk", "Check disk"))
	s.sub, s.place = "check-disk", "check-disk"
	s.stage("df", "Run df", "parse", rd("host", "db-1"), wr("df", "/dev/sda1 95%"))
	s.stage("parse", "Parse", "", rd("df", "/dev/sda1 95%"), wr("used", 95))
	s.sub, s.place = "", ""
	s.add(s.at(Event{Kind: SubflowExit}, p, "check-disk", "Check disk"))
	s.stage("report", "Report", "", rd("used", 95))
	s.end()
	return s.events
}

// a loop of `passes` passes: Tick, a decider, the loop node jumping back to
// Tick; the decider chose "slow" once, on pass 20, deep inside the folded
// passes, and fell back to its default "done" on the last.
func fixtureLoop(passes int) []Event {
	s := newScript("Poll")
	s.stage("init", "Init", "tick", wr("n", 0))
	for pass := 1; pass <= passes; pass++ {
		s.stage("tick", "Tick", "check", rd("n", pass-1), wr("n", pass))
		ev := decide.Evidence{Kind: decide.KindDecide, Chosen: []string{"again"},
			Default: &decide.Default{Branch: "done", Label: "Polling finished"},
			Rules:   []decide.RuleEvidence{exprRule(0, "Keep polling", "again", "n < 50 && n != 20", pass < passes && pass != 20, rules.Input{Path: "n", Value: pass})}}
		switch pass {
		case 20:
			ev.Rules = append(ev.Rules, exprRule(1, "Slow down", "slow", "n == 20", true, rules.Input{Path: "n", Value: pass}))
			ev.Chosen = []string{"slow"}
		case passes:
			ev.Chosen = []string{"done"}
		}
		s.decider("check", "Check", ev, rd("n", pass))
		if pass < passes {
			p := s.path("again")
			s.add(s.at(Event{Kind: Loop, Target: "tick", Index: pass, Total: 1000}, p, "again", "Again"))
		}
	}
	s.stage("report", "Report", "", rd("n", passes))
	s.end()
	return s.events
}

func fixtureRetry() []Event {
	s := newScript("Fetch")
	p := s.begin("fetch", "Fetch")
	s.add(s.at(Event{Kind: Retry, Index: 1, Total: 3, Err: "connection refused"}, p, "fetch", "Fetch"))
	s.add(s.at(Event{Kind: Retry, Index: 2, Total: 3, Err: "timeout after 2s"}, p, "fetch", "Fetch"))
	s.steps(p, "fetch", "Fetch", wr("body", `{"ok":true}`))
	s.finish(p, "fetch", "Fetch", 1)
	s.end()
	return s.events
}

func fixtureError() []Event {
	s := newScript("Collect")
	s.stage("seed", "Seed", "collect", wr("host", "db-1"))
	p := s.begin("collect", "Collect", rd("host", "db-1"), wr("partial", true))
	s.add(s.at(Event{Kind: Error, Err: "exit status 7\ngoroutine 1 [running]:\nmain.main()"}, p, "collect", "Collect"))
	s.finish(p, "collect", "Collect", 1)
	s.add(Event{Kind: RunFailed, Err: `stage "collect#1": exit status 7`})
	return s.events
}

func fixturePause() []Event {
	s := newScript("Approve")
	s.stage("seed", "Seed", "ask", wr("change", "resize vol-0"))
	p := s.begin("ask", "Ask approval", rd("change", "resize vol-0"))
	s.add(s.at(Event{Kind: Pause}, p, "ask", "Ask approval"))
	return s.events
}

// fixtureChain is the linear500 workload's event stream: stage i reads
// v(i-1) and writes v(i), one commit per stage.
func fixtureChain(n int) []Event {
	s := newScript("linear")
	s.stage("s0", "S0", "s1", wr("v0", 0))
	for i := 1; i < n; i++ {
		id := fmt.Sprintf("s%d", i)
		next := ""
		if i+1 < n {
			next = fmt.Sprintf("s%d", i+1)
		}
		s.stage(id, "Stage "+id, next, rd(fmt.Sprintf("v%d", i-1), i-1), wr(fmt.Sprintf("v%d", i), i))
	}
	s.end()
	return s.events
}

// goldenFixtures are the narrative's golden cases, by file name.
var goldenFixtures = []struct {
	name   string
	events func() []Event
}{
	{"linear", fixtureLinear},
	{"decide-filter", fixtureDecideFilter},
	{"decide-fallthrough", fixtureFallThrough},
	{"decide-expression", fixtureExpression},
	{"select", fixtureSelect},
	{"foreach", fixtureForEach},
	{"subflow", fixtureSubflow},
	{"loop50", func() []Event { return fixtureLoop(50) }},
	{"retry", fixtureRetry},
	{"error", fixtureError},
	{"pause", fixturePause},
}

var decideEvidenceForAlloc = decide.Evidence{Kind: decide.KindDecide, Chosen: []string{"at-risk"}}
