package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"

	"github.com/spf13/cobra"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/runbook"
)

// Why this file is long (~640 lines): it is the whole explain command —
// flags, choosing what to explain, and laying out a chain, a why-not and
// a stage's log in text and JSON — which read one set of view types;
// the judgements themselves live in flow and runbook.

// explainFlags are explain's flags.
type explainFlags struct {
	format string
	whyNot string
	at     int
	full   bool
	// tool says the caller is the MCP explain tool, whose arguments are
	// not flags: a refusal or a hint names them as the tool takes them
	// (flag).
	tool bool
}

// flag is how the caller spells explain's flag name (at, full, why-not)
// in a refusal or a hint: --name on the command line, the explain tool's
// argument in an MCP call, which has no flags (its note said "--full
// prints them whole", which no tool call can pass).
func (f explainFlags) flag(name string) string {
	if !f.tool {
		return "--" + name
	}
	switch name {
	case "full":
		return "full: true"
	case "why-not":
		return "whyNot:"
	}
	return name
}

func newExplainCmd(stdout, stderr io.Writer) *cobra.Command {
	var f explainFlags
	cmd := &cobra.Command{
		Use:   "explain RECORD.json [KEY | STAGE]",
		Short: "Say why a saved run answered what it did",
		Long: `explain reads a saved run record (exec --record FILE) and says how a value
came to be: the stage that last wrote it, the reads that stage made and the
stages that wrote those, down to the inputs (given or assumed), and the
decisions that routed the flow, with the rule and the values it saw. Newest
cause first. Nothing is run again; the chart file is not needed.

  explain RECORD                      the chain behind the verdict table (or the final state)
  explain RECORD KEY                  a state key: df.stdout[2].usedPct, 'verdicts[3]', verdicts[3].verdict
  explain RECORD STAGE                a stage path (per-volume~3/posture) or id: what it rested on,
                                      and for a decider what it chose and why
                                      (an id that ran in several places lists their paths)
  explain RECORD --why-not STAGE      why a stage (or a branch, by name) did not run; a path
                                      prefix (area-disk/critical) asks about that place only
  explain RECORD --at N [KEY]         the state (or KEY's chain) as of commit N
  explain RECORD KEY --full           values, and what a command printed, whole (text cuts
                                      values at 80 characters and says so)

A stage that ran a command shows what ran, how it ended and the last lines
it printed, as the record's script row says.

A damaged record is explained as far as it is sound; what could not be read
is said first, and then whether the run did not finish in this record (it
failed, was cancelled or timed out, or paused at a question: not answered,
or answered into another file, which it names). Exit 0 when answered, 1 when the question has no answer in
the record (a key never written, a stage not in the chart), 2 for bad usage
or a file that is not a run record of a known version, 4 when answered from
a record that is not sound (edited after the run wrote it, or damaged): the
answer is printed, as far as the record is sound.`,
		Example: `  runbook explain run.json
  runbook explain run.json 'verdicts[3]'
  runbook explain run.json --why-not at-risk
  runbook explain run.json --at 4 --format json`,
		Args: args(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, a []string) error {
			q := ""
			if len(a) == 2 {
				q = a[1]
			}
			atSet := cmd.Flags().Changed("at")
			return explainRecord(a[0], q, f, atSet, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "text", "output `format`: text or json")
	fl.StringVar(&f.whyNot, "why-not", "", "say why this `STAGE` (id, name or path) or branch did not run")
	fl.IntVar(&f.at, "at", -1, "answer as of commit `N` (time travel); with no KEY, print the state")
	fl.BoolVar(&f.full, "full", false, "print values and what a command printed whole (text cuts values at 80 characters and says so)")
	return cmd
}

// explainOutput is explain's JSON: one object, these keys fixed.
type explainOutput struct {
	ExplainVersion int      `json:"explainVersion"`
	Record         string   `json:"record"`
	Problems       []string `json:"problems,omitempty"`
	// Unfinished says that the run the record holds did not finish in
	// it (record.RunRecord.Unfinished): failed, cancelled, timed out or
	// paused, and where an answer given since took it.
	Unfinished string `json:"unfinished,omitempty"`
	// FinishedAt is when the run ended or paused (the record's
	// finishedAt), absent for a record written before it.
	FinishedAt  string            `json:"finishedAt,omitempty"`
	Explanation *flow.Explanation `json:"explanation,omitempty"`
	WhyNot      *flow.WhyNot      `json:"whyNot,omitempty"`
	State       *stateAt          `json:"state,omitempty"`
	// Scripts are the script rows of the commits the explanation names
	// (what an exec stage ran and how it ended), in log order.
	Scripts []explainScript `json:"scripts,omitempty"`
	// Plugins are the provenance of the stage plugins the explanation's
	// commits called: which plugin, version and bytes gave the value.
	Plugins []record.PluginRun `json:"plugins,omitempty"`
	// Ledger is what the coverage ledger says of the stages whose commits
	// the explanation names (runbook.Explain.Ledger), in log order.
	Ledger []explainLedger `json:"ledger,omitempty"`
}

// explainLedger is the ledger's entries at the place of the commit at
// Index. Shared, when set, is how many commits share that place (a loop's
// passes): the entries may be of any of them.
type explainLedger struct {
	Index   int              `json:"index"`
	Path    string           `json:"path"`
	Shared  int              `json:"shared,omitempty"`
	Entries []coverage.Entry `json:"entries"`
}

// explainScript is one commit's script row: for a stage that retried
// within its execution, the last attempt's, with the attempts before it;
// for a Go stage that ran commands of its own (runbook.RunCommand), the
// last command's, with the commands before it.
type explainScript struct {
	Index    int         `json:"index"`
	Path     string      `json:"path"`
	Row      label.Row   `json:"row"`
	Attempts []label.Row `json:"attempts,omitempty"`
	Calls    []label.Row `json:"calls,omitempty"`
}

// explainText lays an answer out for a person. Values are cut at
// shortWidth characters unless full; cut remembers that one was, so the
// answer can say so and how to see it whole.
type explainText struct {
	b       *strings.Builder
	plugins map[int]*record.PluginRun // commit index → the plugin it called
	full    bool
	cut     bool
	// fullFlag is how the caller asks for values whole (explainFlags.flag)
	fullFlag string
	scripts  map[int]*label.Row
	// attempts are the rows of the attempts before the last, by commit
	attempts map[int][]*label.Row
	// ledger is what the coverage ledger says of each commit's place
	ledger map[int]explainLedger
}

// shortWidth is where text cuts a value; tailLines how many last lines of
// what a command printed it shows.
const (
	shortWidth = 80
	tailLines  = 5
)

type stateAt struct {
	At     int            `json:"at"`
	Commit string         `json:"commit,omitempty"`
	Values map[string]any `json:"values"`
}

func explainRecord(path, q string, f explainFlags, atSet bool, stdout, stderr io.Writer) error {
	if f.format != "text" && f.format != "json" {
		return &usageError{err: fmt.Errorf("--format %q: want text or json", f.format), showUsage: true}
	}
	if f.whyNot != "" && q != "" {
		return &usageError{err: errors.New("--why-not takes the stage itself: give no KEY with it"), showUsage: true}
	}
	rec, problems, err := record.ReadRecord(path)
	if err != nil {
		return exit(exitUsage, "%v", err)
	}
	x := runbook.NewExplain(rec, problems)
	out := explainOutput{ExplainVersion: flow.ExplainVersion, Record: path, Problems: problems, Unfinished: rec.Unfinished(), FinishedAt: rec.FinishedAt}
	if holder, ok := runbook.ResumeHolder(path); ok && rec.Result != nil && rec.Result.Status == "paused" && rec.Resumed == nil {
		// A resume took the record's lock and has written no record: it
		// runs now, or it was stopped, and what it ran after the question
		// is in no record.
		if f.tool {
			// an MCP client: the server's pid, host and files are not its business
			out.Unfinished += " A resume of it began and has written no record: it is running, or it was stopped and the stages after the question may have run with nothing recorded."
		} else {
			out.Unfinished += fmt.Sprintf(" A resume of it began (%s) and has written no record: it is running, or it was stopped and the stages after the question may have run with nothing recorded (%s.lock holds it).", holder, path)
		}
	}
	commits := rec.Log.Commits()
	n := len(commits)
	if atSet && (f.at < -1 || f.at >= n) {
		return exit(exitFailed, "%s %d: the record has commits 0 to %d", f.flag("at"), f.at, n-1)
	}
	switch {
	case f.whyNot != "":
		wn, err := x.WhyNot(f.whyNot)
		if err != nil {
			return exit(exitFailed, "%v", err)
		}
		out.WhyNot = wn
	case atSet && q == "":
		st, c := x.StateAt(f.at)
		sa := &stateAt{At: f.at, Values: st}
		if c != nil {
			sa.Commit = c.Path
		}
		out.State = sa
	default:
		at := -1
		if atSet {
			at = f.at
		}
		e, err := x.Query(q, at)
		if err != nil {
			if len(problems) > 0 {
				printProblems(stderr, problems)
			}
			return exit(exitFailed, "%v%s", err, whyNotHint(err, f))
		}
		out.Explanation = e
	}
	scripts := map[int]*label.Row{}
	attempts := map[int][]*label.Row{} // the attempts before a script's last
	plugins := map[int]*record.PluginRun{}
	ledger := map[int]explainLedger{}
	if out.Explanation != nil {
		seen := map[int]bool{}
		var collect func(n *flow.CauseNode)
		collect = func(n *flow.CauseNode) {
			if n.Kind == flow.NodeCommit && !seen[n.Index] {
				seen[n.Index] = true
				if row := x.Script(n.Index); row != nil {
					scripts[n.Index] = row
					if as := x.Attempts(n.Index); len(as) > 0 {
						attempts[n.Index] = as
					}
				}
				if p := x.Plugin(n.Index); p != nil {
					plugins[n.Index] = p
				}
				if es, shared := x.Ledger(n.Index); len(es) > 0 {
					ledger[n.Index] = explainLedger{Index: n.Index, Path: commits[n.Index].Path, Shared: shared, Entries: es}
				}
			}
			for _, c := range n.Causes {
				collect(c)
			}
		}
		collect(out.Explanation.Root)
		for _, i := range slices.Sorted(maps.Keys(scripts)) {
			sc := explainScript{Index: i, Path: commits[i].Path, Row: *scripts[i]}
			for _, a := range attempts[i] {
				if a.Call > 0 {
					sc.Calls = append(sc.Calls, *a)
				} else {
					sc.Attempts = append(sc.Attempts, *a)
				}
			}
			out.Scripts = append(out.Scripts, sc)
		}
		for _, i := range slices.Sorted(maps.Keys(ledger)) {
			out.Ledger = append(out.Ledger, ledger[i])
		}
		named := map[*record.PluginRun]bool{}
		for _, i := range slices.Sorted(maps.Keys(plugins)) {
			if p := plugins[i]; !named[p] {
				named[p] = true
				out.Plugins = append(out.Plugins, *p)
			}
		}
	}
	if f.format == "json" {
		err = writeJSON(stdout, out, "  ")
	} else {
		var b strings.Builder
		t := &explainText{b: &b, full: f.full, fullFlag: f.flag("full"), scripts: scripts, attempts: attempts, plugins: plugins, ledger: ledger}
		t.writeExplainText(&out)
		// What a command printed reaches the terminal only through clean
		// (sanitize.go), as in exec's text output.
		_, err = io.WriteString(stdout, cleanLines(b.String()))
	}
	if err == nil && len(problems) > 0 && !f.tool {
		return unsound(problems)
	}
	return err
}

// unsound is explain's exit over an answer from a record that is not
// sound (a seal that does not hold: edited after it was written; parts
// that could not be read): the answer is printed, as far as the record
// is sound, and the exit says it is not the record's whole word, so that
// a script archiving records, or a CI step that reads one with set -e,
// does not pass an edited record as the run's. It exited 0
// (TestExplainOfAnEditedRecordExitsUnsound). An MCP client reads the
// problems in the result itself.
func unsound(problems []string) error {
	return exit(exitUnsound, "the record is not sound (%d problem(s), said first): the answer rests on what could be read, not on the record the run wrote", len(problems))
}

func printProblems(w io.Writer, problems []string) {
	fmt.Fprintln(w, "runbook: the record is damaged; what could not be read:")
	for _, p := range problems {
		fmt.Fprintf(w, "  - %s\n", clean(p))
	}
}

// writeExplainText lays an answer out for a person: what could not be read
// first, then the tree, two spaces a level, newest cause first.
func (t *explainText) writeExplainText(out *explainOutput) {
	b := t.b
	if len(out.Problems) > 0 {
		b.WriteString("The record is damaged. What could not be read:\n")
		for _, p := range out.Problems {
			fmt.Fprintf(b, "  - %s\n", p)
		}
		b.WriteString("The rest is explained below, as far as it is sound.\n\n")
	}
	if out.Unfinished != "" {
		fmt.Fprintf(b, "%s\n\n", out.Unfinished)
	}
	switch {
	case out.WhyNot != nil:
		t.writeWhyNot(out.WhyNot)
	case out.State != nil:
		where := "before the first commit (the inputs)"
		if out.State.Commit != "" {
			where = fmt.Sprintf("commit %d (%s)", out.State.At, out.State.Commit)
		}
		fmt.Fprintf(b, "State as of %s:\n", where)
		keys := make([]string, 0, len(out.State.Values))
		for k := range out.State.Values {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(b, "  %s = %s\n", k, t.short(out.State.Values[k]))
		}
	case out.Explanation != nil:
		t.writeExplanation(out.Explanation)
	}
	if t.cut {
		fmt.Fprintf(b, "Note: values above are cut at %d characters (…); %s prints them whole\n", shortWidth, t.fullFlag)
	}
	if out.FinishedAt != "" {
		// Which run this is: a file at a path may be an earlier run's
		// (one SIGKILLed left the last record there).
		fmt.Fprintf(b, "Recorded at %s, when the run stopped.\n", out.FinishedAt)
	}
}

func (t *explainText) writeExplanation(e *flow.Explanation) {
	b := t.b
	r := e.Root
	switch {
	case r.Kind == flow.NodeState && e.At < 0 && len(r.Causes) == 0:
		// A record cut before its log: there is no commit -1 to name.
		fmt.Fprintln(b, "The record holds no commit: no stage's reads and writes could be read, so there is no state to explain.")
	case r.Kind == flow.NodeState:
		fmt.Fprintf(b, "The state as of commit %d, key by key:\n", e.At)
		for _, c := range r.Causes {
			fmt.Fprintf(b, "  %s = %s\n", c.Key, t.short(c.Value))
			t.writeNode(c, 2)
		}
	case e.Value == nil && r.Kind == flow.NodeCommit && r.Key == "":
		if len(r.Causes) == 0 {
			fmt.Fprintf(b, "Stage %s%s [commit %d] read nothing and was routed by no decision: nothing else caused it.\n", r.Path, nameSuffix(r), r.Index)
		} else {
			fmt.Fprintf(b, "Stage %s%s [commit %d] rested on:\n", r.Path, nameSuffix(r), r.Index)
		}
		if r.Err != "" {
			fmt.Fprintf(b, "  it failed: %s\n", r.Err)
		}
		if a := r.Answer; a != nil {
			fmt.Fprintf(b, "  it wrote the answer of %s at %s to %q\n", a.By, a.At, a.Question)
		}
		if row := t.scripts[r.Index]; row != nil {
			t.writeScript(row, t.attempts[r.Index], 1)
		}
		t.writePlugin(r.Index, 1)
		t.writeLedger(r.Index, 1)
		t.writeCauses(r, 1)
		t.writeChoice(e.Choice)
	default:
		fmt.Fprintf(b, "%s = %s\n", e.Query, t.short(e.Value))
		t.writeNode(r, 1)
	}
	for _, n := range e.Notes {
		fmt.Fprintf(b, "Note: %s\n", n)
	}
}

// writeChoice says what a deciding stage asked about chose, each branch
// with the rule (and the values it saw) or the default that chose it.
func (t *explainText) writeChoice(ch *flow.Choice) {
	if ch == nil {
		return
	}
	if len(ch.Routes) == 0 {
		t.b.WriteString("It chose no branch: no rule matched\n")
	}
	for _, rt := range ch.Routes {
		fmt.Fprintf(t.b, "It chose %s\n", strings.TrimPrefix(t.routeWords(rt), " into "))
		t.writeRuleLines(rt, 1)
	}
}

// writePlugin names the plugin build the commit at i called (its
// provenance), whether the call answered or failed: the stage asked about
// by name (`runbook explain run.json call`) showed it only when the
// stage's write was reached from a key, so a failed call never named the
// build that failed.
func (t *explainText) writePlugin(i, depth int) {
	if p := t.plugins[i]; p != nil {
		fmt.Fprintf(t.b, "%splugin %s %s (protocol %d): %s, sha256 %s\n", strings.Repeat("  ", depth), p.Name, p.Version, p.Protocol, p.Path, p.SHA256)
	}
}

func (t *explainText) writeCauses(n *flow.CauseNode, depth int) {
	for _, c := range n.Causes {
		t.writeNode(c, depth)
	}
}

// writeNode writes one node's line and its causes under it.
func (t *explainText) writeNode(n *flow.CauseNode, depth int) {
	b := t.b
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString(t.nodeLine(n))
	b.WriteByte('\n')
	if row := t.scripts[n.Index]; row != nil && n.Kind == flow.NodeCommit && !n.Seen {
		t.writeScript(row, t.attempts[n.Index], depth+1)
	}
	if n.Kind == flow.NodeCommit && !n.Seen {
		t.writePlugin(n.Index, depth+1)
	}
	if n.Kind == flow.NodeCommit && !n.Seen {
		t.writeLedger(n.Index, depth+1)
	}
	if n.Route != nil && !n.Seen {
		t.writeRuleLines(n.Route, depth+1)
	}
	t.writeCauses(n, depth+1)
}

// writeLedger says what the coverage ledger says of the place of the
// commit at index i, in the lines exec's Coverage section gives it
// (coverageOf), so the ground a value was read from is said where the
// value is.
func (t *explainText) writeLedger(i, depth int) {
	l, ok := t.ledger[i]
	if !ok {
		return
	}
	pad := strings.Repeat("  ", depth)
	of := "it"
	if l.Shared > 0 {
		of = fmt.Sprintf("its place, %s (one or more of its %d executions)", record.Path(l.Path), l.Shared)
	}
	fmt.Fprintf(t.b, "%sthe ledger says of %s:\n", pad, of)
	for _, e := range l.Entries {
		cv := coverageOf(e)
		if cv.headline != "" {
			fmt.Fprintf(t.b, "%s  %s\n", pad, cv.headline)
		}
		for _, line := range cv.lines {
			fmt.Fprintf(t.b, "%s  %s: %s\n", pad, line[0], line[1])
		}
	}
}

func commitRef(n *flow.CauseNode) string {
	return fmt.Sprintf("%s%s [commit %d]", n.Path, nameSuffix(n), n.Index)
}

func nameSuffix(n *flow.CauseNode) string {
	if n.Name != "" {
		return fmt.Sprintf(" (%s)", n.Name)
	}
	return ""
}

// nodeLine is one cause in words.
func (t *explainText) nodeLine(n *flow.CauseNode) string {
	var s string
	switch n.Kind {
	case flow.NodeInput:
		how := "an input"
		switch n.Input {
		case "":
		case runbook.InputConstant:
			how = "the chart's constant (vars:)"
			if len(n.Causes) > 0 {
				how = "the chart's var (vars:), computed before the first stage from"
			}
		default:
			how = "an input, " + n.Input
		}
		if n.Rel == flow.RelRead {
			s = fmt.Sprintf("read %s = %s: %s", n.Key, t.short(n.Value), how)
		} else {
			s = fmt.Sprintf("%s: %s", n.Key, how)
		}
	case flow.NodeItem:
		s = fmt.Sprintf("read %s = %s: item %d of the foreach %s (the branch's input)", n.Key, t.short(n.Value), n.ItemIndex, n.ItemOf)
	case flow.NodeMissing:
		s = fmt.Sprintf("read %s: it did not exist yet", n.Key)
	case flow.NodeUnknown:
		s = fmt.Sprintf("%s %s from %s, which is not in the record's log", n.Rel, n.Key, n.Path)
	default:
		ref := commitRef(n)
		switch n.Rel {
		case flow.RelWrote:
			s = "written by " + ref
		case flow.RelRead:
			s = fmt.Sprintf("read %s = %s, written by %s", n.Key, t.short(n.Value), ref)
		case flow.RelRouted:
			s = "routed by " + ref + t.routeWords(n.Route)
		case flow.RelJoined:
			s = fmt.Sprintf("joined %s from the branch commit %s", n.Key, ref)
		case flow.RelRow:
			s = fmt.Sprintf("row %s appended by %s", n.Key, ref)
			if n.Value != nil {
				s += " = " + t.short(n.Value)
			}
		case flow.RelAsked:
			s = "the question was asked by " + ref
		case flow.RelLooped:
			s = "ran again by the loop " + ref
			if n.While != "" {
				s += ", whose while held: " + n.While
			}
		default:
			s = n.Rel + " " + ref
		}
		for k, g := range n.GatheredBy {
			then := ", gathered"
			if k > 0 {
				then = ", then"
			}
			s += fmt.Sprintf("%s into %s by %s%s [commit %d] from the branch %s", then, g.Key, g.Path, nameSuffix(&flow.CauseNode{Name: g.Name}), g.Index, g.Branch)
		}
		if a := n.Answer; a != nil {
			if a.Rejected != "" {
				s += fmt.Sprintf(": the question %q was rejected by %s at %s: %s", a.Question, a.By, a.At, a.Rejected)
			} else {
				s += fmt.Sprintf(": the answer of %s at %s to %q", a.By, a.At, a.Question)
			}
		}
		if n.Err != "" {
			s += " — it failed: " + n.Err
		}
	}
	switch {
	case n.Seen:
		s += " (explained above)"
	case n.Cut:
		s += " … (deeper causes cut)"
	}
	return s
}

func (t *explainText) routeWords(r *flow.Route) string {
	if r == nil {
		return ""
	}
	s := " into " + r.Branch
	switch {
	case r.Rule != nil:
		s += fmt.Sprintf(": rule %d%s matched", decide.Number(r.Rule.Index), labelWords(r.Rule.Label))
	case r.Default != nil:
		s += ": no rule matched, the default"
		if r.Default.Label != "" {
			s += fmt.Sprintf(" %q", r.Default.Label)
		}
	}
	return s
}

func labelWords(l string) string {
	if l == "" {
		return ""
	}
	return fmt.Sprintf(" %q", l)
}

// writeRuleLines writes the values the routing rule saw, then the rules
// tried before it that could not be evaluated (counted as no match).
func (t *explainText) writeRuleLines(r *flow.Route, depth int) {
	b := t.b
	pad := strings.Repeat("  ", depth)
	if r.Rule != nil {
		for _, l := range t.evidenceLines(*r.Rule) {
			fmt.Fprintf(b, "%s%s\n", pad, l)
		}
	}
	for _, e := range r.Errored {
		l := fmt.Sprintf("%s✗ rule %d%s → %s could not be evaluated, counted as no match", pad, decide.Number(e.Index), labelWords(e.Label), e.Then)
		if e.Err != "" {
			fmt.Fprintf(b, "%s: %s\n", l, e.Err)
			continue
		}
		b.WriteString(l + ":\n") // a filter: the condition that could not judge its value says why
		for _, el := range t.evidenceLines(e) {
			fmt.Fprintf(b, "%s  %s\n", pad, el)
		}
	}
}

// evidenceLines are a rule's evidence, one line per condition (filter) or
// one line for an expression with the values it read.
func (t *explainText) evidenceLines(r decide.RuleEvidence) []string {
	var out []string
	if r.Expr != "" {
		var ins []string
		for _, in := range r.Inputs {
			ins = append(ins, fmt.Sprintf("%s = %s", in.Path, t.short(in.Value)))
		}
		l := fmt.Sprintf("%s %s", mark(r.Matched), r.Expr)
		if len(ins) > 0 {
			l += " (" + strings.Join(ins, ", ") + ")"
		}
		out = append(out, l)
	}
	for _, c := range r.Conditions {
		actual := t.short(c.Actual)
		if !c.Present {
			actual = "(missing)"
		}
		l := fmt.Sprintf("%s %s = %s %s %s", mark(c.Pass), c.Key, actual, c.Op, t.short(c.Expected))
		if c.Reason != "" {
			l += ": " + c.Reason
		}
		out = append(out, l)
	}
	if r.Err != "" {
		out = append(out, "✗ error: "+r.Err)
	}
	return out
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

func (t *explainText) writeWhyNot(wn *flow.WhyNot) {
	b := t.b
	what := "stage"
	if wn.Kind == "branch" {
		what = "branch"
		if wn.Decider != "" {
			what = "branch of " + wn.Decider
		}
	}
	fmt.Fprintf(b, "Why not %s (%s)?\n", wn.Target, what)
	if len(wn.Reasons) == 0 {
		b.WriteString("  Nothing kept it from running.\n")
	}
	for _, r := range wn.Reasons {
		place := "at the top level"
		if r.Scope != "" {
			place = "in " + r.Scope
		}
		fmt.Fprintf(b, "  %s: %s\n", place, r.Message)
		if d := r.Decision; d != nil {
			for _, ev := range d.Rules {
				fmt.Fprintf(b, "    rule %d%s → %s: %s\n", decide.Number(ev.Index), labelWords(ev.Label), ev.Then, matchedWords(&ev))
				for _, l := range t.evidenceLines(ev) {
					fmt.Fprintf(b, "      %s\n", l)
				}
			}
			for _, ri := range d.NotEvaluated {
				fmt.Fprintf(b, "    rule %d%s → %s: not evaluated (an earlier rule matched first)\n", decide.Number(ri.Index), labelWords(ri.Label), ri.Then)
			}
			switch {
			case d.Default == nil:
			case slices.Contains(d.Chosen, d.Default.Branch) && !anyMatched(d.Rules):
				fmt.Fprintf(b, "    no rule matched: the default %s%s\n", d.Default.Branch, labelWords(d.Default.Label))
			case d.Default.Branch == d.Wanted:
				fmt.Fprintf(b, "    the default %s%s is taken only when no rule matches\n", d.Default.Branch, labelWords(d.Default.Label))
			}
		}
	}
	if len(wn.Ran) > 0 {
		verb := "It ran"
		if wn.Kind == "branch" {
			verb = "It was chosen"
		}
		fmt.Fprintf(b, "  %s %s:\n", verb, times(len(wn.Ran)))
		for _, r := range wn.Ran {
			line := fmt.Sprintf("    %s [commit %d]", r.Path, r.Index)
			switch {
			case r.Discarded:
				line += " — a failed attempt, retried: " + r.Err
			case r.Err != "":
				line += " — it failed: " + r.Err
			}
			b.WriteString(line + "\n")
		}
	}
	for _, n := range wn.Notes {
		fmt.Fprintf(b, "Note: %s\n", n)
	}
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// matchedWords says how a rule's evaluation ended: a rule that could not
// be evaluated (rules.Outcome.Errored) was counted as no match, but it
// did not find that its subject fails it, and "did not match" would say
// it had.
func matchedWords(ev *decide.RuleEvidence) string {
	switch {
	case ev.Matched:
		return "matched"
	case ev.Errored():
		return "could not be evaluated, counted as no match"
	}
	return "did not match"
}

func anyMatched(rs []decide.RuleEvidence) bool {
	for _, r := range rs {
		if r.Matched {
			return true
		}
	}
	return false
}

// short is a value as compact JSON, cut at shortWidth characters unless
// the answer is printed full.
func (t *explainText) short(v any) string {
	if r, ok := v.(record.Row); ok {
		v = r.Values
	}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	s := fmt.Sprint(v)
	if err := enc.Encode(v); err == nil {
		s = strings.TrimSuffix(buf.String(), "\n")
	}
	return t.cutText(s)
}

// cutText cuts s at shortWidth characters (on a rune boundary) unless the
// answer is printed full, and remembers that it did.
func (t *explainText) cutText(s string) string {
	if t.full || len(s) <= shortWidth {
		return s
	}
	t.cut = true
	cut := shortWidth - 3
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// writeScript writes what the commit's script row says ran, under the
// commit's line: the command, how it ended, why when unknown, and the
// last lines it printed; earlier are the rows of the attempts before it,
// when the stage retried within its execution.
func (t *explainText) writeScript(row *label.Row, earlier []*label.Row, depth int) {
	pad := strings.Repeat("  ", depth)
	b := t.b
	if row.Call > 0 {
		// A Go stage's own commands (runbook.RunCommand), in the order it
		// ran them: each with what it ran and how it ended.
		for _, r := range append(slices.Clone(earlier), row) {
			fmt.Fprintf(b, "%scommand %d of the stage's own:\n", pad, r.Call)
			one := *r
			one.Call = 0 // said in the line above: one command's lines
			t.writeScript(&one, nil, depth+1)
		}
		return
	}
	if r := row.Ran; r != nil {
		switch {
		case len(r.Argv) > 0:
			fmt.Fprintf(b, "%sran %s\n", pad, t.cutText(shellArgv(r.Argv)))
		case r.Shell != "":
			fmt.Fprintf(b, "%sran the shell script %s\n", pad, t.cutText(strconv.Quote(r.Shell)))
		}
		if r.Dir != "" {
			fmt.Fprintf(b, "%s  in %s\n", pad, r.Dir)
		}
	}
	// A stage that retried within its execution: each attempt before the
	// last in a line, then the last, whose outcome the stage wrote.
	for _, a := range earlier {
		fmt.Fprintf(b, "%sattempt %d ended: %s\n", pad, a.Attempt, t.endWords(a))
	}
	line := "how it ended: " + t.endWords(row)
	if len(earlier) > 0 {
		line = fmt.Sprintf("how it ended, at attempt %d: %s", row.Attempt, t.endWords(row))
	}
	fmt.Fprintf(b, "%s%s\n", pad, line)
	if r := row.Ran; r != nil {
		t.writeTail(pad, "stdout", r.StdoutTail)
		t.writeTail(pad, "stderr", r.StderrTail)
	}
}

// endWords says how one run ended: the script label's words, the chart's
// answer word for its exit code, why an unknown outcome is unknown.
func (t *explainText) endWords(row *label.Row) string {
	line := row.Words
	if row.Answer != "" {
		line += fmt.Sprintf(": the chart's answer %q", row.Answer)
	}
	if row.Label == label.OutcomeUnknown {
		cause := row.Cause
		if cause == "" {
			cause = "the record does not say why"
		}
		line += ": " + cause
	}
	return line
}

// writeTail writes the last lines a command printed on one stream: all of
// them with --full, else the last tailLines, each cut, saying how many
// were left out.
func (t *explainText) writeTail(pad, stream, tail string) {
	if tail == "" {
		return
	}
	lines := strings.Split(strings.TrimRight(tail, "\n"), "\n")
	head := fmt.Sprintf("%s%s ended with:\n", pad, stream)
	if !t.full && len(lines) > tailLines {
		head = fmt.Sprintf("%s%s ended with (its last %d lines of the %d kept):\n", pad, stream, tailLines, len(lines))
		lines, t.cut = lines[len(lines)-tailLines:], true
	}
	t.b.WriteString(head)
	for _, l := range lines {
		fmt.Fprintf(t.b, "%s  | %s\n", pad, t.cutText(l))
	}
}

// shellArgv spells an argument vector as a shell would read it back,
// each argument quoted by shellQuote (exec.go) when it needs it.
func shellArgv(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = shellQuote(a)
	}
	return strings.Join(out, " ")
}

// whyNotHint points an explanation asked of a stage that never ran at the
// flag (f's spelling) that says why it did not.
func whyNotHint(err error, f explainFlags) string {
	var nr *flow.NotRanError
	if errors.As(err, &nr) {
		return fmt.Sprintf(" (try %s %s)", f.flag("why-not"), nr.Path)
	}
	return ""
}
