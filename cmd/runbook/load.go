package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/openrunbook/runbook/chart"

	"github.com/openrunbook/runbook/runbook"
)

// load opens a chart and prints every load error on stderr, one a line
// (`file:line:col: …`). It reports whether the chart loaded.
func load(path string, stderr io.Writer) (*runbook.Runbook, bool) {
	rb, err := runbook.Open(path)
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
