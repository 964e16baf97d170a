package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/openrunbook/runbook/chart"

	"github.com/openrunbook/runbook/runbook"
)

// stdinChart is the CHART argument that reads the chart from stdin, and
// stdinName the file name its positions and record then carry
// (`<stdin>:3:5: …`). A chart read from stdin has no folder of its own:
// its relative paths (subflow charts, read: files, plugin executables)
// resolve from the working directory, as if it were a file there.
const (
	stdinChart = "-"
	stdinName  = "<stdin>"
)

// load opens a chart (from stdin when path is "-") and prints every load
// error on stderr, one a line (`file:line:col: …`). It reports whether the
// chart loaded. allow lists the folders besides the chart's own that
// subflow charts may be read from (--allow-chart-path).
func load(path string, allow []string, stderr io.Writer) (*runbook.Runbook, bool) {
	opts := make([]chart.LoadOption, len(allow))
	for i, dir := range allow {
		opts[i] = chart.AllowDir(dir)
	}
	var rb *runbook.Runbook
	var err error
	if path == stdinChart {
		path = stdinName
		rb, err = openStdin(os.Stdin, opts)
	} else {
		rb, err = runbook.Open(path, opts...)
	}
	if err == nil {
		return rb, true
	}
	printLoadError(stderr, path, err)
	return nil, false
}

// openStdin reads a chart from r as the file <stdin> in the working
// directory. chart.Parse refuses more than chart.MaxChartBytes, so one
// byte more than that is all that is read.
func openStdin(r io.Reader, opts []chart.LoadOption) (*runbook.Runbook, error) {
	data, err := io.ReadAll(io.LimitReader(r, chart.MaxChartBytes+1))
	if err != nil {
		return nil, fmt.Errorf("the chart cannot be read from stdin: %w", err)
	}
	spec, err := chart.Parse(stdinName, data, opts...)
	if err != nil {
		return nil, err
	}
	return runbook.Build(spec)
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
