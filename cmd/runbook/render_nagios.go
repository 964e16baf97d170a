package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/record"
)

// renderNagios writes rec as a Nagios/Icinga/Sensu check (cli.md "--format
// nagios"); the state is gate's judgement c, and the exit code is c.State.
//
//	NAME STATE - SUMMARY | word=count;;;0 …      the first line
//	STATE SUBJECT: VERDICT (column: cell, …)      one line per shown row; a row
//	  (not judged: …)                             that rests on what the run did
//	                                              not judge is no better than
//	                                              UNKNOWN, and says why
//	N of M rows shown                             when capped
//	UNKNOWN: …                                    words nothing maps, notes,
//	                                              scripts that gave no answer
//	script … before the run stopped               a stopped run's scripts that
//	                                              answered WARNING or CRITICAL
//	the standing line                             when the record says it
//
// SUMMARY counts the verdicts worst first and names the subjects of the
// worst state's words; a run with no finished answer (failed, cancelled,
// paused) says why instead, and prints no perfdata (its counts are of an
// answer that is not there). A run whose scripts gave no answer
// (Check.Unanswered), that left subjects unjudged (Check.Unchecked), whose
// deciders could not evaluate a rule (Check.RuleErrors), whose answer
// checks did not all pass (Check.ChecksFailed), or
// whose scripts' outcomes are on no record (Check.NoScripts: the label
// honesty stage off), names them first and prints no perfdata either: a graph of its counts
// would plot rows that rest on nothing, or miss the subjects left out. Nagios reads perfdata after the first "|" of
// the first line and of the long text, so no "|" of outside text reaches
// the output: it is written "¦".
func renderNagios(w io.Writer, rec *record.Record, c gate.Check) error {
	var b strings.Builder
	b.WriteString(nagiosText(rec.Runbook) + " " + c.State.String() + " - " + nagiosSummary(rec, c))
	perf := rec.Status == "completed" && c.Judged()
	if perf && len(c.Words)+len(rec.Perfdata) > 0 {
		b.WriteString(" |")
		for _, wd := range c.Words {
			fmt.Fprintf(&b, " %s=%d;;;0", parse.PerfLabel(wordText(wd.Word)), wd.Rows)
		}
		for _, item := range rec.Perfdata {
			b.WriteString(" " + item)
		}
	}
	b.WriteByte('\n')
	line := func(s string) { b.WriteString(s + "\n") }
	if vs := rec.Verdicts; vs != nil {
		for i, row := range vs.Rows {
			line(nagiosRow(row, vs.UnjudgedRow(i), c))
		}
		if !vs.RowsComplete {
			line(shownText(vs))
		}
	}
	if len(c.Unmapped) > 0 {
		words := make([]string, len(c.Unmapped))
		for i, w := range c.Unmapped {
			words[i] = wordText(w)
		}
		line(fmt.Sprintf("UNKNOWN: %s %s %s no check state (map %s under result.nagios, or use the words ok, warning, critical, unknown)",
			plural(len(c.Unmapped), "verdict", "verdicts"), strings.Join(words, ", "),
			plural(len(c.Unmapped), "has", "have"), plural(len(c.Unmapped), "it", "them")))
	}
	for _, u := range c.Unanswered {
		line(nagiosText("UNKNOWN: script " + u.Path + " " + u.Said + ": the rows rest on no answer of it" + stderrClause(u)))
	}
	for _, u := range c.Failed {
		line(nagiosText("script " + u.Path + " " + u.Said + ", before the run failed (the failure may rest on what it did not say)" + stderrClause(u)))
	}
	for _, s := range c.Stopped {
		line(nagiosText("script " + s.Path + " " + s.Said + " before the run " + stoppedVerb(rec) + " (its own word, which the unfinished run may not have judged)"))
	}
	for _, u := range c.Unchecked {
		if u.Empty {
			line(nagiosText("UNKNOWN: the verdict table is empty: " + u.Why))
			continue
		}
		line(nagiosText("UNKNOWN: " + u.Path + " did not check " + u.What + ": " + u.Why))
	}
	for _, re := range c.RuleErrors {
		line(nagiosText("UNKNOWN: " + re.Said() + ": the rows it decided rest on no judgement of it"))
	}
	if c.ChecksFailed {
		line("UNKNOWN: an answer check the chart declares (result.checks) did not pass: the rows are not an answer it stands by (the standing line names the check)")
	}
	for _, n := range c.Notes {
		line(nagiosText(n))
	}
	if rec.PerfdataProblem != "" {
		line(nagiosText("no perfdata of result.perfdata: " + rec.PerfdataProblem))
	} else if len(rec.Perfdata) > 0 && !perf {
		line(fmt.Sprintf("no perfdata of result.perfdata (%s): the check's rows do not all rest on what the run judged", plural(len(rec.Perfdata), "1 item", fmt.Sprintf("%d items", len(rec.Perfdata)))))
	}
	if p := rec.Pause; p != nil {
		line("to answer: " + nagiosText(resumeLine(p)))
	}
	if a := rec.Assessment; a != nil && rec.StandingSaid && a.Line != "" {
		line(nagiosText(a.Line))
	} else if a == nil {
		line(record.NoStanding)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// nagiosSummary is the first line's SUMMARY.
func nagiosSummary(rec *record.Record, c gate.Check) string {
	stage := func() string {
		if e := rec.Error; e != nil {
			msg, more := record.Headline(e.Message)
			if more {
				msg += " …"
			}
			return " at " + nagiosText(e.Stage) + ": " + nagiosText(msg)
		}
		return ""
	}
	// A run that stopped says why, then the rows it wrote before it
	// stopped: the check's state may be theirs (a critical row is no
	// less so for a later stage that timed out).
	wrote := func() string {
		if len(c.Words) == 0 {
			return ""
		}
		return "; before it " + stoppedVerb(rec) + " it wrote " + strings.Join(wordCounts(c, rec), ", ")
	}
	switch {
	case rec.Status == "failed":
		return "the run failed" + stage() + wrote()
	case rec.Status == "cancelled":
		return "the run was cancelled" + stage() + wrote()
	case rec.Status == "paused" && rec.Pause != nil:
		return "the run is paused at " + nagiosText(rec.Pause.Stage) + ", waiting for an answer: " + nagiosText(rec.Pause.Question) + wrote()
	case rec.Status != "completed":
		return "the run ended " + nagiosText(rec.Status) + wrote()
	case c.NoProjection:
		return "the chart projects no verdict rows (result.kind verdict/…)"
	}
	parts := append(c.Unjudged(subjectsText), wordCounts(c, rec)...)
	if len(c.Words) == 0 && !slices.Contains(parts, gate.NothingJudged) {
		parts = append(parts, "no verdict rows")
	}
	return strings.Join(parts, ", ")
}

// stoppedVerb is how a run with no finished answer stopped: paused, or
// stopped (failed, cancelled).
func stoppedVerb(rec *record.Record) string {
	if rec.Status == "paused" {
		return "paused"
	}
	return "stopped"
}

// wordCounts are the verdict words' counts as the first line says them,
// worst first, the subjects of the check's state's words named, and of
// each OK word's rows those that rest on what the run did not judge: `3
// ok (2 not judged: gone, hang)`, where `3 ok` alone read as three hosts
// judged healthy (a row of a worse word is named by its state already).
func wordCounts(c gate.Check, rec *record.Record) []string {
	unjudged := map[string][]string{} // a word → its marked rows' subjects
	if vs := rec.Verdicts; vs != nil {
		for _, u := range vs.UnjudgedRows {
			if u.Row < len(vs.Rows) {
				w, _ := vs.Rows[u.Row].Values["verdict"].(string)
				unjudged[w] = append(unjudged[w], record.CellText(u.Subject))
			}
		}
	}
	var parts []string
	for _, wd := range c.Words {
		part := fmt.Sprintf("%d %s", wd.Rows, wordText(wd.Word))
		var in []string
		if c.State != gate.OK && wd.State == c.State && len(wd.Subjects) > 0 {
			in = append(in, subjectsText(wd.Subjects))
		}
		if subjects := unjudged[wd.Word]; len(subjects) > 0 && wd.State == gate.OK {
			in = append(in, fmt.Sprintf("%d not judged: %s", len(subjects), subjectsText(subjects)))
		}
		if len(in) > 0 {
			part += " (" + strings.Join(in, "; ") + ")"
		}
		parts = append(parts, part)
	}
	if vs := rec.Verdicts; vs != nil && vs.UnjudgedNotShown > 0 {
		parts = append(parts, fmt.Sprintf("%d %s past the rows shown not judged", vs.UnjudgedNotShown, plural(vs.UnjudgedNotShown, "row", "rows")))
	}
	return parts
}

// maxSubjects is how many subjects of a word the first line names.
const maxSubjects = 5

func subjectsText(subjects []string) string {
	shown := subjects[:min(len(subjects), maxSubjects)]
	s := nagiosText(strings.Join(shown, ", "))
	if more := len(subjects) - len(shown); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// nagiosRow is one shown row as a long-text line: its state, subject and
// verdict, then its other columns with the render law's cells, then, for
// a row that rests on what the run did not judge (unjudged), why: its
// state is then no better than UNKNOWN (gate.Check.RowState).
func nagiosRow(row record.Row, unjudged *record.UnjudgedRow, c gate.Check) string {
	verdict, _ := row.Values["verdict"].(string)
	s := c.RowState(verdict, unjudged).String() + " "
	if sub, ok := row.Values["subject"]; ok {
		s += record.CellText(sub) + ": "
	}
	s += record.CellText(verdict)
	var cols []string
	for _, k := range row.Keys {
		if k == "subject" || k == "verdict" {
			continue
		}
		cols = append(cols, k+": "+record.CellText(row.Values[k]))
	}
	if len(cols) > 0 {
		s += " (" + strings.Join(cols, ", ") + ")"
	}
	if unjudged != nil {
		s += " (not judged: " + unjudged.WhyText() + ")"
	}
	return nagiosText(s)
}

// wordText is a verdict word as the check's lines write it: the cell the
// row's line and the text table show (record.CellText, the render law),
// so an empty word is "—" in the summary and the perfdata alike, never
// the label-less item "=1;;;0", which graphing add-ons drop.
func wordText(word string) string { return nagiosText(record.CellText(word)) }

// nagiosText is outside text made safe for a check's output: one clean
// line (clean) with no "|", which Nagios would read as perfdata; the
// render law's escaped `\|` becomes "¦" too.
func nagiosText(s string) string {
	return strings.NewReplacer(`\|`, "¦", "|", "¦").Replace(clean(s))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// nagiosCheck says whether args run a Nagios check: exec or resume with
// --format nagios (-o nagios, --format=nagios, -onagios). It reads the
// flags as pflag would but leniently — an unknown flag, a bad value, a
// flag after the one cobra stopped at — since it is asked for exactly the
// command lines cobra refuses.
func nagiosCheck(root *cobra.Command, args []string) bool {
	cmd, rest, err := root.Find(args)
	if err != nil || (cmd.Name() != "exec" && cmd.Name() != "resume") {
		return false
	}
	fs := pflag.NewFlagSet(cmd.Name(), pflag.ContinueOnError)
	fs.ParseErrorsWhitelist.UnknownFlags = true
	fs.SetOutput(io.Discard)
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		fs.AddFlag(&pflag.Flag{Name: f.Name, Shorthand: f.Shorthand, NoOptDefVal: f.NoOptDefVal, Value: new(anyText)})
	})
	_ = fs.Parse(rest) // what it read before an error is what it has
	f := fs.Lookup("format")
	return f != nil && f.Value.String() == "nagios"
}

// anyText is a flag value that takes any text, the last given winning
// (nagiosCheck reads a refused command line with it).
type anyText string

func (a *anyText) String() string     { return string(*a) }
func (a *anyText) Set(s string) error { *a = anyText(s); return nil }
func (a *anyText) Type() string       { return "string" }

// refusedCheck ends a Nagios check that ended, with code, before it
// printed its state: the plugin API says a plugin given invalid arguments
// is UNKNOWN, and Nagios reads exec's usual 2 as CRITICAL (and with
// nothing on stdout shows "(No output on stdout)"). The status line says
// what stderr's first line said, and the long text the rest of it, since
// Nagios Core shows stdout only.
func refusedCheck(w io.Writer, code int, said []string) int {
	for i, l := range said {
		said[i] = nagiosText(strings.TrimPrefix(strings.TrimPrefix(l, "runbook: "), "Error: "))
	}
	if len(said) == 0 {
		said = []string{fmt.Sprintf("runbook exited %d before it judged anything", code)}
	}
	fmt.Fprintf(w, "runbook UNKNOWN - %s\n", said[0])
	for _, l := range said[1:] {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "UNKNOWN: nothing was judged: runbook refused the command line or the chart before any check state (outside --format nagios it exits %d)\n", code)
	return int(gate.Unknown)
}

// countingWriter counts what a check wrote on stdout, so run can tell a
// check that printed its state from one that ended before it.
type countingWriter struct {
	mu sync.Mutex
	w  io.Writer
	n  int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.mu.Lock()
	c.n += n
	c.mu.Unlock()
	return n, err
}

func (c *countingWriter) written() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// heldStderr holds a Nagios check's stderr until its stdout is written
// (release): Icinga 2 and Sensu read a check's stderr and stdout as one
// text, whose first line is the status line, so a warning, a plugin's
// stderr or a refusal written first would take its place. It keeps the
// first maxHeldLines lines for a refused check's output (refusedCheck),
// and writes through once it holds maxHeld bytes.
type heldStderr struct {
	mu       sync.Mutex
	w        io.Writer
	held     []byte
	released bool
	lines    []string
	partial  string
}

const (
	maxHeldLines = 20
	maxHeld      = 1 << 20
)

func (h *heldStderr) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.lines) < maxHeldLines {
		h.partial += string(p)
		for len(h.lines) < maxHeldLines {
			l, rest, ok := strings.Cut(h.partial, "\n")
			if !ok {
				break
			}
			if strings.TrimSpace(l) != "" {
				h.lines = append(h.lines, l)
			}
			h.partial = rest
		}
	}
	if h.released {
		return h.w.Write(p)
	}
	h.held = append(h.held, p...)
	if len(h.held) >= maxHeld {
		return len(p), h.releaseLocked()
	}
	return len(p), nil
}

// release writes what was held and everything after it through.
func (h *heldStderr) release() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.releaseLocked()
}

func (h *heldStderr) releaseLocked() error {
	h.released = true
	held := h.held
	h.held = nil
	_, err := h.w.Write(held)
	return err
}

// text is the first lines written, blank ones left out.
func (h *heldStderr) text() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := slices.Clone(h.lines)
	if l := h.partial; strings.TrimSpace(l) != "" && len(out) < maxHeldLines {
		out = append(out, l)
	}
	return out
}

// stderrClause is how a Nagios line about a script that gave no answer
// says why in the script's own words: the last line it wrote on stderr
// (masked, as its record row keeps it), or on stdout when it wrote
// nothing on stderr (record.OwnWords: smartctl's errors), or "" when it
// wrote neither. The
// text output's Scripts part shows the last lines; a monitoring console
// shows the Nagios lines alone, and "exit 1" said nothing of nft's "you
// must be root".
//
// A hint a tool writes after its error is passed over: a line indented
// (a command to run, a hint's body) or ending with ':' (what introduces
// one). git over a repository another user owns wrote `fatal: detected
// dubious ownership …`, then `To add an exception for this directory,
// call:` and the command, and the check quoted the command as if it were
// why (TestNagiosQuotesTheCauseNotTheHint). The search goes back past the
// last lines the text output shows: a Java tool's stack trace ends its
// stderr with a dozen indented frames, and jstat over a PID gone was
// quoted by its `... 4 more`; it quotes the cause, "before a stack
// trace" (TestNagiosQuotesAJavaExceptionNotItsFrames).
// Stderr of such lines alone is quoted by its last.
func stderrClause(s gate.Script) string {
	tail := nonBlankLines(s.Words)
	if len(tail) == 0 {
		return ""
	}
	lead := "; its stderr's"
	if s.OnStdout {
		lead = "; nothing on stderr, its stdout's"
	}
	for i := len(tail) - 1; i >= 0; i-- {
		if hintLine(tail[i]) {
			continue
		}
		if i == len(tail)-1 {
			break
		}
		after := "a hint"
		if !slices.ContainsFunc(tail[i+1:], func(l string) bool { return !javaFrame(l) }) {
			after = "a stack trace"
		}
		return fmt.Sprintf("%s last line before %s: %q", lead, after, record.FirstLine(tail[i]))
	}
	return fmt.Sprintf("%s last line: %q", lead, record.FirstLine(tail[len(tail)-1]))
}

// javaFrame says whether a stderr line is a frame of a Java stack trace
// (`\tat pkg.Class.method(File.java:85)`, `\t... 4 more`), which a JDK
// tool (jstat, jcmd, keytool) prints after its exception.
func javaFrame(l string) bool {
	t := strings.TrimLeft(l, " \t")
	return t != l && (strings.HasPrefix(t, "at ") || (strings.HasPrefix(t, "... ") && strings.HasSuffix(t, " more")))
}

// hintLine says whether a stderr line is part of a hint after an error
// rather than the error: indented, or ending with ':' (stderrClause).
func hintLine(l string) bool {
	return strings.TrimLeft(l, " \t") != l || strings.HasSuffix(l, ":")
}
