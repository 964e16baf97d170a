// Package chart reads a chart.yaml into a Spec: the first step of the
// pipeline chart.Load → runbook.Build → flow.Chart.Run → record.
//
// It owns the chart format's SHAPE: every key and its type, positions
// (file:line:col on every part and every error, all errors at once, with a
// "did you mean" for a misspelt key), expressions compiled with package
// rules, mounted subflow files read relative to the chart that names them,
// and the SHA-256 of the bytes read. A Spec says only what the file says:
// a key not given is zero, never a default filled in.
//
// It also owns the one check of what an expression NAMES (load_names.go):
// every top-level identifier must be defined by the chart — an input, a
// var, a key some stage writes, a foreach's as or index — and a key
// spelled with '-' is never read as a subtraction.
//
// It does not own what a chart means when it runs: defaults, effective
// timeouts and retries are settled by package runbook when it builds the
// runbook; structural rules (id characters, unique ids, rules naming
// branches, reachable branches, loop targets, foreach `as`) are package
// flow's, checked when runbook builds the flow chart. The loader files
// where each key those rules name was written (StageSpec.At), so the
// refusals still carry file:line:col. A chart with shape errors reports
// those alone: a structural judgement about a half-read chart would be a
// guess (the loader once said a loop "names no stage" of a stage it had
// only failed to read).
//
// Files: load.go (Load, Parse, the error types), load_node.go (YAML nodes
// to values and the shared readers), load_chart.go (the top level: inputs,
// vars, result, honesty, plugins), load_stage.go (a stage's common keys),
// one read_KIND.go per stage kind, load_expr.go (expressions and their
// positions), load_names.go (the names expressions read).
package chart
