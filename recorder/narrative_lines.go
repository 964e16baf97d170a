package recorder

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/rules"
)

// Lines tells the run so far, one sentence a line. Lines inside a branch or
// a subflow are indented two spaces a level; a stage's steps and decision
// one level under its header. Every call builds the lines afresh from the
// events kept (one string holds all their text).
func (n *Narrative) Lines() []string {
	w := writer{width: n.width, folds: n.folds, events: &n.events}
	w.buf = make([]byte, 0, n.textSize())
	w.ends = make([]int, 0, n.events.len()+8)
	for c, chunk := range n.events.chunks {
		for i := range chunk {
			w.pos = c*chunkSize + i
			w.event(&chunk[i])
		}
	}
	// The lines are strings over the buffer itself, which nothing writes
	// again: one copy of the text fewer.
	text := unsafe.String(unsafe.SliceData(w.buf), len(w.buf))
	lines := make([]string, len(w.ends))
	start := 0
	for i, end := range w.ends {
		lines[i] = text[start:end]
		start = end
	}
	return lines
}

// textSize guesses the bytes of the lines, so the buffer is made once: a
// line an event, and a decision's rules and conditions on top.
func (n *Narrative) textSize() int {
	size := 48 * n.events.len()
	for _, chunk := range n.events.chunks {
		for i := range chunk {
			if ev := chunk[i].decision(); ev != nil {
				size += 64 * len(ev.Rules)
				for j := range ev.Rules {
					size += 64 * len(ev.Rules[j].Conditions)
				}
			}
		}
	}
	return size
}

// writer builds the narrative's lines into one buffer; ends marks where each
// line stops.
type writer struct {
	buf   []byte
	ends  []int
	depth int
	width int
	folds []foldStats
	// events and pos: the entries told and the one being told, so a loop
	// line can look back for its target's name.
	events *entries
	pos    int
}

func (w *writer) line(depth int) {
	for range max(depth, 0) {
		w.buf = append(w.buf, "  "...)
	}
}

func (w *writer) end() { w.ends = append(w.ends, len(w.buf)) }

func (w *writer) str(s string) { w.buf = append(w.buf, s...) }

func (w *writer) int(i int) { w.buf = strconv.AppendInt(w.buf, int64(i), 10) }

// value writes v compactly as JSON, cut at the narrative's width.
func (w *writer) value(v any) {
	start := len(w.buf)
	w.buf = appendValue(w.buf, v, w.width)
	w.buf = truncateFrom(w.buf, start, w.width)
}

// stage writes `Name (path)`, or just the path when there is no name.
func (w *writer) stage(e *entry) {
	name := subject(e)
	if e.path == "" || name == e.path {
		w.str(name)
		return
	}
	w.str(name)
	w.str(" (")
	w.str(e.path)
	w.str(")")
}

// stop ends a sentence with a full stop unless it already has one.
func (w *writer) stop() {
	if n := len(w.buf); n > 0 {
		switch w.buf[n-1] {
		case '.', '!', '?':
			w.end()
			return
		}
	}
	w.str(".")
	w.end()
}

// message writes an error message on one line: its first line, and a note
// when more lines follow (a stack trace stays in the record).
func (w *writer) message(msg string) {
	msg = strings.TrimSpace(msg)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		w.str(strings.TrimSpace(msg[:i]))
		w.str(" (more lines in the record)")
		return
	}
	w.str(msg)
}

func (w *writer) event(e *entry) {
	switch e.kind {
	case RunStart:
		w.line(w.depth)
		if e.name != "" {
			w.str("The run of ")
			w.str(e.name)
			w.str(" started.")
		} else {
			w.str("The run started.")
		}
		w.end()
	case RunEnd:
		w.line(w.depth)
		w.str("The run completed.")
		w.end()
	case RunFailed:
		w.line(w.depth)
		w.str("The run failed: ")
		w.message(e.text)
		w.stop()
	case Pause:
		w.line(w.depth)
		w.str("The run paused at ")
		w.stage(e)
		w.str(" to wait for an answer.")
		w.end()
	case StageStart:
		w.line(w.depth)
		w.str("Stage ")
		w.stage(e)
		w.str(" ran.")
		w.end()
	case Read:
		w.line(w.depth + 1)
		w.str("read ")
		w.str(e.text)
		w.str(" = ")
		w.value(e.value)
		w.end()
	case Write:
		w.line(w.depth + 1)
		if e.deleted {
			w.str("deleted ")
			w.str(e.text)
		} else {
			w.str("wrote ")
			w.str(e.text)
			w.str(" = ")
			w.value(e.value)
		}
		w.end()
	case Decision, Select:
		w.line(w.depth + 1)
		w.decision(e)
	case Fork:
		w.line(w.depth)
		w.str(subject(e))
		switch {
		case int(e.total) > 0:
			w.str(" fanned out over ")
			w.count(int(e.total), "item", "items")
			w.str(", one branch each.")
		case len(e.branches()) == 0:
			w.str(" forked no branches.")
		default:
			w.str(" forked ")
			w.count(len(e.branches()), "branch", "branches")
			w.str(": ")
			w.list(e.branches())
			w.str(".")
		}
		w.end()
	case Truncated:
		w.line(w.depth)
		w.str(subject(e))
		w.str(" ran ")
		w.int(int(e.index))
		w.str(" of ")
		w.count(int(e.total), "item", "items")
		w.str("; the other ")
		w.int(int(e.total) - int(e.index))
		w.str(" did not run, past its bound of ")
		w.count(int(e.index), "branch", "branches")
		w.str(".")
		w.end()
	case BranchStart:
		w.line(w.depth)
		w.str("Branch ")
		w.str(e.text)
		if strings.IndexByte(e.text, '~') >= 0 {
			w.str(" (item ")
			w.int(int(e.index))
			w.str(")")
		}
		w.str(" started.")
		w.end()
		w.depth++
	case BranchEnd:
		w.depth--
		w.line(w.depth)
		w.str("Branch ")
		w.str(e.text)
		w.str(" ended.")
		w.end()
	case Join:
		w.line(w.depth)
		w.str(subject(e))
		if len(e.branches()) > 0 {
			w.str(" joined its ")
			w.count(len(e.branches()), "branch", "branches")
			w.str(".")
		} else {
			w.str(" joined its branches.")
		}
		w.end()
	case SubflowEnter:
		w.line(w.depth)
		w.str("Entered subflow ")
		w.stage(e)
		w.str(".")
		w.end()
		w.depth++
	case SubflowExit:
		w.depth--
		w.line(w.depth)
		w.str("Left subflow ")
		w.stage(e)
		w.str(".")
		w.end()
	case Loop:
		w.line(w.depth)
		w.str("Loop ")
		w.stage(e)
		w.str(" jumped back to ")
		w.target(e)
		w.str(", jump ")
		w.int(int(e.index))
		if int(e.total) > 0 {
			w.str(" of at most ")
			w.int(int(e.total))
		}
		w.str(".")
		w.end()
	case kindFold:
		w.line(w.depth)
		w.fold(e, &w.folds[e.index])
	case Retry:
		w.line(w.depth + 1)
		w.str("Attempt ")
		w.int(int(e.index))
		if int(e.total) > 0 {
			w.str(" of ")
			w.int(int(e.total))
		}
		w.str(" of ")
		w.stage(e)
		w.str(" failed: ")
		w.message(e.text)
		if int(e.total) > 0 && int(e.index) >= int(e.total) {
			w.str("; no attempt left.")
			w.end()
		} else {
			w.str("; retrying.")
			w.end()
		}
	case Error:
		w.line(w.depth + 1)
		w.str("Stage ")
		w.stage(e)
		w.str(" failed: ")
		w.message(e.text)
		w.stop()
	}
}

// count writes `3 items`, `1 item`.
func (w *writer) count(n int, one, many string) {
	w.int(n)
	w.str(" ")
	if n == 1 {
		w.str(one)
	} else {
		w.str(many)
	}
}

func (w *writer) list(items []string) {
	for i, s := range items {
		if i > 0 {
			w.str(", ")
		}
		w.str(s)
	}
}

// target writes the stage a loop jumps to: its name, found on the latest
// start of that stage in the same subflow, with its id.
func (w *writer) target(e *entry) {
	for i := w.pos - 1; i >= 0; i-- {
		s := w.events.at(i)
		if s.kind == StageStart && s.id == e.text && s.sub == e.sub {
			if s.name != "" && s.name != e.text {
				w.str(s.name)
				w.str(" (")
				w.str(e.text)
				w.str(")")
				return
			}
			break
		}
	}
	w.str(e.text)
}

// fold writes the summary of a loop's folded passes:
//
//	Loop Again folded passes 4 to 49: 46 passes, 92 stage runs; Check chose wait 45 times and done 1 time.
func (w *writer) fold(e *entry, fs *foldStats) {
	w.str("Loop ")
	w.str(subject(e))
	passes := fs.last - fs.first + 1
	if passes == 1 {
		w.str(" folded pass ")
		w.int(fs.first)
	} else {
		w.str(" folded passes ")
		w.int(fs.first)
		w.str(" to ")
		w.int(fs.last)
	}
	w.str(": ")
	w.count(passes, "pass", "passes")
	w.str(", ")
	w.count(fs.stages, "stage run", "stage runs")
	if fs.retries > 0 {
		w.str(", ")
		w.count(fs.retries, "retry", "retries")
	}
	if fs.errors > 0 {
		w.str(", ")
		w.count(fs.errors, "error", "errors")
	}
	if len(fs.choices) == 0 {
		w.str("; no decision was made in them.")
		w.end()
		return
	}
	// One clause per decider, in the order they first decided; each lists
	// its choices in the order they first happened.
	done := make([]bool, len(fs.choices))
	for i, c := range fs.choices {
		if done[i] {
			continue
		}
		w.str("; ")
		w.str(c.decider)
		first := true
		for j := i; j < len(fs.choices); j++ {
			d := fs.choices[j]
			if done[j] || d.decider != c.decider || d.sel != c.sel {
				continue
			}
			done[j] = true
			if first {
				if c.sel {
					w.str(" selected ")
				} else {
					w.str(" chose ")
				}
				first = false
			} else {
				w.str(" and ")
			}
			if d.branches == "" {
				w.str("nothing")
			} else {
				w.str(d.branches)
			}
			w.str(" ")
			w.count(d.n, "time", "times")
		}
	}
	w.str(".")
	w.end()
}

// decision writes the condition line: every rule evaluated, with the
// evidence of each, then what was chosen.
//
//	Classify evaluated rule 1 "Nearly full": used 95 gt 90 ✓, state "ok" eq "degraded" ✗; evaluated rule 2 …; and chose at-risk.
//	Classify evaluated rule 1 …; no rule matched; fell back to the default declined ("No rule reached a verdict").
func (w *writer) decision(e *entry) {
	w.str(subject(e))
	ev := e.decision()
	sel := e.kind == Select || ev != nil && ev.Kind == decide.KindSelect
	branches := e.branches()
	if len(branches) == 0 && ev != nil {
		branches = ev.Chosen
	}
	matched := false
	if ev != nil {
		for i := range ev.Rules {
			r := &ev.Rules[i]
			if i > 0 {
				w.str(";")
			}
			w.str(" evaluated rule ")
			w.int(r.Index + 1)
			if r.Label != "" {
				w.str(" ")
				w.buf = appendString(w.buf, r.Label)
			}
			w.str(": ")
			w.outcome(&r.Outcome)
			matched = matched || r.Matched
		}
	}
	lead := " "
	if ev != nil && len(ev.Rules) > 0 {
		lead = "; "
	}
	switch {
	case sel && len(branches) == 0:
		w.str(lead)
		if lead == "; " {
			w.str("and ")
		}
		w.str("selected no branch.")
	case sel:
		w.str(lead)
		if lead == "; " {
			w.str("and ")
		}
		w.str("selected ")
		w.list(branches)
		w.str(".")
	case ev != nil && ev.FellThrough() && ev.Default != nil && len(branches) == 1 && branches[0] == ev.Default.Branch:
		if len(ev.Rules) > 0 {
			w.str("; no rule matched;")
		}
		w.str(" fell back to the default ")
		w.str(ev.Default.Branch)
		if ev.Default.Label != "" {
			w.str(" (")
			w.buf = appendString(w.buf, ev.Default.Label)
			w.str(")")
		}
		w.str(".")
	case !matched && ev != nil && len(ev.Rules) > 0:
		w.str("; no rule matched, and it chose ")
		w.list(branches)
		w.str(".")
	default:
		w.str(lead)
		if lead == "; " {
			w.str("and ")
		}
		w.str("chose ")
		w.list(branches)
		w.str(".")
	}
	w.end()
}

// outcome writes one rule's evidence: filter conditions as `key actual op
// expected ✓/✗`, an expression as its text, its inputs and its result.
func (w *writer) outcome(o *rules.Outcome) {
	switch {
	case len(o.Conditions) > 0:
		for i := range o.Conditions {
			c := &o.Conditions[i]
			if i > 0 {
				w.str(", ")
			}
			w.condition(c)
		}
		if o.Err != "" {
			w.str(" (error: ")
			w.message(o.Err)
			w.str(")")
		}
	case o.Expr != "":
		w.str(o.Expr)
		for i, in := range o.Inputs {
			if i == 0 {
				w.str(" with ")
			} else {
				w.str(", ")
			}
			w.str(in.Path)
			w.str(" = ")
			w.value(in.Value)
		}
		if o.Err != "" {
			w.str(" failed: ")
			w.message(o.Err)
			w.str(" ✗")
			return
		}
		if _, isBool := o.Result.(bool); !isBool && o.Result != nil {
			w.str(" gave ")
			w.value(o.Result)
		}
		w.mark(o.Matched)
	case o.Err != "":
		w.str("failed: ")
		w.message(o.Err)
		w.str(" ✗")
	case o.Matched:
		w.str("matched ✓")
	default:
		w.str("did not match ✗")
	}
}

func (w *writer) condition(c *rules.ConditionEvidence) {
	w.str(c.Key)
	if c.Op == rules.OpExists {
		if b, ok := c.Expected.(bool); ok && !b {
			w.str(" is absent")
		} else {
			w.str(" exists")
		}
	} else {
		if c.Present {
			w.str(" ")
			w.value(c.Actual)
		} else {
			w.str(" (missing)")
		}
		w.str(" ")
		w.str(string(c.Op))
		w.str(" ")
		w.value(c.Expected)
	}
	w.mark(c.Pass)
	if !c.Pass && c.Reason != "" {
		w.str(" (")
		w.message(c.Reason)
		w.str(")")
	}
}

func (w *writer) mark(pass bool) {
	if pass {
		w.str(" ✓")
	} else {
		w.str(" ✗")
	}
}
