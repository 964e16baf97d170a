package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/gate"
	"github.com/openrunbook/runbook/internal/golden"
	"github.com/openrunbook/runbook/record"
)

// A verdict row that rests on what the run did not judge — a script of
// its own foreach item that gave no answer, a rule its decision could not
// evaluate — read as its word: the run was UNKNOWN and Not sure, but the
// row of a host ssh never reached said `OK gone: ok`, `| gone | ok |` and
// {"subject": "gone", "verdict": "ok"} with nothing on it
// (testdata/wave-fleet's design question). Each chart of
// testdata/wave-rows runs for real here, its scripts real processes.

// rowsRun runs `runbook exec chart.yaml args…` in testdata/wave-rows/name.
func rowsRun(t *testing.T, name string, args ...string) result {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "wave-rows", name))
	if err != nil {
		t.Fatal(err)
	}
	return runCLI(t, dir, append([]string{"exec", "chart.yaml"}, args...)...)
}

// rowsGolden checks out against testdata/wave-rows/name/file.
func rowsGolden(t *testing.T, name, file, out string) {
	t.Helper()
	golden.Check(t, filepath.Join("..", "..", "testdata", "wave-rows", name, file), []byte(out))
}

// verdictsOf reads --format json's verdicts, rows as raw objects (their
// keys exactly as written).
func verdictsOf(t *testing.T, stdout string) (rows []map[string]any, vs map[string]any) {
	t.Helper()
	var out struct {
		Verdicts map[string]any `json:"verdicts"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, r := range out.Verdicts["rows"].([]any) {
		rows = append(rows, r.(map[string]any))
	}
	return rows, out.Verdicts
}

const threeHosts = `hosts=["web1","gone","down"]`

// TestRowOfAnUnreachedHostIsNotJudged: a foreach item whose script exited
// 255 (ssh over a closed port) left state.status absent, the rule reading
// it erred, and the default wrote "ok". The row is marked in the JSON
// (verdicts.unjudgedRows, the row's own keys as the chart wrote them), in
// the table (its verdict cell) with a line under it, and its Nagios line
// is UNKNOWN with why; web1's and down's rows are as they were.
func TestRowOfAnUnreachedHostIsNotJudged(t *testing.T) {
	t.Parallel()
	r := rowsRun(t, "unreached", "--input", threeHosts, "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	rows, vs := verdictsOf(t, r.stdout)
	want := []map[string]any{{"subject": "web1", "verdict": "ok"}, {"subject": "gone", "verdict": "ok"}, {"subject": "down", "verdict": "stopped"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows are not what the chart wrote: %v", rows)
	}
	wantUn := []any{map[string]any{"row": 1.0, "subject": "gone", "why": []any{
		"script per-host~1/state completed with failure, exit 255",
		`rule 1 ("No such process on the host") of decider State could not be evaluated`,
	}}}
	if !reflect.DeepEqual(vs["unjudgedRows"], wantUn) {
		t.Errorf("verdicts.unjudgedRows: %v\nwant %v", vs["unjudgedRows"], wantUn)
	}
	if !strings.Contains(vs["table"].(string), "| gone | ok (not judged) |\n| down | stopped |") {
		t.Errorf("the table does not mark gone's row alone:\n%s", vs["table"])
	}

	text := rowsRun(t, "unreached", "--input", threeHosts)
	rowsGolden(t, "unreached", "text.golden", text.stdout)
	if !strings.Contains(text.stdout, "| gone | ok (not judged) |\n| down | stopped |\nrow 2 (gone) is not judged: script per-host~1/state completed with failure, exit 255;") {
		t.Errorf("text output:\n%s", text.stdout)
	}
	md := rowsRun(t, "unreached", "--input", threeHosts, "-o", "markdown")
	if !strings.Contains(md.stdout, "\n- row 2 (gone) is not judged: script per-host~1/state") {
		t.Errorf("markdown output:\n%s", md.stdout)
	}

	ng := rowsRun(t, "unreached", "--input", threeHosts, "-o", "nagios")
	rowsGolden(t, "unreached", "nagios.golden", ng.stdout)
	if ng.code != 2 {
		t.Errorf("nagios exit %d, want 2 (down is stopped: critical)", ng.code)
	}
	for _, l := range []string{
		"\nOK web1: ok\n",
		"\nUNKNOWN gone: ok (not judged: script per-host~1/state completed with failure, exit 255; rule 1 (\"No such process on the host\") of decider State could not be evaluated)\n",
		"\nCRITICAL down: stopped\n",
	} {
		if !strings.Contains(ng.stdout, l) {
			t.Errorf("nagios long text lacks %q:\n%s", l, ng.stdout)
		}
	}
}

// TestRowDecidedPastARuleErrorIsNotJudged: no script failed; one item's
// rss was a text ("50 kB"), its rule could not compare it with 100000,
// and the default wrote "ok". That row alone is marked, with the rule.
func TestRowDecidedPastARuleErrorIsNotJudged(t *testing.T) {
	t.Parallel()
	procs := `procs=[{"name":"sshd","rss":4000},{"name":"java","rss":"50 kB"},{"name":"db","rss":200000}]`
	r := rowsRun(t, "rule-error", "--input", procs, "-o", "json")
	_, vs := verdictsOf(t, r.stdout)
	want := []any{map[string]any{"row": 1.0, "subject": "java", "why": []any{
		`rule 1 ("Over 100 MB resident") of decider Memory could not be evaluated`,
	}}}
	if !reflect.DeepEqual(vs["unjudgedRows"], want) {
		t.Errorf("verdicts.unjudgedRows: %v\nwant %v", vs["unjudgedRows"], want)
	}
	text := rowsRun(t, "rule-error", "--input", procs)
	rowsGolden(t, "rule-error", "text.golden", text.stdout)
	ng := rowsRun(t, "rule-error", "--input", procs, "-o", "nagios")
	if !strings.Contains(ng.stdout, "\nOK sshd: ok\nUNKNOWN java: ok (not judged: rule 1 (\"Over 100 MB resident\") of decider Memory could not be evaluated)\nWARNING db: warning\n") {
		t.Errorf("nagios:\n%s", ng.stdout)
	}
}

// TestRowRestingOnARootStageItReadIsNotJudged: two checks of one host at
// the chart's top level, each its own script and decider. The kernel
// script failed (exit 3, no declared answer); the decision that wrote the
// kernel row read it, so that row is marked; the load row rests on its
// own script, which answered, and is not.
func TestRowRestingOnARootStageItReadIsNotJudged(t *testing.T) {
	t.Parallel()
	ng := rowsRun(t, "root", "-o", "nagios")
	rowsGolden(t, "root", "nagios.golden", ng.stdout)
	if !strings.Contains(ng.stdout, "\nUNKNOWN kernel: ok (not judged: script kernel completed with failure, exit 3)\nOK load: ok\n") {
		t.Errorf("nagios:\n%s", ng.stdout)
	}
}

// TestRowsRestingOnNothingFailedAreUnmarked: every host answered: no
// row is marked, the record has no unjudgedRows, the table and the
// Nagios lines are as they always were.
func TestRowsRestingOnNothingFailedAreUnmarked(t *testing.T) {
	t.Parallel()
	hosts := `hosts=["web1","down"]`
	r := rowsRun(t, "unreached", "--input", hosts, "-o", "json")
	if _, vs := verdictsOf(t, r.stdout); vs["unjudgedRows"] != nil || vs["unjudgedNotShown"] != nil || strings.Contains(vs["table"].(string), "not judged") {
		t.Errorf("rows marked where nothing failed: %v", vs)
	}
	ng := rowsRun(t, "unreached", "--input", hosts, "-o", "nagios")
	if want := "rows-unreached CRITICAL - 1 stopped (down), 1 ok | stopped=1;;;0 ok=1;;;0\nOK web1: ok\nCRITICAL down: stopped\n"; !strings.HasPrefix(ng.stdout, want) {
		t.Errorf("nagios:\n%s\nwant it to begin\n%s", ng.stdout, want)
	}
}

// TestUnjudgedRowPastTheCapIsCounted: the one-number law keeps rows past
// maxRows out of rows and the table; a marked row among them is counted
// (verdicts.unjudgedNotShown) and said beside "N of M rows shown".
func TestUnjudgedRowPastTheCapIsCounted(t *testing.T) {
	t.Parallel()
	hosts := `hosts=["web1","gone"]`
	r := rowsRun(t, "unreached", "--input", hosts, "--max-rows", "1", "-o", "json")
	if _, vs := verdictsOf(t, r.stdout); vs["unjudgedRows"] != nil || vs["unjudgedNotShown"] != 1.0 {
		t.Errorf("unjudgedRows %v, unjudgedNotShown %v; want none and 1", vs["unjudgedRows"], vs["unjudgedNotShown"])
	}
	text := rowsRun(t, "unreached", "--input", hosts, "--max-rows", "1")
	if want := "1 of 2 rows shown; not shown: 1 ok (1 of them not judged: it rests on what the run did not judge)\n"; !strings.Contains(text.stdout, want) {
		t.Errorf("text:\n%s\nwant %q", text.stdout, want)
	}
}

// TestMCPTextSaysWhichRowsAreNotJudged: an MCP tool call's text block
// shows the marked table and the line under it; under presentation:
// panel, which ships no table, the line still says which row.
func TestMCPTextSaysWhichRowsAreNotJudged(t *testing.T) {
	t.Parallel()
	r := rowsRun(t, "unreached", "--input", threeHosts, "-o", "json")
	var rec record.Record
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
		t.Fatal(err)
	}
	line := "row 2 (gone) is not judged: script per-host~1/state completed with failure, exit 255"
	if got := mcpText(&rec, "run-1", 0, nil, nil, "", "", nil); !strings.Contains(got, "| gone | ok (not judged) |\n| down | stopped |\n"+line) {
		t.Errorf("prose:\n%s", got)
	}
	rec.Verdicts.Table, rec.Verdicts.RenderNote = "", record.PanelNote
	if got := mcpText(&rec, "run-1", 0, nil, nil, "", "", nil); !strings.Contains(got, line) || strings.Contains(got, "| gone |") {
		t.Errorf("panel:\n%s", got)
	}
}

// TestRowOfAHostSSHNeverReachedIsNotJudged: wave-fleet's service chart,
// as the design question reproduced it, over real ssh to a port nothing
// listens on: ssh exits 255 and the host's row is UNKNOWN, not OK.
func TestRowOfAHostSSHNeverReachedIsNotJudged(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh on this machine")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ssh_config")
	// Port 1 (tcpmux) listens on no machine this runs on: refused at once.
	if err := os.WriteFile(cfg, []byte("Host gone\n  HostName 127.0.0.1\n  Port 1\n  UserKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	chart, err := filepath.Abs(filepath.Join("..", "..", "testdata", "wave-fleet", "service", "chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "exec", chart, "--input", `hosts=["gone"]`, "--input", "sshConfig="+cfg, "-o", "nagios")
	if r.code != 3 || !strings.Contains(r.stdout, "\nUNKNOWN gone: ok (not judged: script per-host~0/state completed with failure, exit 255") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestNagiosSummarySaysWhichOkRowsAreNotJudged: the first line counted
// a row that rests on nothing under its word, `UNKNOWN - 2 scripts gave
// no answer (…), 3 ok`, three hosts judged healthy to a reader of the
// line alone; it names the OK rows not judged, and counts those past the
// rows shown.
func TestNagiosSummarySaysWhichOkRowsAreNotJudged(t *testing.T) {
	row := func(s, v string) record.Row {
		return record.Row{Values: map[string]any{"subject": s, "verdict": v}}
	}
	rec := &record.Record{Verdicts: &record.VerdictSet{
		Rows:             []record.Row{row("web1", "ok"), row("gone", "ok"), row("hang", "ok"), row("db", "critical")},
		UnjudgedRows:     []record.UnjudgedRow{{Row: 1, Subject: "gone"}, {Row: 2, Subject: "hang"}, {Row: 3, Subject: "db"}},
		UnjudgedNotShown: 2,
	}}
	c := gate.Check{State: gate.Critical, Words: []gate.Word{
		{Word: "critical", State: gate.Critical, Rows: 1, Subjects: []string{"db"}},
		{Word: "ok", State: gate.OK, Rows: 3, Subjects: []string{"web1", "gone", "hang"}},
	}}
	got := strings.Join(wordCounts(c, rec), ", ")
	if want := "1 critical (db), 3 ok (2 not judged: gone, hang), 2 rows past the rows shown not judged"; got != want {
		t.Fatalf("summary counts %q, want %q", got, want)
	}
}

// TestRowsBuiltFromAListingNotJudgedWholeAreNotJudged: lvs out of reach of
// device-mapper prints every volume from the metadata alone, health blank,
// exit 0, and says so on stderr. The run was Not sure and UNKNOWN, but
// each volume's row said `ok` with nothing on it, and so did a row
// decided on a count a set: stage made from the listing: a top-level
// stage marked only the rows whose stages read it themselves, and these
// read it through a foreach's item and a set: key (wave-lvm's and
// wave-haproxy's design questions). Now they are marked; the load row,
// which read nothing of the listing, is not.
func TestRowsBuiltFromAListingNotJudgedWholeAreNotJudged(t *testing.T) {
	t.Parallel()
	text := rowsRun(t, "listing")
	rowsGolden(t, "listing", "text.golden", text.stdout)
	for _, want := range []string{"| root | ok (not judged) |\n| home | ok (not judged) |\n| blank health | warning (not judged) |\n| load | ok |\n", "row 1 (root) is not judged: lvs did not check its output\n", "row 3 (blank health) is not judged: lvs did not check its output\n"} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text:\n%s\nwant %q", text.stdout, want)
		}
	}
	_, vs := verdictsOf(t, rowsRun(t, "listing", "-o", "json").stdout)
	var subjects []any
	us, _ := vs["unjudgedRows"].([]any)
	for _, u := range us {
		subjects = append(subjects, u.(map[string]any)["subject"])
	}
	if want := []any{"root", "home", "blank health"}; !reflect.DeepEqual(subjects, want) {
		t.Errorf("unjudgedRows of %v, want %v", subjects, want)
	}
	// the listing whole: no row is marked
	if _, vs := verdictsOf(t, rowsRun(t, "listing", "--input", "health=partial", "-o", "json").stdout); vs["unjudgedRows"] != nil {
		t.Errorf("rows marked over a whole listing: %v", vs["unjudgedRows"])
	}
}

// TestRowMadeOfRowsNotJudgedIsNotJudged: a cluster check wrote each
// node's role (pg_is_in_recovery()), then a row of its own made from
// those rows, how many said primary. The old primary refused the
// connection, its row was marked not judged, and the cluster row said
// `one-primary` unmarked, as sure as on a run that reached both nodes,
// though the node it could not reach may still take writes (split
// brain). A row made from the verdict rows rests on each of them: one
// not judged leaves it not judged too (testdata/wave-rows/tally,
// wave-pgrepl).
func TestRowMadeOfRowsNotJudgedIsNotJudged(t *testing.T) {
	t.Parallel()
	text := rowsRun(t, "tally")
	for _, want := range []string{"| a | neither (not judged) |\n| b | primary |\n| cluster | one-primary (not judged) |\n", "row 3 (cluster) is not judged: row 1 (a), which it was made from, is not judged\n"} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text:\n%s\nwant %q", text.stdout, want)
		}
	}
	// both nodes reached: no row is marked
	if _, vs := verdictsOf(t, rowsRun(t, "tally", "--input", "reach=true", "-o", "json").stdout); vs["unjudgedRows"] != nil {
		t.Errorf("rows marked over a run that reached every node: %v", vs["unjudgedRows"])
	}
}
