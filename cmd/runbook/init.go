package main

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// starter is what `runbook init` writes: a chart that runs on any Linux
// box (nproc and /proc/loadavg; no bash, which a minimal image may lack),
// its test file, and a README of three lines. Its own test
// (TestLoop15InitThenTest) runs `runbook test` and `runbook exec` on it.
//
//go:embed starter/chart.yaml starter/chart_test.yaml starter/README.md
var starter embed.FS

// starterFiles are the starter's files, in the order written and listed.
var starterFiles = []string{"chart.yaml", "chart_test.yaml", "README.md"}

func newInitCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a starter chart, its test file and a README into DIR",
		Long: `init writes a starter chart (chart.yaml: is this machine busy?), a test
file for it (chart_test.yaml, which runbook test runs on stubs) and a README
of three lines into DIR (default: the current folder; made if missing).

It never overwrites: when any of the three files exists already, it writes
none and says which (exit 2).`,
		Example: `  runbook init mycheck && runbook test mycheck && runbook exec mycheck/chart.yaml`,
		Args:    args(cobra.MaximumNArgs(1)),
		RunE: func(_ *cobra.Command, a []string) error {
			dir := "."
			if len(a) == 1 {
				dir = a[0]
			}
			return initStarter(dir, stdout)
		},
	}
}

// initStarter writes the starter into dir: every file or none.
func initStarter(dir string, stdout io.Writer) error {
	var there []string
	for _, name := range starterFiles {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); err == nil {
			there = append(there, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return exit(exitUsage, "init: %s: %v", p, err)
		}
	}
	if len(there) > 0 {
		return exit(exitUsage, "init: %s already %s: init writes only new files and wrote none; give another folder (runbook init DIR), or move %s away",
			strings.Join(there, ", "), plural(len(there), "exists", "exist"), plural(len(there), "it", "them"))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return exit(exitFailed, "init: %v", err)
	}
	var wrote []string
	for _, name := range starterFiles {
		b, err := starter.ReadFile("starter/" + name)
		if err != nil {
			return exit(exitFailed, "init: %v", err) // the build embeds every file
		}
		p := filepath.Join(dir, name)
		// O_EXCL: a file made since the check above is still not overwritten.
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, err = f.Write(b)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return exit(exitFailed, "init: %v (wrote %s)", err, strings.Join(append(wrote, "nothing else"), ", "))
		}
		wrote = append(wrote, p)
	}
	fmt.Fprintf(stdout, "wrote %s\n", strings.Join(wrote, ", "))
	chart := filepath.Join(dir, "chart.yaml")
	fmt.Fprintf(stdout, "next:\n  runbook test %s\n  runbook plan %s\n  runbook exec %s\n", dir, chart, chart)
	return nil
}
