package proc

import (
	"os"
	"strconv"
)

// Mark is what the sweep knows one tree of processes by: an entry in the
// environment of a process a caller starts itself (a stage plugin), which
// its descendants inherit, so that what the process leaves outside its
// group — a grandchild that called setsid — is found and ended when it
// stops, as an exec command's is when Run returns.
type Mark struct{ tag string }

// NewMark makes a mark, and makes this process a child subreaper first
// (Linux), as Run does before its first command: an orphan is reparented
// to the nearest subreaper as its parent dies, so only a process that
// already is one can find it.
func NewMark() Mark {
	becomeSubreaper()
	return Mark{tag: newTag()}
}

// Env is the mark as an entry for the started process's environment.
func (m Mark) Env() string { return tagKey + "=" + m.tag }

// Sweep SIGKILLs and reaps every process the marked one left behind
// outside its process group, and their descendants; leader, the marked
// process itself, is never touched (its starter waits on it). Call it once
// the marked process and its group are stopped. Nothing is done elsewhere
// than Linux, nor for the zero Mark.
func (m Mark) Sweep(leader int) {
	if m.tag != "" {
		sweep(m.tag, leader)
	}
}

// newTag is a mark's tag, unique in this process and across processes
// (the pid first).
func newTag() string {
	return strconv.Itoa(os.Getpid()) + "." + strconv.FormatUint(runSeq.Add(1), 10)
}
