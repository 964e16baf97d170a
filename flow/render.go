package flow

import (
	"fmt"
	"sort"
	"strings"
)

// Mermaid renders the chart as a Mermaid flowchart. The text is the same
// bytes on every call and for every build of the same chart: nodes in chart
// order, edges sorted by where they start and end, then in
// declaration order. Shapes say the kind:
//
//	start, end   ([name])     stadium
//	stage        [name]       rectangle
//	decide       {name}       diamond
//	select       {{name}}     hexagon
//	parallel     [/name/]     parallelogram
//	foreach      [/name\]     trapezoid, its body a subgraph beside it
//	subflow      [[name]]     subroutine, the mounted chart a subgraph
//	loop         ((name))     circle, its back edge dashed: loop (max N)
//
// Branch edges carry the branch name (a selector also has a "none
// selected" edge to what follows it); an edge from a foreach to its body
// says "each <as> (max N)"; a body's or subflow's last nodes flow on to the
// node after the foreach or subflow. Node ids are derived from stage ids (prefixed,
// so no stage id can be a Mermaid keyword); every label is quoted with
// `"`, `#`, `<`, `>`, `&`, backtick and `|` written as entity codes and a
// newline as <br/>.
func (c *Chart) Mermaid() string {
	m := c.renderModel()
	var sb strings.Builder
	sb.WriteString("flowchart TD\n")
	var items func(its []rItem, indent string)
	items = func(its []rItem, indent string) {
		for _, it := range its {
			if it.node != nil {
				open, closing := mermaidShape(it.node.shape)
				fmt.Fprintf(&sb, "%s%s%s\"%s\"%s\n", indent, it.node.key, open, mermaidText(it.node.label), closing)
				continue
			}
			fmt.Fprintf(&sb, "%ssubgraph %s[\"%s\"]\n", indent, it.group.key, mermaidText(it.group.label))
			fmt.Fprintf(&sb, "%s  direction TB\n", indent)
			items(it.group.items, indent+"  ")
			fmt.Fprintf(&sb, "%send\n", indent)
		}
	}
	items(m.items, "  ")
	for _, e := range m.edges {
		arrow := "-->"
		if e.loop {
			arrow = "-.->"
		}
		if e.label == "" {
			fmt.Fprintf(&sb, "  %s %s %s\n", e.from.key, arrow, e.to.key)
		} else {
			fmt.Fprintf(&sb, "  %s %s|\"%s\"| %s\n", e.from.key, arrow, mermaidText(e.label), e.to.key)
		}
	}
	return sb.String()
}

// DOT renders the chart in Graphviz DOT, as deterministically as Mermaid
// (same order, same ids). Foreach bodies and subflows are clusters; loop
// edges are dashed and do not constrain the ranking. Every id and label is
// a quoted string with `\` and `"` escaped and a newline written as `\n`;
// no HTML-like labels are used, so `<`, `>` and `&` are plain text.
func (c *Chart) DOT() string {
	m := c.renderModel()
	var sb strings.Builder
	fmt.Fprintf(&sb, "digraph %s {\n", dotQuote(m.name))
	sb.WriteString("  rankdir=TB;\n")
	sb.WriteString("  node [fontname=\"Helvetica\"];\n")
	sb.WriteString("  edge [fontname=\"Helvetica\"];\n")
	var items func(its []rItem, indent string)
	items = func(its []rItem, indent string) {
		for _, it := range its {
			if it.node != nil {
				fmt.Fprintf(&sb, "%s%s [label=%s, %s];\n", indent, dotQuote(it.node.key), dotQuote(it.node.label), dotShape(it.node.shape))
				continue
			}
			fmt.Fprintf(&sb, "%ssubgraph %s {\n", indent, dotQuote("cluster_"+it.group.key))
			fmt.Fprintf(&sb, "%s  label=%s;\n", indent, dotQuote(it.group.label))
			fmt.Fprintf(&sb, "%s  style=rounded;\n", indent)
			items(it.group.items, indent+"  ")
			fmt.Fprintf(&sb, "%s}\n", indent)
		}
	}
	items(m.items, "  ")
	for _, e := range m.edges {
		var attrs []string
		if e.label != "" {
			attrs = append(attrs, "label="+dotQuote(e.label))
		}
		if e.loop {
			attrs = append(attrs, "style=dashed", "constraint=false")
		}
		if len(attrs) == 0 {
			fmt.Fprintf(&sb, "  %s -> %s;\n", dotQuote(e.from.key), dotQuote(e.to.key))
		} else {
			fmt.Fprintf(&sb, "  %s -> %s [%s];\n", dotQuote(e.from.key), dotQuote(e.to.key), strings.Join(attrs, ", "))
		}
	}
	sb.WriteString("}\n")
	return sb.String()
}

// rShape is a rendered node's shape: a node kind, or the start/end marker.
type rShape string

const (
	shapeStart rShape = "start"
	shapeEnd   rShape = "end"
)

func mermaidShape(s rShape) (string, string) {
	switch Kind(s) {
	case KindDecide:
		return "{", "}"
	case KindSelect:
		return "{{", "}}"
	case KindParallel:
		return "[/", "/]"
	case KindForEach:
		return "[/", "\\]"
	case KindSubflow:
		return "[[", "]]"
	case KindLoop:
		return "((", "))"
	}
	if s == shapeStart || s == shapeEnd {
		return "([", "])"
	}
	return "[", "]"
}

func dotShape(s rShape) string {
	switch Kind(s) {
	case KindDecide:
		return "shape=diamond"
	case KindSelect:
		return "shape=hexagon"
	case KindParallel:
		return "shape=parallelogram"
	case KindForEach:
		return "shape=trapezium"
	case KindSubflow:
		return "shape=box, peripheries=2"
	case KindLoop:
		return "shape=circle"
	}
	if s == shapeStart || s == shapeEnd {
		return "shape=oval"
	}
	return "shape=box"
}

// mermaidText escapes a label for a quoted Mermaid string.
func mermaidText(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString("#quot;")
		case '#':
			sb.WriteString("#35;")
		case '<':
			sb.WriteString("#lt;")
		case '>':
			sb.WriteString("#gt;")
		case '&':
			sb.WriteString("#amp;")
		case '`':
			sb.WriteString("#96;")
		case '|':
			sb.WriteString("#124;")
		case '\n':
			sb.WriteString("<br/>")
		case '\r':
		default:
			if r < 0x20 || r == 0x7f {
				sb.WriteByte(' ')
			} else {
				sb.WriteRune(r)
			}
		}
	}
	return sb.String()
}

// dotQuote writes s as a DOT quoted string.
func dotQuote(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
		default:
			if r < 0x20 || r == 0x7f {
				sb.WriteByte(' ')
			} else {
				sb.WriteRune(r)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// The render model: what both printers print, built by one walk.
type rNode struct {
	key, label string
	shape      rShape
	order      int
}

type rGroup struct {
	key, label string
	items      []rItem
}

// rItem is a node or a group (exactly one is set).
type rItem struct {
	node  *rNode
	group *rGroup
}

type rEdge struct {
	from, to *rNode
	label    string
	loop     bool
	seq      int // creation order: declaration order among equal ends
}

type rModel struct {
	name  string
	items []rItem
	edges []rEdge
	keys  map[string]bool
	next  int
}

// renderModel lays the chart out once: nodes in chart order (a node, its
// branches' nodes, a foreach body or subflow as a group right after its
// node), and edges sorted by the order of their ends, then in the order declared
// (branch order); identical edges are printed once.
func (c *Chart) renderModel() *rModel {
	m := &rModel{name: c.name, keys: map[string]bool{}}
	start := m.newNode("chart_start", c.name, shapeStart)
	end := m.newNode("chart_end", "end", shapeEnd)
	m.items = append(m.items, rItem{node: m.emit(start)})
	entry := m.chart(c, nil, &m.items, end)
	m.edge(start, entry, "", false)
	m.items = append(m.items, rItem{node: m.emit(end)})
	sort.SliceStable(m.edges, func(i, j int) bool {
		a, b := m.edges[i], m.edges[j]
		if a.from.order != b.from.order {
			return a.from.order < b.from.order
		}
		if a.to.order != b.to.order {
			return a.to.order < b.to.order
		}
		if a.loop != b.loop {
			return !a.loop
		}
		return a.seq < b.seq
	})
	out := m.edges[:0]
	for i, e := range m.edges {
		if i > 0 && e.from == out[len(out)-1].from && e.to == out[len(out)-1].to &&
			e.label == out[len(out)-1].label && e.loop == out[len(out)-1].loop {
			continue
		}
		out = append(out, e)
	}
	m.edges = out
	return m
}

// newNode makes a node with a key derived from want: letters, digits and
// '_' kept, anything else '_', a numeric suffix when taken.
func (m *rModel) newNode(want, label string, shape rShape) *rNode {
	key := sanitizeKey(want)
	for i := 2; m.keys[key]; i++ {
		key = fmt.Sprintf("%s_%d", sanitizeKey(want), i)
	}
	m.keys[key] = true
	return &rNode{key: key, label: label, shape: shape}
}

func (m *rModel) emit(n *rNode) *rNode {
	n.order = m.next
	m.next++
	return n
}

func (m *rModel) edge(from, to *rNode, label string, loop bool) {
	if from == nil || to == nil {
		return
	}
	m.edges = append(m.edges, rEdge{from: from, to: to, label: label, loop: loop, seq: len(m.edges)})
}

func sanitizeKey(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// chart lays out one chart (the root, a foreach body or a mounted subflow)
// whose flow continues at exit, and returns the node it starts at.
func (m *rModel) chart(ch *Chart, scope []string, items *[]rItem, exit *rNode) *rNode {
	if ch == nil || ch.root == nil {
		return exit
	}
	ids := map[string]*rNode{}
	ch.preorder(func(n *node) {
		if _, ok := ids[n.id]; ok {
			return
		}
		label := n.name
		if n.typ != "" && n.typ != string(n.kind) {
			label += "\n" + n.typ
		}
		ids[n.id] = m.newNode("n_"+strings.Join(append(append([]string(nil), scope...), n.id), "__"), label, rShape(n.kind))
	})
	return m.seq(ch.root, ids, scope, items, exit)
}

func (m *rModel) seq(seq *sequence, ids map[string]*rNode, scope []string, items *[]rItem, exit *rNode) *rNode {
	if len(seq.nodes) == 0 {
		return exit
	}
	for i, n := range seq.nodes {
		next := exit
		if i+1 < len(seq.nodes) {
			next = ids[seq.nodes[i+1].id]
		}
		rn := ids[n.id]
		*items = append(*items, rItem{node: m.emit(rn)})
		switch n.kind {
		case KindDecide, KindSelect, KindParallel:
			for _, br := range n.branches {
				m.edge(rn, m.seq(br.seq, ids, scope, items, next), br.name, false)
			}
			switch {
			case len(n.branches) == 0:
				m.edge(rn, next, "", false)
			case n.kind == KindSelect:
				m.edge(rn, next, "none selected", false)
			}
		case KindForEach:
			fe := n.forEach
			if fe == nil || fe.body == nil {
				m.edge(rn, next, "", false)
				continue
			}
			g := &rGroup{key: "sg_" + rn.key, label: "for each " + fe.as}
			*items = append(*items, rItem{group: g})
			inner := append(append([]string(nil), scope...), n.id)
			entry := m.chart(fe.body, inner, &g.items, next)
			m.edge(rn, entry, fmt.Sprintf("each %s (max %d)", fe.as, fe.maxBranches), false)
		case KindSubflow:
			if n.subflow == nil {
				m.edge(rn, next, "", false)
				continue
			}
			g := &rGroup{key: "sg_" + rn.key, label: n.subflow.name}
			*items = append(*items, rItem{group: g})
			inner := append(append([]string(nil), scope...), n.id)
			m.edge(rn, m.chart(n.subflow, inner, &g.items, next), "", false)
		case KindLoop:
			m.edge(rn, next, "", false)
			if n.loop != nil {
				m.edge(rn, ids[n.loop.To], fmt.Sprintf("loop (max %d)", n.loop.Max), true)
			}
		default:
			m.edge(rn, next, "", false)
		}
	}
	return ids[seq.nodes[0].id]
}
