package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/plugins/sdk/sdktest"
)

func TestFileAge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "old")
	if err := os.WriteFile(old, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := os.Chtimes(old, now, now.Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	// In-process, through the real protocol.
	st := sdk.TestServe(t, fileAge{now: time.Now})
	tests := []struct {
		name string
		args map[string]any
		want func(map[string]any) bool
	}{
		{"too old", map[string]any{"path": old, "maxAge": "24h"}, func(m map[string]any) bool { return m["tooOld"] == true && m["exists"] == true }},
		{"young enough", map[string]any{"path": old, "maxAge": "72h"}, func(m map[string]any) bool { return m["tooOld"] == false }},
		{"missing is an absence", map[string]any{"path": filepath.Join(dir, "nope"), "maxAge": "1h"}, func(m map[string]any) bool {
			return m["af_absent"] == true && m["looked_for"] == "file "+filepath.Join(dir, "nope")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := st.Run(context.Background(), sdk.Request{Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			if m, ok := resp.Result.(map[string]any); !ok || !tc.want(m) {
				t.Fatalf("result %#v", resp.Result)
			}
		})
	}
	// The host's own argument rules: path is required, maxAge defaults
	// to 24h and is reported as assumed.
	if _, err := st.Run(context.Background(), sdk.Request{Args: map[string]any{"maxAge": "1h"}}); err == nil {
		t.Fatal("no path: no error")
	}
	call, err := st.Run(context.Background(), sdk.Request{Args: map[string]any{"path": old}})
	if err != nil || len(call.Assumed) != 1 || call.Assumed[0] != "maxAge" || call.Result.(map[string]any)["tooOld"] != true {
		t.Fatalf("maxAge not given: %+v %v", call, err)
	}
}

func TestFileAgeAsAProcess(t *testing.T) {
	t.Parallel()
	st := sdk.TestProcess(t, "github.com/openrunbook/runbook/examples/plugins/file-age")
	d := st.Description()
	if d.Name != "file-age" || d.Version != Version || len(d.Args) != 2 || d.Args[1].Default != "24h" {
		t.Fatalf("description %+v", d)
	}
	resp, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{"path": "/", "maxAge": "1000000h"}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Result.(map[string]any)["tooOld"] != false {
		t.Fatalf("result %v", resp.Result)
	}
}

// TestFileAgeChart runs the example chart through the real host, the
// plugin served from this test binary (sdktest).
func TestFileAgeChart(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "nope")
	res := sdktest.RunFile(t, "chart.yaml", sdktest.Plugin("file-age", fileAge{now: time.Now}),
		sdktest.Inputs(map[string]any{"path": missing}))
	res.ExpectStatus("completed")
	res.ExpectVerdict(map[string]any{"subject": missing, "verdict": "missing"})
	res.ExpectCoverage("age", "absence", "file "+missing)
	res.ExpectAssumed("file-age", "maxAge")
}

// TestFileAgeGivenADurationExpression: a chart that gave the plugin
// `maxAge: duration("2h")` sent it the nanoseconds 7200000000000 as a
// number, which the plugin read as seconds — a maximum age past any file's,
// so a two-day-old file read fresh, Consistent. An expression's duration
// is now its text ("2h0m0s"), which the plugin reads as two hours.
func TestFileAgeGivenADurationExpression(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "old")
	if err := os.WriteFile(old, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := os.Chtimes(old, now, now.Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	chart := strings.Replace(string(src), "args: {path: path}", `args: {path: path, maxAge: 'duration("2h")'}`, 1)
	if chart == string(src) {
		t.Fatal("chart.yaml no longer gives args: {path: path}")
	}
	path := filepath.Join(dir, "chart.yaml")
	if err := os.WriteFile(path, []byte(chart), 0o644); err != nil {
		t.Fatal(err)
	}
	res := sdktest.RunFile(t, path, sdktest.Plugin("file-age", fileAge{now: time.Now}),
		sdktest.Inputs(map[string]any{"path": old}))
	res.ExpectStatus("completed")
	if v := res.Verdicts(); len(v) != 1 || v[0]["verdict"] != "stale" {
		t.Errorf("verdicts %v; want the two-day-old file stale under maxAge 2h", v)
	}
	res.ExpectNoneAssumed("file-age")
}

// TestFileAgeModifiedAfterNowIsNoAge: a stamp file touched while the
// host's clock ran months ahead (or copied with its mtime from a host
// whose clock did) was "fresh", ageSeconds -7251022, "Modified within the
// maximum age", and stayed so until its date came, however long the job
// had not run. A time after now is no age: the call fails, saying so.
func TestFileAgeModifiedAfterNowIsNoAge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stamp := filepath.Join(dir, "backup.stamp")
	if err := os.WriteFile(stamp, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC)
	if err := os.Chtimes(stamp, now, now.Add(84*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	st := sdk.TestServe(t, fileAge{now: func() time.Time { return now }})
	resp, err := st.Run(context.Background(), sdk.Request{Args: map[string]any{"path": stamp, "maxAge": "24h"}})
	if err == nil {
		t.Fatalf("a file modified 84 days after now was given an age: %#v", resp.Result)
	}
	for _, want := range []string{"after now", "2027-03-01T01:00:00Z", "clock"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
