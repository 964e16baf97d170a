package chart

import (
	"fmt"

	"github.com/goccy/go-yaml/token"
)

// The loader's bounds on what one chart may cost, in one place. Each is
// refused with a load error at the place it is passed, naming the bound and
// how to stay within it; none is reached by a chart a person writes.
//
//	MaxChartBytes      10 MiB         one file's bytes (load.go)
//	MaxNesting         200 levels     YAML nesting: maps and lists within each other
//	pathBudget         64 MiB + 8/B   the YAML parser's path bookkeeping (below)
//	MaxAliasNodes      100,000 nodes  nodes reached through aliases, in one file
//	MaxSubflowDepth    32 mounts      subflow charts mounted within each other
//	MaxSubflowMounts   1000 mounts    charts a runbook mounts, and MaxSubflowStages
//	MaxSubflowStages   100,000 stages the stages they add, counting a chart once
//	                                  for every place it is mounted
//
// Why each exists: the YAML parser keeps the full path of every node ("$.a.b[3]"), so
// its cost grows with depth times size, not size (a 100 KB `[[[[…]]]]`
// took 6 s and gigabytes); an alias expands a whole subtree wherever it is
// written (billion laughs); a chart is loaded once however often it is
// mounted, but the runbook built from it holds it once per mount.
const (
	// MaxNesting is how deep maps and lists may nest in a chart file.
	MaxNesting = 200

	// MaxAliasNodes is how many YAML nodes one file's aliases may expand to
	// in all: an alias costs the size of the value its anchor names.
	MaxAliasNodes = 100_000

	// MaxSubflowDepth is how deep subflow charts may mount each other.
	MaxSubflowDepth = 32

	// MaxSubflowMounts is how many times a runbook may mount subflow
	// charts, a chart counted once for every place it is mounted.
	MaxSubflowMounts = 1000

	// MaxSubflowStages is how many stages mounted charts may add to a
	// runbook, counted the same way.
	MaxSubflowStages = 100_000
)

// pathBudget is the most path text the YAML parser may keep for a file of n
// bytes, as estimated by checkShape: 64 MiB plus 8 bytes a byte, far above
// any chart (a real chart's paths come to a few times its size) and far
// below what a file of long keys over deep nesting would cost (a 7 MB file
// of one 2 MB key over 400,000 short ones cost 24 GB before it was bounded).
func pathBudget(n int) int { return 64<<20 + 8*n }

// checkShape bounds a file's nesting and the parser's path bookkeeping
// before the parser runs, from the lexer's tokens (linear in the file). It
// reports a load error and returns false when either bound is passed.
//
// The estimate follows the structure the way the parser does: a block
// node's parent is the nearest node before it at a smaller column; a flow
// node's is its bracket. A node's path is its parent's path, plus its key
// (or an index), and every node's path is counted.
func (l *loader) checkShape(tks token.Tokens, size int) bool {
	type frame struct {
		col  int  // the column of a block node (-1: the document)
		path int  // the length of its path
		seq  bool // a block list entry (`-`)
		flow bool // a `[` or `{`
	}
	stack := []frame{{col: -1, path: 1}}
	budget, total := pathBudget(size), 0
	prevLine, pendingKey := 0, 0
	next := func(i int) *token.Token { // the next token that is not a comment
		for j := i + 1; j < len(tks); j++ {
			if tks[j].Type != token.CommentType && tks[j].Type != token.SpaceType {
				return tks[j]
			}
		}
		return nil
	}
	for i, tk := range tks {
		if tk == nil || tk.Position == nil || tk.Type == token.CommentType || tk.Type == token.SpaceType {
			continue
		}
		first := tk.Position.Line != prevLine
		prevLine = tk.Position.Line
		if tk.Type == token.DocumentHeaderType || tk.Type == token.DocumentEndType {
			stack = stack[:1]
			continue
		}
		top := stack[len(stack)-1]
		if !top.flow && (first || tk.Type == token.SequenceEntryType) {
			col := tk.Position.Column
			for len(stack) > 1 {
				t := stack[len(stack)-1]
				if t.flow || t.col < col || (t.col == col && !t.seq && tk.Type == token.SequenceEntryType) {
					break
				}
				stack = stack[:len(stack)-1]
			}
			top = stack[len(stack)-1]
		}
		within := func() bool { // reports the first bound passed
			switch {
			case len(stack)-1 > MaxNesting:
				l.errf(l.tokenPos(tk), "", "the YAML nests more than %d levels deep here (maps and lists within each other): a chart nests far less; flatten this value, or move the nested stages into a subflow chart", MaxNesting)
				return false
			case total > budget:
				l.errf(l.tokenPos(tk), "", "the keys and nesting above this line are too long for the YAML parser, which keeps every node's full path (more than %d MiB of paths for a file of %d bytes): shorten the long keys above it, or split the chart into subflow charts", budget>>20, size)
				return false
			}
			return true
		}
		push := func(f frame) bool {
			stack = append(stack, f)
			total += f.path
			return within()
		}
		switch {
		case tk.Type == token.SequenceStartType || tk.Type == token.MappingStartType:
			if !push(frame{path: top.path + pendingKey + 12, flow: true}) {
				return false
			}
			pendingKey = 0
		case tk.Type == token.SequenceEndType || tk.Type == token.MappingEndType:
			if top.flow && len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			pendingKey = 0
		case tk.Type == token.CollectEntryType:
			pendingKey = 0
		case tk.Type == token.SequenceEntryType && !top.flow:
			if !push(frame{col: tk.Position.Column, path: top.path + 12, seq: true}) {
				return false
			}
		case tk.Type == token.MappingValueType, tk.Type == token.AnchorType, tk.Type == token.TagType, tk.Type == token.AliasType:
			// part of the node the key or value before or after it is
		default: // a scalar: a key when a `:` follows it
			key := 0
			if n := next(i); n != nil && n.Type == token.MappingValueType {
				key = len(tk.Value) + 3
			}
			switch {
			case key > 0 && !top.flow:
				if !push(frame{col: tk.Position.Column, path: top.path + key}) {
					return false
				}
			case key > 0:
				pendingKey = key
				total += top.path + key
			default:
				total += top.path + pendingKey + 12
			}
			if !within() {
				return false
			}
		}
	}
	return true
}

// tokenPos is where a token was written.
func (l *loader) tokenPos(tk *token.Token) Pos {
	p := Pos{File: l.file, Line: 1, Col: 1}
	if tk != nil && tk.Position != nil {
		p.Line, p.Col = max(tk.Position.Line, 1), max(tk.Position.Column, 1)
	}
	return p
}

// CheckMounts refuses a chart whose subflow charts mount each other more
// than MaxSubflowDepth deep, or add more than MaxSubflowStages stages in
// all, a chart counted once for every place it is mounted. Load asks it of
// every chart it returns; runbook.Build asks it again of any Spec it is
// given (one built in Go may share a mounted Spec along many paths, or mount
// one in a cycle). Its cost is linear in the distinct charts: each is
// counted once, however often it is mounted.
//
// The error is LoadErrors, at the mount in spec whose count passes a bound.
func CheckMounts(spec *Spec) error {
	if spec == nil {
		return nil
	}
	c := &mountCount{own: map[*Spec]int{}, added: map[*Spec]tally{}, height: map[*Spec]int{}}
	var errs LoadErrors
	var total tally
	walkStages(spec.Stages, func(st *StageSpec) bool {
		sf := st.Subflow
		if st.Kind != "subflow" || sf == nil || sf.Spec == nil {
			return true
		}
		if h := c.heightOf(sf.Spec); h > MaxSubflowDepth {
			errs = append(errs, &LoadError{Pos: st.Pos, Stage: st.ID, Msg: fmt.Sprintf(
				"subflow chart %q mounts charts within each other more than %d deep (the charts it mounts, and theirs): flatten the chain, or write the innermost ones inline (subflow: {stages: [ … ]})",
				sf.Chart, MaxSubflowDepth)})
			return false
		}
		total = total.plus(c.mountOf(sf.Spec))
		if total.over() {
			what := fmt.Sprintf("mounts charts more than %d times", MaxSubflowMounts)
			if total.mounts <= MaxSubflowMounts {
				what = fmt.Sprintf("holds more than %d stages of mounted charts", MaxSubflowStages)
			}
			errs = append(errs, &LoadError{Pos: st.Pos, Stage: st.ID, Msg: fmt.Sprintf(
				"with subflow chart %q this runbook %s, counting a chart once for every place it is mounted (a chart that mounts another twice, which mounts another twice, … doubles at each step): mount shared charts fewer times, or loop over the work with foreach",
				sf.Chart, what)})
			return false
		}
		return true
	})
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// mountCount memoizes, per chart: its own stages (inline ones included),
// what the charts it mounts add, and how many charts deep its mounts go
// (itself 1). A chart being counted (a cycle) counts as past every bound.
type mountCount struct {
	own    map[*Spec]int
	added  map[*Spec]tally
	height map[*Spec]int
}

// tally is what mounting adds: mounted charts and their stages, each
// saturating at past.
type tally struct{ mounts, stages int }

func (t tally) plus(u tally) tally {
	return tally{satAdd(t.mounts, u.mounts), satAdd(t.stages, u.stages)}
}

func (t tally) over() bool { return t.mounts > MaxSubflowMounts || t.stages > MaxSubflowStages }

const past = MaxSubflowStages + MaxSubflowMounts + MaxSubflowDepth + 1 // more than any bound

func (c *mountCount) ownOf(s *Spec) int {
	if n, ok := c.own[s]; ok {
		return n
	}
	n := 0
	walkStages(s.Stages, func(*StageSpec) bool { n = satAdd(n, 1); return true })
	c.own[s] = n
	return n
}

// mountOf is what mounting s once adds: itself and its stages, and what
// the charts it mounts add.
func (c *mountCount) mountOf(s *Spec) tally {
	return tally{1, c.ownOf(s)}.plus(c.addedOf(s))
}

func (c *mountCount) addedOf(s *Spec) tally {
	if t, ok := c.added[s]; ok {
		return t
	}
	c.added[s] = tally{past, past}
	var t tally
	walkStages(s.Stages, func(st *StageSpec) bool {
		if st.Kind == "subflow" && st.Subflow != nil && st.Subflow.Spec != nil {
			t = t.plus(c.mountOf(st.Subflow.Spec))
		}
		return !t.over()
	})
	c.added[s] = t
	return t
}

func (c *mountCount) heightOf(s *Spec) int {
	if n, ok := c.height[s]; ok {
		return n
	}
	c.height[s] = past
	h := 1
	walkStages(s.Stages, func(st *StageSpec) bool {
		if st.Kind == "subflow" && st.Subflow != nil && st.Subflow.Spec != nil {
			h = max(h, min(past, 1+c.heightOf(st.Subflow.Spec)))
		}
		return h <= MaxSubflowDepth
	})
	c.height[s] = h
	return h
}

// satAdd adds, saturating at past.
func satAdd(a, b int) int { return min(a+b, past) }

// walkStages calls f for each stage of list and of every stage list written
// inside them (branches, parallel, foreach, inline subflows), in chart
// order, while f returns true; it never enters a mounted chart.
func walkStages(list []StageSpec, f func(*StageSpec) bool) bool {
	for i := range list {
		st := &list[i]
		if !f(st) {
			return false
		}
		for _, brs := range [][]BranchSpec{st.Branches, st.Parallel} {
			for _, br := range brs {
				if !walkStages(br.Stages, f) {
					return false
				}
			}
		}
		if st.ForEach != nil && !walkStages(st.ForEach.Stages, f) {
			return false
		}
		if st.Subflow != nil && !walkStages(st.Subflow.Stages, f) {
			return false
		}
	}
	return true
}

// eachStage calls f for every stage of spec, at any depth (walkStages),
// and of every chart it mounts (a subflow's Spec), each chart once: how a
// load check asks every stage a run may reach.
func eachStage(spec *Spec, f func(*StageSpec)) {
	seen := map[*Spec]bool{}
	var chart func(s *Spec)
	chart = func(s *Spec) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		walkStages(s.Stages, func(st *StageSpec) bool {
			f(st)
			if sf := st.Subflow; sf != nil {
				chart(sf.Spec)
			}
			return true
		})
	}
	chart(spec)
}
