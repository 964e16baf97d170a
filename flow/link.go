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
	return append(errs, c.validate()...)
}
