package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/internal/golden"
)

// TestBadInputCatalogue runs every entry of the bad-input catalogue
// (testdata/bad at the repository root) through the real binary: each
// broken chart through `runbook validate` (exit 1, every error on stderr,
// nothing on stdout) and each bad invocation under testdata/bad/inputs
// (NAME.args, one argument a line) with its exit code and stderr compared
// with NAME.golden. The loader's own test reads the same charts.
func TestBadInputCatalogue(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	charts, _ := filepath.Glob(filepath.Join(root, "testdata/bad/*.yaml"))
	invocations, _ := filepath.Glob(filepath.Join(root, "testdata/bad/inputs/*.args"))
	if len(charts)+len(invocations) < 40 {
		t.Fatalf("the catalogue has %d entries; it should have at least 40", len(charts)+len(invocations))
	}
	for _, f := range charts {
		rel, _ := filepath.Rel(root, f)
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runIn(t, root, "validate", rel)
			if code != 1 || stdout != "" {
				t.Errorf("validate %s: exit %d, stdout %q; want exit 1 and nothing on stdout", rel, code, stdout)
			}
			want, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			if stderr != string(want) {
				t.Errorf("stderr differs from %s.golden\n--- got\n%s--- want\n%s", strings.TrimSuffix(rel, ".yaml"), stderr, want)
			}
		})
	}
	for _, f := range invocations {
		name := strings.TrimSuffix(filepath.Base(f), ".args")
		t.Run("inputs/"+name, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			args := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
			code, stdout, stderr := runIn(t, root, args...)
			if stdout != "" {
				t.Errorf("stdout = %q; a refused run prints nothing there", stdout)
			}
			golden.Check(t, strings.TrimSuffix(f, ".args")+".golden", []byte(fmt.Sprintf("exit %d\n%s", code, stderr)))
		})
	}
}

// TestHugeChartRefusedBeforeParsing: a 50 MB chart is refused by size, fast,
// with the cap named.
func TestHugeChartRefusedBeforeParsing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "huge.yaml")
	body := bytes.Repeat([]byte("# padding line for a chart that is far too large\n"), 50<<20/50)
	if err := os.WriteFile(p, append([]byte("version: 1\nrunbook: huge\n"), body...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runIn(t, dir, "validate", "huge.yaml")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "huge.yaml") || !strings.Contains(stderr, "MiB") {
		t.Errorf("exit %d stderr %q", code, stderr)
	}
}

func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("runbook %v: %v", args, err)
	}
	return code, out.String(), errb.String()
}
