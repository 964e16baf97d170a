package recorder

import (
	"fmt"
	"time"

	"github.com/openrunbook/runbook/decide"
)

// Kind names what happened.
type Kind uint8

// The events of a run. Scope events (Read, Write, Commit) and flow events.
const (
	RunStart Kind = iota + 1
	RunEnd
	RunFailed
	StageStart
	StageEnd
	Read
	Write
	Commit
	Next
	Decision
	Select
	Fork
	Join
	BranchStart
	BranchEnd
	SubflowEnter
	SubflowExit
	Loop
	Retry
	Error
	Pause
	Truncated
)

var kindNames = [...]string{
	RunStart: "run.start", RunEnd: "run.end", RunFailed: "run.failed",
	StageStart: "stage.start", StageEnd: "stage.end",
	Read: "scope.read", Write: "scope.write", Commit: "scope.commit",
	Next: "flow.next", Decision: "flow.decision", Select: "flow.select",
	Fork: "flow.fork", Join: "flow.join",
	BranchStart: "branch.start", BranchEnd: "branch.end",
	SubflowEnter: "subflow.enter", SubflowExit: "subflow.exit",
	Loop: "flow.loop", Retry: "stage.retry", Error: "stage.error",
	Pause: "run.pause", Truncated: "foreach.truncated",
}

// String is the event's wire name (`stage.start`), used by the NDJSON stream.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// Event is one thing that happened in a run. Fields not meaningful for a
// kind are zero. Events are passed by value; a recorder may keep them.
type Event struct {
	Kind Kind
	// Path is the runtime path of the stage, with its execution counter
	// (`per-volume~3/posture#2`). Empty for run-level events.
	Path string
	// StageID and StageName identify the node in the chart.
	StageID   string
	StageName string
	// Subflow is the path prefix the stage runs under (`per-volume~3`),
	// empty at the root.
	Subflow string
	// Place is Subflow with each foreach item index written `*`
	// (`per-volume~*`): what every item's execution of one stage shares, so
	// per-stage counts need not take the path apart (flow.GeneralScope).
	Place string

	// Key and Value: the scope key read or written (Read, Write). For Write,
	// Deleted says the key was removed; for Read, Missing says the key did
	// not exist (Value is nil).
	Key     string
	Value   any
	Deleted bool
	Missing bool

	// Decision is the evidence of a Decision or Select event. It is nil
	// for a decision kept compact, which only a CompactReader is sent:
	// Plan is then its decider's plan, Compact() what it decided, and the
	// Read events just before it are the values it read.
	Decision *decide.Evidence
	Plan     *decide.CompactPlan
	// Branches: the branches forked (Fork, Join), chosen (Decision, Select).
	Branches []string
	// Branch is the branch a BranchStart/BranchEnd is about.
	Branch string

	// Index is the foreach item index (BranchStart/End), the loop pass (Loop),
	// the attempt number (Retry, 1-based), the number of net writes (Commit),
	// the rule a compact decision matched (-1: none; see Compact).
	Index int
	// Total is the number of foreach items (Fork of a foreach, Truncated,
	// BranchStart/End of a foreach item; 0 for a fork branch),
	// the loop bound (Loop), the attempts allowed (Retry), a compact
	// decision's pass marks (see Compact).
	Total int
	// Target is the stage a Loop jumps to or the stage Next moves to.
	Target string

	// Err is the failure message (Error, RunFailed, Retry).
	Err string
	// Elapsed is a stage's or run's duration (StageEnd, RunEnd). It is the one
	// field that differs between runs of the same chart and inputs.
	Elapsed time.Duration
}

// Compact is what a decision kept compact decided (Plan set): its pass
// marks and the rule that matched, which the event carries in Total and
// Index (an Event is copied for every recorder; two fields more made
// every event of every run larger).
func (e *Event) Compact() decide.Compact {
	return decide.CompactOf(uint64(e.Total), int32(e.Index))
}

// SetCompact makes e carry c (see Compact).
func (e *Event) SetCompact(p *decide.CompactPlan, c decide.Compact) {
	bits, matched := c.Marks()
	e.Plan, e.Total, e.Index = p, int(bits), matched
}

// Recorder observes a run. Record is called from the run's goroutine; events
// of parallel branches are buffered per branch and delivered at the join in
// declaration order, so a recorder never sees two events at once and sees
// the same sequence on every run. A recorder that panics is detached from the
// run and reported; the run goes on.
type Recorder interface {
	Record(e Event)
}

// CompactReader is implemented by a recorder that tells a decision kept
// compact (Event.Plan and Event.Compact, Decision nil) as it tells one
// with its evidence, from the Read events delivered just before it; it
// must then want Read events. When every recorder that wants decisions
// reads compact ones, the engine builds no evidence as a decision is
// made (a record rebuilds it later from the same reads).
type CompactReader interface {
	ReadsCompact() bool
}

// EvidenceMask is the bit of Dispatcher.Mask set when some recorder wants
// a decision's evidence as it is made: it wants Decision or Select events
// and is no CompactReader (or says it reads none). No event kind has it.
const EvidenceMask uint32 = 1 << 31

// Flusher is implemented by recorders that deliver events later (see
// Deferred). The engine calls Flush before the run returns.
type Flusher interface {
	Flush()
}

// MarshalText writes the event's wire name, so a Kind marshals as
// "stage.start" in JSON. An unknown kind is an error, never "unknown" on the
// wire.
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return []byte(kindNames[k]), nil
	}
	return nil, fmt.Errorf("recorder: kind %d has no wire name", uint8(k))
}

// UnmarshalText reads a wire name written by MarshalText (see ParseKind).
func (k *Kind) UnmarshalText(text []byte) error {
	parsed, err := ParseKind(string(text))
	if err != nil {
		return err
	}
	*k = parsed
	return nil
}

// ParseKind is the inverse of Kind.String, for readers of the NDJSON stream:
// ParseKind("stage.start") is StageStart. An unknown name is an error that
// quotes it.
func ParseKind(name string) (Kind, error) {
	for k, n := range kindNames {
		if n != "" && n == name {
			return Kind(k), nil
		}
	}
	return 0, fmt.Errorf("recorder: unknown event kind %q", name)
}
