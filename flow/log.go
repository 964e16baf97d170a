package flow

import "github.com/openrunbook/runbook/decide"

// Commit is one stage execution's effect on the scope: what it read, its net
// writes, and how it ended. Every execution commits, empty ones included, so
// the log is also the list of what ran. A failed stage commits what it wrote
// before failing.
type Commit struct {
	// Index is the commit's place in the run's log (0-based).
	Index int `json:"index"`
	// Path is the runtime path with its execution counter
	// (`per-volume~3/posture#2`); unique within a run.
	Path string `json:"path"`
	// Stage is the node id.
	Stage string `json:"stage"`
	// Reads are the keys the stage read from outside itself, first read
	// first, each with the value it saw and the commit path that wrote that
	// value ("" for a value that came in with the run's inputs).
	Reads []Read `json:"reads,omitempty"`
	// Writes are the net changes, in the order first written.
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
}

// Log is a run's commits in order. Parallel branches' commits are spliced in
// declaration order at their join, so the log is the same on every run.
type Log struct {
	// Inputs are the values the run started with, written before the first
	// stage (they have no writer).
	Inputs map[string]any `json:"inputs,omitempty"`
	// Commits in order.
	Commits []Commit `json:"commits"`
}
