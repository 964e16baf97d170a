package chart

import (
	"time"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/rules"
)

// Spec is a runbook as its file says it: every key of chart.yaml, checked
// and with every expression compiled, each part carrying where it was
// written. Load and Parse make one; New turns a flow chart into a runbook
// without one.
type Spec struct {
	File string // the path it was loaded from, or the name given to Parse ("" for none)
	// SHA256 is the hex SHA-256 of the bytes this chart was read from (its
	// own file; a mounted chart's Spec has its own), taken when they were
	// read, so it describes the chart that ran even if the file changes
	// later. "" for a Spec not read from bytes.
	SHA256      string
	Version     int
	Name        string
	Description string
	Inputs      []InputSpec
	// Vars are the chart's constants (`vars:`), in the order written: each
	// evaluated once before the first stage, reading the inputs and the
	// vars before it, and written to the scope like an input. They are
	// policy, not inputs: no caller sets them and none is ever assumed.
	Vars   []Assign
	Result *ResultSpec // nil: no projection
	// Honesty lists the honesty stages on (nil: all three; empty: off).
	Honesty []string
	Plugins []PluginSpec
	Stages  []StageSpec
	Pos     Pos
}

// Pos is where something was written: file, line and column (1-based).
type Pos struct {
	File string
	Line int
	Col  int
}

// InputSpec is one declared input.
type InputSpec struct {
	Name        string
	Type        string // string number bool list object duration
	Required    bool
	Default     any
	HasDefault  bool
	Secret      bool
	Description string
	Pos         Pos
}

// ResultSpec is the `result:` block.
type ResultSpec struct {
	Kind         string // verdict/* selects the rowset projection
	Decider      string // the decider whose branches give verdict meanings
	DeciderPos   Pos    // where the decider's name is written
	MaxRows      int    // 0: not given (the default, 50, is runbook's)
	Presentation string // prose ("" too) | panel
	Checks       []Check
	StandingLine string // always ("" too) | unless-consistent | not-sure-or-ask
	// Nagios maps verdict words to check states (result.nagios, written
	// state → words): each word to one of NagiosStates. Nil when not
	// written; words it does not list are judged by internal/gate.
	Nagios map[string]string
	// NagiosPos is where each word of Nagios is written.
	NagiosPos map[string]Pos
	// Perfdata is result.perfdata: an expression over the final state
	// whose perfdata items (the nagios parse mode's shape: a list, or an
	// object of lists whose keys prefix their labels NAME::) --format
	// nagios writes after its counts; nil when not written.
	Perfdata *Check
	// Empty is what a verdict table with no rows is: EmptyGap ("" too), a
	// run that judged no subject, or EmptyAnswer, the chart's answer that
	// there is nothing to report (no failed unit, no stale file).
	Empty string
	Pos   Pos
}

// The words of result.empty. An empty table is a gap unless the chart
// says it is an answer: a check that found no sshd row because `ss` ran
// without the privilege to name processes reads exactly like a host with
// nothing wrong, and only the author knows which one no rows means.
const (
	EmptyGap    = "gap"
	EmptyAnswer = "answer"
)

// NagiosStates are the words result.nagios maps verdicts to, in the order
// of the Nagios plugin API's exit codes (0 ok … 3 unknown).
var NagiosStates = []string{"ok", "warning", "critical", "unknown"}

// Check is one declared answer check: an expression over the final state.
type Check struct {
	Src  string
	Expr *rules.Expr
	Pos  Pos
}

// PluginSpec is one entry of the `plugins:` map.
type PluginSpec struct {
	Name    string
	Command string
	SHA256  string
	// Version is a version constraint (">= 1.2, < 2") the plugin's
	// declared version must meet; "" any.
	Version string
	Pos     Pos
}

// Assign is one `key: EXPR` pair, in the order written.
type Assign struct {
	Key  string
	Expr rules.Valuer // a compiled expression, or a literal for a YAML number/bool
	Src  string
	Pos  Pos
}

// StageSpec is one stage. Exactly one of the kind parts is set, as Kind says.
type StageSpec struct {
	ID          string
	Name        string // defaults to ID
	Description string
	Timeout     time.Duration // as written (0: none); the effective bound is settle's
	Retry       *RetrySpec
	// OnError is what a failure of the stage does: "" or "fail" fails the
	// run; "continue" records the failure (the ledger names the stage) and
	// the run goes on (chart-yaml.md, onError).
	OnError string
	Kind    string // set exec read decide select parallel foreach subflow plugin verdict loop fail ask
	Pos     Pos
	// At is where the keys flow's structural refusals name were written:
	// a flow.NodeError's Field ("id", "decide.rules[1].then",
	// "branches.at-risk", "foreach.as", "loop.to", …) → the position to
	// report. A field not here is reported at the stage (Pos).
	At map[string]Pos

	Set      []Assign
	Exec     *ExecSpec
	Read     *ReadSpec
	Decide   *DecideSpec // decide and select (Default unused for select)
	Branches []BranchSpec
	Parallel []BranchSpec
	ForEach  *ForEachSpec
	Subflow  *SubflowSpec
	Plugin   *PluginStageSpec
	Verdict  []Assign // columns, in the order written
	Loop     *LoopSpec
	Fail     *Assign
	Ask      *AskSpec
}

// RetrySpec is a stage's `retry:`.
type RetrySpec struct {
	Attempts   int
	Backoff    time.Duration
	MaxBackoff time.Duration
	Jitter     bool
	// On limits retries to these exit codes, script labels, or "timeout".
	On []string
}

// ExecSpec is an `exec:` stage.
type ExecSpec struct {
	Command []string // argv (no shell), as written
	// Args, when set, is the argv a run executes: one Template per Command
	// item, rendered against the scope (set when any item holds `${`; nil:
	// Command runs as written).
	Args  []Template
	Shell string // or a shell line
	// Timeout is exec's own `timeout:` as written (0: none given); the bound a
	// run applies is settled once, by settle in build.go.
	Timeout time.Duration
	// TimeoutTemplate is a `timeout:` written as a template (`${t}`): its
	// text, rendered when the stage runs, is the duration (Timeout is 0).
	TimeoutTemplate *Template
	// InheritEnv names variables passed through from the runner's own
	// environment (`inheritEnv:`), when set there; env: and envFrom: win.
	InheritEnv []string
	Env        []EnvVar
	// EnvFrom sets variables from the scope: each value an expression. It
	// is how inputs, secrets among them, reach a command without appearing
	// in its argv (where ps would show them).
	EnvFrom []Assign
	// Parse is `parse:`, checked at load (parse.Check): the mode stdout is
	// read as, and its options. The zero Spec (Mode "") reads as text.
	Parse parse.Spec
	// ParseGiven is whether the chart wrote `parse:`: an explicit `parse:
	// text` reads stdout as the answer, where a stage with none (read as
	// text) may be an action printing its progress on stderr.
	ParseGiven bool
	// StdoutRead is whether an expression of the chart reads the stage's
	// stdout (`v.stdout`), set at load (stdoutread.go): a stage with no
	// `parse:` whose stdout a rule reads takes it as the answer, as an
	// explicit `parse: text` does.
	StdoutRead bool
	// ReplyResultRead is whether an expression of the chart reads the
	// stage's stdout and a member named result in it
	// (`all(up.stdout, .result == 0)`, `up.stdout[0].result`), set at
	// load (stdoutread.go): a chart judging Kea's reply by its result
	// code takes a refusal as its answer (runbook's errorReply).
	ReplyResultRead bool
	Into            string
	Dir             string
	Stdin           *Assign // optional: an expression whose value is written to stdin
	// ExitCodes maps the exit codes the chart declared ANSWERS to their
	// words (`exitCodes:`; the preset nagios is {0: ok, 1: warning, 2:
	// critical, 3: unknown}). nil: none declared. A listed code's word is
	// `into.status` and the script row's answer; the label is unchanged.
	ExitCodes map[int]string
	// AnswerStderr holds, for a non-zero code of ExitCodes written as
	// `{word: W, stderr: TEXT}`, the text stderr must hold for the code to
	// be that answer (Answer). stat exits 1 for a file that is not there
	// and as much for one it was refused (`Permission denied`), so
	// `{1: missing}` alone called a file behind a folder it could not
	// search missing; `{1: {word: missing, stderr: No such file}}` gives
	// the word to the first only, and the second is a failure.
	AnswerStderr map[int]string
	// ExitBits are the bits of an exit code that is a bitmask (fsck's,
	// e2fsck's, smartctl's) the chart declared ANSWERS, with their words,
	// in the order written (`exitBits:`): a non-zero code ExitCodes does
	// not list, every bit of which is listed here, is an answer, its word
	// the first listed bit it holds (Answer), and `into.bits` the words
	// of every listed bit it holds (BitWords). A code holding a bit not
	// listed is a failure, as an unlisted code is.
	ExitBits []ExitBit
	// ShellPos is where `shell:` was written, for the run's message when
	// bash is missing (zero for a chart built in Go).
	ShellPos Pos
	// ShellChartNames are the chart's inputs and vars the shell: script
	// reads as bash variables ($n, ${n}) that its environment does not
	// set (ShellReadsChartNames), found at load.
	ShellChartNames []string
	// MaxOutput is `maxOutput:`, the bytes each of stdout and stderr may
	// hold before the result is withheld (0: proc.DefaultMaxOutput, 1
	// MiB): `kubectl get pods -A -o json` passes 1 MiB on most clusters.
	MaxOutput int
}

// MaxOutputLimit is the most a chart's maxOutput: may give: a value past
// it would be held whole in memory, in the scope and in the record.
const MaxOutputLimit = 1 << 30

// EnvVar is one environment entry, in the order written.
type EnvVar struct {
	Name  string
	Value string
}

// DecideSpec is a `decide:` or `select:` block.
type DecideSpec struct {
	Rules   []RuleSpec
	Default decide.Default
	Pos     Pos
}

// RuleSpec is one rule, compiled.
type RuleSpec struct {
	When  rules.Predicate
	Then  string
	Label string
	Pos   Pos
}

// BranchSpec is one branch of a decide, select or parallel stage.
type BranchSpec struct {
	Name        string
	Description string
	Stages      []StageSpec
	Pos         Pos
}

// ForEachSpec is a `foreach:` stage.
type ForEachSpec struct {
	Items       *rules.Expr
	As          string
	MaxBranches int
	Into        string
	Stages      []StageSpec
}

// SubflowSpec is a `subflow:` stage: another chart file, or inline stages.
type SubflowSpec struct {
	Chart  string // the path as written
	Spec   *Spec  // the loaded chart (Chart set)
	Stages []StageSpec
	Inputs []Assign
}

// PluginStageSpec is a `plugin:` stage.
type PluginStageSpec struct {
	Name string
	Args []Assign
	Into string
}

// LoopSpec is a `loop:` stage.
type LoopSpec struct {
	To    string
	While *rules.Expr // nil: always
	Max   int         // 0: not given (flow.DefaultLoopMax applies)
}

// AskSpec is an `ask:` stage.
type AskSpec struct {
	Question Assign
	Expects  []Expect
}

// Expect is one expected answer name and its type.
type Expect struct {
	Name string
	Type string
}

// at files where a field flow may refuse was written (see StageSpec.At).
func (s *StageSpec) at(field string, p Pos) {
	if s.At == nil {
		s.At = map[string]Pos{}
	}
	s.At[field] = p
}

// ExitBit is one bit of a bitmask exit code and its word (ExecSpec.ExitBits).
type ExitBit struct {
	Bit  int
	Word string
}
