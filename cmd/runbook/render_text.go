package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/internal/display"
	"github.com/openrunbook/runbook/record"

	"github.com/openrunbook/runbook/plugins/assessment"
)

// ANSI styles, used only when renderOpts.colour is set.
const (
	styleBold   = "\033[1m"
	styleRed    = "\033[31m"
	styleYellow = "\033[33m"
	styleReset  = "\033[0m"
)

// renderText writes rec for a person at a terminal (cli.md "--format
// text"): the parts of resultView, separated by blank lines.
func renderText(w io.Writer, rec *record.Record, opts renderOpts) error {
	v := viewOf(rec, opts)
	if opts.quiet {
		// The answer alone: the rows (and how many were left out) and how
		// far it stands. Hidden rows are still stated.
		v = resultView{verdicts: v.verdicts, standing: v.standing}
		if v.verdicts != nil {
			vv := *v.verdicts
			vv.meanings = nil
			v.verdicts = &vv
		}
	}
	p := &printer{w: w}
	style := func(s, code string) string {
		if !opts.colour || s == "" {
			return s
		}
		return code + s + styleReset
	}
	heading := func(s string) { p.part(); p.line(style(s, styleBold)) }

	if vv := v.verdicts; vv != nil {
		p.part()
		table := vv.table
		if opts.width > 0 {
			table = alignTable(table)
		}
		p.line(table)
		if vv.offTable != "" {
			p.line(vv.offTable)
		}
		for _, u := range vv.unjudged {
			p.line(u)
		}
		if vv.shown != "" {
			p.line(vv.shown)
		}
		if len(vv.meanings) > 0 {
			p.line("")
			for _, m := range vv.meanings {
				p.line(m[0] + " — " + m[1])
			}
		}
	}
	if len(v.coverage) > 0 {
		heading("Coverage")
		for _, c := range v.coverage {
			if c.headline != "" {
				p.line("  " + c.path + ": " + c.headline)
			} else {
				p.line("  " + c.path)
			}
			for _, l := range c.lines {
				name := l[0]
				if name == "not checked" || name == "cannot cover" {
					name = style(name, styleYellow)
				}
				p.line("    " + name + ": " + l[1])
			}
		}
	}
	if len(v.scripts) > 0 {
		heading("Scripts")
		for _, s := range v.scripts {
			words := s.words
			if !s.answered {
				words = style(words, styleRed)
			}
			p.line("  " + s.path + ": " + words)
			if s.onStdout {
				p.line("    nothing on stderr; its stdout ended:")
			}
			for _, l := range s.stderr {
				p.line("    | " + l)
			}
		}
	}
	if len(v.rules) > 0 {
		// Beside the scripts that did not complete: the rules that could
		// not be evaluated, each of which decided nothing.
		heading("Rules")
		for _, e := range v.rules {
			p.line("  " + ruleErrorText(e, func(s string) string { return style(s, styleRed) }))
		}
	}
	if s := v.standing; s != nil {
		p.part()
		line := s.line
		if opts.width > 0 {
			line = wrapWords(line, opts.width)
		}
		if opts.colour {
			code := styleBold
			if s.standing == assessment.NotSure || s.standing == assessment.Ask {
				code = styleYellow
			}
			if open := s.standing.Opening(); open != "" && strings.HasPrefix(line, open) {
				line = code + open + styleReset + line[len(open):]
			}
		}
		p.line(line)
	}
	if q := v.pause; q != nil {
		p.part()
		p.line(style("Question:", styleBold) + " " + q.question)
		p.line(style("Resume:", styleBold) + " " + q.resume)
	}
	if len(v.narrative) > 0 {
		heading("Narrative")
		for _, l := range v.narrative {
			p.line("  " + l)
		}
	}
	return p.err
}

// printer writes lines, a blank line between parts, and keeps the first
// write error.
type printer struct {
	w       io.Writer
	started bool // a part has been written
	err     error
}

// part starts a new part: a blank line before every part but the first.
func (p *printer) part() {
	if p.started {
		p.line("")
	}
	p.started = true
}

func (p *printer) line(s string) {
	if p.err == nil {
		_, p.err = fmt.Fprintln(p.w, s)
	}
}

// ruleErrorText is one errored rule as the text output lists it:
// `Headroom rule 1 ("Used at or above 90%"): could not be evaluated in 2
// decisions, counted as no match: invalid operation: …`.
func ruleErrorText(e assessment.ErroredRule, red func(string) string) string {
	s := e.Decider + " rule " + strconv.Itoa(e.Rule)
	if e.Label != "" {
		s += " (" + strconv.Quote(e.Label) + ")"
	}
	how := "could not be evaluated"
	if e.Decisions > 1 {
		how += " in " + strconv.Itoa(e.Decisions) + " decisions"
	}
	return s + ": " + red(how+", counted as no match") + ": " + oneLine(e.Err)
}

// oneLine keeps free text on its line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// alignTable pads the cells of a markdown table (record.RenderTable's
// form: `| a | b |`, a `|---|` rule, an escaped `\|` inside a cell) so
// that every column lines up, counting a wide rune (CJK, fullwidth) as two
// columns and a combining mark as none. Lines that are not table rows (a
// panel's "no rows" words) are left as they are. The words never change:
// only spaces and rule dashes are added.
func alignTable(table string) string {
	lines := strings.Split(table, "\n")
	rows := make([][]string, len(lines))
	var widths []int
	for i, l := range lines {
		cells, ok := tableCells(l)
		if !ok {
			continue
		}
		rows[i] = cells
		if isRule(cells) {
			continue
		}
		for j, c := range cells {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], display.Width(c))
		}
	}
	for i, cells := range rows {
		if cells == nil || len(cells) > len(widths) {
			continue
		}
		var b strings.Builder
		b.WriteString("|")
		for j, c := range cells {
			if isRule(cells) {
				b.WriteString(strings.Repeat("-", max(widths[j], 1)+2) + "|")
				continue
			}
			b.WriteString(" " + c + strings.Repeat(" ", widths[j]-display.Width(c)) + " |")
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// tableCells splits one markdown table row into its cells, trimmed; a
// `\|` stays inside its cell. ok is false for a line that is not a row.
func tableCells(line string) (cells []string, ok bool) {
	if len(line) < 2 || line[0] != '|' || line[len(line)-1] != '|' {
		return nil, false
	}
	body := line[1:]
	var cur strings.Builder
	for i := 0; i < len(body); i++ {
		switch {
		case body[i] == '\\' && i+1 < len(body) && body[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case body[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(body[i])
		}
	}
	return cells, cur.Len() == 0
}

// isRule says whether a row's cells are the `|---|` rule under the header.
func isRule(cells []string) bool {
	for _, c := range cells {
		if c == "" || strings.Trim(c, "-:") != "" {
			return false
		}
	}
	return len(cells) > 0
}

// wrapWords breaks s into lines of at most cols columns at spaces, never
// inside a word: a word longer than a line is a line of its own. Runs of
// spaces where a line breaks are dropped; the words are unchanged.
func wrapWords(s string, cols int) string {
	if cols <= 0 || display.Width(s) <= cols {
		return s
	}
	var b strings.Builder
	n := 0 // columns on the current line
	for _, w := range strings.Fields(s) {
		ww := display.Width(w)
		switch {
		case n == 0:
		case n+1+ww <= cols:
			b.WriteByte(' ')
			n++
		default:
			b.WriteByte('\n')
			n = 0
		}
		b.WriteString(w)
		n += ww
	}
	return b.String()
}
