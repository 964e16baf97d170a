package main

import (
	"io"
	"strings"

	"github.com/openrunbook/runbook/record"
)

// renderMarkdown writes rec as a markdown document (cli.md "--format
// markdown", for tickets and chat): a `# runbook` title, the run's status
// when it did not complete, then the text form's parts under `## Verdicts`,
// `## Coverage`, `## Scripts`, `## Rules`, `## Standing`, `## Question`, `## Narrative`.
// No colour.
func renderMarkdown(w io.Writer, rec *record.Record, opts renderOpts) error {
	v := viewOf(rec, opts)
	p := &printer{w: w}
	heading := func(s string) { p.part(); p.line("## " + s); p.line("") }

	if rec != nil {
		p.part()
		p.line("# " + clean(rec.Runbook))
		if rec.Status != "" && rec.Status != "completed" {
			s := "**Status:** " + clean(rec.Status)
			if e := rec.Error; e != nil {
				if e.Stage != "" {
					s += " at " + code(clean(e.Stage))
				}
				s += ": " + clean(e.Message)
			}
			p.line("")
			p.line(s)
		}
	}
	if vv := v.verdicts; vv != nil {
		heading("Verdicts")
		p.line(vv.table)
		if vv.offTable != "" {
			p.line("")
			p.line("_" + vv.offTable + "_")
		}
		if len(vv.unjudged) > 0 {
			p.line("")
			for _, u := range vv.unjudged {
				p.line("- " + u)
			}
		}
		if vv.shown != "" {
			p.line("")
			p.line("_" + vv.shown + "_")
		}
		if len(vv.meanings) > 0 {
			p.line("")
			for _, m := range vv.meanings {
				p.line("- **" + m[0] + "** — " + m[1])
			}
		}
	}
	if len(v.coverage) > 0 {
		heading("Coverage")
		for _, c := range v.coverage {
			s := "- " + code(c.path)
			if c.headline != "" {
				s += ": " + c.headline
			}
			p.line(s)
			for _, l := range c.lines {
				p.line("  - " + l[0] + ": " + l[1])
			}
		}
	}
	if len(v.scripts) > 0 {
		heading("Scripts")
		for i, s := range v.scripts {
			if i > 0 && len(v.scripts[i-1].stderr) > 0 {
				p.line("")
			}
			p.line("- " + code(s.path) + ": " + s.words)
			if len(s.stderr) > 0 {
				p.line("")
				if s.onStdout {
					p.line("  nothing on stderr; its stdout ended:")
					p.line("")
				}
				p.line("  ```")
				for _, l := range s.stderr {
					p.line("  " + strings.ReplaceAll(l, "```", "'''"))
				}
				p.line("  ```")
			}
		}
	}
	if len(v.rules) > 0 {
		// The text form's Rules part: the same list (record.RuleErrors),
		// in the same words.
		heading("Rules")
		for _, e := range v.rules {
			p.line("- " + ruleErrorText(e, func(s string) string { return s }))
		}
	}
	if s := v.standing; s != nil {
		heading("Standing")
		p.line(s.line)
	}
	if q := v.pause; q != nil {
		heading("Question")
		p.line(q.question)
		p.line("")
		p.line("Resume with:")
		p.line("")
		p.line("```")
		p.line(q.resume)
		p.line("```")
	}
	if len(v.narrative) > 0 {
		// A fenced block: the narrative's indentation shows its nesting.
		heading("Narrative")
		p.line("```text")
		for _, l := range v.narrative {
			p.line(strings.ReplaceAll(l, "```", "'''"))
		}
		p.line("```")
	}
	return p.err
}

// code wraps s in a markdown code span, with a longer fence when s holds
// backticks.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
