package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

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
		p.line(vv.table)
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
