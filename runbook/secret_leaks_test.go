package runbook_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// TestSecretReadFromAFileNeverReachesArgv: a template part whose value
// holds a secret at run time — here a file's content, which the loader
// cannot know is the secret — fails the stage before any process starts
// (regression: `${f.content}` of a file holding the token was passed to
// sh as an argument, in the clear in /proc/PID/cmdline, while the record
// showed the argv masked).
func TestSecretReadFromAFileNeverReachesArgv(t *testing.T) {
	t.Parallel()
	const secret = "S3cr3t-Zebra-Value"
	dir := t.TempDir()
	file := filepath.Join(dir, "token")
	if err := os.WriteFile(file, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "ran")
	rb := parse(t, `version: 1
runbook: s
honesty: []
inputs: {token: {type: string, secret: true, required: true}}
stages:
  - id: rd
    read: {path: '"`+file+`"', into: f}
  - id: use
    exec:
      command: [sh, -c, 'touch "$1"', sh, "`+marker+`", "${f.content}"]
`)
	rec := exec(t, rb, map[string]any{"token": secret})
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran with the secret in its argv")
	}
	if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, "secret") {
		t.Fatalf("status %s, error %+v: want the stage failed, saying a secret would be in argv", rec.Status, rec.Error)
	}
	if strings.Contains(rec.Error.Message, secret) {
		t.Errorf("the refusal shows the secret: %s", rec.Error.Message)
	}
}

// TestNarrativeMasksWholeSecretValues: a secret bool, list or object, and
// a short member of one, are masked in the narrative as in the record and
// the events — in a read and in a rule's evidence (regression: the
// narrative was masked as text only, so `read flag = true`, `read lst =
// ["ab",7]` and `with conf = {"a":1,"b":7}` were shown).
func TestNarrativeMasksWholeSecretValues(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: s
honesty: []
inputs:
  flag: {type: bool, secret: true, required: true}
  lst: {type: list, secret: true, required: true}
  conf: {type: object, secret: true, required: true}
stages:
  - id: d
    decide:
      rules: [{when: 'flag && len(lst) > 1 && conf.a == 1', then: yes, label: flagged}]
      default: {branch: no, label: not flagged}
    branches: {yes: [], no: []}
`)
	rec := exec(t, rb, map[string]any{"flag": true, "lst": `["ab",7]`, "conf": `{"a":1,"b":7}`}, runbook.WithNarrative())
	all := strings.Join(rec.Narrative, "\n")
	if !strings.Contains(all, `read flag = "***"`) {
		t.Errorf("the narrative does not show the read of flag masked:\n%s", all)
	}
	for _, shown := range []string{"true", `"ab"`, `"a":1`, "7"} {
		if strings.Contains(all, shown) {
			t.Errorf("the narrative shows %s of a secret:\n%s", shown, all)
		}
	}
}

// TestSecretSplitIntoPiecesIsMasked: the pieces of a secret an expression
// cuts it into — split parts, a slice — are masked in the record even when
// each is shorter than secret.MinDerived (regression: split(token, "-")
// left "Zebra" and "Value" in the state, and token[0:5] "S3cr3").
func TestSecretSplitIntoPiecesIsMasked(t *testing.T) {
	t.Parallel()
	const secret = "S3cr3t-Zebra-Value"
	rb := parse(t, `version: 1
runbook: s
honesty: []
inputs: {token: {type: string, secret: true, required: true}}
stages:
  - {id: cut, set: {parts: 'split(token, "-")', head: 'token[0:5]', tail: 'token[13:]'}}
`)
	rec := exec(t, rb, map[string]any{"token": secret}, runbook.WithNarrative())
	b := recordJSON(t, rec)
	for _, piece := range []string{"S3cr3", "Zebra", "Value"} {
		if strings.Contains(b, piece) {
			t.Errorf("the record shows the piece %q of the secret:\n%s", piece, b)
		}
	}
}

// TestSecretWithATrailingNewlineMaskedAsTheShellPrintsIt: a secret given
// with a last newline (a YAML block scalar, a file read into --inputs) is
// masked in a command's output where the shell stripped it (regression:
// t=$(printf %s "$TOKEN"); echo "[$t]" put "[Trail-Secret-Value-5]" in the
// state and the script row's output tail).
func TestSecretWithATrailingNewlineMaskedAsTheShellPrintsIt(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: s
honesty: []
inputs: {token: {type: string, secret: true, required: true}}
stages:
  - id: e
    exec:
      command: [sh, -c, 't=$(printf %s "$TOKEN"); echo "[$t] done"; echo user=$TOKEN, ok']
      envFrom: {TOKEN: token}
`)
	rec := exec(t, rb, map[string]any{"token": "Trail-Secret-Value-5\n"})
	b := recordJSON(t, rec)
	if strings.Contains(b, "Trail-Secret") {
		t.Errorf("the record shows the secret:\n%s", b)
	}
	if !strings.Contains(b, `[***] done\nuser=*** , ok`) {
		t.Errorf("the command's output is not in the record, masked:\n%s", b)
	}
}

// TestScriptRowMaskedWithWhatWasDerivedLater: a value derived from a
// secret after a command printed it is masked in the script row's output
// tail as it is in the state (regression: the row was masked when filed
// and never again, so tr's upper-case copy of the token, which
// upper(token) made a secret a stage later, stayed in the row's
// stdoutTail while the state's stdout showed "***").
func TestScriptRowMaskedWithWhatWasDerivedLater(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: s
inputs: {token: {type: string, secret: true, required: true}}
stages:
  - id: e
    exec:
      command: [sh, -c, 'printf "%s\n" "$TOKEN" | tr a-z A-Z']
      envFrom: {TOKEN: token}
  - {id: up, set: {loud: 'upper(token)'}}
`)
	rec := exec(t, rb, map[string]any{"token": "quiet-secret-value"})
	b := recordJSON(t, rec)
	if strings.Contains(b, "QUIET-SECRET") {
		t.Errorf("the record shows the derived secret:\n%s", b)
	}
	if len(rec.Scripts) != 1 || rec.Scripts[0].Ran == nil || rec.Scripts[0].Ran.StdoutTail != "***\n" {
		t.Errorf("the script row's output tail is not masked: %+v", rec.Scripts)
	}
}

// TestRefusedInputsNeverShowASecret: a run refused before its first stage
// masks the secrets it was given in what it says: a var whose expression
// fails on a secret input, and a non-secret input refused with the
// secret's text in it (regression: `runbook exec`, plan and the MCP tool
// printed `var "when": date(token): invalid date Var-Secret-Zebra-9` and
// `input "n": is not a number: "Var-Secret-Zebra-9"`).
func TestRefusedInputsNeverShowASecret(t *testing.T) {
	t.Parallel()
	const secret = "Var-Secret-Zebra-9"
	for name, tc := range map[string]struct{ src, n string }{
		"var": {`version: 1
runbook: s
inputs: {token: {type: string, secret: true, required: true}}
vars: {when: 'date(token)'}
stages: [{id: s, set: {x: '1'}}]
`, ""},
		"input": {`version: 1
runbook: s
inputs: {token: {type: string, secret: true, required: true}, n: {type: number}}
stages: [{id: s, set: {x: '1'}}]
`, secret},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			given := map[string]any{"token": secret}
			if tc.n != "" {
				given["n"] = tc.n
			}
			_, err := parse(t, tc.src).Exec(context.Background(), given)
			if err == nil {
				t.Fatal("the run was not refused")
			}
			if strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "***") {
				t.Errorf("the refusal does not mask the secret: %v", err)
			}
		})
	}
}

// TestVarDerivedFromASecretIsASecret: a var computed from a secret input is
// a derived secret as a set: stage's value is, masked whole wherever it
// appears (regression: vars were evaluated outside the taint rule, so
// `up: upper(token)` was in the state, the narrative and a command's
// output in the clear, `hdr: "Bearer " + token` was shown "Bearer ***",
// and split(token, "-") showed every part).
func TestVarDerivedFromASecretIsASecret(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: s
honesty: []
inputs: {token: {type: string, secret: true, required: true}}
vars:
  hdr: '"Bearer " + token'
  up: 'upper(token)'
  pieces: 'split(token, "-")'
  again: 'lower(up)'
stages:
  - id: e
    exec:
      command: [sh, -c, 'echo "$U"']
      envFrom: {U: up}
  - {id: s, set: {x: 'pieces[1] + "!"'}}
`)
	rec := exec(t, rb, map[string]any{"token": "Var-Secret-Zebra-9"}, runbook.WithNarrative())
	b := recordJSON(t, rec)
	for _, shown := range []string{"VAR-SECRET", "Bearer", "Zebra", "Secret", "var-secret"} {
		if strings.Contains(b, shown) {
			t.Errorf("the record shows %q of a var derived from the secret:\n%s", shown, b)
		}
	}
}

// recordJSON is rec as the record file holds it, to search for a secret.
func recordJSON(t *testing.T, rec *record.Record) string {
	t.Helper()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSecretBoundIntoASubflowNeverReachesArgv: a mounted chart's input
// bound from a secret is a secret in the subflow too, and its template
// part is refused at run time (regression: the loader checks a chart's
// templates against its own secret inputs, so child.yaml's "${tok}" ran
// `sh -c … Sub-Secret-Zebra-1`, the token in /proc/PID/cmdline).
func TestSecretBoundIntoASubflowNeverReachesArgv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	files := map[string]string{
		"child.yaml": `version: 1
runbook: child
inputs: {tok: {type: string, required: true}}
stages:
  - id: c
    exec: {command: [sh, -c, 'touch "$1"', sh, "` + marker + `", "${tok}"]}
`,
		"parent.yaml": `version: 1
runbook: parent
honesty: []
inputs: {token: {type: string, secret: true, required: true}}
stages:
  - {id: sf, subflow: {chart: ./child.yaml, inputs: {tok: token}}}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rb, err := runbook.Open(filepath.Join(dir, "parent.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rec := exec(t, rb, map[string]any{"token": "Sub-Secret-Zebra-1"})
	if _, err := os.Stat(marker); err == nil {
		t.Error("the mounted chart's command ran with the secret in its argv")
	}
	if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, "holds a secret") {
		t.Errorf("status %s, error %+v: want the stage failed, saying a secret would be in argv", rec.Status, rec.Error)
	}
}

// TestLiteralArgvPartIsNoSecret: a command item with no ${…} is the
// chart's own text and runs whatever the secret is (regression: a restic
// password ending "-restic" made `[restic, -r, "${repo}", …]` fail its
// stage before restic started, `exec command argument 1 "restic" renders
// a value that holds a secret`, since the program's name reads as the
// secret's cut tail; the templated part beside it is still checked).
func TestLiteralArgvPartIsNoSecret(t *testing.T) {
	t.Parallel()
	const secret = "Zebra-Pa55-restic"
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	rb := parse(t, `version: 1
runbook: s
inputs:
  token: {type: string, secret: true, required: true}
  repo: {type: string, required: true}
stages:
  - id: use
    exec:
      command: [sh, -c, 'touch "$2"', restic, restic, "${repo}"]
      envFrom: {RESTIC_PASSWORD: token}
`)
	rec := exec(t, rb, map[string]any{"token": secret, "repo": marker})
	if rec.Status != "completed" {
		t.Fatalf("status %s, error %+v: want the command run, its literal items being no secret", rec.Status, rec.Error)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the command did not run: %v", err)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), secret) {
		t.Errorf("the record shows the secret: %s", b)
	}
	// The templated item is still checked: the secret in a value is
	// refused as before.
	rec = exec(t, rb, map[string]any{"token": secret, "repo": marker + "-" + secret})
	if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, `argument 6 "${repo}"`) {
		t.Fatalf("status %s, error %+v: want the templated item refused as holding the secret", rec.Status, rec.Error)
	}
}

// TestSecretTailAtAValuesStartTaintsNothing: a value that merely begins
// with the secret's last bytes does not hold it (regression: a restic
// password "Winter-2026" made every snapshot time, "2026-12-06T…", read as
// the secret's cut tail, so the whole parsed output was a derived secret,
// and with it every host name over five bytes: the verdict table read
// `*** ok`, `*** stale`, no host told from another). secret
// TestHoldsReadsNoPieceAtAWholeValuesEnds holds the rule itself.
func TestSecretTailAtAValuesStartTaintsNothing(t *testing.T) {
	t.Parallel()
	const secret = "Winter-2026"
	rb := parse(t, `version: 1
runbook: s
inputs:
  password: {type: string, secret: true, required: true}
result: {kind: verdict/backup, decider: Age}
stages:
  - id: snaps
    exec:
      command: [printf, '[{"time":"2026-12-06T09:00:00Z","hostname":"webserver1"},{"time":"2026-12-01T09:00:00Z","hostname":"dbserver1"}]']
      envFrom: {RESTIC_PASSWORD: password}
      parse: json
  - id: per
    foreach:
      items: snaps.stdout
      as: s
      maxBranches: 10
      stages:
        - id: judge
          name: Age
          decide:
            rules: [{when: 's.hostname == "dbserver1"', then: stale, label: old}]
            default: {branch: ok, label: new}
          branches:
            stale: [{id: st, verdict: {subject: s.hostname, verdict: '"stale"', time: s.time}}]
            ok: [{id: o, verdict: {subject: s.hostname, verdict: '"ok"', time: s.time}}]
`)
	rec := exec(t, rb, map[string]any{"password": secret})
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"webserver1", "dbserver1"} {
		if !strings.Contains(rec.Verdicts.Table, want) {
			t.Errorf("the table does not name %s:\n%s", want, rec.Verdicts.Table)
		}
	}
	if strings.Contains(string(b), secret) {
		t.Errorf("the record shows the secret")
	}
}
