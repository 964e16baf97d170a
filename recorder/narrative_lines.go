package recorder

import (
	"strings"
	"unsafe"

	"github.com/openrunbook/runbook/decide"
)

// Lines tells the run so far, one sentence a line. Lines inside a branch or
// a subflow are indented two spaces a level; a stage's steps and decision
// one level under its header. Every call builds the lines afresh from the
// events kept.
//
// Cost: one buffer holds the text of every line (sized from the entries, so
// made once in the usual case) and the lines are strings over it; with the
// slice of lines, two allocations.
func (n *Narrative) Lines() []string {
	w := writer{width: n.width, folds: n.folds, events: &n.events}
	w.buf = make([]byte, 0, n.textSize())
	w.lines = make([]string, 0, n.events.len())
	for _, chunk := range n.events.list.c {
		for i := range chunk {
			w.event(&chunk[i])
			w.pos++
		}
	}
	return w.lines
}

// textSize guesses the bytes of the lines, so that the buffer is made once
// and not much larger than the text, without reading the entries: the
// strings they keep, 12 bytes an entry for the words, 40 for each rule and
// condition of a decision (each of its plan's, for one kept compact), 16
// for any other value kept as an any, and a sixteenth more.
func (n *Narrative) textSize() int {
	size := 64 + len(n.events.text) + 12*n.events.len()
	for _, chunk := range n.events.vals.c {
		for _, v := range chunk {
			size += 16
			switch v := v.(type) {
			case *decide.Evidence:
				size += 40 * len(v.Rules)
				for j := range v.Rules {
					size += 40 * len(v.Rules[j].Conditions)
				}
			}
		}
	}
	size += n.events.compactSize
	return size + size/16
}

// writer builds the narrative's lines into one buffer; every line is a
// string over the bytes it wrote, which nothing writes again (a buffer
// that grows is copied, and the lines over the old one keep it).
type writer struct {
	buf   []byte
	lines []string
	// start is where the line being written starts in buf.
	start int
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
		w.str("  ")
	}
}

// end ends the line being written. Growing buf copies it, and the lines
// already ended stay over the old bytes, which nothing writes again.
func (w *writer) end() {
	line := w.buf[w.start:]
	w.lines = append(w.lines, unsafe.String(unsafe.SliceData(line), len(line)))
	w.start = len(w.buf)
}

// str writes s. Like every write to buf, it stores buf's pointer only when
// buf grows: while the garbage collector marks, each pointer stored costs a
// write barrier, and a line is a dozen writes.
func (w *writer) str(s string) {
	n := len(w.buf)
	if cap(w.buf)-n < len(s) {
		w.buf = append(w.buf, s...)
		return
	}
	w.buf = w.buf[:n+len(s)]
	copy(w.buf[n:], s)
}

// set makes b, which was appended to buf, the buffer (see str).
func (w *writer) set(b []byte) {
	if cap(b) == cap(w.buf) {
		w.buf = w.buf[:len(b)]
		return
	}
	w.buf = b
}

func (w *writer) int(i int) { w.set(appendInt(w.buf, int64(i))) }

// kept writes an entry's value as value writes it; str is a string value.
func (w *writer) kept(e *entry, str string) {
	start := len(w.buf)
	w.set(truncateFrom(w.events.appendKept(w.buf, e, str, w.width), start, w.width))
}

// value writes v compactly as JSON, cut at the narrative's width.
func (w *writer) value(v any) {
	start := len(w.buf)
	w.set(truncateFrom(appendValue(w.buf, v, w.width), start, w.width))
}

// stage writes `Name (path)`, or just the path when there is no name.
func (w *writer) stage(e *place) {
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
	text, rest := w.events.head(e)
	if e.kind == Read || e.kind == Write {
		w.step(e, text, rest)
		return
	}
	p := w.events.siteAt(e, rest)
	s := &p
	switch e.kind {
	case RunStart:
		w.line(w.depth)
		if s.name != "" {
			w.str("The run of ")
			w.str(s.name)
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
		w.message(text)
		w.stop()
	case Pause:
		w.line(w.depth)
		w.str("The run paused at ")
		w.stage(s)
		w.str(" to wait for an answer.")
		w.end()
	case StageStart:
		w.line(w.depth)
		w.str("Stage ")
		w.stage(s)
		w.str(" ran.")
		w.end()
	case Decision, Select:
		w.line(w.depth + 1)
		w.decision(e, s)
	case Fork:
		w.line(w.depth)
		w.str(subject(s))
		switch {
		case int(e.total) > 0:
			w.str(" fanned out over ")
			w.count(int(e.total), "item", "items")
			w.str(", one branch each.")
		case len(w.events.branches(e)) == 0:
			w.str(" forked no branches.")
		default:
			w.str(" forked ")
			w.count(len(w.events.branches(e)), "branch", "branches")
			w.str(": ")
			w.list(w.events.branches(e))
			w.str(".")
		}
		w.end()
	case Truncated:
		w.line(w.depth)
		w.str(subject(s))
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
		w.str(text)
		if e.total > 0 {
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
		w.str(text)
		w.str(" ended.")
		w.end()
	case Join:
		w.line(w.depth)
		w.str(subject(s))
		if len(w.events.branches(e)) > 0 {
			w.str(" joined its ")
			w.count(len(w.events.branches(e)), "branch", "branches")
			w.str(".")
		} else {
			w.str(" joined its branches.")
		}
		w.end()
	case SubflowEnter:
		w.line(w.depth)
		w.str("Entered subflow ")
		w.stage(s)
		w.str(".")
		w.end()
		w.depth++
	case SubflowExit:
		w.depth--
		w.line(w.depth)
		w.str("Left subflow ")
		w.stage(s)
		w.str(".")
		w.end()
	case Loop:
		w.line(w.depth)
		w.str("Loop ")
		w.stage(s)
		w.str(" jumped back to ")
		w.target(text, s)
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
		w.fold(s, &w.folds[e.index])
	case Retry:
		w.line(w.depth + 1)
		w.str("Attempt ")
		w.int(int(e.index))
		if int(e.total) > 0 {
			w.str(" of ")
			w.int(int(e.total))
		}
		w.str(" of ")
		w.stage(s)
		w.str(" failed: ")
		w.message(text)
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
		w.stage(s)
		w.str(" failed: ")
		w.message(text)
		w.stop()
	}
}

// step writes a Read or Write entry: its key, and its value (a string
// value is the next string of its record, at rest).
func (w *writer) step(e *entry, key string, rest int) {
	w.line(w.depth + 1)
	if e.kind == Write && e.deleted {
		w.str("deleted ")
		w.str(key)
		w.end()
		return
	}
	if e.kind == Read {
		w.str("read ")
	} else {
		w.str("wrote ")
	}
	w.str(key)
	w.str(" = ")
	var str string
	if e.vkind == valueString {
		str, _ = w.events.get(rest)
	}
	w.kept(e, str)
	w.end()
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
func (w *writer) target(text string, es *place) {
	for i := w.pos - 1; i >= 0; i-- {
		x := w.events.at(i)
		if x.kind != StageStart {
			continue
		}
		s := w.events.placeOf(x)
		if s.id == text && s.sub == es.sub {
			if s.name != "" && s.name != text {
				w.str(s.name)
				w.str(" (")
				w.str(text)
				w.str(")")
				return
			}
			break
		}
	}
	w.str(text)
}

// fold writes the summary of a loop's folded passes:
//
//	Loop Again folded passes 4 to 49: 46 passes, 92 stage runs; Check chose wait 45 times and done 1 time.
func (w *writer) fold(s *place, fs *foldStats) {
	w.str("Loop ")
	w.str(subject(s))
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
