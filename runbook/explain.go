package runbook

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
)

// InputConstant is the kind explain gives a value the run started with
// that is the chart's constant (vars:), not an input given or assumed.
const InputConstant = "constant"

// Explain answers "why" over a saved run record (ReadRecord), without the
// chart file and without running anything: the record's log, its chart
// structure and how the run ended are all it reads. problems are what the
// reader could not read (ParseRecord); they ride every answer, so a
// damaged record is explained as far as it is sound and says where it is
// not.
//
// Example:
//
//	rec, problems, err := record.ReadRecord("run.json")
//	x := runbook.NewExplain(rec, problems)
//	e, err := x.Key("verdicts[3]", -1)
type Explain struct {
	rec      *record.RunRecord
	ex       *flow.Explainer
	Problems []string

	scripts map[int][]*label.Row // commit index → its script rows (one an attempt); built on first ask
	// ledger is the coverage ledger's entries by record path, and execs
	// how many commits each record path has; built on first ask.
	ledger map[string][]coverage.Entry
	execs  map[string]int
}

// NewExplain indexes the record's log once.
func NewExplain(rec *record.RunRecord, problems []string) *Explain {
	opts := []flow.ExplainOption{flow.WithEnd(endOf(rec)), flow.WithGathered(VerdictsKey)}
	if rec.Structure != nil {
		opts = append(opts, flow.WithStructure(*rec.Structure))
	}
	if r := rec.Result; r != nil {
		kinds := map[string]string{}
		for k := range r.Inputs.Given {
			kinds[k] = "given"
		}
		for k := range r.Inputs.Assumed {
			kinds[k] = "assumed"
		}
		for k := range rec.Log.Inputs {
			if _, ok := kinds[k]; !ok {
				kinds[k] = InputConstant // neither given nor assumed: a var
			}
		}
		opts = append(opts, flow.WithInputKinds(kinds), flow.WithInputsFrom(r.Inputs.VarsFrom), flow.WithTruncations(r.Truncations))
	}
	return &Explain{rec: rec, ex: flow.NewExplainer(&rec.Log, opts...), Problems: problems}
}

// endOf says how the recorded run ended.
func endOf(rec *record.RunRecord) flow.End {
	r := rec.Result
	if r == nil {
		return flow.End{}
	}
	end := flow.End{Status: flow.Status(r.Status)}
	if r.Error != nil {
		end.Path, end.Message = r.Error.Stage, r.Error.Message
	}
	if r.Pause != nil {
		end.Path, end.Message = r.Pause.Stage, fmt.Sprintf("%q", r.Pause.Question)
	}
	return end
}

// Script is the script row the commit at index i filed (what an exec
// stage ran and how it ended), or nil when it filed none; for a stage
// that retried within its execution, the last attempt's row, whose
// outcome the stage wrote, and for a Go stage that ran commands of its
// own, the last one's (Attempts gives the ones before it). Rows carry
// record paths (no counter) in log order, so the k-th execution at a path
// is the k-th row at it — or, where rows carry attempts, the k-th run of
// attempts 1 to n; where a path's rows and executions do not pair up one
// to one (a damaged record), none of its rows is given: a row shown under
// the wrong execution would be a wrong answer. A Go stage's rows name
// their execution (label.Row.Execution) and go to it alone.
func (x *Explain) Script(i int) *label.Row {
	rows := x.scriptRows(i)
	if len(rows) == 0 {
		return nil
	}
	return rows[len(rows)-1]
}

// Attempts are the rows the commit at index i filed before its last
// (Script), in order: a retried stage's earlier attempts, or a Go stage's
// earlier commands (label.Row.Call, RunCommand); none for a stage that
// filed one row.
func (x *Explain) Attempts(i int) []*label.Row {
	rows := x.scriptRows(i)
	if len(rows) < 2 {
		return nil
	}
	return rows[:len(rows)-1]
}

// scriptRows are the rows the commit at index i filed: one, one an
// attempt, or one a Go stage's command.
func (x *Explain) scriptRows(i int) []*label.Row {
	if x.scripts == nil {
		x.scripts = map[int][]*label.Row{}
		if r := x.rec.Result; r != nil {
			cs := x.rec.Log.Commits()
			at := map[string]int{} // a Go stage's rows name their commit
			for j := range cs {
				at[cs[j].Path] = j
			}
			runs := map[string][][]*label.Row{}
			for k := range r.Scripts {
				row := &r.Scripts[k]
				if row.Execution != "" {
					if j, ok := at[row.Execution]; ok && record.Path(row.Execution) == row.Path {
						x.scripts[j] = append(x.scripts[j], row)
					}
					continue
				}
				rs := runs[row.Path]
				if row.Attempt <= 1 && row.Call <= 1 || len(rs) == 0 {
					rs = append(rs, nil) // a new execution's first row
				}
				rs[len(rs)-1] = append(rs[len(rs)-1], row)
				runs[row.Path] = rs
			}
			execs := map[string][]int{}
			for j := range cs {
				p := record.Path(cs[j].Path)
				if len(runs[p]) > 0 {
					execs[p] = append(execs[p], j)
				}
			}
			for p, js := range execs {
				if len(js) != len(runs[p]) {
					continue
				}
				for k, j := range js {
					x.scripts[j] = runs[p][k]
				}
			}
		}
	}
	return x.scripts[i]
}

// Ledger is what the run's coverage ledger says of the stage the commit
// at index i is an execution of: the entries filed at its record path (a
// command's output that was not UTF-8, lines a parse mode could not read,
// what a script declared it checked and did not), so an explanation that
// rests on the commit says how far what it read can be taken. The ledger
// names a stage's place, not one execution: shared is how many commits
// share that place when it is more than one (a loop's passes, a retry's
// discarded attempts), each of which may be the one the entries are of.
func (x *Explain) Ledger(i int) (entries []coverage.Entry, shared int) {
	cs := x.rec.Log.Commits()
	if i < 0 || i >= len(cs) || x.rec.Result == nil {
		return nil, 0
	}
	if x.ledger == nil {
		x.ledger, x.execs = map[string][]coverage.Entry{}, map[string]int{}
		for _, e := range x.rec.Result.Coverage {
			x.ledger[e.Path] = append(x.ledger[e.Path], e)
		}
		for j := range cs {
			x.execs[record.Path(cs[j].Path)]++
		}
	}
	p := record.Path(cs[i].Path)
	entries = x.ledger[p]
	if n := x.execs[p]; n > 1 && len(entries) > 0 {
		shared = n
	}
	return entries, shared
}

// Plugin is the provenance of the stage plugin the commit at index i
// called — which plugin, which version and which bytes — or nil when its
// stage called none (or the record predates provenance).
func (x *Explain) Plugin(i int) *record.PluginRun {
	r := x.rec.Result
	cs := x.rec.Log.Commits()
	if r == nil || i < 0 || i >= len(cs) {
		return nil
	}
	id := cs[i].Stage
	for k := range r.Plugins {
		if slices.Contains(r.Plugins[k].Stages, id) {
			return &r.Plugins[k]
		}
	}
	return nil
}

// Record is the record explained.
func (x *Explain) Record() *record.RunRecord { return x.rec }

// Key explains a state key (`verdicts[3].verdict`) as of commit at (-1:
// the end). See flow.Explainer.Key.
func (x *Explain) Key(key string, at int) (*flow.Explanation, error) { return x.ex.Key(key, at) }

// Stage explains a stage execution by path. See flow.Explainer.Stage.
func (x *Explain) Stage(path string) (*flow.Explanation, error) { return x.ex.Stage(path) }

// WhyNot says why a stage or branch did not run. See flow.Explainer.WhyNot.
func (x *Explain) WhyNot(target string) (*flow.WhyNot, error) { return x.ex.WhyNot(target) }

// StateAt is the state as of commit n, and the commit.
func (x *Explain) StateAt(n int) (map[string]any, *flow.Commit) { return x.ex.StateAt(n) }

// Answer is what explain says with no key: the chain behind the verdict
// table when the run made one, else behind every key of the final state.
func (x *Explain) Answer() (*flow.Explanation, error) {
	if _, ok := x.rec.Log.StateAt(len(x.rec.Log.Commits()) - 1)[VerdictsKey]; ok {
		return x.ex.Key(VerdictsKey, -1)
	}
	return x.ex.All(-1)
}

// Query answers one query string: a key when its first name is a key of
// the final state, else a stage path or id. at applies to keys only. A
// stage id that ran in several places is a *flow.AmbiguousStageError
// listing them, never the explanation of one of them.
func (x *Explain) Query(q string, at int) (*flow.Explanation, error) {
	if q == "" {
		if at >= 0 {
			return x.ex.All(at)
		}
		return x.Answer()
	}
	e, kerr := x.ex.Key(q, at)
	if kerr == nil {
		return e, nil
	}
	e, err := x.ex.Stage(q)
	if err == nil {
		return e, nil
	}
	var many *flow.AmbiguousStageError
	if errors.As(err, &many) {
		return nil, err
	}
	// flow's explain errors say "explain:" first; said once, in front.
	return nil, fmt.Errorf("explain: %q is neither a key of the state nor a stage that ran: %s", q, strings.TrimPrefix(kerr.Error(), "explain: "))
}
