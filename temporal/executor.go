package temporal

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"

	"go.temporal.io/sdk/client"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// Executor runs charts on Temporal: each run one workflow on TaskQueue,
// run by the workers there (NewWorker).
type Executor struct {
	Client    client.Client
	TaskQueue string // DefaultTaskQueue when ""
	// WorkflowID names the workflow of a run; "" lets Temporal choose.
	WorkflowID string
	// SecretsEncrypted says the client's data converter encrypts payloads
	// (a Temporal payload codec). A run's inputs, and the secret values its
	// commands' output is masked by, are stored in the workflow's history:
	// without it, a chart that declares a secret input is refused.
	SecretsEncrypted bool
}

// Run is one run on Temporal: the workflow that ran it and its run record.
type Run struct {
	WorkflowID, RunID string
	// Record is the run record's bytes, as a local run saves them
	// (runbook.Result.WriteRecord).
	Record []byte
}

// RunRecord reads the run's record.
func (r *Run) RunRecord() (*record.RunRecord, error) {
	rec, problems, err := record.ParseRecord(r.Record)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("the run record from Temporal: %s", problems[0])
	}
	return rec, nil
}

// ExecFile runs the chart at path with inputs on Temporal and waits for
// its record. The chart is read here and sent whole, so a worker needs no
// copy of it.
func (e *Executor) ExecFile(ctx context.Context, path string, inputs map[string]any) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) > chart.MaxChartBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than a chart may be (%d)", path, len(b), chart.MaxChartBytes)
	}
	return e.Exec(ctx, RunInput{File: path, Chart: b, Inputs: inputs})
}

// Exec starts one run's workflow and waits for its record. The error is
// the run's failing to start or to finish (a chart that does not load and
// inputs refused, both said before any workflow starts; a worker that
// never answered), never a run that failed: that is the record's status.
func (e *Executor) Exec(ctx context.Context, in RunInput) (*Run, error) {
	// The chart and the inputs are checked here, as a local run checks
	// them, so a refusal is said before any workflow starts.
	spec, err := chart.Parse(in.File, in.Chart)
	if err != nil {
		return nil, err
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		return nil, err
	}
	if _, err := rb.PlanInputs(in.Inputs); err != nil {
		return nil, err
	}
	if !e.SecretsEncrypted {
		for _, is := range spec.Inputs {
			if is.Secret {
				return nil, fmt.Errorf("%s: input %q is secret, and on Temporal a run's inputs and secret values are stored in the workflow's history: give the client a data converter that encrypts payloads and set Executor.SecretsEncrypted (docs/SCALE.md)", in.File, is.Name)
			}
		}
	}
	wr, err := e.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: e.WorkflowID, TaskQueue: queue(e.TaskQueue)}, WorkflowName, in)
	if err != nil {
		return nil, fmt.Errorf("start the run on Temporal: %w", err)
	}
	var out RunOutput
	if err := wr.Get(ctx, &out); err != nil {
		return nil, fmt.Errorf("the run on Temporal (workflow %s): %w", wr.GetID(), err)
	}
	rec := out.Record
	if out.RecordGzip != nil {
		if rec, err = gunzip(out.RecordGzip); err != nil {
			return nil, fmt.Errorf("the run record from Temporal (workflow %s): %w", wr.GetID(), err)
		}
	}
	return &Run{WorkflowID: wr.GetID(), RunID: wr.GetRunID(), Record: rec}, nil
}

// maxRecord bounds a gzipped record's expansion: far past any record a
// run writes (a 10k-item foreach's is about 15 MB), short of exhausting
// memory on a corrupt payload.
const maxRecord = 1 << 30

func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	rec, err := io.ReadAll(io.LimitReader(zr, maxRecord+1))
	if err != nil {
		return nil, err
	}
	if len(rec) > maxRecord {
		return nil, fmt.Errorf("more than %d bytes gzipped", maxRecord)
	}
	return rec, nil
}
