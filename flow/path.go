package flow

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// A run position says where a stage execution ran: the scope steps that
// lead to it from the root, the node, and the run's execution counter. Each
// commit carries them as fields (Commit.Scope, Commit.Stage, Commit.N); the
// display path is their one spelling, made by Position.String and read back
// by ParsePath, and nowhere else:
//
//	step                          display segment
//	a subflow mount  {Node}       sub
//	a fork branch    {Node,Branch} checks~disk
//	a foreach item   {Node,Item}  per-volume~3
//	the execution    node, N      posture#7
//
//	Position{Scope: [{per-volume, item 3}], Node: posture, N: 7}  ⇄  per-volume~3/posture#7
//
// StripCounter drops the counter (`per-volume~3/posture#7` →
// `per-volume~3/posture`): the one home of that rule, which record.Path and
// the explainer ask. Ids never hold '~' or '/' (validate refuses them), so
// the spelling is unambiguous but for one case the parser must guess: a
// fork branch whose name is all digits reads back as a foreach item. The
// fields of a commit never guess; read them, not the string, where a
// commit is at hand.

// ScopeStep is one scope step of a run position: the node that opened the scope
// and, for a branch of it, which one.
type ScopeStep struct {
	// Node is the id of the subflow mount, forking node or foreach.
	Node string `json:"node"`
	// Branch is the fork branch's name (parallel, select); "" otherwise.
	Branch string `json:"branch,omitempty"`
	// Item is the foreach item's index; nil otherwise.
	Item *int `json:"item,omitempty"`
}

// Position is a stage execution's place in a run.
type Position struct {
	Scope []ScopeStep
	Node  string
	// N is the run's execution counter; -1 for a position without one (a
	// display path a person wrote, `per-volume~3/posture`).
	N int
}

// String is the display path: `per-volume~3/posture#7`.
func (p Position) String() string {
	scope := ScopeString(p.Scope)
	switch {
	case p.N >= 0:
		return string(appendExecution(nil, scope, p.Node, p.N))
	case scope == "":
		return p.Node
	}
	return scope + "/" + p.Node
}

// ScopeString is the display path of a scope: `per-volume~3` ("" for the
// root).
func ScopeString(scope []ScopeStep) string { return ownString(appendScope(nil, scope)) }

// ownString is b as a string without copying it: b is new and no one
// else holds it, so it is never written again (every branch frame spells
// its scope once; the copy was an allocation a branch).
func ownString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// ParsePath reads a display path back into a position (N -1 when the path
// has no counter). An empty path, an empty segment or a counter that is not
// a number is an error.
func ParsePath(path string) (Position, error) {
	p := Position{N: -1}
	if path == "" {
		return p, fmt.Errorf("empty run path")
	}
	segs := strings.Split(path, "/")
	last := segs[len(segs)-1]
	if i := strings.LastIndexByte(last, '#'); i >= 0 {
		n, err := strconv.Atoi(last[i+1:])
		if err != nil || n < 0 {
			return p, fmt.Errorf("run path %q: the counter after '#' is not a number", path)
		}
		last, p.N = last[:i], n
	}
	if last == "" {
		return p, fmt.Errorf("run path %q names no stage", path)
	}
	p.Node = last
	for _, seg := range segs[:len(segs)-1] {
		node, branch, isBranch := strings.Cut(seg, "~")
		if node == "" || (isBranch && branch == "") {
			return p, fmt.Errorf("run path %q has an empty step %q", path, seg)
		}
		st := ScopeStep{Node: node}
		if isBranch {
			if i, err := strconv.Atoi(branch); err == nil && i >= 0 {
				st.Item = &i
			} else {
				st.Branch = branch
			}
		}
		p.Scope = append(p.Scope, st)
	}
	return p, nil
}

// StripCounter drops a display path's execution counter:
// `per-volume~3/posture#7` → `per-volume~3/posture`; a path without one is
// returned as it is.
func StripCounter(path string) string {
	if i := strings.LastIndexByte(path, '#'); i >= 0 && i > strings.LastIndexByte(path, '/') {
		return path[:i]
	}
	return path
}

// GeneralScope is a scope's display path with every foreach item index
// written `*` (`per-volume~*/checks~disk`): the place in the chart that
// all items' executions share, which per-stage metrics count under. Fork
// branches keep their names, since each is a different part of the chart.
func GeneralScope(scope []ScopeStep) string { return ownString(appendScopeAs(nil, scope, true)) }

// appendScope appends a scope's display segments, '/'-joined.
func appendScope(b []byte, scope []ScopeStep) []byte { return appendScopeAs(b, scope, false) }

// appendScopeAs is appendScope, with item indexes written `*` when general.
func appendScopeAs(b []byte, scope []ScopeStep, general bool) []byte {
	for i, st := range scope {
		if i > 0 {
			b = append(b, '/')
		}
		b = append(b, st.Node...)
		switch {
		case st.Item != nil && general:
			b = append(b, '~', '*')
		case st.Item != nil:
			b = append(b, '~')
			b = strconv.AppendInt(b, int64(*st.Item), 10)
		case st.Branch != "":
			b = append(b, '~')
			b = append(b, st.Branch...)
		}
	}
	return b
}

// appendExecution appends an execution's last segment after its scope's
// display path: `prefix/id#n` (prefix and slash left out at the root).
//
// The arena writes the same spelling in place (arena.path), for the
// runtime paths of a run's commits; TestArenaPathIsThePositionsSpelling
// holds the two to one spelling.
func appendExecution(b []byte, prefix, id string, n int) []byte {
	if prefix != "" {
		b = append(b, prefix...)
		b = append(b, '/')
	}
	b = append(b, id...)
	b = append(b, '#')
	return strconv.AppendInt(b, int64(n), 10)
}

// ScopeOf is the scope a display path ran in, as a display path: the path
// without its last segment (`per-volume~3/posture#2` → `per-volume~3`;
// `seed#0` → ""). It is for a caller that holds only the string; where a
// commit is at hand, its Scope field says the same without parsing.
func ScopeOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i]
	}
	return ""
}

// sameStep says whether two scope steps are the same step.
func sameStep(a, b ScopeStep) bool {
	if a.Node != b.Node || a.Branch != b.Branch || (a.Item == nil) != (b.Item == nil) {
		return false
	}
	return a.Item == nil || *a.Item == *b.Item
}

// sameScope says whether two scopes are the same place.
func sameScope(a, b []ScopeStep) bool {
	return len(a) == len(b) && within(a, b)
}

// within says whether scope in lies inside scope outer (or is it): outer's
// steps lead the way to in. A commit made in scope outer is seen from in:
// a branch or a subflow reads what the scope it was forked or mounted from
// wrote before.
func within(in, outer []ScopeStep) bool {
	if len(outer) > len(in) {
		return false
	}
	for k := range outer {
		if !sameStep(in[k], outer[k]) {
			return false
		}
	}
	return true
}

// ItemStep says whether scope in runs in a generated branch of the foreach
// whose own commit ran in scope fe as node id, and which item it is. Steps
// compare by value (sameStep), so a log read back from a record, whose
// steps share no pointers, answers as the run's own.
func ItemStep(in, fe []ScopeStep, id string) (int, bool) {
	if len(in) <= len(fe) || !within(in, fe) {
		return 0, false
	}
	st := in[len(fe)]
	if st.Node != id || st.Item == nil {
		return 0, false
	}
	return *st.Item, true
}

// NodeOf is the id of the node a display path ends at ("vol-check" for
// `per-vol~2/vol-check#1`), read by ParsePath; a path ParsePath refuses is
// returned whole, so a caller naming it still prints what it was given.
func NodeOf(path string) string {
	p, err := ParsePath(path)
	if err != nil {
		return path
	}
	return p.Node
}
