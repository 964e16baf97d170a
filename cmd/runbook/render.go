package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/openrunbook/runbook/record"

	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
)

// The result a person reads (cli.md "--format text"), in this order, each
// part only when it has something to say:
//
//	verdicts    the verdict table, "N of M rows shown" when capped, the meanings
//	coverage    per stage path: checked / not checked / cannot cover / in progress,
//	            absences, foreach items that did not run (all from the ledger)
//	scripts     script rows whose label is not completed: words (label.Row.Said:
//	            a declared answer as answered, the cause of an unknown outcome),
//	            path, stderr tail
//	rules       the rules that could not be evaluated (record.RuleErrors)
//	standing    the assessment's line, when the record says it is said
//	question    a paused run's question and the command that resumes it
//	narrative   with -v
//
// resultView is that content, read from a Record once; renderText and
// renderMarkdown only lay it out. Nothing here judges: every word of a
// verdict, label or standing comes from the record. Every string of a
// resultView has been through clean (sanitize.go): outside text reaches
// the terminal with its control characters shown escaped, never acted on.

// renderOpts are the presentation choices of one rendering.
type renderOpts struct {
	colour bool // ANSI colour (text only)
	// width is the terminal's width in columns when stdout is a terminal
	// (text only): the verdict table is aligned and the standing line
	// wrapped at word boundaries to it. 0: not a terminal; both as the
	// record has them.
	width   int
	verbose bool // print the narrative
	// quiet (-q, text only): the verdict table, its "N of M rows shown"
	// line and the standing line; nothing else.
	quiet bool
	// scriptInto maps the path of an exec stage whose result reaches the
	// final state to its `into` key, so that a script row can show the tail
	// of the stderr it left there. Nil: no stderr tails.
	scriptInto map[string]string
}

// stderrTailLines is how many lines of a script's stderr are shown.
const stderrTailLines = 5

type resultView struct {
	verdicts  *verdictView
	coverage  []coverageView
	scripts   []scriptView
	rules     []assessment.ErroredRule // record.RuleErrors, cleaned
	standing  *standingView
	pause     *pauseView
	narrative []string
}

type verdictView struct {
	table string // markdown
	shown string // "N of M rows shown", "" when complete
	// offTable: the keys of later rows that are no column (record.OffTable)
	// in words, "" when none.
	offTable string
	// unjudged: each shown row that rests on what the run did not judge,
	// in words (record.UnjudgedRow.Said), under the table.
	unjudged []string
	meanings [][2]string
}

// shownText is "N of M rows shown" of a capped set, with what the rows not
// shown are: their words, and how many rest on what the run did not judge.
func shownText(vs *record.VerdictSet) string {
	shown := fmt.Sprintf("%d of %d rows shown", vs.RowsShown, vs.RowsTotal)
	if ns := vs.NotShownText(); ns != "" {
		shown += "; not shown: " + ns
	}
	if n := vs.UnjudgedNotShown; n > 0 {
		shown += fmt.Sprintf(" (%d of them not judged: %s on what the run did not judge)", n, plural(n, "it rests", "they rest"))
	}
	return shown
}

type coverageView struct {
	path     string
	headline string // after the path: "looked for X and found none"
	lines    [][2]string
}

type scriptView struct {
	path  string
	words string // label.Row.Said
	// answered: the exit code is a declared answer, not a failure.
	answered bool
	// stderr is the last lines it wrote on stderr, or on stdout when
	// onStdout (a failure that wrote nothing on stderr: record.OwnWords).
	stderr   []string
	onStdout bool
}

type standingView struct {
	standing assessment.Standing
	line     string
}

type pauseView struct {
	question string
	resume   string
}

// viewOf reads what a person is shown from rec.
func viewOf(rec *record.Record, opts renderOpts) resultView {
	var v resultView
	if rec == nil {
		return v
	}
	if vs := rec.Verdicts; vs != nil {
		vv := &verdictView{table: strings.TrimRight(vs.Table, "\n")}
		if vv.table == "" {
			// Panel presentation ships no table: the host shows the rows.
			// At a terminal, we are the host.
			vv.table = strings.TrimRight(record.RenderTable(vs.Rows, vs.UnjudgedRows), "\n")
			if len(vs.Rows) == 0 {
				vv.table = rec.NoRowsTable() // how the run went, as prose's table says it
			}
		}
		if !vs.RowsComplete {
			vv.shown = shownText(vs)
		}
		vv.table = cleanLines(vv.table)
		if off := record.OffTable(vs.Rows); off != "" {
			vv.offTable = clean("not in the table (only later rows hold them; --format json has them): " + off)
		}
		for _, u := range vs.UnjudgedRows {
			vv.unjudged = append(vv.unjudged, clean(u.Said()))
		}
		for _, m := range meaningsInOrder(vs.Rows, vs.Meanings) {
			vv.meanings = append(vv.meanings, [2]string{clean(m[0]), clean(m[1])})
		}
		ended := rec.Ended()
		if vs.RowsTotal == 0 {
			// "The projected set is empty" would read as nothing found when
			// the run stopped or paused before it judged anything; a record
			// saved before the record said so itself reads the same.
			vv.table = rec.NoRowsTable()
			if ended != "" {
				vv.meanings = nil
			}
		} else if ended != "" {
			partial := "the run " + ended + " before it finished: these rows are what it wrote before it stopped"
			if vv.shown != "" {
				partial = vv.shown + "; " + partial
			}
			vv.shown = partial
		}
		v.verdicts = vv
	}
	for _, e := range rec.Coverage {
		v.coverage = append(v.coverage, coverageOf(e))
	}
	for _, t := range rec.Truncations {
		// record.Assemble files the items that did not run in the ledger,
		// listed above; only a record without that entry needs this line.
		if truncatedInLedger(rec.Coverage, t.Path) {
			continue
		}
		v.coverage = append(v.coverage, coverageView{
			path: clean(t.Path),
			headline: fmt.Sprintf("ran %d of %d items (maxBranches %d); %d did not run",
				t.MaxBranches, t.Items, t.MaxBranches, t.Items-t.MaxBranches),
		})
	}
	// A path that ran several times (a retry's attempts, a loop's rounds)
	// numbers its runs, and its last run is listed even when it completed:
	// the stage's value is that run's, and a failure listed alone would read
	// as the script's end. The stderr shown is the stage's value's, so it
	// goes under the last run only.
	runs, seen, listed := map[string]int{}, map[string]int{}, map[string]bool{}
	for _, row := range rec.Scripts {
		runs[row.Path]++
	}
	for _, row := range rec.Scripts {
		seen[row.Path]++
		n, i := runs[row.Path], seen[row.Path]
		if row.Label == label.Completed && (i < n || !listed[row.Path]) {
			continue
		}
		listed[row.Path] = true
		words := clean(row.Said())
		hint := noMatchHint(row)
		if hint == "" {
			hint = sigpipeHint(row)
		}
		var tail []string
		onStdout := false
		if i == n {
			tail = stderrTail(rec.State, opts.scriptInto[row.Path])
			if tail == nil && row.Ran != nil {
				// A foreach item's stage: its value is not in the final
				// state, but its row holds what it wrote last on stderr,
				// or, for a failure that wrote nothing there and has no
				// hint of ours (grep's 1, a pipe's 141), on stdout.
				words := row.Ran.StderrTail
				if !row.Answered() && row.Label != label.Completed && hint == "" {
					words, onStdout = record.OwnWords(words, row.Ran.StdoutTail)
				}
				tail = lastLines(words)
			}
			for i, l := range tail {
				tail[i] = clean(l)
			}
		}
		if hint != "" && len(tail) == 0 {
			words += " (" + hint + ")"
		}
		if n > 1 {
			words = fmt.Sprintf("run %d of %d: %s", i, n, words)
		}
		v.scripts = append(v.scripts, scriptView{path: clean(row.Path), words: words, answered: row.Answered() || row.Label == label.Completed, stderr: tail, onStdout: onStdout})
	}
	for _, e := range record.RuleErrors(rec) {
		e.Decider, e.Label, e.Err = clean(e.Decider), clean(e.Label), clean(e.Err)
		v.rules = append(v.rules, e)
	}
	if a := rec.Assessment; a != nil && rec.StandingSaid && a.Line != "" {
		v.standing = &standingView{standing: a.Standing, line: clean(a.Line)}
	} else if a == nil && rec.Status != "" {
		v.standing = &standingView{standing: assessment.NotSure, line: record.NoStanding}
	}
	if p := rec.Pause; p != nil {
		v.pause = &pauseView{question: clean(p.Question), resume: clean(resumeLine(p))}
	}
	if opts.verbose {
		for _, l := range rec.Narrative {
			v.narrative = append(v.narrative, clean(l))
		}
	}
	return v
}

// truncatedInLedger says whether the ledger already says which of the
// foreach at path's items did not run.
func truncatedInLedger(ledger []coverage.Entry, path string) bool {
	for _, e := range ledger {
		if e.Path != path {
			continue
		}
		for _, it := range e.NotChecked {
			if it.Kind == record.ItemTruncated {
				return true
			}
		}
	}
	return false
}

// meaningsInOrder lists the meanings of the verdicts in the order the rows
// first show them, then the rest alphabetically. A meaning that is its
// word again (a declared branch with no description, whose decider ran
// no rule labelled for it: `many — many`) says nothing a reader has not
// read in the table, and is left out of the lines; the record keeps it.
func meaningsInOrder(rows []record.Row, meanings map[string]string) [][2]string {
	if len(meanings) == 0 {
		return nil
	}
	said := make(map[string]string, len(meanings))
	for w, m := range meanings {
		if m != w {
			said[w] = m
		}
	}
	meanings = said
	out := make([][2]string, 0, len(meanings))
	seen := map[string]bool{}
	for _, r := range rows {
		word, ok := r.Values["verdict"].(string)
		if !ok || seen[word] {
			continue
		}
		if m, ok := meanings[word]; ok {
			seen[word] = true
			out = append(out, [2]string{word, m})
		}
	}
	rest := make([]string, 0, len(meanings))
	for word := range meanings {
		if !seen[word] {
			rest = append(rest, word)
		}
	}
	sort.Strings(rest)
	for _, word := range rest {
		out = append(out, [2]string{word, meanings[word]})
	}
	return out
}

// coverageOf reads one coverage declaration into its headline and lines,
// cleaned.
func coverageOf(e coverage.Entry) coverageView {
	cv := coverageOf1(e)
	cv.path, cv.headline = clean(cv.path), clean(cv.headline)
	for i, l := range cv.lines {
		cv.lines[i] = [2]string{clean(l[0]), clean(l[1])}
	}
	return cv
}

func coverageOf1(e coverage.Entry) coverageView {
	cv := coverageView{path: e.Path}
	if e.Kind == coverage.KindAbsence {
		if e.LookedFor != "" {
			cv.headline = fmt.Sprintf("looked for %s and found none", e.LookedFor)
		} else {
			cv.headline = "looked and found none"
		}
	}
	add := func(name, text string) {
		if text != "" {
			cv.lines = append(cv.lines, [2]string{name, text})
		}
	}
	add("checked", items(e.Checked))
	add("not checked", items(e.NotChecked))
	add("cannot cover", items(e.CannotCover))
	var inProgress []string
	for _, it := range e.InProgress {
		s := it.What
		if it.Count > 0 {
			s += fmt.Sprintf(" ×%d", it.Count)
		}
		if it.Why != "" {
			s += " (" + it.Why + ")"
		}
		inProgress = append(inProgress, s)
	}
	add("in progress", strings.Join(inProgress, ", "))
	if p := e.Period; p != nil {
		held := "unknown"
		if p.Held != nil {
			held = p.Held.From + " – " + p.Held.To
		}
		s := fmt.Sprintf("asked %s – %s, held %s", p.Queried.From, p.Queried.To, held)
		if p.Verdict != "" {
			s += " (" + string(p.Verdict) + ")"
		}
		add("period", s)
	}
	if pr := e.Provenance; pr != nil && pr.Source != "" {
		s := pr.Source
		if pr.MeasuredAt != "" {
			s += ", measured at " + pr.MeasuredAt
		}
		add("source", s)
	}
	try := e.TryInstead
	if t := e.TryInsteadTool; t != nil && t.Tool != "" {
		s := "the " + t.Tool + " tool"
		if t.Why != "" {
			s += " (" + t.Why + ")"
		}
		if try != "" {
			try += "; " + s
		} else {
			try = s
		}
	}
	add("try instead", try)
	add("note", e.Note)
	return cv
}

// items joins coverage items as "what (why), what".
func items(list []coverage.Item) string {
	parts := make([]string, 0, len(list))
	for _, it := range list {
		s := it.What
		if it.Why != "" {
			s += " (" + it.Why + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// stderrTail is the last non-empty lines of the stderr an exec stage left
// in the final state under into ({stdout, stderr, …}).
func stderrTail(state map[string]any, into string) []string {
	if into == "" {
		return nil
	}
	res, ok := state[into].(map[string]any)
	if !ok {
		return nil
	}
	s, ok := res["stderr"].(string)
	if !ok {
		return nil
	}
	return lastLines(s)
}

// lastLines is the last stderrTailLines lines of s that are not blank.
func lastLines(s string) []string {
	lines := nonBlankLines(s)
	if len(lines) > stderrTailLines {
		lines = lines[len(lines)-stderrTailLines:]
	}
	return lines
}

// nonBlankLines is every line of s that is not blank, its blanks at the
// end cut.
func nonBlankLines(s string) []string {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimRight(l, " \t\r"))
		}
	}
	return lines
}

// notResumable is what a paused run whose record was not written says
// where its resume command would be.
const notResumable = "the run's record was not written, so this run cannot be resumed: run the chart again to be asked again"

// resumeLine is what a result says of how to answer its pause: the resume
// command, or, when the run's record was not written (unsaved), that
// there is none.
func resumeLine(p *record.PauseRecord) string {
	if p.Resume == "" {
		return "none: " + notResumable
	}
	return resumeCommand(p)
}

// resumeCommand is the command that resumes a paused run: the record's,
// with an `--input NAME=…` for each expected answer it does not name yet.
func resumeCommand(p *record.PauseRecord) string {
	cmd := p.Resume
	if cmd == "" {
		cmd = "runbook resume RECORD.json"
	}
	names := make([]string, 0, len(p.Expects))
	for name := range p.Expects {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !strings.Contains(cmd, "--input "+name+"=") {
			cmd += " --input " + name + "=…"
		}
	}
	return cmd
}

// noMatchers are the commands whose exit 1, with nothing on stderr, says
// that nothing matched: an answer, not a failure, once the chart says so.
var noMatchers = []string{"grep", "egrep", "fgrep", "zgrep", "pgrep", "pidof"}

// noMatchHint is what the Scripts part says beside a script that exited 1
// undeclared when its command is one of noMatchers ("" otherwise): `grep
// -c ERROR app.log` over a log with no ERROR line exits 1, and a new user
// read "completed with failure, exit 1" as grep having failed.
func noMatchHint(row label.Row) string {
	if row.Label != label.CompletedWithFailure || row.Answered() || row.ExitCode == nil || *row.ExitCode != 1 || row.Ran == nil {
		return ""
	}
	words := row.Ran.Argv
	if len(words) == 0 {
		words = strings.Fields(row.Ran.Shell)
	}
	if len(words) == 0 {
		return ""
	}
	name := words[0][strings.LastIndex(words[0], "/")+1:]
	if !slices.Contains(noMatchers, name) {
		return ""
	}
	return name + " exits 1 when nothing matched: where that is an answer, declare it, exitCodes: {0: found, 1: none}, and its 2 (a file it could not read) stays a failure"
}

// sigpipeHint is what the Scripts part says beside a shell: pipeline that
// exited 141 undeclared ("" otherwise): 128 + SIGPIPE's 13, a command
// killed as it wrote into a pipe whose reader had stopped. `ps -eo
// pid,rss,args --sort=-rss | head -n 5` ends so once ps prints more than
// the pipe holds before head has read its 5 lines, on one run and not the
// next, and pipefail makes it the script's exit; "completed with failure,
// exit 141" said none of that.
func sigpipeHint(row label.Row) string {
	if row.Label != label.CompletedWithFailure || row.Answered() || row.ExitCode == nil || *row.ExitCode != 141 || row.Ran == nil || !strings.Contains(row.Ran.Shell, "|") {
		return ""
	}
	return "141 is 128 + SIGPIPE: a command of the pipeline was killed as it wrote to one that had stopped reading (ps … | head -n 5, once ps prints more than head reads), which pipefail makes the script's exit on some runs and not others; take the lines in the chart (ps.stdout[:5]) in place of head"
}
