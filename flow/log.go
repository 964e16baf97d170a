package flow

import (
	"encoding/json"

	"github.com/openrunbook/runbook/decide"
)

// Commit is one stage execution's effect on the scope: what it read, its net
// writes, and how it ended. Every execution commits, empty ones included, so
// the log is also the list of what ran. A failed stage commits what it wrote
// before failing.
type Commit struct {
	// Index is the commit's place in the run's log (0-based).
	Index int `json:"index"`
	// Path is the runtime path with its execution counter
	// (`per-volume~3/posture#2`); unique within a run. It is the display
	// spelling of Scope, Stage and N (Position.String; see path.go).
	Path string `json:"path"`
	// Stage is the node id.
	Stage string `json:"stage"`
	// Scope is the steps from the root to the scope the stage ran in: the
	// subflow mounts, fork branches and foreach items (empty at the root).
	Scope []ScopeStep `json:"scope,omitempty"`
	// N is the run's execution counter of this execution (the `#2`).
	N int `json:"n"`
	// Reads are the keys the stage read from outside itself, first read
	// first, each with the value it saw and the commit path that wrote that
	// value ("" for a value that came in with the run's inputs).
	Reads []Read `json:"reads,omitempty"`
	// Writes are the net changes, in the order first written (and every
	// fact the stage gathered, Scope.SetFact, and every value it derived
	// now, Scope.SetDerived, changed or not).
	Writes []Write `json:"writes,omitempty"`
	// Decision is the evidence of a decider or selector execution.
	Decision *decide.Evidence `json:"decision,omitempty"`
	// Attempt is the attempt number for a stage with a retry policy (1-based;
	// 0 when the stage has none).
	Attempt int `json:"attempt,omitempty"`
	// Discarded is true for a failed attempt that was retried: its writes
	// were not applied, and Writes lists what it had staged.
	Discarded bool `json:"discarded,omitempty"`
	// Err is the failure of this execution, if it failed.
	Err string `json:"error,omitempty"`
	// Answer is set on the commit that wrote a person's answer to a stage
	// that asked (the first commit of a resumed run): whose answer, and the
	// commit that asked, so a chain runs through the answer to the question.
	Answer *Answer `json:"answer,omitempty"`

	// lazy is a decision kept compact (Decision is then nil): Evidence
	// rebuilds its evidence.
	lazy lazyDecision
}

// Answer is a person's answer to a paused run's question, as the commit
// that wrote it carries it. The engine never sets it: whoever resumes the
// run (package runbook) does, on the log it merges.
type Answer struct {
	// Asked is the runtime path of the commit that asked.
	Asked    string `json:"asked"`
	Question string `json:"question"`
	// By is who answered; At when (RFC 3339).
	By string `json:"by,omitempty"`
	At string `json:"at,omitempty"`
	// Rejected is the reason given when the person rejected the question
	// instead of answering it; the run then ended as failed.
	Rejected string `json:"rejected,omitempty"`
}

// Read is one key a stage read.
type Read struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
	// Writer is the runtime path of the commit that wrote the value read, or
	// "" when it came with the run's inputs (or the key was absent).
	Writer string `json:"writer,omitempty"`
	// Missing is true when the key did not exist.
	Missing bool `json:"missing,omitempty"`
}

// Write is one net change.
type Write struct {
	Key     string `json:"key"`
	Value   any    `json:"value,omitempty"`
	Deleted bool   `json:"deleted,omitempty"`
	// ReadsBefore is how many of the commit's Reads had been made when this
	// key was first written: the reads this write can depend on.
	ReadsBefore int `json:"readsBefore"`
	// ReadKeys, when present, are the keys the stage read between its
	// previous write and this one — for a set: stage, what this key's own
	// expression read (a key read again counts again; a key the stage had
	// already written names that write of its own, not a Read). The write
	// rests on those reads only. Absent when they are every read before it
	// (ReadsBefore says it).
	ReadKeys *[]string `json:"readKeys,omitempty"`
	// From is set on a join's writes: the runtime paths of the branch
	// commits that wrote the value (one; or several, in branch order, for
	// gathered rows and for a value several branches wrote alike).
	From []string `json:"from,omitempty"`
}

// Log is a run's commits in order. Parallel branches' commits are spliced in
// declaration order at their join, so the log is the same on every run.
//
// A run keeps its log packed (packedCommit) and Commits spells it out the
// first time it is asked, once: a run whose Result nobody reads commit by
// commit never pays for Commits it does not use.
type Log struct {
	// Inputs are the values the run started with, written before the first
	// stage (they have no writer).
	Inputs map[string]any `json:"inputs,omitempty"`
	// commits in order, when not packed.
	commits []Commit
	// packed is the run's own log, spelled into Commits on first use.
	packed *packedLog
}

// NewLog is a log of the given commits.
func NewLog(inputs map[string]any, commits []Commit) Log {
	return Log{Inputs: inputs, commits: commits}
}

// Commits are the log's commits in order. Every copy of a Log shares
// them: a change made to a commit through one is seen through the others.
// Safe to call from several goroutines.
func (l Log) Commits() []Commit {
	if l.packed != nil {
		return l.packed.get()
	}
	return l.commits
}

// SetCommits makes cs the log's commits.
func (l *Log) SetCommits(cs []Commit) { l.commits, l.packed = cs, nil }

// UnmarshalJSON reads a log as MarshalJSON writes it.
func (l *Log) UnmarshalJSON(b []byte) error {
	var v struct {
		Inputs  map[string]any `json:"inputs"`
		Commits []Commit       `json:"commits"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*l = NewLog(v.Inputs, v.Commits)
	return nil
}

// Find returns the index of the commit at a runtime path.
func (l *Log) Find(path string) (int, bool) {
	cs := l.Commits()
	for i := range cs {
		if cs[i].Path == path {
			return i, true
		}
	}
	return -1, false
}

// StateAt rebuilds the root scope's state as of commit i (inclusive) from
// the inputs and the log alone; i < 0 gives the inputs. Branch and subflow
// commits change their own scopes; their effect on the root arrives through
// the commit that joined them.
func (l *Log) StateAt(i int) map[string]any {
	st := make(map[string]any, len(l.Inputs))
	for k, v := range l.Inputs {
		st[k] = v
	}
	cs := l.Commits()
	for j := 0; j <= i && j < len(cs); j++ {
		c := &cs[j]
		if c.Discarded || len(c.Scope) != 0 {
			continue
		}
		for _, w := range c.Writes {
			if w.Deleted {
				delete(st, w.Key)
			} else {
				st[w.Key] = w.Value
			}
		}
	}
	return st
}

// LastWriter returns the index of the last commit before `before` that
// wrote key in a scope the commit at `before` could see (its own, or one it
// was forked from). False when the value came with the inputs, or the key
// was never written. For what a stage actually read, Read.Writer is exact.
// It asks the explainer's walk (lastWriter), so both name the same writer.
func (l *Log) LastWriter(key string, before int) (int, bool) {
	cs := l.Commits()
	if before > len(cs) {
		before = len(cs)
	}
	var in []ScopeStep
	if before >= 0 && before < len(cs) {
		in = cs[before].Scope
	}
	return l.lastWriter(in, key, before)
}

// Cause is one link of a causal chain: the commit at Index wrote Key, which
// the commit at By read (or joined, for a join's write).
type Cause struct {
	Index int    `json:"index"`
	Path  string `json:"path"`
	Stage string `json:"stage"`
	Key   string `json:"key"`
	By    string `json:"by"`
	Depth int    `json:"depth"`
}

// Chain is the causal chain behind the commit at path: the commits that
// wrote what it read, then what those read, transitively, each commit once,
// nearest first (by depth, then newest first). Joins are followed through
// to the branch commits their writes came from. Each step asks the
// explainer's walk (dataCauses, resolve), so a chain and an explanation
// rest on the same links; the explainer adds what only the chart's
// structure knows (the decision that routed a stage) and stops at foreach
// items, which a chain follows to the foreach commit.
func (l *Log) Chain(path string) ([]Cause, error) {
	start, ok := l.Find(path)
	if !ok {
		return nil, &NodeError{Msg: "no commit at path " + path}
	}
	byPath, cs := indexPaths(l), l.Commits()
	seen := map[int]bool{start: true}
	var out []Cause
	frontier := []int{start}
	for depth := 1; len(frontier) > 0; depth++ {
		var next []int
		var level []Cause
		for _, i := range frontier {
			c := &cs[i]
			for _, dc := range l.dataCauses(i, "") {
				j, ok := resolve(byPath, dc.writer, i)
				if !ok || seen[j] {
					continue
				}
				seen[j] = true
				level = append(level, Cause{Index: j, Path: dc.writer, Stage: cs[j].Stage, Key: dc.key, By: c.Path, Depth: depth})
				next = append(next, j)
			}
		}
		sortCauses(level)
		out = append(out, level...)
		frontier = next
	}
	return out, nil
}

func sortCauses(cs []Cause) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Index > cs[j-1].Index; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}
