package main

import (
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// A Go chart has no chart.yaml, so no *_test.yaml can name it
// (docs/TESTING.md): it is tested in Go, here, on this machine's own
// mounts (reading /proc/self/mounts and statfs start no process). The
// test holds the table's shape and its words, not which verdicts this
// machine gets.
func TestVolumes(t *testing.T) {
	out, err := captured(t, run)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || lines[0] != "| subject | verdict | usedPct |" || lines[1] != "|---|---|---|" {
		t.Fatalf("no table:\n%s", out)
	}
	row := regexp.MustCompile(`^\| \S+ \| (declined|read-only|at-risk|healthy) \| (\d+|—) \|$`)
	rows := 0
	for _, l := range lines[2:] {
		if !strings.HasPrefix(l, "| ") {
			break
		}
		if !row.MatchString(l) {
			t.Errorf("row %q is not subject | verdict word | used", l)
		}
		rows++
	}
	want, err := mounts()
	if err != nil {
		t.Fatal(err)
	}
	if rows != len(want) || rows == 0 {
		t.Errorf("%d rows for %d mounts: one row per volume, in item order", rows, len(want))
	}
	if !strings.Contains(out, "commits; every row above can be traced") {
		t.Errorf("no commit count line:\n%s", out)
	}
}

// captured runs f with stdout going to a pipe, and returns what it wrote.
func captured(t *testing.T, f func() error) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	ferr := f()
	os.Stdout = old
	w.Close()
	return <-done, ferr
}
