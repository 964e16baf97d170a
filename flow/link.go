package flow

// link fixes every node's position (its sequence and index, each branch
// sequence's parent), indexes the chart's nodes by id, and returns every
// structural refusal (see validate.go). It runs once, in Build.
func (c *Chart) link() []error {
	c.byID = map[string]*node{}
	var errs []error
	var walk func(seq *sequence)
	walk = func(seq *sequence) {
		for i, n := range seq.nodes {
			n.seq, n.index = seq, i
			if prev, dup := c.byID[n.id]; dup && prev != n {
				errs = append(errs, &NodeError{Node: n.id, Msg: "duplicate id: every stage id in a chart must be unique, branch stages included"})
			} else {
				c.byID[n.id] = n
			}
			for _, br := range n.branches {
				br.seq.parent = n
				walk(br.seq)
			}
		}
	}
	walk(c.root)
	for _, n := range c.byID {
		if n.kind == KindLoop && n.loop != nil {
			n.loopTarget = c.loopTarget(n)
		}
	}
	return append(errs, c.validate()...)
}

// loopTarget finds the stage a loop jumps to: an earlier node of the loop's
// own sequence or of an enclosing one, never across a fan-out. Nil when there
// is none (validate reports it).
func (c *Chart) loopTarget(n *node) *node {
	seq, idx := n.seq, n.index
	for seq != nil {
		for i := idx - 1; i >= 0; i-- {
			if seq.nodes[i].id == n.loop.To {
				return seq.nodes[i]
			}
		}
		p := seq.parent
		if p == nil || p.kind != KindDecide {
			return nil
		}
		seq, idx = p.seq, p.index
	}
	return nil
}
