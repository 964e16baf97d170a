package recorder

import "strings"

// Narrative tells a run in English, one sentence a line, in the order things
// happened. The same events always give the same lines: nothing that varies
// between runs (timings) is ever told.
//
//	Stage Load (load#0) ran.
//	  read used = 95
//	  wrote verdict = "at-risk"
//	  Classify evaluated rule 1 "Nearly full": used 95 gt 90 ✓; and chose at-risk.
//
// Long loops are folded: after the first passes of a loop (WithLoopPasses,
// default 3) the passes that were followed by another one are replaced by one
// line that says how many were folded and what every decider chose in them,
// with counts; the last pass is told in full.
//
// A decision the engine kept compact (ReadsCompact) is told from its
// plan's fixed words and the Read entries before it, with no evidence
// built; the sentence is the one its evidence gives.
//
// Cost: Record keeps what it tells of the event, with no formatting and
// almost no pointer (see narrative_store.go): a 24-byte entry, the strings
// copied into one buffer, a plain value (nil, bool, string, number) as its
// bits or bytes, anything else (evidence, maps, lists) as it is. The words
// are built by Lines. Values are rendered when Lines is called, so a stage
// must not change a value after writing it (the scope's contract already
// says so; a plain value cannot change). Record and Lines must not be
// called concurrently; the engine delivers events one at a time.
type Narrative struct {
	steps  bool
	passes int
	width  int

	events entries
	// folds are the folded-loop summaries; a kindFold event's Index points here.
	folds []foldStats
	// loops tracks every loop seen, by loopKey.
	loops map[loopKey]*loopRun
}

// NarrativeOption sets an optional part of a Narrative.
type NarrativeOption func(*Narrative)

// WithoutSteps leaves out the read and write steps: the narrative keeps
// stage headers, decisions and flow lines, and Record drops scope events at
// once.
func WithoutSteps() NarrativeOption { return func(n *Narrative) { n.steps = false } }

// WithLoopPasses sets how many passes of a loop are told in full before the
// rest are folded (default 3, at least 1).
func WithLoopPasses(k int) NarrativeOption {
	return func(n *Narrative) { n.passes = max(k, 1) }
}

// WithValueWidth sets how many bytes of a rendered value are shown before it
// is cut with an ellipsis (default 80; 0 shows values whole).
func WithValueWidth(w int) NarrativeOption {
	return func(n *Narrative) { n.width = max(w, 0) }
}

// NewNarrative returns an empty narrative recorder.
func NewNarrative(opts ...NarrativeOption) *Narrative {
	n := &Narrative{steps: true, passes: 3, width: 80}
	for _, o := range opts {
		o(n)
	}
	return n
}

// Wants says which events the narrative tells (it is Selective): not
// StageEnd, Commit or Next, and no Read or Write without steps. The engine
// builds none of those for it.
func (n *Narrative) Wants(k Kind) bool {
	switch k {
	case StageEnd, Commit, Next:
		return false
	case Read, Write:
		return n.steps
	}
	return true
}

// ReadsCompact says the narrative tells a decision kept compact
// (recorder.CompactReader) when it keeps steps: the decision's reads are
// the Read entries just before it. It writes the same sentence the
// decision's evidence gives, from each rule's fixed words, made once a
// chart (narrativeText), and the values read.
func (n *Narrative) ReadsCompact() bool { return n.steps }

// Record keeps e for Lines. Events the narrative never tells (StageEnd,
// Commit, Next, and Read/Write without steps) are dropped here.
func (n *Narrative) Record(e Event) { n.record(&e) }

// record is Record without the copy: the Dispatcher calls it with the
// engine's event, which it must not keep.
func (n *Narrative) record(e *Event) {
	switch e.Kind {
	case StageEnd, Commit, Next:
		return
	case Read, Write:
		if !n.steps {
			return
		}
	case Loop:
		n.loop(e)
		return
	}
	n.events.keep(e, e.Kind, int32(e.Index))
}

// kindFold is the narrative's own record of folded loop passes; it never
// leaves the package.
const kindFold Kind = 255

// loopRun is one run of one loop: its jumps counted from 1.
type loopRun struct {
	count     int   // jumps seen in this run
	lastIndex int32 // index of the last jump, to notice a new run
	lastJump  int   // position in events of the last jump kept
	region    int   // position of this run's kindFold entry, -1 before folding
}

// foldStats is what the folded passes of one loop run did.
type foldStats struct {
	first, last int // pass numbers folded, inclusive
	stages      int
	retries     int
	errors      int
	choices     []choice
}

// choice counts how often a decider (or selector) chose a branch (or set).
type choice struct {
	sel      bool
	decider  string
	branches string
	n        int
}

// loopKey names one loop: the loop node in its subflow, and its target.
type loopKey struct{ sub, id, target string }

// loop keeps jumps 1..passes; every later jump folds the pass that ended
// with it into the loop run's summary, so memory stays bounded by the passes
// told in full, the summary and the current pass.
func (n *Narrative) loop(e *Event) {
	if n.loops == nil {
		n.loops = make(map[loopKey]*loopRun)
	}
	key := loopKey{e.Subflow, e.StageID, e.Target}
	index := int32(e.Index)
	st := n.loops[key]
	if st == nil || index <= st.lastIndex || !n.isJump(st.lastJump, key) {
		st = &loopRun{region: -1}
		n.loops[key] = st
	}
	st.lastIndex = index
	st.count++
	if st.count <= n.passes {
		n.events.keep(e, Loop, index)
		st.lastJump = n.events.len() - 1
		return
	}
	// The pass that just ended (from the previous jump to here) was followed
	// by another: it is folded.
	cut := st.lastJump
	var fs *foldStats
	if st.region < 0 {
		n.folds = append(n.folds, foldStats{first: st.count})
		fi := len(n.folds) - 1
		fs = &n.folds[fi]
		fs.add(&n.events, cut, n.folds)
		n.events.truncate(cut)
		n.events.keep(e, kindFold, int32(fi))
		st.region = cut
	} else {
		fs = &n.folds[n.events.at(st.region).index]
		fs.add(&n.events, cut, n.folds)
		n.events.truncate(cut)
	}
	fs.last = st.count
	n.events.keep(e, Loop, index)
	st.lastJump = n.events.len() - 1
}

// isJump reports whether events[i] is still the jump of the loop key names
// that a loopRun remembers (it is gone when an outer loop folded it away).
func (n *Narrative) isJump(i int, key loopKey) bool {
	if i < 0 || i >= n.events.len() {
		return false
	}
	j := n.events.at(i)
	if j.kind != Loop {
		return false
	}
	p := n.events.placeOf(j)
	return p.sub == key.sub && p.id == key.id && n.events.textOf(j) == key.target
}

// add counts what the entries from position from on did (one folded pass);
// a nested summary (an inner loop folded earlier) is merged.
func (fs *foldStats) add(l *entries, from int, folds []foldStats) {
	for i := from; i < l.len(); i++ {
		e := l.at(i)
		switch e.kind {
		case StageStart:
			fs.stages++
		case Retry:
			fs.retries++
		case Error:
			fs.errors++
		case Decision, Select:
			p := l.placeOf(e)
			fs.count(e.kind == Select, subject(&p), chosen(l, e), 1)
		case kindFold:
			in := &folds[e.index]
			fs.stages += in.stages
			fs.retries += in.retries
			fs.errors += in.errors
			for _, c := range in.choices {
				fs.count(c.sel, c.decider, c.branches, c.n)
			}
		}
	}
}

func (fs *foldStats) count(sel bool, decider, branches string, k int) {
	for i := range fs.choices {
		c := &fs.choices[i]
		if c.sel == sel && c.decider == decider && c.branches == branches {
			c.n += k
			return
		}
	}
	// decider may be a view of the narrative's text, which a fold truncates.
	fs.choices = append(fs.choices, choice{sel: sel, decider: strings.Clone(decider), branches: branches, n: k})
}

// chosen is the branches a Decision or Select entry took, as one string.
func chosen(l *entries, e *entry) string {
	if p, c, ok := l.compact(e); ok {
		return c.Branch(p.Rules(), p.Default())
	}
	bs := l.branches(e)
	switch len(bs) {
	case 0:
		return ""
	case 1:
		return bs[0]
	}
	return strings.Join(bs, ", ")
}

// subject is the words naming the node an entry is about.
func subject(e *place) string {
	switch {
	case e.name != "":
		return e.name
	case e.id != "":
		return e.id
	}
	return "the stage"
}
