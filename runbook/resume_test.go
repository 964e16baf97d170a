package runbook

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
)

var answerTime = ResumeClock(func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) })

// pausedFleet is fleet.yaml paused at its ask:, read back from its JSON
// as a fresh process would.
func pausedFleet(t *testing.T) (*Runbook, *record.RunRecord) {
	t.Helper()
	rb, err := Open("testdata/explain/fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), map[string]any{"host": "h1"})
	if err != nil || res.Record.Status != "paused" {
		t.Fatalf("err %v, status %s", err, res.Record.Status)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %q", err, problems)
	}
	return rb, rec
}

// TestResumeContinuesOneLog: the answer is validated and converted, the run
// goes on from the stage after the ask with its counters continued, the
// log is one continuous log, and the chain of a value decided on the
// answer runs through the answer to the question.
func TestResumeContinuesOneLog(t *testing.T) {
	t.Parallel()
	rb, rec := pausedFleet(t)
	res, err := rb.Resume(context.Background(), rec, map[string]any{"proceed": "true", "note": "ok"}, AnsweredBy("ann"), answerTime)
	if err != nil {
		t.Fatal(err)
	}
	out := res.Record
	if out.Status != "completed" || out.State["outcome"] != "restarted ok" {
		t.Fatalf("status %s, outcome %v", out.Status, out.State["outcome"])
	}
	if len(out.Decisions) != 5 || out.Decisions[4].Path != "gate" || out.Decisions[0].Path != "pick" {
		t.Errorf("decisions = %d (%v)", len(out.Decisions), out.Decisions)
	}
	if out.Verdicts == nil || out.Verdicts.RowsTotal != 3 || len(out.Verdicts.Meanings) != 3 {
		t.Errorf("verdicts = %+v", out.Verdicts)
	}
	saved := res.RunRecord()
	for i, c := range saved.Log.Commits() {
		if c.Index != i {
			t.Fatalf("commit %d has index %d: the log is not continuous", i, c.Index)
		}
	}
	ans := saved.Log.Commits()[16]
	if ans.Path != "approve#11" || ans.Answer == nil || ans.Answer.By != "ann" || ans.Answer.Asked != "approve#10" || ans.Answer.At != "2026-01-02T03:04:05Z" {
		t.Fatalf("answer commit = %+v %+v", ans, ans.Answer)
	}
	if len(saved.Answers) != 1 || saved.Answers[0].Answers["proceed"] != true || saved.Checkpoint != nil {
		t.Errorf("answers = %+v, checkpoint %v", saved.Answers, saved.Checkpoint)
	}
	// Explain the outcome from the saved record: through the answer to
	// the question, and to the input the question read.
	b, _ := json.Marshal(saved)
	back, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %q", err, problems)
	}
	e, err := NewExplain(back, nil).Key("outcome", -1)
	if err != nil {
		t.Fatal(err)
	}
	var path []string
	var walk func(n *flow.CauseNode)
	walk = func(n *flow.CauseNode) {
		path = append(path, n.Rel+":"+n.Path+n.Key)
		for _, c := range n.Causes {
			walk(c)
		}
	}
	walk(e.Root)
	got := strings.Join(path, " ")
	for _, want := range []string{"routed:gate#12", "read:approve#11proceed", "asked:approve#10", "read:host"} {
		if !strings.Contains(got, want) {
			t.Errorf("chain %q lacks %q", got, want)
		}
	}
}

func TestResumeRefusals(t *testing.T) {
	t.Parallel()
	rb, rec := pausedFleet(t)
	tests := []struct {
		name    string
		rec     func() *record.RunRecord
		answers map[string]any
		want    string
	}{
		{"missing answer", nil, map[string]any{"proceed": true}, `"note": the question "Restart h1?" expects it`},
		{"wrong type", nil, map[string]any{"proceed": "perhaps", "note": "x"}, `"proceed": the answer is not a bool`},
		{"unknown name", nil, map[string]any{"proceed": true, "note": "x", "colour": "red"}, `"colour": is not an answer the question expects`},
		{"already resumed", func() *record.RunRecord {
			r := *rec
			r.Resumed = &record.ResumedRecord{By: "bob", At: "then", Into: "other.json"}
			return &r
		}, map[string]any{"proceed": true, "note": "x"}, "already resumed by bob"},
		{"not paused", func() *record.RunRecord {
			r := *rec
			r.Checkpoint = nil
			return &r
		}, map[string]any{"proceed": true, "note": "x"}, "only a run paused"},
		{"chart changed", func() *record.RunRecord {
			r := *rec
			r.ChartSHA256 = "sha256:" + strings.Repeat("0", 64)
			return &r
		}, map[string]any{"proceed": true, "note": "x"}, "the chart has changed"},
		{"another version", func() *record.RunRecord {
			r := *rec
			r.RecordVersion = 3
			return &r
		}, map[string]any{"proceed": true, "note": "x"}, "version 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := rec
			if tc.rec != nil {
				r = tc.rec()
			}
			_, err := rb.Resume(context.Background(), r, tc.answers)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestResumeReject: a rejection ends the run failed at the asking stage,
// the reason and who gave it recorded; nothing after the ask runs.
func TestResumeReject(t *testing.T) {
	t.Parallel()
	rb, rec := pausedFleet(t)
	res, err := rb.Resume(context.Background(), rec, nil, ResumeReject("change freeze"), AnsweredBy("ann"), answerTime)
	if err != nil {
		t.Fatal(err)
	}
	out := res.Record
	if out.Status != "failed" || out.Error == nil || out.Error.Stage != "approve" || !strings.Contains(out.Error.Message, "change freeze") {
		t.Fatalf("record = %s %+v", out.Status, out.Error)
	}
	saved := res.RunRecord()
	last := saved.Log.Commits()[len(saved.Log.Commits())-1]
	if last.Answer == nil || last.Answer.Rejected != "change freeze" || saved.Answers[0].Rejected != "change freeze" {
		t.Errorf("last commit = %+v", last)
	}
	wn, err := NewExplain(saved, nil).WhyNot("done")
	if err != nil || len(wn.Ran) != 0 || len(wn.Reasons) == 0 || !strings.Contains(wn.Reasons[0].Message, "change freeze") {
		t.Errorf("why not done = %+v, %v", wn, err)
	}
}

// TestResumeSecrets: a secret given to the paused run is not in its
// record and must be given again; one filled by its default is refilled.
func TestResumeSecrets(t *testing.T) {
	t.Parallel()
	rb, err := Open("testdata/explain/fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), map[string]any{"host": "h1", "token": "hunter2"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.RunRecord())
	if strings.Contains(string(b), "hunter2") {
		t.Fatal("the secret is in the record")
	}
	rec, _, _ := record.ParseRecord(b)
	_, err = rb.Resume(context.Background(), rec, map[string]any{"proceed": true, "note": "x"})
	var ies InputErrors
	if !errors.As(err, &ies) || !strings.Contains(err.Error(), `"token": is secret`) {
		t.Fatalf("err = %v", err)
	}
	out, err := rb.Resume(context.Background(), rec, map[string]any{"proceed": true, "note": "x", "token": "hunter2"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(out.RunRecord())
	if strings.Contains(string(b), "hunter2") {
		t.Error("the secret given again reached the continued record")
	}
}

// TestLockRecord: of two resumes at once, one holds the lock and the
// other is refused, naming the holder.
func TestLockRecord(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.json")
	var wins, losses int
	var mu sync.Mutex
	var wg sync.WaitGroup
	unlocks := make(chan func(), 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := LockRecord(path)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				var re *ResumeError
				if !errors.As(err, &re) || !errors.Is(err, ErrBeingResumed) || !strings.Contains(err.Error(), "being resumed by another process (pid") {
					t.Errorf("err = %v", err)
				}
				losses++
				return
			}
			wins++
			unlocks <- unlock
		}()
	}
	wg.Wait()
	if wins != 1 || losses != 7 {
		t.Fatalf("wins %d losses %d", wins, losses)
	}
	(<-unlocks)()
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Error("unlock left the lock file")
	}
	unlock, err := LockRecord(path)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	unlock()
}

// TestMarkResumed: a record resumed into another file is marked, and
// refused the second time.
func TestMarkResumed(t *testing.T) {
	t.Parallel()
	rb, rec := pausedFleet(t)
	path := filepath.Join(t.TempDir(), "paused.json")
	if err := MarkResumed(path, rec, "ann", "now", "next.json"); err != nil {
		t.Fatal(err)
	}
	back, problems, err := record.ReadRecord(path)
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %q", err, problems)
	}
	if err := rb.CanResume(back); err == nil || !strings.Contains(err.Error(), "next.json") {
		t.Errorf("err = %v", err)
	}
}

// pausedSecrets is testdata/issue19/secrets-resume paused at its ask:,
// read back from its JSON as a fresh process would.
func pausedSecrets(t *testing.T, token string) (*Runbook, *record.RunRecord, []byte) {
	t.Helper()
	rb, err := Open("../testdata/issue19/secrets-resume/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rec, b := pausedWith(t, rb, map[string]any{"token": token})
	return rb, rec, b
}

// pausedWith is rb's run over given, paused at its ask:, read back from
// its JSON (also returned) as a fresh process would.
func pausedWith(t *testing.T, rb *Runbook, given map[string]any) (*record.RunRecord, []byte) {
	t.Helper()
	res, err := rb.Exec(context.Background(), given)
	if err != nil || res.Record.Status != "paused" {
		t.Fatalf("err %v, status %s", err, res.Record.Status)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %q", err, problems)
	}
	return rec, b
}

// TestIssue19ResumeDerivesSecretValuesAgain: a value derived from a secret
// before the ask (`"Bearer " + token`, and upper() of it) is masked in the
// paused record; the resumed run derives it again from the secret given
// again, so the command after the ask gets the real value — and still
// nothing shows it (issue #19: the mask was read back as the value, and
// the command got "***").
func TestIssue19ResumeDerivesSecretValuesAgain(t *testing.T) {
	t.Parallel()
	const token = "tok-5Gh2Lq9wZx"
	rb, rec, paused := pausedSecrets(t, token)
	if strings.Contains(string(paused), token) || strings.Contains(string(paused), strings.ToUpper(token)) {
		t.Fatalf("the paused record shows the secret:\n%s", paused)
	}
	if !slices.Equal(rec.CheckpointSecrets, []string{"header", "loud", "token"}) {
		t.Errorf("checkpointSecrets = %v, want header, loud, token", rec.CheckpointSecrets)
	}
	res, err := rb.Resume(context.Background(), rec, map[string]any{"go": true, "token": token}, WithNarrativeOnResume())
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Status != "completed" {
		t.Fatalf("status %s %+v", res.Record.Status, res.Record.Error)
	}
	call, _ := res.Run.State()["call"].(map[string]any)
	if call["stdout"] != "same\n" {
		t.Errorf("the command after the resume got %v, not the value derived from the secret", call["stdout"])
	}
	b, _ := json.Marshal(res.RunRecord())
	out, _ := json.Marshal(res.Record)
	for _, text := range []string{string(b), string(out), strings.Join(res.Record.Narrative, "\n")} {
		if strings.Contains(text, token) || strings.Contains(text, strings.ToUpper(token)) {
			t.Errorf("the resumed run shows the secret:\n%s", text)
		}
	}
	if p, _ := res.Record.State["printed"].(map[string]any); p["stdout"] != "***\n" {
		t.Errorf("the printed derived value = %v, want it masked", p["stdout"])
	}
}

// WithNarrativeOnResume asks the resumed run for its narrative.
func WithNarrativeOnResume() ResumeOption { return ResumeExec(WithNarrative()) }

// TestIssue19ResumeRefusesATamperedCheckpoint: a paused record whose
// checkpoint, state, log or decisions were edited after the pause — or
// whose digest is gone — is refused, saying so (issue #19: an edited
// checkpoint was resumed without complaint).
func TestIssue19ResumeRefusesATamperedCheckpoint(t *testing.T) {
	t.Parallel()
	rb, rec := pausedFleet(t)
	answers := map[string]any{"proceed": true, "note": "x"}
	tests := []struct {
		name string
		edit func(r *record.RunRecord)
		want string
	}{
		{"state edited", func(r *record.RunRecord) {
			cp := *r.Checkpoint
			cp.State = slices.Clone(cp.State)
			cp.State[0].Value = "forged"
			r.Checkpoint = &cp
		}, "the checkpoint does not match the digest it was written with"},
		{"branch taken edited", func(r *record.RunRecord) {
			cp := *r.Checkpoint
			cp.At = slices.Clone(cp.At)
			cp.At[0].Branch = "other"
			r.Checkpoint = &cp
		}, "the checkpoint does not match the digest it was written with"},
		{"decision edited", func(r *record.RunRecord) {
			res := *r.Result
			res.Decisions = slices.Clone(res.Decisions)
			res.Decisions[0].Chosen = []string{"forged"}
			r.Result = &res
		}, "the checkpoint does not match the digest it was written with"},
		{"log edited", func(r *record.RunRecord) {
			r.Log.SetCommits(r.Log.Commits()[1:])
		}, "the checkpoint does not match the digest it was written with"},
		{"digest removed", func(r *record.RunRecord) { r.CheckpointDigest = "" }, "the record has no checkpointDigest"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := *rec
			tc.edit(&r)
			// Through JSON, as a file edited by hand is read.
			b, _ := json.Marshal(&r)
			back, _, err := record.ParseRecord(b)
			if err != nil {
				t.Fatal(err)
			}
			_, err = rb.Resume(context.Background(), back, answers)
			var re *ResumeError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a ResumeError saying %q", err, tc.want)
			}
		})
	}
	// The record as written still resumes.
	if _, err := rb.Resume(context.Background(), rec, answers); err != nil {
		t.Fatalf("the untouched record: %v", err)
	}
}

// TestResumeEvaluatesASecretVarAgain: a var computed from a secret input
// is masked in the paused record (it is a derived secret) and the resumed
// run evaluates it again from the secret given again, so the command after
// the ask gets its value, not the mask (TestVarDerivedFromASecretIsASecret
// made such a var a secret; the resume read its mask back as the value,
// and the command got "***").
func TestResumeEvaluatesASecretVarAgain(t *testing.T) {
	t.Parallel()
	const token = "Var-Secret-Zebra-9"
	rb := openYAMLChart(t, `version: 1
runbook: s
inputs: {token: {type: string, secret: true, required: true}}
vars: {up: 'upper(token)'}
stages:
  - {id: q, ask: {question: '"go?"', expects: {go: bool}}}
  - id: e
    exec:
      command: [sh, -c, 'if [ "$U" = VAR-SECRET-ZEBRA-9 ]; then echo same; else echo other; fi']
      envFrom: {U: up}
`)
	rec, b := pausedWith(t, rb, map[string]any{"token": token})
	if strings.Contains(string(b), "VAR-SECRET") {
		t.Fatalf("the paused record shows the var:\n%s", b)
	}
	done, err := rb.Resume(context.Background(), rec, map[string]any{"go": true, "token": token})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := done.Run.State()["e"].(map[string]any); e["stdout"] != "same\n" {
		t.Errorf("the command after the resume got %v, not the var evaluated again", e["stdout"])
	}
}

// TestResumeRefusalMasksTheSecretsGiven: an answer refused at resume
// quotes what was given, with the secrets given in the same call masked
// (regression: `runbook resume … --input token=S --input ok=S` said
// `input "ok": the answer is not a bool: "S"`, the secret in the clear,
// as an input refused before a run did).
func TestResumeRefusalMasksTheSecretsGiven(t *testing.T) {
	t.Parallel()
	const token = "Res-Secret-Zebra-9"
	rb := openYAMLChart(t, `version: 1
runbook: s
inputs: {token: {type: string, secret: true, required: true}}
stages:
  - {id: q, ask: {question: '"go?"', expects: {ok: bool}}}
`)
	rec, _ := pausedWith(t, rb, map[string]any{"token": token})
	_, err := rb.Resume(context.Background(), rec, map[string]any{"ok": token, "token": token})
	if err == nil {
		t.Fatal("the answer was not refused")
	}
	if strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "is not a bool") {
		t.Errorf("the refusal = %v, want it to say the answer is not a bool without the secret", err)
	}
}

// TestResumeRefusesASecretTheRunWasNotGiven: a resume gives again only the
// secret inputs the paused run was given. A secret the run took from its
// default (or did not take at all), given at the resume, was put in its
// place for the stages after the question: the run read one token before
// the pause and another after it, and its record still said the token was
// "assumed by the chart's rule, not given by you". An agent's resume call
// with an extra "token" did it in silence.
func TestResumeRefusesASecretTheRunWasNotGiven(t *testing.T) {
	t.Parallel()
	const other = "Other-Token-Walrus-7"
	rb := openYAMLChart(t, `version: 1
runbook: s
inputs:
  token: {type: string, secret: true, default: "the-default-token"}
  extra: {type: string, secret: true}
stages:
  - {id: q, ask: {question: '"go?"', expects: {ok: bool}}}
  - {id: after, set: {same: token == "the-default-token"}}
`)
	rec, _ := pausedWith(t, rb, map[string]any{})
	for _, name := range []string{"token", "extra"} {
		_, err := rb.Resume(context.Background(), rec, map[string]any{"ok": true, name: other})
		var ies InputErrors
		if !errors.As(err, &ies) || !strings.Contains(err.Error(), `"`+name+`": is secret, and the paused run was not given it`) {
			t.Errorf("resume with %s = %v, want it refused: the run was not given it", name, err)
		}
		if err != nil && strings.Contains(err.Error(), other) {
			t.Errorf("the refusal quotes the secret: %v", err)
		}
	}
	out, err := rb.Resume(context.Background(), rec, map[string]any{"ok": true})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Record.State["same"]; got != true {
		t.Errorf("after the resume token == its default is %v, want true: the run reads the value it was started with", got)
	}
}
