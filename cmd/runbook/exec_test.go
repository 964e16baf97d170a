package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/runbook"
)

func TestReadInputs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in.json")
	if err := os.WriteFile(file, []byte(`{"host": "db-1", "n": 3, "window": "1h"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		file    string
		pairs   []string
		want    map[string]any
		wantErr bool
	}{
		{name: "none", want: map[string]any{}},
		{name: "pairs stay strings", pairs: []string{"n=3", "s=a=b", "empty="},
			want: map[string]any{"n": "3", "s": "a=b", "empty": ""}},
		{name: "flags override the file", file: file, pairs: []string{"window=2h"},
			want: map[string]any{"host": "db-1", "n": 3, "window": "2h"}},
		{name: "no equals", pairs: []string{"host"}, wantErr: true},
		{name: "no name", pairs: []string{"=x"}, wantErr: true},
		{name: "missing file", file: filepath.Join(dir, "nope.json"), wantErr: true},
		{name: "not an object", file: write("list.json", `[1, 2]`), wantErr: true},
		{name: "null", file: write("null.json", `null`), wantErr: true},
		{name: "two objects", file: write("two.json", `{} {}`), wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readInputs(tc.file, tc.pairs)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if !tc.wantErr && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	tests := map[string]string{
		"./disk.paused.json": "./disk.paused.json",
		"my run.json":        "'my run.json'",
		"it's.json":          `'it'\''s.json'`,
		"":                   "''",
	}
	for in, want := range tests {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFileSafe(t *testing.T) {
	tests := map[string]string{"disk-triage": "disk-triage", "a/b": "a-b", "..": "runbook", "": "runbook"}
	for in, want := range tests {
		if got := fileSafe(in); got != want {
			t.Errorf("fileSafe(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestScriptInto(t *testing.T) {
	ex := func(id, into string) chart.StageSpec {
		return chart.StageSpec{ID: id, Kind: "exec", Exec: &chart.ExecSpec{Into: into}}
	}
	spec := &chart.Spec{Stages: []chart.StageSpec{
		ex("collect", "df"),
		ex("quiet", ""),
		{ID: "posture", Kind: "decide", Branches: []chart.BranchSpec{{Name: "a", Stages: []chart.StageSpec{ex("in-decide", "d")}}}},
		{ID: "par", Kind: "parallel", Parallel: []chart.BranchSpec{{Name: "x", Stages: []chart.StageSpec{ex("in-par", "p")}}}},
		{ID: "each", Kind: "foreach", ForEach: &chart.ForEachSpec{Stages: []chart.StageSpec{ex("in-each", "e")}}},
	}}
	want := map[string]string{"collect": "df", "in-decide": "d", "par~x/in-par": "p"}
	if got := scriptInto(spec); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestInputFixWords: the library says what would put a refused input
// right; the CLI words it as its own flag (flow and runbook name no flag),
// a secret to give again as a file: on the command line it would sit in
// runbook's argv.
func TestInputFixWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fix  runbook.InputFix
		want string
	}{
		{runbook.FixNone, `runbook: input "token": nope` + "\n"},
		{runbook.FixGive, `runbook: input "token": nope; give it with --input token=…` + "\n"},
		{runbook.FixGiveAgain, `runbook: input "token": nope; give it again in an --inputs file only you can read ({"token": …}), as --input token=… would put it in runbook's argv, where ps shows it` + "\n"},
	}
	for _, tc := range tests {
		var b strings.Builder
		if !printInputErrors(&b, runbook.InputErrors{{Input: "token", Msg: "nope", Fix: tc.fix}}, nil) || b.String() != tc.want {
			t.Errorf("fix %d: %q, want %q", tc.fix, b.String(), tc.want)
		}
	}
}

// TestPausedRunWithASecretSaysToGiveItAgain: a run given a secret input
// paused and printed `runbook resume run.json --input ok=…`; the record
// keeps no secret, so that command was refused, and its refusal said to
// give the secret with --input, into runbook's argv. The resume command
// now names the --inputs file the secret came in (or a file to hold it,
// when it came on the command line), and the resume it prints runs.
func TestPausedRunWithASecretSaysToGiveItAgain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: rotate
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - id: ask
    ask:
      question: '"Go on?"'
      expects: {ok: bool}
  - id: use
    exec: {command: [sh, -c, 'test -n "$T"'], envFrom: {T: token}}
`)
	secrets := filepath.Join(dir, "secrets.json")
	if err := os.WriteFile(secrets, []byte(`{"token": "s3cr3t-value"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, "run.json")
	r := runCLI(t, dir, "exec", chart, "--inputs", secrets, "--record", rec)
	want := "Resume: runbook resume " + shellQuote(rec) + " --inputs " + shellQuote(secrets) + " --input ok=…"
	if !strings.Contains(r.stdout, want) {
		t.Fatalf("want %q in:\n%s\n%s", want, r.stdout, r.stderr)
	}
	if r = runCLI(t, dir, "resume", rec, "--inputs", secrets, "--input", "ok=true"); r.code != 0 || strings.Contains(r.stdout+r.stderr, "s3cr3t-value") {
		t.Fatalf("the printed resume: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	rec2 := filepath.Join(dir, "run2.json")
	r = runCLI(t, dir, "exec", chart, "--input", "token=s3cr3t-value", "--record", rec2)
	if want := "Resume: runbook resume " + shellQuote(rec2) + " --inputs SECRETS.json --input ok=…"; !strings.Contains(r.stdout, want) {
		t.Fatalf("a secret given on the command line: want %q in:\n%s", want, r.stdout)
	}
}

// TestPausedRunResumeNamesOnlyAFileOfSecrets: a run given its host and its
// token in one --inputs file paused and printed `runbook resume run.json
// --inputs in.json --input ok=…`, which was refused: a resume takes the
// answers and the secret inputs again, and the file gave the host too
// (`input "host": is not an answer the question expects`). A file that
// holds more than the secrets is not named: the command says SECRETS.json,
// a file to hold them.
func TestPausedRunResumeNamesOnlyAFileOfSecrets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: rotate
inputs:
  host: {type: string, required: true}
  token: {type: string, secret: true, required: true}
stages:
  - id: ask
    ask:
      question: '"Go on?"'
      expects: {ok: bool}
`)
	in := filepath.Join(dir, "in.json")
	if err := os.WriteFile(in, []byte(`{"host": "db-1", "token": "s3cr3t-value"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, "run.json")
	r := runCLI(t, dir, "exec", chart, "--inputs", in, "--record", rec)
	if want := "Resume: runbook resume " + shellQuote(rec) + " --inputs SECRETS.json --input ok=…"; !strings.Contains(r.stdout, want) {
		t.Fatalf("want %q in:\n%s\n%s", want, r.stdout, r.stderr)
	}
}
