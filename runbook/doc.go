// Package runbook is what `runbook exec` runs: a flow chart with typed
// inputs, result options and the honesty stages, and the result record it
// leaves.
//
// It owns: the chart.yaml loader (Load, Parse: every error with
// file:line:col, all of them at once), inputs (types, defaults recorded as
// ASSUMED, secrets masked in every output), the stage kinds a YAML chart
// has (set, exec, verdict, fail, ask; decide, select, parallel, foreach,
// subflow and loop come from package flow), the verdict projection and its
// generated meanings, the wiring of the honesty stages, and the result
// record (Record) and saved run record (RunRecord). It does not own rule
// evaluation, the executor or the honesty rules themselves: it asks
// packages rules, decide, flow, plugins/label, plugins/coverage and
// plugins/assessment, each the one home of its rule.
//
// Two ways to make a runbook, one result:
//
//	rb, err := runbook.Open("chart.yaml")             // YAML
//	rb, err := runbook.New(chart, runbook.WithResult(…)) // a chart built with package flow
//	res, err := rb.Exec(ctx, map[string]any{"host": "db-1"})
//	json.NewEncoder(os.Stdout).Encode(res.Record)
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
