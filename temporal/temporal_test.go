package temporal_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/server/temporaltest"

	"github.com/openrunbook/runbook/runbook"
	"github.com/openrunbook/runbook/temporal"
)

// server is a real Temporal server in this process (SQLite, in memory)
// with a worker of this package's workflow and activity on its queue.
func server(t *testing.T, queue string) (*temporaltest.TestServer, client.Client) {
	t.Helper()
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	c := ts.GetDefaultClient()
	w := temporal.NewWorker(c, queue) // its options, not temporaltest's
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return ts, c
}

// conformance are the charts both executors run: every way an exec stage
// ends, a foreach of exec stages with decisions, verdicts and retries,
// read: stages, and the logscan example.
var conformance = []struct {
	chart  string
	inputs map[string]any
}{
	{"testdata/charts/outcomes.yaml", nil},
	{"testdata/charts/foreach.yaml", nil},
	{"testdata/charts/foreach.yaml", map[string]any{"limit": "3"}},
	{"testdata/charts/reads.yaml", nil},
	// A glob's folder the worker could not read: a not-checked item on
	// Temporal as locally (it came back as the files alone, found none).
	{"testdata/charts/unread.yaml", nil},
	// Output and a file that are not UTF-8, JSON naming a key twice, CRLF
	// line ends: each ledger item a worker's bytes make, as a local run's.
	{"testdata/charts/bytes.yaml", nil},
	// Past the server's 2000 pending activities a run (the workflow waits
	// for slots) and past its 2 MiB payload (the record comes back gzipped).
	{"testdata/charts/large.yaml", nil},
	// A shipped example: coverage declared by the script, and (at FATAL)
	// an absence that names where it looked.
	{"../examples/logscan/chart.yaml", map[string]any{"log": "../examples/logscan/app.log", "level": "ERROR"}},
	{"../examples/logscan/chart.yaml", map[string]any{"log": "../examples/logscan/app.log"}},
	// Whole numbers given as Go ints (a tool call's or an --inputs file's
	// JSON holds them so): Temporal's JSON made them float64s on the
	// worker, where string(id) spelled 1e+08 and the local run 100000000.
	{"testdata/charts/numbers.yaml", map[string]any{"id": 100000000, "big": 9007199254740993, "ids": []any{123456789, 2}}},
}

// durations are the one fact that differs between two runs of the same
// chart on the same machine, whichever executor: how long each process
// took. The record holds no clock time and no id.
var durations = regexp.MustCompile(`"durationMs": [0-9.e+-]+|"finishedAt": "[^"]*"`)

func masked(b []byte) string {
	return durations.ReplaceAllString(string(b), `"durationMs": 0`)
}

// sealTail is the seal a record file closes with (record/seal.go).
var sealTail = regexp.MustCompile(`,\n  "recordDigest": "sha256:[0-9a-f]{64}"\n}\n$`)

// savedRecord is the record file at path, masked, its seal taken off to
// compare it with localRecord's bytes; a file saved without its seal is
// an error (a record saved through Temporal was, so an edit to it was
// explained as the run's own record).
func savedRecord(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	unsealed := sealTail.ReplaceAll(b, []byte("\n}\n"))
	if len(unsealed) == len(b) {
		t.Errorf("the record saved at %s does not close with its seal (recordDigest): %q", path, b[max(0, len(b)-80):])
	}
	return masked(unsealed)
}

// localRecord is a local run's record of path, as `runbook exec` saves it.
// Its path is made absolute, as Executor.ExecFile sends it.
func localRecord(t *testing.T, path string, inputs map[string]any) []byte {
	t.Helper()
	path, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(res.RunRecord(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestConformance is the Temporal executor's one promise: the same chart
// and inputs leave the same run record, byte for byte with timings
// masked, as a local run — every exec outcome, each retry attempt, a
// foreach's branches, its decisions and verdicts.
func TestConformance(t *testing.T) {
	_, c := server(t, "conformance")
	ex := &temporal.Executor{Client: c, TaskQueue: "conformance"}
	for _, tc := range conformance {
		t.Run(strings.ReplaceAll(strings.TrimPrefix(tc.chart, "../"), "/", "_"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			run, err := ex.ExecFile(ctx, tc.chart, tc.inputs)
			if err != nil {
				t.Fatal(err)
			}
			local := masked(localRecord(t, tc.chart, tc.inputs))
			if got := masked(run.Record); got != local {
				t.Errorf("the record on Temporal differs from the local one:\n%s", lineDiff(local, got))
			}
			if _, err := run.RunRecord(); err != nil {
				t.Errorf("the record does not read back: %v", err)
			}
		})
	}
}

// TestSecretInputRefused: a chart with a secret input is refused before
// any workflow starts (no client is even asked), unless the caller says
// the client encrypts payloads — Temporal's history would hold the secret.
func TestSecretInputRefused(t *testing.T) {
	const src = `version: 1
runbook: with-secret
inputs:
  token: {type: string, secret: true, description: an API token}
stages:
  - {id: use, exec: {command: ["true"], envFrom: {TOKEN: token}, into: u}}
`
	ex := &temporal.Executor{} // no client: nothing may reach one
	_, err := ex.Exec(context.Background(), temporal.RunInput{File: "secret.yaml", Chart: []byte(src), Inputs: map[string]any{"token": "s3cr3t-value"}})
	if err == nil || !strings.Contains(err.Error(), `input "token" is secret`) || strings.Contains(err.Error(), "s3cr3t-value") {
		t.Fatalf("err = %v, want the secret input named (and its value never)", err)
	}
}

// TestNamedSecretEnvRefusedWithoutCodec: a password given as a plain
// input and handed to psql as PGPASSWORD is a secret of the run (masked
// in every output and the record), and it ran on Temporal with no codec
// key, its value in the clear in the workflow's history (the run's input,
// the stage's activity). It is refused as a secret input is, naming the
// stage and the variable, before any client is asked.
func TestNamedSecretEnvRefusedWithoutCodec(t *testing.T) {
	const src = `version: 1
runbook: plain-password
inputs:
  pw: {type: string, description: the database password}
stages:
  - id: each
    foreach:
      items: '["a"]'
      as: db
      maxBranches: 1
      stages:
        - {id: conn, exec: {command: ["true"], envFrom: {PGPASSWORD: pw}, into: c}}
`
	ex := &temporal.Executor{} // no client: nothing may reach one
	_, err := ex.Exec(context.Background(), temporal.RunInput{File: "plain.yaml", Chart: []byte(src), Inputs: map[string]any{"pw": "PLAINpassWORD99"}})
	if err == nil || !strings.Contains(err.Error(), `stage "each~*/conn" hands its command PGPASSWORD (envFrom:)`) || !strings.Contains(err.Error(), "--codec-key") || strings.Contains(err.Error(), "PLAINpass") {
		t.Fatalf("err = %v, want the stage and the variable named, the codec key asked for (and the value never)", err)
	}
}

// TestBadInputsRefusedBeforeAWorkflow: inputs a local run would refuse are
// refused by the Executor in the same words, before any client is asked.
func TestBadInputsRefusedBeforeAWorkflow(t *testing.T) {
	src, err := os.ReadFile("testdata/charts/foreach.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ex := &temporal.Executor{} // no client: nothing may reach one
	_, err = ex.Exec(context.Background(), temporal.RunInput{File: "foreach.yaml", Chart: src, Inputs: map[string]any{"limit": "many"}})
	rb, lerr := runbook.Open("testdata/charts/foreach.yaml")
	if lerr != nil {
		t.Fatal(lerr)
	}
	_, local := rb.Exec(context.Background(), map[string]any{"limit": "many"})
	if err == nil || local == nil || err.Error() != local.Error() {
		t.Fatalf("err = %v, want the local refusal %v", err, local)
	}
}

// TestRecordPastThePayloadLimit: a record that even gzipped is more than a
// workflow may return fails the run in words that name the sizes and the
// limit, not in Temporal's own.
func TestRecordPastThePayloadLimit(t *testing.T) {
	_, c := server(t, "too-large")
	ex := &temporal.Executor{Client: c, TaskQueue: "too-large"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := ex.Exec(ctx, temporal.RunInput{File: "noise.yaml", Chart: []byte(`version: 1
runbook: noise
stages:
  - id: per-item
    foreach:
      items: 'map(1..200, #)'
      as: i
      maxBranches: 200
      stages:
        - {id: noise, exec: {shell: 'head -c 3000 /dev/urandom | base64 -w0', into: n}}
`)})
	if err == nil || !regexp.MustCompile(`the run record is [0-9]+ bytes \([0-9]+ gzipped\), more than a workflow may return on Temporal \(its payload limit, 2 MiB\)`).MatchString(err.Error()) {
		t.Fatalf("err = %v, want the record's size and the payload limit named", err)
	}
}
