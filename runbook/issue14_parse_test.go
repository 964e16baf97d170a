package runbook_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/record"
)

// parseChart is a verdict chart over a real command's table, read with
// parse: columns: one row per line of the table.
func parseChart(table string) string {
	return `version: 1
runbook: unparsed
result: {kind: verdict/level, decider: level, checks: ['len(verdicts) == len(df.stdout)']}
stages:
  - id: df
    exec: {command: [printf, '` + table + `'], parse: columns}
  - id: per
    foreach:
      items: df.stdout
      as: v
      maxBranches: 10
      stages:
        - id: level
          decide: {rules: [{when: v.use >= 90, then: high, label: Used 90 or more}], default: {branch: ok, label: Under 90}}
          branches:
            high: [{id: h, verdict: {subject: v.mount, verdict: '"high"'}}]
            ok: [{id: o, verdict: {subject: v.mount, verdict: '"ok"'}}]
`
}

func unparsedItems(rec *record.Record) []string {
	var out []string
	for _, e := range rec.Coverage {
		for _, it := range e.NotChecked {
			if it.Kind == record.ItemUnparsed {
				out = append(out, e.Path+": "+it.What+": "+it.Why)
			}
		}
	}
	return out
}

// TestIssue14ParseProblemsAreACoverageGap: a line parse: cannot read is
// counted on into.parseProblems, filed on the ledger as an unparsed item,
// and makes the standing a coverage gap — the same chart over a table it
// reads whole stands as Known.
func TestIssue14ParseProblemsAreACoverageGap(t *testing.T) {
	t.Parallel()
	whole := run14(t, parse(t, parseChart(`mount use\n/ 10\n/data 95\n`)), nil)
	if whole.Status != "completed" || whole.Assessment == nil || whole.Assessment.Standing != "known" {
		t.Fatalf("the whole table: status %s assessment %+v; want completed and Known", whole.Status, whole.Assessment)
	}
	if df := whole.State["df"].(map[string]any); df["parseProblems"] != nil {
		t.Errorf("the whole table has parseProblems %v", df["parseProblems"])
	}
	if got := unparsedItems(whole); len(got) != 0 {
		t.Errorf("the whole table has unparsed items %v", got)
	}

	rec := run14(t, parse(t, parseChart(`mount use\n/ 10\n/broken\n/data 95\n/x 1 2\n`)), nil)
	df := rec.State["df"].(map[string]any)
	pp, _ := df["parseProblems"].(map[string]any)
	if pp["count"] != 2 || pp["first"] != `line 3: 1 field, the table has 2 columns: "/broken"` {
		t.Errorf("parseProblems = %v; want {count: 2, first: line 3 …}", df["parseProblems"])
	}
	if rows, _ := df["stdout"].([]any); len(rows) != 2 {
		t.Errorf("stdout = %v; want the 2 rows that read", df["stdout"])
	}
	items := unparsedItems(rec)
	if len(items) != 1 || !strings.HasPrefix(items[0], "df: 2 lines of its output: parse: columns could not read them") || !strings.Contains(items[0], `"/broken"`) {
		t.Errorf("unparsed items = %q", items)
	}
	a := rec.Assessment
	if a == nil || a.Standing == "known" || !slices.Contains(a.Reasons, assessment.Reason("coverage-gap")) {
		t.Fatalf("assessment %+v; want not Known, for a coverage gap", a)
	}
	if !strings.Contains(strings.Join(rec.Warnings, "\n"), "parse: columns could not read 2 lines of its output") {
		t.Errorf("warnings %q do not say so", rec.Warnings)
	}
}

// TestIssue14ReadParsesThroughTheSameHome: read: parses a file with the
// same parsers and options, and a line it cannot read is a problem of
// that file.
func TestIssue14ReadParsesThroughTheSameHome(t *testing.T) {
	t.Parallel()
	rb, _ := open14(t, `version: 1
runbook: readkv
stages:
  - id: mem
    read: {path: '"meminfo"', parse: kv}
  - id: release
    read: {path: '"os-release"', parse: {as: kv, trim: "\""}}
  - {id: use, set: {kb: 'int(split(mem.content.MemAvailable, " ")[0])'}}
`, map[string]string{
		"meminfo":    "MemTotal:       16318412 kB\nMemAvailable:    8000000 kB\nHugePages_Total:       0\nnot a pair\n",
		"os-release": "# a comment\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n",
	})
	rec := run14(t, rb, nil)
	if rec.Status != "completed" || rec.State["kb"] != 8000000 {
		t.Fatalf("status %s error %+v kb %v", rec.Status, rec.Error, rec.State["kb"])
	}
	mem := rec.State["mem"].(map[string]any)
	if c := mem["content"].(map[string]any); c["HugePages_Total"] != 0 || c["MemTotal"] != "16318412 kB" {
		t.Errorf("mem content = %v", c)
	}
	if pp, _ := mem["parseProblems"].(map[string]any); pp["count"] != 1 || !strings.Contains(pp["first"].(string), `line 4`) {
		t.Errorf("mem parseProblems = %v", mem["parseProblems"])
	}
	if c := rec.State["release"].(map[string]any)["content"].(map[string]any); c["NAME"] != "Debian GNU/Linux" || c["VERSION_ID"] != 12 {
		t.Errorf("release content = %v", c)
	}
	if items := unparsedItems(rec); len(items) != 1 || !strings.HasPrefix(items[0], "mem: 1 line of the file meminfo: parse: kv could not read it") {
		t.Errorf("unparsed items = %q", items)
	}
}

// TestIssue19JSONTrailingDataIsAProblem (issue #19): `parse: json` over
// output holding one JSON value and then another must not keep the first
// in silence — `{"ok": true}` would hide the failure that followed. The
// output is kept as text, with parseError and parseProblems saying why,
// and the ledger has it as unparsed.
func TestIssue19JSONTrailingDataIsAProblem(t *testing.T) {
	t.Parallel()
	const out = `{"ok": true} {"ok": false, "error": "disk failing"}`
	rec := run14(t, parse(t, `version: 1
runbook: trailing
stages:
  - id: health
    exec: {command: [printf, '%s', '`+out+`'], parse: json}
`), nil)
	h := rec.State["health"].(map[string]any)
	if h["stdout"] != out {
		t.Errorf("stdout = %#v; want the text as it is, not the first value", h["stdout"])
	}
	if pe, _ := h["parseError"].(string); !strings.Contains(pe, "2 JSON values one after another") {
		t.Errorf("parseError = %q", h["parseError"])
	}
	if pp, _ := h["parseProblems"].(map[string]any); pp["count"] != 1 {
		t.Errorf("parseProblems = %v", h["parseProblems"])
	}
	if items := unparsedItems(rec); len(items) != 1 {
		t.Errorf("unparsed items = %q", items)
	}
}

// TestIssue14ParseFunctionInAChart: parse(text, mode) loads in a chart
// (the name check knows it), gives the parsed value, and a rule calling it
// over a text with an unreadable line is a rule error on the record.
func TestIssue14ParseFunctionInAChart(t *testing.T) {
	t.Parallel()
	rec := run14(t, parse(t, `version: 1
runbook: parsefn
stages:
  - id: raw
    exec: {command: [printf, 'a=1\nb=2\n']}
  - {id: use, set: {b: 'parse(raw.stdout, "kv").b', bad: '"a=1\nnope"'}}
  - id: judge
    decide:
      rules: [{when: 'parse(bad, "kv").a == 1', then: yes, label: a is 1}]
      default: {branch: no, label: not known}
    branches: {yes: [{id: y, set: {r: '"yes"'}}], no: [{id: n, set: {r: '"no"'}}]}
`), nil)
	if rec.Status != "completed" || rec.State["b"] != 2 {
		t.Fatalf("status %s error %+v b %v", rec.Status, rec.Error, rec.State["b"])
	}
	errs := record.RuleErrors(rec)
	if len(errs) != 1 || !strings.Contains(errs[0].Err, `parse(text, "kv"): 1 line could not be read; the first: line 2: no separator: "nope"`) {
		t.Errorf("rule errors = %+v; want the parse problem as a rule error", errs)
	}
}
