package flow

// link fixes every node's position (its sequence and index, each branch
// sequence's parent), indexes the chart's nodes by id (the first of a
// repeated id), and returns every structural refusal: validate.go is their
// one home, and resolves each loop's target. It runs once, in Build.
func (c *Chart) link() []error {
	c.byID = map[string]*node{}
	c.nodes = nil
	var walk func(seq *sequence)
	walk = func(seq *sequence) {
		for i, n := range seq.nodes {
			n.seq, n.index = seq, i
			n.owner, n.ord = c, uint32(len(c.nodes))
			c.nodes = append(c.nodes, n)
			if _, dup := c.byID[n.id]; !dup {
				c.byID[n.id] = n // the first; validate refuses the others
			}
			for _, br := range n.branches {
				br.seq.parent = n
				walk(br.seq)
			}
		}
	}
	walk(c.root)
	return c.validate()
}
