package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/openrunbook/runbook/record"
)

// mcpText is the one text block a tool call returns (mcp.md "Tools";
// honesty.md §3, the two render laws), the text format's parts in order:
//
//	prose  the table (pre-rendered over exactly the rows), the rows not
//	       judged in words, "N of M rows shown" when capped, the prose
//	       note, the meanings
//	panel  NO table: the host shows the rows. The rows not judged in
//	       words, "N of M rows shown", the panel note, the meanings
//	then   coverage, scripts that did not complete, rules that could not
//	       be evaluated and the standing line, laid out by renderText
//	       itself; a paused run's question (and unanswered: why the
//	       client, asked it, gave no answer) and how to resume it with
//	       the resume tool, or why it cannot be (cannot: resume's own
//	       words); where a failed or cancelled run ended; the runId
//
// Every word but unanswered and cannot comes from the record, through
// viewOf and renderText: this only chooses the parts.
func mcpText(rec *record.Record, id string, q int, into map[string]string, recordErr error, cannot, unanswered string, again []string) string {
	var b strings.Builder
	p := &printer{w: &b}
	v := viewOf(rec, renderOpts{scriptInto: into})
	if vs := rec.Verdicts; vs != nil && v.verdicts != nil {
		p.part()
		if vs.Table != "" {
			// the view's table: an empty set said by how the run went
			// (record.NoRowsTable), as the text format says it
			p.line(v.verdicts.table)
			if v.verdicts.offTable != "" {
				p.line(v.verdicts.offTable)
			}
		}
		// A panel's host shows the rows without their mark: the lines say
		// which rows are not judged either way.
		for _, u := range v.verdicts.unjudged {
			p.line(u)
		}
		if v.verdicts.shown != "" {
			p.line(v.verdicts.shown)
		}
		if vs.Table != "" || v.verdicts.shown != "" || len(v.verdicts.unjudged) > 0 {
			p.line("")
		}
		p.line(clean(vs.RenderNote))
		if len(v.verdicts.meanings) > 0 {
			p.line("")
			for _, m := range v.verdicts.meanings {
				p.line(m[0] + " — " + m[1])
			}
		}
	}
	// The rest is the text format's, as renderText lays it out: the
	// verdicts are above, the question below (resumed by a tool here).
	rest := *rec
	rest.Verdicts, rest.Pause, rest.Narrative = nil, nil, nil
	var tail strings.Builder
	_ = renderText(&tail, &rest, renderOpts{scriptInto: into})
	if t := strings.TrimRight(tail.String(), "\n"); t != "" {
		p.part()
		p.line(t)
	}
	switch rec.Status {
	case "paused":
		if pause := rec.Pause; pause != nil {
			p.part()
			p.line("The run paused to ask: " + clean(pause.Question))
			if unanswered != "" {
				p.line(clean(unanswered))
			}
			switch {
			case recordErr != nil:
				p.line("It cannot be resumed: its record was not kept.")
			case cannot != "":
				p.line("It cannot be resumed: " + strings.TrimSuffix(cannot, ".") + ".")
			default:
				p.line("Resume it with the resume tool: " + resumeCall(id, q, rec.Pause.Expects, again))
			}
		}
	case "failed", "cancelled":
		p.part()
		where := ""
		msg := ""
		if e := rec.Error; e != nil {
			if e.Stage != "" {
				where = " at " + clean(e.Stage)
			}
			line, more := record.Headline(e.Message)
			if more {
				line += " (its first line; structuredContent's error.message holds it whole)"
			}
			msg = ": " + clean(line)
		}
		p.line("The run " + rec.Status + where + msg)
	}
	p.part()
	if recordErr != nil {
		// why is in the server's log: the error names the server's folders
		p.line(fmt.Sprintf("runId %s; its record was not kept (the server could not write it; its log says why), so it cannot be explained or resumed.", id))
	} else {
		p.line(fmt.Sprintf("runId %s: ask why with the explain tool; the record is %s%s.", id, runURIPrefix, id))
	}
	return b.String()
}

// resumeCall is the resume tool's arguments that continue paused run id
// at its question number q: the answers the question expects, with their
// types in angle brackets, then each secret input the run was given
// (again), which its record does not keep and a resume must be given
// again:
//
//	{"runId": "…", "questionNumber": 1, "answers": {"approve": <bool>, "token": <the secret input, again>}}
func resumeCall(id string, q int, expects map[string]string, again []string) string {
	names := make([]string, 0, len(expects))
	for name := range expects {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names)+len(again))
	for _, name := range names {
		parts = append(parts, fmt.Sprintf("%q: <%s>", name, expects[name]))
	}
	for _, name := range again {
		parts = append(parts, fmt.Sprintf("%q: <the secret input, again>", name))
	}
	return fmt.Sprintf("{\"runId\": %q, \"questionNumber\": %d, \"answers\": {%s}}", id, q, strings.Join(parts, ", "))
}
