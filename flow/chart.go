package flow

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/rules"
)

// Kind is a node's place in the flow.
type Kind string

// The node kinds of engine.md §1. A plugin stage is a KindStage whose Type
// says "plugin"; the flow treats every function stage alike.
const (
	KindStage    Kind = "stage"
	KindDecide   Kind = "decide"
	KindSelect   Kind = "select"
	KindParallel Kind = "parallel"
	KindForEach  Kind = "foreach"
	KindSubflow  Kind = "subflow"
	KindLoop     Kind = "loop"
)

// StageFunc is a stage's work. It reads and writes through s; what it writes
// is staged and committed when it returns, error or not.
type StageFunc func(ctx context.Context, s *Scope) error

// DecideFunc is a decider written in Go: it reads the scope and returns the
// evidence of its choice (usually from decide.Decide). The branch it names is
// checked at run time; a branch that does not exist fails the run.
type DecideFunc func(ctx context.Context, s *Scope) (decide.Evidence, error)

// ItemsFunc gives a foreach its items.
type ItemsFunc func(ctx context.Context, s *Scope) ([]any, error)

// Branch is one named branch of a decider, selector or parallel node. Its
// description is the branch's declared meaning (verdict meanings read it).
// Steps may be nil: an empty branch does nothing and the flow goes on.
type Branch struct {
	Name        string
	Description string
	Steps       *Builder
}

// ForEach is a generated fan-out: one branch per item, run in parallel.
type ForEach struct {
	// Items gives the list to fan out over (see ItemsOf for an expression).
	Items ItemsFunc
	// As is the key each branch sees its item under (default
	// DefaultItemKey); the branch also sees IndexKey.
	As string
	// MaxBranches is required (≥ 1); items past it do not run and the
	// truncation is recorded.
	MaxBranches int
	// Into, when set, receives each branch's result (its own final writes, as
	// and index included, verdicts excluded) in ITEM order.
	Into string
	// Body is the branch's stages: a chart of its own (ids are scoped to it).
	Body *Builder
}

// Mount says how a subflow's scope relates to its parent's.
type Mount struct {
	// Inputs seed the subflow's scope. Nil: the subflow reads its parent's
	// scope as it is when the subflow is entered.
	Inputs []Binding
	// Outputs copy subflow keys back to the parent when it exits. Nil: every
	// key the subflow wrote is written to the parent.
	Outputs []Binding
}

// Binding writes Key with the value From computes. For Mount.Inputs From
// reads the parent; for Mount.Outputs it reads the subflow's final scope.
type Binding struct {
	Key  string
	From rules.Valuer
}

// Loop jumps back to an earlier stage while its condition holds.
type Loop struct {
	// To is the id of an earlier stage in the same chart.
	To string
	// While is evaluated after each pass; nil means always.
	While rules.Predicate
	// Max bounds the jumps (default DefaultLoopMax). Exceeding it fails the
	// run naming the loop and the bound.
	Max int
}

// RetryPolicy re-runs a failed stage. Each attempt is recorded; a failed
// attempt's staged writes are discarded; the last attempt behaves as a stage
// without a policy (its writes commit, its failure fails the run).
type RetryPolicy struct {
	// Attempts is the total number of tries, first included (≥ 1).
	Attempts int
	// Backoff is the wait before the second attempt; it doubles each attempt
	// up to MaxBackoff (0: no cap).
	Backoff    time.Duration
	MaxBackoff time.Duration
	// Jitter spreads each wait uniformly over [wait/2, wait].
	Jitter bool
	// On decides whether an error is worth another attempt (nil: any).
	On func(err error) bool
}

// Delay is the wait before attempt+1 (attempt is 1-based): Backoff doubled
// each attempt, capped at MaxBackoff, spread by Jitter. It is the one home of
// the retry delay: the executor's retries and a stage that retries inside
// itself (runbook's exec) both ask it.
func (p *RetryPolicy) Delay(attempt int) time.Duration { return backoff(p, attempt) }

// Option sets a node's optional parts.
type Option func(*node)

// Name sets the words the narrative and deciders use (default: the id).
func Name(name string) Option { return func(n *node) { n.name = name } }

// JSONWrites says a stage writes only JSON values (jsonv.Of: nil, bool,
// numbers, strings, []any, map[string]any; no NaN nor ±Inf), made so by
// its author, so Scope.Set need not check them. Package runbook gives it
// to the stages it builds from a chart, whose values come from
// expressions (jsonv.Normalize), decoded output and plugin answers. A
// stage without it has every value it writes checked (jsonv.Writable): a
// value no JSON can hold is refused and fails the stage, so the run's
// record can always be written.
func JSONWrites() Option { return func(n *node) { n.jsonWrites = true } }

// Description says what the node is for.
func Description(d string) Option { return func(n *node) { n.description = d } }

// Timeout bounds one execution of a stage (each attempt, with a retry).
// When it passes, the stage's context ends and the stage fails with
// ErrStageTimeout. A Go stage that does not watch its context runs on
// until it returns or the abandon grace passes (WithAbandonGrace): what it
// writes before it returns still commits, beside that failure, as a failed
// stage's writes do; after the grace it is abandoned and nothing more it
// writes commits. Watch ctx.Done() to stop on time.
func Timeout(d time.Duration) Option { return func(n *node) { n.timeout = d } }

// WithRetry gives a stage a retry policy.
func WithRetry(p RetryPolicy) Option { return func(n *node) { n.retry = &p } }

// Type names the stage's finer kind for display ("exec", "set", "plugin");
// it changes nothing about how the flow runs it.
func Type(t string) Option { return func(n *node) { n.typ = t } }

// Feeds names the keys a stage that gathers facts of its own hands on to
// what it runs as the data it works over (an exec stage's stdin): what it
// gathers is then made from them, as a set: stage's key is made from
// what its expression read, and a row's lineage (Lineage) is followed
// through them. It changes nothing about how the flow runs the stage.
func Feeds(keys ...string) Option { return func(n *node) { n.feeds = keys } }

// node is one built node. Charts are immutable once built: nodes are never
// changed after Build, so runs share them freely.
type node struct {
	id, name, description string
	kind                  Kind
	typ                   string
	feeds                 []string

	fn StageFunc

	rules    []decide.Rule
	def      *decide.Default
	decideFn DecideFunc
	branches []*branch
	// plan is set on a first-match decider over filter rules only, whose
	// decisions may be kept compact (decide.Compact) when no recorder
	// wants their evidence as they happen.
	plan *decide.CompactPlan

	forEach *forEach
	subflow *Chart
	mount   Mount
	loop    *Loop
	// loopTarget is the node loop.To names, resolved by link.
	loopTarget *node

	retry   *RetryPolicy
	timeout time.Duration
	// continues and errorInto: ContinueOnError (onerror.go).
	continues bool
	errorInto string
	// jsonWrites: JSONWrites — the stage's writes are JSON values already,
	// so Scope.Set does not check them.
	jsonWrites bool

	// position: the sequence this node sits in, and its index there.
	seq   *sequence
	index int
	// owner is the chart whose nodes list this node, at ord: a run's
	// packed commits name their stage by the two (packedCommit).
	owner *Chart
	ord   uint32
}

type branch struct {
	name, description string
	seq               *sequence
	// nameSlice is name as a one-branch choice (node.chosen).
	nameSlice [1]string
}

type forEach struct {
	items       ItemsFunc
	as          string
	maxBranches int
	into        string
	body        *Chart
	bodyRefused bool // Body was given and its Build refused it (its errors say why)
}

// sequence is a list of nodes run top to bottom: a chart's root, or one
// branch of a decider, selector or parallel node.
type sequence struct {
	nodes []*node
	// parent is the node whose branch this is (nil for a chart's root).
	parent *node
}

// Chart is a built, validated, immutable flowchart. Any number of runs may
// share it, concurrently.
type Chart struct {
	name        string
	description string
	root        *sequence
	// byID indexes every node of this chart (branch stages included; foreach
	// bodies and subflows are charts of their own).
	byID map[string]*node
	// nodes is every node of this chart in link order (repeated ids
	// included): node.ord indexes it.
	nodes []*node
	// lastLog is how many commits the chart's last run made: the next run
	// sizes its log from it, so a chart run again and again (a runbook, a
	// benchmark) grows no log. It changes nothing a run records.
	lastLog atomic.Int64
	// lastState is how many keys its last run's state held, likewise.
	lastState atomic.Int64
}

// Name is the chart's name: the root of every runtime path.
func (c *Chart) Name() string { return c.name }

// Description says what the chart is for.
func (c *Chart) Description() string { return c.description }
