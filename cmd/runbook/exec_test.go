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
// right; the CLI words it as its own flag (flow and runbook name no flag).
func TestInputFixWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fix  runbook.InputFix
		want string
	}{
		{runbook.FixNone, `runbook: input "token": nope` + "\n"},
		{runbook.FixGive, `runbook: input "token": nope; give it with --input token=…` + "\n"},
		{runbook.FixGiveAgain, `runbook: input "token": nope; give it again with --input token=…` + "\n"},
	}
	for _, tc := range tests {
		var b strings.Builder
		if !printInputErrors(&b, runbook.InputErrors{{Input: "token", Msg: "nope", Fix: tc.fix}}, nil) || b.String() != tc.want {
			t.Errorf("fix %d: %q, want %q", tc.fix, b.String(), tc.want)
		}
	}
}
