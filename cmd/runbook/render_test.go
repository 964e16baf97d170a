package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
	"github.com/openrunbook/runbook/record"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
)

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func row(kv ...any) record.Row {
	r := record.Row{Values: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		r.Keys = append(r.Keys, k)
		r.Values[k] = kv[i+1]
	}
	return r
}

func intp(n int) *int { return &n }

func said(standing assessment.Standing, line string) *assessment.Assessment {
	return &assessment.Assessment{Version: assessment.LineVersion, Standing: standing, Line: line}
}

// renderCases are hand-built records, one per thing the renderers show.
func renderCases() []struct {
	name string
	rec  *record.Record
	opts renderOpts
} {
	return []struct {
		name string
		rec  *record.Record
		opts renderOpts
	}{
		{
			name: "verdicts-capped-with-meanings",
			rec: &record.Record{
				Runbook: "disk-triage", Status: "completed",
				Verdicts: &record.VerdictSet{
					Rows: []record.Row{
						row("subject", "vol-0", "verdict", "protected"),
						row("subject", "vol-1", "verdict", "at-risk"),
					},
					RowsShown: 2, RowsTotal: 5, RowsComplete: false,
					Table:      "| subject | verdict |\n|---|---|\n| vol-0 | protected |\n| vol-1 | at-risk |",
					RenderNote: "The table is pre-rendered over exactly these rows; output it verbatim.",
					Meanings: map[string]string{
						"unprotected": "No replica",
						"at-risk":     "Nearly full on a degraded service",
						"protected":   "Two or more replicas",
						"declined":    "No rule reached a verdict",
					},
				},
				Assessment:   said(assessment.Consistent, "Consistent with the run's record — 3 honesty checks ran (label, coverage, assessment) and none found a reason for doubt; this is not a verification."),
				StandingSaid: true,
			},
		},
		{
			name: "coverage-absence-and-ledger",
			rec: &record.Record{
				Runbook: "search-logs", Status: "completed",
				Coverage: []coverage.Entry{
					{Path: "lookup", Declaration: coverage.Declaration{
						Kind:        coverage.KindLedger,
						Checked:     []coverage.Item{{What: "syslog"}, {What: "journal"}},
						NotChecked:  []coverage.Item{{What: "archived logs", Why: "no read access"}},
						CannotCover: []coverage.Item{{What: "deleted files", Why: "gone from disk"}},
						InProgress:  []coverage.InProgressItem{{What: "log shipping", Count: 3, Why: "still syncing"}},
					}},
					{Path: "lookup", Declaration: coverage.Declaration{
						Kind:       coverage.KindAbsence,
						LookedFor:  "error lines for db-1",
						Checked:    []coverage.Item{{What: "syslog"}, {What: "journal"}},
						TryInstead: "search the archive once access is granted",
						Provenance: &coverage.Provenance{Source: "journald", MeasuredAt: "2026-01-02T03:04:05Z"},
					}},
				},
				Truncations:  []flow.Truncation{{Path: "per-volume", Items: 120, MaxBranches: 50}},
				Assessment:   said(assessment.NotSure, `Not sure — stage "lookup" looked for error lines for db-1 and declared it found none; stage "lookup" did not check archived logs (no read access).`),
				StandingSaid: true,
			},
		},
		{
			name: "script-failed",
			rec: &record.Record{
				Runbook: "disk-triage", Status: "completed",
				State: map[string]any{
					"df": map[string]any{
						"stdout":   "",
						"stderr":   "line 1\nline 2\n\nline 3\nline 4\nline 5\ndf: /mnt/x: Permission denied\n",
						"exitCode": 7, "ok": false,
					},
				},
				Scripts: []label.Row{
					{Path: "warmup", Label: label.Completed, ExitCode: intp(0), Words: "completed, exit 0"},
					{Path: "collect", Label: label.CompletedWithFailure, ExitCode: intp(7), Words: "completed with failure, exit 7"},
					{Path: "par~b/probe", Label: label.OutcomeUnknown},
				},
				Assessment:   said(assessment.NotSure, `Not sure — script "collect" completed with failure, exit 7.`),
				StandingSaid: true,
			},
			opts: renderOpts{scriptInto: map[string]string{"collect": "df"}},
		},
		{
			name: "standing-known",
			rec: &record.Record{
				Runbook: "checks", Status: "completed",
				Assessment: said(assessment.Known, "Known — all 2 declared answer checks passed."), StandingSaid: true,
			},
		},
		{
			name: "standing-not-assessed",
			rec: &record.Record{
				Runbook: "plain", Status: "completed",
				Assessment: said(assessment.NotAssessed, "Not assessed — nothing could be checked: the honesty stages were off and no answer checks were declared."), StandingSaid: true,
			},
		},
		{
			name: "standing-not-said",
			rec: &record.Record{
				Runbook: "quiet", Status: "completed",
				Assessment:   said(assessment.Consistent, "Consistent with the run's record — 3 honesty checks ran (label, coverage, assessment) and none found a reason for doubt; this is not a verification."),
				StandingSaid: false,
			},
		},
		{
			name: "standing-ask-paused",
			rec: &record.Record{
				Runbook: "deploy", Status: "paused",
				Pause: &record.PauseRecord{
					Stage: "confirm", Question: "Which host?",
					Expects: map[string]string{"host": "string", "force": "bool"},
					Resume:  "runbook resume ./deploy.paused.json",
				},
				Assessment:   said(assessment.Ask, `Ask — the run paused to ask "Which host?".`),
				StandingSaid: true,
			},
		},
		{
			name: "panel-presentation",
			rec: &record.Record{
				Runbook: "posture", Status: "completed",
				Verdicts: &record.VerdictSet{
					Rows: []record.Row{
						row("subject", "vol-0", "verdict", "protected", "replicas", 3, "encrypted", true, "note", nil),
						row("subject", "vol|1", "verdict", "declined", "replicas", 0.5, "encrypted", false, "note", "two\nlines"),
						row("subject", "vol-2", "verdict", "", "extra", "not a column"),
					},
					RowsShown: 3, RowsTotal: 3, RowsComplete: true,
					RenderNote: "The host already shows these rows; do not reproduce them.",
					Meanings:   map[string]string{"protected": "Two or more replicas", "declined": "No rule reached a verdict"},
					Declined:   1,
				},
			},
		},
		{
			name: "empty-rowset",
			rec: &record.Record{
				Runbook: "posture", Status: "completed",
				Verdicts: &record.VerdictSet{Rows: []record.Row{}, RowsComplete: true},
			},
		},
		{
			name: "failed-with-narrative",
			rec: &record.Record{
				Runbook: "disk-triage", Status: "failed",
				Error:        &record.RecordError{Stage: "guard", Message: "disk is full"},
				Assessment:   said(assessment.NotSure, "Not sure — the run failed before it finished."),
				StandingSaid: true,
				Narrative:    []string{"Stage seed (seed#0) ran.", "Stage guard (guard#1) failed: disk is full."},
			},
			opts: renderOpts{verbose: true},
		},
		{
			name: "nothing-to-say",
			rec:  &record.Record{Runbook: "silent", Status: "completed"},
		},
	}
}

func TestRenderGolden(t *testing.T) {
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			var txt, md bytes.Buffer
			if err := renderText(&txt, tc.rec, tc.opts); err != nil {
				t.Fatal(err)
			}
			if err := renderMarkdown(&md, tc.rec, tc.opts); err != nil {
				t.Fatal(err)
			}
			renderGolden(t, tc.name+".txt", txt.Bytes())
			renderGolden(t, tc.name+".md", md.Bytes())
		})
	}
}

// TestRenderTextColour: colour only adds escapes, never words.
func TestRenderTextColour(t *testing.T) {
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			var plain, col bytes.Buffer
			opts := tc.opts
			if err := renderText(&plain, tc.rec, opts); err != nil {
				t.Fatal(err)
			}
			opts.colour = true
			if err := renderText(&col, tc.rec, opts); err != nil {
				t.Fatal(err)
			}
			stripped := ansi.ReplaceAll(col.Bytes(), nil)
			if !bytes.Equal(stripped, plain.Bytes()) {
				t.Errorf("colour changed the words:\n%s\nwant\n%s", stripped, plain.Bytes())
			}
			if tc.name == "script-failed" && !bytes.Contains(col.Bytes(), []byte(styleRed)) {
				t.Errorf("failure words not in red:\n%q", col.Bytes())
			}
		})
	}
}

// renderGolden checks got against testdata/render/NAME.
func renderGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "render", name), got)
}

func TestMeaningsInOrder(t *testing.T) {
	rows := []record.Row{row("verdict", "b"), row("verdict", "z"), row("verdict", "b"), row("verdict", 3)}
	got := meaningsInOrder(rows, map[string]string{"a": "A", "b": "B", "c": "C", "z": "Z"})
	want := [][2]string{{"b", "B"}, {"z", "Z"}, {"a", "A"}, {"c", "C"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if meaningsInOrder(rows, nil) != nil {
		t.Error("no meanings must give nil")
	}
}

func TestResumeCommand(t *testing.T) {
	tests := []struct {
		name string
		p    record.PauseRecord
		want string
	}{
		{"adds expects", record.PauseRecord{Resume: "runbook resume x.json", Expects: map[string]string{"b": "string", "a": "bool"}},
			"runbook resume x.json --input a=… --input b=…"},
		{"keeps named", record.PauseRecord{Resume: "runbook resume x.json --input a=…", Expects: map[string]string{"a": "bool"}},
			"runbook resume x.json --input a=…"},
		{"no command", record.PauseRecord{}, "runbook resume RECORD.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := resumeCommand(&tc.p); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
