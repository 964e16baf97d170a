// Package charttest runs a chart's own tests (testing.md): test files of
// cases, each a run of the chart on stubbed commands, files, plugins and
// answers,
// held to what it expects. `runbook test` is its command line; a Go author
// may call it from go test as well (Load, then File.Run).
//
// It owns the test file format and its positions (file:line:col, as the
// chart loader reports, with "did you mean"), the stubs a case gives a run
// (through runbook.WithStubs, the one seam: a stubbed exec stage files the
// stub's facts exactly as a real process's, so labels, exitCodes, parse,
// coverage and the standing behave as in production), the comparison of
// each expectation, rule coverage over every case, and --update's rewrite
// of each case's expect keeping the file's comments and order.
//
// The rule of side effects, one line: a case never runs a real command or
// plugin, nor reads a real file — an exec, read or plugin stage it reaches
// with no stub fails the case naming the stage, unless the case lists the
// stage under `real:`.
//
// It does not own running a chart (package runbook), the record (package
// record), or output formats and exit codes (cmd/runbook).
package charttest
