package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/openrunbook/runbook/chart"

	"github.com/openrunbook/runbook/runbook"
)

// load opens a chart and prints every load error on stderr, one a line
// (`file:line:col: …`). It reports whether the chart loaded. allow lists the
// folders besides the chart's own that subflow charts may be read from
// (--allow-chart-path).
func load(path string, allow []string, stderr io.Writer) (*runbook.Runbook, bool) {
	opts := make([]chart.LoadOption, len(allow))
	for i, dir := range allow {
		opts[i] = chart.AllowDir(dir)
	}
	rb, err := runbook.Open(path, opts...)
	if err == nil {
		return rb, true
	}
	printLoadError(stderr, path, err)
	return nil, false
}

// printLoadError prints a load error: each of chart.LoadErrors on its own
// line, anything else (an unreadable file) prefixed with the path unless it
// already names it.
func printLoadError(w io.Writer, path string, err error) {
	var les chart.LoadErrors
	if errors.As(err, &les) {
		for _, le := range les {
			fmt.Fprintln(w, le.Error())
		}
		return
	}
	fmt.Fprintf(w, "%s: %v\n", path, err)
}

// allowChartPath declares --allow-chart-path on every command that loads a
// chart.
func allowChartPath(fl *pflag.FlagSet, allow *[]string) {
	fl.StringArrayVar(allow, "allow-chart-path", nil, "also read subflow charts from `DIR` (repeatable; by default only the chart's own folder and below)")
}
