package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestExamples runs every example chart through the real binary and
// compares its text and JSON output with golden files. Machine-dependent
// facts are fixed: a stand-in df comes first on PATH, and the ports
// example reads a captured /proc/net. Timings are masked in the JSON.
func TestExamples(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fake, _ := filepath.Abs("testdata/examples/bin")
	procNet, _ := filepath.Abs("testdata/examples/proc-net")
	cases := []struct {
		name string
		args []string
	}{
		{"disk", []string{"examples/disk/chart.yaml"}},
		{"disk-threshold", []string{"examples/disk/chart.yaml", "--input", "threshold=80"}},
		{"ports", []string{"examples/ports/chart.yaml", "--input", "procNet=" + procNet}},
		{"logscan-absent", []string{"examples/logscan/chart.yaml"}},
		{"logscan-error", []string{"examples/logscan/chart.yaml", "--input", "level=ERROR"}},
		// approval pauses to ask; its record goes to a temporary file so the
		// tree stays clean, and the directory it counts in is empty.
		{"approval", []string{"examples/approval/chart.yaml", "--input", "dir=cmd/runbook/testdata/examples/empty", "--record", "RECORD"}},
	}
	durations := regexp.MustCompile(`"durationMs": [0-9.e+-]+`)
	for _, tc := range cases {
		for _, format := range []string{"text", "json"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				t.Parallel()
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				record := filepath.Join(t.TempDir(), "record.json")
				args := []string{"exec", "--format", format}
				for _, a := range tc.args {
					args = append(args, strings.ReplaceAll(a, "RECORD", record))
				}
				cmd := exec.CommandContext(ctx, binary, args...)
				cmd.Dir = root
				cmd.Env = append(os.Environ(), "NO_COLOR=1", "PATH="+fake+":"+os.Getenv("PATH"))
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				if err := cmd.Run(); err != nil {
					t.Fatalf("runbook %v: %v\n%s", args, err, errb.String())
				}
				got := bytes.ReplaceAll(out.Bytes(), []byte(record), []byte("RECORD"))
				ext := ".txt"
				if format == "json" {
					got = durations.ReplaceAll(got, []byte(`"durationMs": 0`))
					got = bytes.ReplaceAll(got, []byte(procNet), []byte("testdata/examples/proc-net"))
					ext = ".json"
				}
				renderGolden(t, filepath.Join("..", "examples", tc.name+ext), got)
			})
		}
	}
}
