package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Which verdict rows rest on what the run did not judge, for charts of
// testdata/wave-lineage, run for real (find, stat, sh).

// lineageRun runs `runbook exec chart.yaml args…` in
// testdata/wave-lineage/name.
func lineageRun(t *testing.T, name string, args ...string) result {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "wave-lineage", name))
	if err != nil {
		t.Fatal(err)
	}
	return runCLI(t, dir, append([]string{"exec", "chart.yaml"}, args...)...)
}

// lineageTree makes, under a new folder, the folders a (three empty
// files and a fourth that holds a byte) and b (two empty files), and
// returns it.
func lineageTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range map[string]string{"a/1": "", "a/2": "", "a/3": "", "a/4": "x", "b/1": "", "b/2": ""} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// unjudgedSubjects is the subjects of verdicts.unjudgedRows, in order.
func unjudgedSubjects(t *testing.T, vs map[string]any) []string {
	t.Helper()
	out := []string{}
	un, _ := vs["unjudgedRows"].([]any)
	for _, u := range un {
		out = append(out, u.(map[string]any)["subject"].(string))
	}
	return out
}

// TestForeachCutInsideAnItemLeavesTheItemsItRanJudged: a foreach inside
// a folder's item, cut at maxBranches (the fourth file of a is never
// statted), marked every row of the folder — the three files it did stat,
// and the folder's count read off its own whole find — `empty (not
// judged)`, while the same cut at the top level marks no item's row: a
// foreach's own gap (items it did not run, items that wrote no row, a
// null list) is of what reads its gathered value, not of the items it
// ran nor of the rows beside it. The row read off the cut list stays
// marked.
func TestForeachCutInsideAnItemLeavesTheItemsItRanJudged(t *testing.T) {
	t.Parallel()
	root := lineageTree(t)
	r := lineageRun(t, "nested-cut", "--input", "root="+root, "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	rows, vs := verdictsOf(t, r.stdout)
	if len(rows) != 9 {
		t.Fatalf("want 9 rows (a: 3 files, count, statted; b: 2 files, count, statted), got %v", rows)
	}
	want := []string{filepath.Join(root, "a") + " (statted)"}
	if got := unjudgedSubjects(t, vs); !reflect.DeepEqual(got, want) {
		t.Errorf("rows marked not judged: %q\nwant %q (the one read off the cut list)", got, want)
	}
	text := lineageRun(t, "nested-cut", "--input", "root="+root)
	if !strings.Contains(text.stdout, "| "+filepath.Join(root, "a", "1")+" | empty |\n") {
		t.Errorf("a statted file's row is marked:\n%s", text.stdout)
	}
	if !strings.Contains(text.stdout, " (statted)) is not judged: per~0/each did not check 1 of its 4 items\n") {
		t.Errorf("the row read off the cut list does not say why:\n%s", text.stdout)
	}
}

// TestRowOfASubflowGivenAListingIsNotJudgedAlike: find over two folders,
// one gone, lists the other's files, says "No such file or directory"
// of it and (|| true) exits 0. A subflow reading the chart's scope
// marked its count row `ok (not judged)`; one given the listing as its
// input (`subflow: {inputs: {names: files.stdout}}`) said `ok` with
// nothing on it: the walk stopped at the mount, whose bindings are made
// of what it read as a set: key is. A row of a third mount, given the
// limit and the listing's exit code, rests on the limit alone: its
// binding read nothing of the listing.
func TestRowOfASubflowGivenAListingIsNotJudgedAlike(t *testing.T) {
	t.Parallel()
	root := lineageTree(t)
	r := lineageRun(t, "subflow", "--input", "root="+root, "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	rows, vs := verdictsOf(t, r.stdout)
	if len(rows) != 3 {
		t.Fatalf("want 3 rows, one a subflow, got %v", rows)
	}
	want := []string{"given the listing", "reading the scope"}
	if got := unjudgedSubjects(t, vs); !reflect.DeepEqual(got, want) {
		t.Errorf("rows marked not judged: %q\nwant %q", got, want)
	}
	text := lineageRun(t, "subflow", "--input", "root="+root)
	if !strings.Contains(text.stdout, "row 1 (given the listing) is not judged: files did not check its output\n") {
		t.Errorf("the mounted subflow's row does not say why:\n%s", text.stdout)
	}
}

// TestRowOfAnItemGatheredFromAFailedScriptIsNotJudged: a foreach stats
// each path given (onError: continue, a path stat could not read kept as
// "unknown") into a list, and a second foreach judges each element of
// that list. The path that is gone read `ok` with nothing on it, and so
// did a row counting the unread paths off the list, beside a script that
// exited 1: the walk stopped at the foreach's into: list, which holds
// each item's final scope. It goes on to the writes that made each
// element, and to the item each was listed from.
func TestRowOfAnItemGatheredFromAFailedScriptIsNotJudged(t *testing.T) {
	t.Parallel()
	root := lineageTree(t)
	a, gone, b := filepath.Join(root, "a"), filepath.Join(root, "gone"), filepath.Join(root, "b")
	paths := `paths=["` + a + `","` + gone + `","` + b + `"]`
	r := lineageRun(t, "gathered", "--input", paths, "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	rows, vs := verdictsOf(t, r.stdout)
	if len(rows) != 4 {
		t.Fatalf("want 4 rows, got %v", rows)
	}
	got := unjudgedSubjects(t, vs)
	for _, want := range []string{gone, "unread paths"} {
		if !slices.Contains(got, want) {
			t.Errorf("row %q is not marked not judged: %q", want, got)
		}
	}
	text := lineageRun(t, "gathered", "--input", paths)
	if !strings.Contains(text.stdout, "| "+gone+" | ok (not judged) |\n") {
		t.Errorf("the gone path's row is not marked:\n%s", text.stdout)
	}
	if !strings.Contains(text.stdout, "is not judged: script gather~1/st completed with failure, exit 1\n") {
		t.Errorf("no row says the script it rests on:\n%s", text.stdout)
	}
}
