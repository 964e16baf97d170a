package flow

import (
	"sync"

	"github.com/openrunbook/runbook/decide"
)

// packedCommit is a commit as a run keeps it: numbers only, no pointer.
// A long run keeps tens of thousands of commits; as Commits (192 bytes,
// eleven pointer words each) they were one large allocation the runtime
// zeroed whole before the run could go on, that the collector scanned on
// every cycle and whose pages the kernel faulted in afresh each run — with
// the collector's wait on that zeroing, nearly half of a 10,000-pass
// loop's CPU. Packed, a commit is 64 bytes the collector never looks
// into. What it names by number lives where it lived before: its reads,
// writes and evidence in its arena's chunks, its scope and chart in the
// arena's frame list, its stage in the chart's node list; its path is
// spelled again from those, by the formatter that spelled it in the run.
// Log.Commits spells the commits out when someone reads them
// (packedLog.spell), the same values in the same memory a commit held
// when it was built whole.
type packedCommit struct {
	// bits is the compact decision's pass marks (decide.Compact.Parts)
	bits uint64
	// arena is the arena's place in runner.arenas; ref the frame's in the
	// arena's refs; node the stage's in its chart's nodes.
	arena, ref, node uint32
	// n is the execution counter (Commit.N).
	n             uint32
	reads, writes span
	attempt       uint32
	matched       int32 // the compact decision's matched rule, when flagLazy
	flags         uint32
	extra         uint32 // 1 + the index in the arena's extras; 0 for none
}

// packedCommit flags.
const (
	flagDiscarded = 1 << iota
	// flagLazy: the commit holds a compact decision (bits, matched).
	flagLazy
)

// frameRef is what a frame's commits share: the scope they ran in, its
// display path, and the nodes of the chart the frame runs.
type frameRef struct {
	steps  []ScopeStep
	prefix string
	nodes  []*node
}

// commitExtra is what a rare commit holds beyond the packed fields.
type commitExtra struct {
	ev  *decide.Evidence
	err string
}

// refIn is the index of f's frameRef in its arena, registering it on the
// frame's first commit there (and again when the node is of another
// chart than the one registered, which a frame never runs, but which
// must not misname a stage if it did).
func (f *frame) refIn(n *node) uint32 {
	if f.refArena == f.arena && f.refOwner == n.owner {
		return f.ref
	}
	a := f.arena
	if a.refs == nil {
		a.refs = a.refs0[:0]
	}
	a.refs = append(a.refs, frameRef{steps: f.steps, prefix: f.prefix, nodes: n.owner.nodes})
	f.refArena, f.refOwner, f.ref = a, n.owner, uint32(len(a.refs)-1)
	return f.ref
}

// arenaID is a's place in the run's arenas, registering it on its first
// commit.
func (r *runner) arenaID(a *arena) uint32 {
	if a.registered {
		return a.id
	}
	r.mu.Lock()
	if r.arenas == nil {
		r.arenas = r.arenas0[:0]
	}
	r.arenas = append(r.arenas, a)
	a.id, a.registered = uint32(len(r.arenas)-1), true
	r.mu.Unlock()
	return a.id
}

// packedLog is a run's log as the run kept it, spelled out as Commits the
// first time a reader asks (once, whatever the goroutine).
type packedLog struct {
	commits []packedCommit
	arenas  []*arena
	base    int
	once    sync.Once
	out     []Commit
}

func (p *packedLog) get() []Commit {
	p.once.Do(func() {
		p.out = p.spell()
		p.commits, p.arenas = nil, nil
	})
	return p.out
}

// spell builds the Commits, the paths spelled by the arena's own
// formatter (arena.path) into one buffer.
func (p *packedLog) spell() []Commit {
	out := make([]Commit, len(p.commits))
	var paths arena
	for i := range p.commits {
		pc := &p.commits[i]
		a := p.arenas[pc.arena]
		ref := &a.refs[pc.ref]
		n := ref.nodes[pc.node]
		c := &out[i]
		c.Index = p.base + i
		c.Path = paths.path(ref.prefix, n.id, int(pc.n))
		c.Stage, c.N = n.id, int(pc.n)
		if len(ref.steps) > 0 {
			c.Scope = ref.steps
		}
		c.Reads, c.Writes = a.readsAt(pc.reads), a.writesAt(pc.writes)
		if pc.extra != 0 {
			x := &a.extras[pc.extra-1]
			c.Decision, c.Err = x.ev, x.err
		}
		if pc.flags&flagLazy != 0 {
			c.lazy = lazyDecision{n: n, c: decide.CompactOf(pc.bits, pc.matched)}
		}
		c.Attempt, c.Discarded = int(pc.attempt), pc.flags&flagDiscarded != 0
	}
	return out
}

// stageOf is the stage id and scope depth of a packed commit of this run
// (the run's lock held: a fan-out worker may be registering an arena).
func (r *runner) stageOf(pc *packedCommit) (id string, depth int) {
	a := r.arenas[pc.arena]
	ref := &a.refs[pc.ref]
	return ref.nodes[pc.node].id, len(ref.steps)
}

// pathOf spells a packed commit's runtime path (the run's lock held).
func (r *runner) pathOf(pc *packedCommit) string {
	a := r.arenas[pc.arena]
	ref := &a.refs[pc.ref]
	var paths arena
	return paths.path(ref.prefix, ref.nodes[pc.node].id, int(pc.n))
}
