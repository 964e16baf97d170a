package charttest

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/openrunbook/runbook/chart"
)

// What --update writes reads back as the value it wrote: plain where YAML
// keeps it a string, quoted where it would not — a scalar YAML would read
// as something else (.inf, .NaN, 0b101) too, which was written plain and
// failed the rewritten file's own test.
func TestIssue15UpdateScalarsReadBack(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"/dev/vda", "95%", "per-svc~0/restarts", "true", "no", "3", "1e3", "a: b", "x, y", "{", "- x", "#c", "Known — the 1 declared answer check passed.", "", " lead", "~", "null", "it's",
		".inf", "-.Inf", ".NaN", "0b101", "1_000", "0o17", "+1", "2026-12-06", "12:30", "=", "<<"} {
		text := "k: [" + yamlScalar(s) + "]"
		var got map[string][]any
		if err := yaml.Unmarshal([]byte(text), &got); err != nil {
			t.Errorf("%q written as %s: %v", s, text, err)
			continue
		}
		if len(got["k"]) != 1 || got["k"][0] != s {
			t.Errorf("%q written as %s reads back as %#v", s, text, got["k"])
		}
	}
}

// The library runs a file as the CLI does; a stub by path wins over one by
// stage id, and a signal stub is the process's end.
func TestIssue15LibraryRun(t *testing.T) {
	t.Parallel()
	f, err := Load("../../testdata/charttest/svc/pass_test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f.Cases[0].Stubs["per-svc~0/probe"] = &ExecStub{Signal: "SIGKILL"}
	res := f.Run(context.Background())
	if len(res.Cases) != 2 {
		t.Fatalf("%d cases ran, want 2", len(res.Cases))
	}
	rec := res.Cases[0].Record
	var labels []string
	for _, s := range rec.Scripts {
		labels = append(labels, s.Path+"="+string(s.Label))
	}
	if got := strings.Join(labels, " "); !strings.Contains(got, "per-svc~0/probe=reported-failure") || !strings.Contains(got, "per-svc~1/probe=completed-with-failure") {
		// label.Of's words: a process killed by a signal reported a
		// failure; one that exited 3 completed with one.
		t.Errorf("script labels %s: want the killed probe reported-failure, the exit-3 one completed-with-failure", got)
	}
	if res.Cases[1].Passed() != true {
		t.Errorf("case 2: %v", res.Cases[1].Failures)
	}
}

// A test file naming a chart that does not load returns the chart's errors.
func TestIssue15ChartErrorsComeBack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := Load(writeFile(t, dir, "x_test.yaml", "version: 1\nchart: nope.yaml\ncases: [{name: a}]\n"))
	var les chart.LoadErrors
	if !errors.As(err, &les) || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("err %v: want the chart's load error", err)
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := dir + "/" + name
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
