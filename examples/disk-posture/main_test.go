package main

import (
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// A Go chart has no chart.yaml, so no *_test.yaml can name it
// (docs/TESTING.md): it is tested in Go, here. run measures a real
// filesystem (statfs never starts a process), so the test holds the shape
// of the answer, not which verdict this machine gets.
func TestDiskPosture(t *testing.T) {
	out, err := captured(t, func() error { return run("/") })
	if err != nil {
		t.Fatalf("run /: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^/ is (critical|at-risk|healthy) \(\d+% used\)$`).MatchString(out) {
		t.Errorf("no answer line for / in:\n%s", out)
	}
	for _, want := range []string{"measure", "posture"} {
		if !strings.Contains(out, want) {
			t.Errorf("the narrative does not name %q:\n%s", want, out)
		}
	}
}

// A path that cannot be measured fails the run, naming the path: no
// verdict is made up for it.
func TestDiskPostureNoSuchPath(t *testing.T) {
	out, err := captured(t, func() error { return run("/no/such/path") })
	if err == nil || !strings.Contains(err.Error(), "statfs /no/such/path") {
		t.Errorf("err %v: want the statfs failure named", err)
	}
	if strings.Contains(out, " is healthy") {
		t.Errorf("a verdict for a path never measured:\n%s", out)
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
