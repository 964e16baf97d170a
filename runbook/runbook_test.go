package runbook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/record"

	"github.com/openrunbook/runbook/chart"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// postureYAML and postureGo are the same runbook, written both ways.
const postureYAML = `version: 1
runbook: posture
inputs:
  volumes: {type: list, required: true}
  window: {type: string, default: "2h"}
result:
  kind: verdict/posture
  decider: Protection posture
  maxRows: 50
stages:
  - id: per-volume
    foreach:
      items: volumes
      as: volume
      maxBranches: 100
      stages:
        - id: posture
          name: Protection posture
          decide:
            rules:
              - {when: volume.replicas < 1, then: unprotected, label: No replica}
              - {when: {volume.used: {gt: 90}}, then: at-risk, label: Nearly full}
            default: {branch: declined, label: No rule reached a verdict}
          branches:
            unprotected: [{id: mark-u, verdict: {subject: volume.name, verdict: '"unprotected"'}}]
            at-risk:
              description: Less than a tenth is free
              stages: [{id: mark-r, verdict: {subject: volume.name, verdict: '"at-risk"'}}]
            declined: [{id: mark-d, verdict: {subject: volume.name, verdict: '"declined"'}}]
`

func postureGo(t *testing.T) *runbook.Runbook {
	t.Helper()
	row := func(v string) *flow.Builder {
		return flow.Seq().Stage("mark-"+v[:1], func(ctx context.Context, s *flow.Scope) error {
			vol := s.Value("volume").(map[string]any)
			rows, _ := s.Value(runbook.VerdictsKey).([]any)
			s.Set(runbook.VerdictsKey, append(append([]any{}, rows...), map[string]any{"subject": vol["name"], "verdict": v}))
			return nil
		})
	}
	body := flow.Seq().Decide("posture", []decide.Rule{
		{When: rules.MustCompile("volume.replicas < 1"), Then: "unprotected", Label: "No replica"},
		{When: rules.MustFilter(rules.Where("volume.used", rules.OpGt, 90)), Then: "at-risk", Label: "Nearly full"},
	}, decide.Default{Branch: "declined", Label: "No rule reached a verdict"}, []flow.Branch{
		{Name: "unprotected", Steps: row("unprotected")},
		{Name: "at-risk", Description: "Less than a tenth is free", Steps: row("at-risk")},
		{Name: "declined", Steps: row("declined")},
	}, flow.Name("Protection posture"))
	fc, err := flow.New("posture").ForEach("per-volume", flow.ForEach{
		Items: flow.ItemsOf(rules.MustCompile("volumes")), As: "volume", MaxBranches: 100, Body: body,
	}).Build()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.New(fc,
		runbook.WithInputs(chart.InputSpec{Name: "volumes", Type: "list", Required: true}, chart.InputSpec{Name: "window", Type: "string", Default: "2h", HasDefault: true}),
		runbook.WithResult(chart.ResultSpec{Kind: "verdict/posture", Decider: "Protection posture"}),
		runbook.WithColumns("subject", "verdict"))
	if err != nil {
		t.Fatal(err)
	}
	return rb
}

func parse(t *testing.T, src string) *runbook.Runbook {
	t.Helper()
	spec, err := chart.Parse("chart.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return rb
}

func volumes() []any {
	return []any{
		map[string]any{"name": "vol-0", "replicas": 0, "used": 10},
		map[string]any{"name": "vol-1", "replicas": 2, "used": 95},
		map[string]any{"name": "vol-2", "replicas": 2, "used": 10},
	}
}

func exec(t *testing.T, rb *runbook.Runbook, given map[string]any, opts ...runbook.ExecOption) *record.Record {
	t.Helper()
	res, err := rb.Exec(context.Background(), given, opts...)
	if err != nil {
		t.Fatalf("exec: %v", err)
	}
	return res.Record
}

func TestYAMLAndGoRunbooksGiveTheSameRecord(t *testing.T) {
	in := map[string]any{"volumes": volumes()}
	recs := map[string]*record.Record{"yaml": exec(t, parse(t, postureYAML), in), "go": exec(t, postureGo(t), in)}
	for name, rec := range recs {
		t.Run(name, func(t *testing.T) {
			if rec.Status != "completed" {
				t.Fatalf("status %s: %+v", rec.Status, rec.Error)
			}
			v := rec.Verdicts
			table := "| subject | verdict |\n|---|---|\n| vol-0 | unprotected |\n| vol-1 | at-risk |\n| vol-2 | declined |"
			if v.Table != table {
				t.Errorf("table =\n%s\nwant\n%s", v.Table, table)
			}
			want := map[string]string{"unprotected": "No replica", "at-risk": "Nearly full", "declined": "No rule reached a verdict"}
			if !reflect.DeepEqual(v.Meanings, want) {
				t.Errorf("meanings = %v", v.Meanings)
			}
			if v.Declined != 1 || v.RowsTotal != 3 || !v.RowsComplete {
				t.Errorf("verdicts = %+v", v)
			}
			if len(rec.Decisions) != 3 || rec.Decisions[1].Path != "per-volume~1/posture" || rec.Decisions[1].Decider != "per-volume~1/Protection posture" {
				t.Errorf("decisions = %+v", rec.Decisions)
			}
			last := rec.Coverage[len(rec.Coverage)-1]
			if len(last.NotChecked) != 1 || !strings.Contains(last.NotChecked[0].What, "1 verdict row was declined") {
				t.Errorf("declined rows not in the ledger: %+v", rec.Coverage)
			}
			a := rec.Assessment
			// window's default fills the input, but no stage reads it: it
			// was assumed by no rule, so the line does not say it was.
			if a == nil || a.Standing != "not-sure" || strings.Contains(a.Line, "window") {
				t.Errorf("assessment = %+v", a)
			}
			if rec.Inputs.Assumed["window"] != "2h" {
				t.Errorf("inputs = %+v", rec.Inputs)
			}
		})
	}
	a, _ := json.Marshal(recs["yaml"].Verdicts)
	b, _ := json.Marshal(recs["go"].Verdicts)
	if string(a) != string(b) {
		t.Errorf("verdicts differ:\nyaml %s\ngo   %s", a, b)
	}
}

func TestOneNumberLawAndPresentations(t *testing.T) {
	src := strings.Replace(postureYAML, "maxRows: 50", "maxRows: 2", 1)
	rec := exec(t, parse(t, src), map[string]any{"volumes": volumes()})
	v := rec.Verdicts
	if len(v.Rows) != 2 || v.RowsShown != 2 || v.RowsTotal != 3 || v.RowsComplete {
		t.Fatalf("verdicts = %+v", v)
	}
	if strings.Count(v.Table, "\n") != 3 {
		t.Errorf("table shows other rows than the list:\n%s", v.Table)
	}
	if v.Declined != 1 {
		t.Errorf("declined counted over shown rows only: %d", v.Declined)
	}
	rec = exec(t, parse(t, strings.Replace(src, "maxRows: 2", "maxRows: 2\n  presentation: panel", 1)), map[string]any{"volumes": volumes()})
	if rec.Verdicts.Table != "" || rec.Verdicts.RenderNote != record.PanelNote || len(rec.Verdicts.Rows) != 2 {
		t.Errorf("panel = %+v", rec.Verdicts)
	}
	rec = exec(t, parse(t, src), map[string]any{"volumes": []any{}})
	if rec.Verdicts.Table != record.EmptySet || rec.Verdicts.Meanings == nil {
		t.Errorf("empty = %+v", rec.Verdicts)
	}
}

func TestRenderTableLaw(t *testing.T) {
	rows := []record.Row{
		{Keys: []string{"subject", "verdict", "ok", "note"}, Values: map[string]any{"subject": "a|b", "verdict": "", "ok": true, "note": "line\nbreak"}},
		{Keys: []string{"subject", "extra"}, Values: map[string]any{"subject": nil, "extra": 1, "ok": false}},
	}
	want := "| subject | verdict | ok | note |\n|---|---|---|---|\n| a\\|b | — | yes | line break |\n| — | — | no | — |"
	if got := record.RenderTable(rows, nil); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

const execYAML = `version: 1
runbook: scripts
stages:
  - {id: fails, exec: {shell: "echo partial; echo oops >&2; exit 7", into: f}}
  - {id: missing, exec: {command: [no-such-command-xyz], into: m}}
  - {id: slow, exec: {command: [sleep, "5"], timeout: 100ms, into: s}}
  - {id: killed, exec: {shell: "kill -9 $$", into: k}}
  - {id: huge, exec: {shell: "head -c 3000000 /dev/zero", into: h}}
  - {id: binary, exec: {shell: "printf 'ok\\377'", into: b}}
  - {id: stdin, exec: {command: [cat], into: c}}
  - {id: after, set: {reached: "true"}}
`

func TestExecOutcomesAreOutcomesNotCrashes(t *testing.T) {
	rec := exec(t, parse(t, execYAML), nil)
	if rec.Status != "completed" || rec.State["reached"] != true {
		t.Fatalf("status %s state %v", rec.Status, rec.State)
	}
	want := map[string]label.Label{"fails": label.CompletedWithFailure, "missing": label.OutcomeUnknown, "slow": label.OutcomeUnknown,
		"killed": label.ReportedFailure, "huge": label.Completed, "binary": label.Completed, "stdin": label.Completed}
	for _, r := range rec.Scripts {
		if want[r.Path] != r.Label {
			t.Errorf("%s: label %s, want %s", r.Path, r.Label, want[r.Path])
		}
	}
	if len(rec.Scripts) != len(want) {
		t.Errorf("scripts = %+v", rec.Scripts)
	}
	f := rec.State["f"].(map[string]any)
	if f["exitCode"] != 7 || f["ok"] != false || f["stdout"] != "partial\n" || f["stderr"] != "oops\n" {
		t.Errorf("f = %v", f)
	}
	if rec.Scripts[0].Words != "completed with failure, exit 7" {
		t.Errorf("words = %q", rec.Scripts[0].Words)
	}
	if m := rec.State["m"].(map[string]any); m["error"] == nil || m["exitCode"] != nil {
		t.Errorf("m = %v", m)
	}
	if s := rec.State["s"].(map[string]any); s["timedOut"] != true {
		t.Errorf("s = %v", s)
	}
	h := rec.State["h"].(map[string]any)
	if h["stdout"] != nil || h["withheld"] == nil || !rec.Scripts[4].ResultWithheld {
		t.Errorf("huge output not withheld: %v %+v", h["withheld"], rec.Scripts[4])
	}
	if b := rec.State["b"].(map[string]any); b["stdout"] != "ok\uFFFD" {
		t.Errorf("b = %q", b["stdout"])
	}
	if !strings.Contains(rec.Assessment.Line, "completed with failure, exit 7") {
		t.Errorf("line = %q", rec.Assessment.Line)
	}
}

const absenceYAML = `version: 1
runbook: logscan
stages:
  - id: scan
    name: Scan the log
    exec:
      parse: json
      into: scan
      shell: |
        echo '{"af_absent": true, "looked_for": "errors in app.log", "checked": [{"what": "app.log", "short": "log"}], "not_checked": ["rotated logs"]}'
`

func TestAbsenceIsAnAnswerOnTheLedger(t *testing.T) {
	rec := exec(t, parse(t, absenceYAML), nil)
	if len(rec.Coverage) != 1 || rec.Coverage[0].Kind != "absence" || rec.Coverage[0].Path != "scan" || rec.Coverage[0].Checked[0].Short != "log" {
		t.Fatalf("coverage = %+v", rec.Coverage)
	}
	served := rec.State["scan"].(map[string]any)["stdout"].(map[string]any)
	if item := served["checked"].([]any)[0].(map[string]any); item["short"] != nil {
		t.Errorf("record-only key served to the scope: %v", item)
	}
	if !strings.Contains(rec.Assessment.Line, "Scan the log") || rec.Assessment.Standing != "not-sure" {
		t.Errorf("assessment = %+v", rec.Assessment)
	}
}

func TestInputsRefusedBeforeAnyStage(t *testing.T) {
	rb := parse(t, `version: 1
runbook: in
inputs:
  host: {type: string, required: true}
  n: {type: number}
stages:
  - {id: touch, exec: {command: [touch, marker]}}
`)
	for _, tc := range []struct {
		given map[string]any
		want  string
	}{
		{map[string]any{}, `input "host": is required`},
		{map[string]any{"host": "a", "nope": 1}, `input "nope": is not an input of in (inputs: host, n)`},
		{map[string]any{"host": "a", "n": "many"}, `input "n": is not a number: "many"`},
	} {
		_, err := rb.Exec(context.Background(), tc.given)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("given %v: err = %v, want %q", tc.given, err, tc.want)
		}
	}
	rec := exec(t, rb, map[string]any{"host": "a", "n": "5"})
	if rec.Inputs.Given["n"] != 5 {
		t.Errorf("--input n=5 gave %v", rec.Inputs.Given["n"])
	}
	os.Remove("marker")
}

func TestSecretsNeverInTheRecord(t *testing.T) {
	const secret = "s3cr3t-value-42"
	rb := parse(t, `version: 1
runbook: secret
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - {id: echo, exec: {shell: "echo s3cr3t-value-42", into: out}}
  - {id: copy, set: {derived: 'token + "!"'}}
  - id: check
    decide:
      rules: [{when: {token: {eq: "nope"}}, then: a, label: never}]
      default: b
    branches: {a: [], b: []}
`)
	res, err := rb.Exec(context.Background(), map[string]any{"token": secret}, runbook.WithNarrative())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.json")
	if err := res.WriteRecord(path); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	out, _ := json.Marshal(res.Record)
	for name, b := range map[string][]byte{"record": out, "saved": saved} {
		if strings.Contains(string(b), secret) {
			t.Errorf("%s holds the secret: %s", name, b)
		}
	}
	if !strings.Contains(string(saved), `"recordVersion": 2`) {
		t.Error("saved record has no version")
	}
}

func TestFailStageAndPause(t *testing.T) {
	rec := exec(t, parse(t, `version: 1
runbook: f
stages:
  - {id: boom, fail: '"disk not found"'}
`), nil)
	if rec.Status != "failed" || rec.Error.Stage != "boom" || rec.Error.Message != "disk not found" {
		t.Errorf("record = %s %+v", rec.Status, rec.Error)
	}
	rec = exec(t, parse(t, `version: 1
runbook: a
stages:
  - {id: approve, ask: {question: '"Restart db-1?"', expects: {ok: bool}}}
  - {id: act, set: {acted: ok}}
`), nil)
	if rec.Status != "paused" || rec.Pause.Question != "Restart db-1?" || rec.Assessment.Standing != "ask" {
		t.Errorf("paused record = %s %+v %+v", rec.Status, rec.Pause, rec.Assessment)
	}
}

func TestRecordPath(t *testing.T) {
	for in, want := range map[string]string{"a#0": "a", "per~3/posture#12": "per~3/posture", "x": "x", "a#1/b": "a#1/b"} {
		if got := runbook.RecordPath(in); got != want {
			t.Errorf("RecordPath(%q) = %q, want %q", in, got, want)
		}
	}
	_ = fmt.Sprint
}
