package chart

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes f allocates. The tests that call it are not
// parallel: parallel tests wait until every serial test has finished.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func loadErrText(t *testing.T, err error) string {
	t.Helper()
	var les LoadErrors
	if !errors.As(err, &les) {
		t.Fatalf("error %v (%T); want LoadErrors", err, err)
	}
	return err.Error()
}

// TestIssue19DeepYAMLBoundedBeforeParsing: a 100 KB `[[[[…]]]]` (and a
// block-nested map) is refused at MaxNesting before the YAML parser builds
// it, for a cost proportional to its size. Before, the parser kept every
// node's full path: the 100 KB document allocated gigabytes.
func TestIssue19DeepYAMLBoundedBeforeParsing(t *testing.T) {
	flow := "version: 1\nrunbook: r\nstages:\n  - id: p\n    plugin: {name: probe, args: {x: " +
		strings.Repeat("[", 50_000) + strings.Repeat("]", 50_000) + "}}\n"
	var block strings.Builder
	block.WriteString("version: 1\nrunbook: r\nx:\n")
	for i := range 400 {
		block.WriteString(strings.Repeat(" ", i+2) + "a:\n")
	}
	for _, tc := range []struct{ name, src, at string }{
		{"flow", flow, "c.yaml:5:"},
		{"block", block.String(), "c.yaml:203:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			bytes := allocated(func() { _, err = Parse("c.yaml", []byte(tc.src)) })
			msg := loadErrText(t, err)
			if !strings.HasPrefix(msg, tc.at) || !strings.Contains(msg, "more than 200 levels deep") {
				t.Errorf("error %q; want it at %s… naming the bound of 200 levels", msg, tc.at)
			}
			if limit := uint64(1000 * len(tc.src)); bytes > limit {
				t.Errorf("parsing %d bytes allocated %d bytes; want at most %d (1000 a byte)", len(tc.src), bytes, limit)
			}
		})
	}
}

// TestIssue19LongKeysOverManyNodesBounded: one 100 KB key over 20,000
// short ones costs the parser 2 GB of paths (each node keeps its parent's
// path): refused from the lexer's tokens, at the node that passes the
// budget, for a cost proportional to the file.
func TestIssue19LongKeysOverManyNodesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nrunbook: r\n" + strings.Repeat("k", 100_000) + ":\n")
	for i := range 20_000 {
		b.WriteString("  a" + strings.Repeat("x", i%7) + ": 1\n")
	}
	src := b.String()
	var err error
	bytes := allocated(func() { _, err = Parse("c.yaml", []byte(src)) })
	if msg := loadErrText(t, err); !strings.Contains(msg, "keeps every node's full path") {
		t.Errorf("error %q; want the path budget named", msg)
	}
	if limit := uint64(1000 * len(src)); bytes > limit {
		t.Errorf("parsing %d bytes allocated %d bytes; want at most %d", len(src), bytes, limit)
	}
}

// TestIssue19AliasExpansionBoundedByNodes: 30 aliases of a 5,000-item
// anchor expand to 150,000 nodes. Before, only the number of aliases was
// bounded (10,000), so a fat anchor multiplied the loader's work without
// limit (a 425 KB file ran for over a minute and 14 GB).
func TestIssue19AliasExpansionBoundedByNodes(t *testing.T) {
	items := strings.TrimSuffix(strings.Repeat("1,", 5000), ",")
	src := "version: 1\nrunbook: r\nstages:\n  - id: p\n    plugin:\n      name: probe\n      args:\n        big: &big [" +
		items + "]\n        copies: [" + strings.TrimSuffix(strings.Repeat("*big, ", 30), ", ") + "]\n"
	_, err := Parse("c.yaml", []byte(src))
	if msg := loadErrText(t, err); !strings.Contains(msg, "alias *big passes the 100000 YAML nodes") {
		t.Errorf("error %q; want the alias node budget named", msg)
	}
	// Within the budget, aliases still work.
	ok := "version: 1\nrunbook: r\nstages:\n  - id: a\n    retry: &r {attempts: 2}\n    set: {x: 1}\n  - id: b\n    retry: *r\n    set: {y: 1}\n"
	if _, err := Parse("ok.yaml", []byte(ok)); err != nil {
		t.Errorf("a small alias: %v", err)
	}
}

// writeCharts writes files (name → content) under dir.
func writeCharts(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestIssue19SubflowExpansionBounded: a chart is loaded once however often
// it is mounted, but the runbook holds it once per mount; a DAG that
// doubles at each of 12 steps would be 8,190 mounts, and a chain of 40
// charts passes MaxSubflowDepth. Both are refused by count, at the mount.
// Before, both loaded (the DAG's build then grew exponentially: 20 steps
// ran past a minute and 9 GB; a chain of 10,000 ran out of memory).
func TestIssue19SubflowExpansionBounded(t *testing.T) {
	t.Run("dag", func(t *testing.T) {
		dir := t.TempDir()
		files := map[string]string{"d12.yaml": "version: 1\nrunbook: d12\nstages:\n  - {id: s, set: {x: 1}}\n"}
		for i := range 12 {
			files[filepathName("d", i)] = "version: 1\nrunbook: d\nstages:\n  - {id: a, subflow: {chart: " + filepathName("d", i+1) +
				"}}\n  - {id: b, subflow: {chart: " + filepathName("d", i+1) + "}}\n"
		}
		writeCharts(t, dir, files)
		_, err := Load(filepath.Join(dir, "d0.yaml"))
		if msg := loadErrText(t, err); !strings.Contains(msg, "mounts charts more than 1000 times") {
			t.Errorf("error %q; want the mount bound named", msg)
		}
	})
	t.Run("chain", func(t *testing.T) {
		dir := t.TempDir()
		files := map[string]string{"d40.yaml": "version: 1\nrunbook: d40\nstages:\n  - {id: s, set: {x: 1}}\n"}
		for i := range 40 {
			files[filepathName("d", i)] = "version: 1\nrunbook: d\nstages:\n  - {id: a, subflow: {chart: " + filepathName("d", i+1) + "}}\n"
		}
		writeCharts(t, dir, files)
		_, err := Load(filepath.Join(dir, "d0.yaml"))
		msg := loadErrText(t, err)
		if !strings.Contains(msg, "d32.yaml:4:30") || !strings.Contains(msg, "past the bound of 32") {
			t.Errorf("error %q; want it at the 33rd mount, naming the bound", msg)
		}
	})
	t.Run("shared spec built in Go", func(t *testing.T) {
		// CheckMounts counts a Spec shared along many paths once per path,
		// and a cycle as past every bound, without walking the paths.
		leaf := &Spec{Name: "leaf", Stages: []StageSpec{{ID: "s", Kind: "set"}}}
		spec := leaf
		for range 30 {
			spec = &Spec{Name: "n", Stages: []StageSpec{
				{ID: "a", Kind: "subflow", Subflow: &SubflowSpec{Chart: "x", Spec: spec}},
				{ID: "b", Kind: "subflow", Subflow: &SubflowSpec{Chart: "x", Spec: spec}},
			}}
		}
		if err := CheckMounts(spec); err == nil {
			t.Error("2^30 mounts passed CheckMounts")
		}
		cyc := &Spec{Name: "c", Stages: []StageSpec{{ID: "a", Kind: "subflow", Subflow: &SubflowSpec{Chart: "c"}}}}
		cyc.Stages[0].Subflow.Spec = cyc
		if err := CheckMounts(cyc); err == nil {
			t.Error("a Spec that mounts itself passed CheckMounts")
		}
	})
}

func filepathName(prefix string, i int) string { return fmt.Sprintf("%s%d.yaml", prefix, i) }

// TestIssue19SubflowPathConfined: `subflow: {chart: …}` reads only inside
// the root chart's folder (symlinks resolved) or a folder given with
// AllowDir, and a load error never quotes a file that is not a chart.
// Before, `chart: /proc/self/environ` printed the environment in the error.
func TestIssue19SubflowPathConfined(t *testing.T) {
	t.Setenv("RUNBOOK_ISSUE19_SECRET", "hunter2-in-the-environment")
	root, other := t.TempDir(), t.TempDir()
	writeCharts(t, other, map[string]string{
		"sub.yaml":   "version: 1\nrunbook: sub\nstages:\n  - {id: s, set: {x: 1}}\n",
		"secret.txt": "the password is hunter2-in-a-file\n",
	})
	mounting := func(p string) string {
		return "version: 1\nrunbook: r\nstages:\n  - {id: m, subflow: {chart: " + p + "}}\n"
	}
	writeCharts(t, root, map[string]string{
		"environ.yaml": mounting("/proc/self/environ"),
		"other.yaml":   mounting(filepath.Join(other, "sub.yaml")),
		"up.yaml":      mounting("../" + filepath.Base(other) + "/secret.txt"),
		"link.yaml":    mounting("inside/link.yaml"),
		"notes.yaml":   mounting("notes.txt"),
		"notes.txt":    "the password is hunter2-in-a-file\n",
	})
	if err := os.MkdirAll(filepath.Join(root, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "sub.yaml"), filepath.Join(root, "inside", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		opts []LoadOption
		want string // "" loads
	}{
		{"environ.yaml", nil, "is outside the chart's folder"},
		{"other.yaml", nil, "is outside the chart's folder"},
		{"up.yaml", nil, "is outside the chart's folder"},
		{"link.yaml", nil, "is outside the chart's folder"},
		{"notes.yaml", nil, "is not a chart file"},
		{"other.yaml", []LoadOption{AllowDir(other)}, ""},
		{"link.yaml", []LoadOption{AllowDir(other)}, ""},
		{"up.yaml", []LoadOption{AllowDir(other)}, "is not a chart file"},
	} {
		_, err := Load(filepath.Join(root, tc.file), tc.opts...)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s (allowed %d): %v", tc.file, len(tc.opts), err)
		case tc.want == "":
		case err == nil || !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s (allowed %d): error %v; want %q", tc.file, len(tc.opts), err, tc.want)
		case strings.Contains(err.Error(), "hunter2"):
			t.Errorf("%s: the error quotes the file: %v", tc.file, err)
		}
	}
	// The root chart itself: a file that is not a chart is not quoted.
	_, err := Parse("notes.txt", []byte("the password is hunter2\n"))
	if msg := loadErrText(t, err); strings.Contains(msg, "hunter2") || !strings.Contains(msg, "is not a chart file") {
		t.Errorf("Parse of a non-chart: %q", msg)
	}
}

// BenchmarkIssue19Refusals measures what refusing each exhausting input
// costs (the tests above assert the bounds; this reports time and bytes).
func BenchmarkIssue19Refusals(b *testing.B) {
	deep := []byte("version: 1\nrunbook: r\nx: " + strings.Repeat("[", 50_000) + strings.Repeat("]", 50_000) + "\n")
	var long strings.Builder
	long.WriteString("version: 1\nrunbook: r\n" + strings.Repeat("k", 100_000) + ":\n")
	for range 20_000 {
		long.WriteString("  a: 1\n")
	}
	fat := []byte("version: 1\nrunbook: r\nx:\n  big: &big [" + strings.TrimSuffix(strings.Repeat("1,", 5000), ",") +
		"]\n  copies: [" + strings.TrimSuffix(strings.Repeat("*big, ", 30), ", ") + "]\nstages: [{id: p, plugin: {name: x, args: {a: *big, b: *big, c: *big, d: *big, e: *big, f: *big, g: *big, h: *big, i: *big, j: *big, k: *big, l: *big, m: *big, n: *big, o: *big, p: *big, q: *big, r: *big, s: *big, t: *big, u: *big}}}]\n")
	for _, c := range []struct {
		name string
		src  []byte
	}{{"deep-100KB", deep}, {"long-key", []byte(long.String())}, {"fat-alias", fat}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("c.yaml", c.src); err == nil {
					b.Fatal("loaded")
				}
			}
		})
	}
}
