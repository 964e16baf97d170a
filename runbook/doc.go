// Package runbook is what `runbook exec` runs: a flow chart with typed
// inputs, result options and the honesty stages, and the result record it
// leaves.
//
// It owns: building a runbook from a loaded chart.yaml (Open, Build; the
// loader itself, every error with file:line:col, is package chart) or from
// a chart built with package flow (New), inputs (types, defaults recorded
// as ASSUMED, secrets masked in every output), the stage kinds a YAML chart
// has (set, exec, read, verdict, fail, ask, plugin; decide, select,
// parallel, foreach, subflow and loop come from package flow), the wiring
// of the honesty stages, running (Exec, Resume) and explaining a saved
// record (NewExplain). The result record (record.Record), the saved run
// record (record.RunRecord) and the verdict projection are package
// record's. It does not own rule evaluation, the executor or the honesty
// rules themselves: it asks packages rules, decide, flow, plugins/label,
// plugins/coverage and plugins/assessment, each the one home of its rule.
//
// Two ways to make a runbook, one result:
//
//	rb, err := runbook.Open("chart.yaml")             // YAML
//	rb, err := runbook.New(chart, runbook.WithResult(…)) // a chart built with package flow
//	res, err := rb.Exec(ctx, map[string]any{"host": "db-1"})
//	fmt.Println(res.Record.Verdicts.Table, res.Record.Assessment.Line)
//	err = res.WriteRecord("run.json")                 // what NewExplain reads back
//
// A Go chart's stages are Go functions: a command one of them runs itself
// (os/exec) files no script row, so the label honesty stage cannot see how
// it ended. Return its failure as the stage's error (the run fails, or goes
// on past it with flow.ContinueOnError and the ledger says so); never set
// a value that reads as an answer over a command that did not give one.
// A secret input's text is masked wherever it appears, a Go stage's
// writes and errors included, but what Go code makes of it
// (strings.ToUpper(token)) is not a value an expression derived, so no
// taint follows it: a Go stage writes nothing made from a secret.
//
// The laws it keeps, each in one function:
//
//	exec outcomes          a command that exits non-zero, times out, cannot start or is
//	                       killed is an OUTCOME with a script row (label.Of), never a crash
//	coverage               every stage result passes coverage.Read/Serve: the served form
//	                       goes to the scope, declarations to the run's ledger
//	one-number law         one cap (maxRows) for the rows and the table (project)
//	render law             RenderTable: first row's keys in order, "—" for empty, yes/no
//	meanings               declared branches overlaid by rule labels harvested during the
//	                       run; absent, never empty; no caller can supply them (meanings)
//	standing               assessment.Assess over the record, said per result.standingLine
package runbook
