package temporal_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/server/temporaltest"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/openrunbook/runbook/temporal"
	"github.com/openrunbook/runbook/temporal/codec"
)

// codecServer is the embedded server with a worker on queue whose client
// holds workerKeys (nil: no codec; empty: codec.Keyless, as
// runbook-temporal gives a process with no key), and a client for runs
// holding runKeys.
func codecServer(t *testing.T, queue string, runKeys, workerKeys [][]byte) (*temporaltest.TestServer, client.Client) {
	t.Helper()
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	opts := func(keys [][]byte) client.Options {
		var o client.Options
		if keys != nil && len(keys) == 0 {
			o.DataConverter = codec.DataConverter(codec.Keyless())
		} else if keys != nil {
			c, err := codec.New(keys)
			if err != nil {
				t.Fatal(err)
			}
			o.DataConverter = codec.DataConverter(c)
		}
		return o
	}
	w := temporal.NewWorker(ts.NewClientWithOptions(opts(workerKeys)), queue)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return ts, ts.NewClientWithOptions(opts(runKeys))
}

const secretValue = "s3cr3t-Tok3n-value"

// history is every event of a workflow's history as the server holds it,
// read by a client with no codec, each event's bytes and its payloads.
func history(t *testing.T, c client.Client, workflowID string) (raw [][]byte, payloads []*commonpb.Payload) {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), workflowID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		b, err := proto.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, b)
		payloads = append(payloads, payloadsIn(e.ProtoReflect())...)
	}
	return raw, payloads
}

// payloadsIn are the payloads anywhere inside m, but a search attribute's:
// the server indexes those, so no codec ever encodes them, and a run's are
// only the SDK's TemporalChangeVersion (the change ids of its GetVersion
// markers, such as "runbook.execBatch-1"). The raw-bytes scan still reads
// them for the secret.
func payloadsIn(m protoreflect.Message) []*commonpb.Payload {
	if p, ok := m.Interface().(*commonpb.Payload); ok {
		return []*commonpb.Payload{p}
	}
	if _, ok := m.Interface().(*commonpb.SearchAttributes); ok {
		return nil
	}
	var out []*commonpb.Payload
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len(); i++ {
				out = append(out, payloadsIn(v.List().Get(i).Message())...)
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				out = append(out, payloadsIn(mv.Message())...)
				return true
			})
		case fd.Message() != nil && !fd.IsList() && !fd.IsMap():
			out = append(out, payloadsIn(v.Message())...)
		}
		return true
	})
	return out
}

// holds says where in a history the secret is, in any form it may
// travel in (as it is, or base64 as a []byte travels in JSON).
func holds(raw [][]byte, payloads []*commonpb.Payload) []string {
	forms := [][]byte{[]byte(secretValue), []byte(base64.StdEncoding.EncodeToString([]byte(secretValue))[:16])}
	var where []string
	for i, b := range raw {
		for _, f := range forms {
			if bytes.Contains(b, f) {
				where = append(where, fmt.Sprintf("event %d", i+1))
			}
		}
	}
	for _, p := range payloads {
		for _, f := range forms {
			if bytes.Contains(p.GetData(), f) {
				where = append(where, "a payload")
			}
		}
	}
	return where
}

// TestSecretOnTemporalWithCodec: with a codec, a chart whose secret input
// reaches its process through envFrom runs on Temporal, and its record is
// the local run's; the run's whole history, read by a client with no
// codec, holds the secret nowhere (not in the raw bytes of any event, not
// in any payload, every payload encrypted). The same scan finds the value
// in the history of a run without a codec (the value not declared
// secret), so the scan can fail.
func TestSecretOnTemporalWithCodec(t *testing.T) {
	key := codec.NewKey()
	ts, c := codecServer(t, "secret", [][]byte{key}, [][]byte{key})
	plain := temporal.NewWorker(ts.GetDefaultClient(), "plain")
	if err := plain.Start(); err != nil {
		t.Fatal(err)
	}
	defer plain.Stop()
	const chart = "testdata/charts/secret.yaml"
	inputs := map[string]any{"token": secretValue}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	ex := &temporal.Executor{Client: c, TaskQueue: "secret", WorkflowID: "secret-run", SecretsEncrypted: true}
	run, err := ex.ExecFile(ctx, chart, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := masked(run.Record), masked(localRecord(t, chart, inputs)); got != want {
		t.Errorf("the record on Temporal differs from the local one:\n%s", lineDiff(want, got))
	}
	if !strings.Contains(string(run.Record), `"stdout": "18\ntoken=`) || strings.Contains(string(run.Record), secretValue) {
		t.Errorf("the process did not see the secret, or the record shows it:\n%s", run.Record)
	}
	raw, payloads := history(t, ts.GetDefaultClient(), "secret-run")
	if where := holds(raw, payloads); len(where) > 0 {
		t.Errorf("the history holds the secret: %v", where)
	}
	if len(payloads) == 0 {
		t.Fatal("no payloads in the history: the scan saw nothing")
	}
	for _, p := range payloads {
		if enc := string(p.GetMetadata()[converter.MetadataEncoding]); enc != "binary/encrypted" {
			t.Errorf("a payload in the history is %q, not encrypted", enc)
		}
	}

	// Teeth: the same value, not secret, on a client with no codec (and
	// handed to the command as VALUE: a variable named TOKEN is a secret
	// of the run, refused without a codec, TestNamedSecretEnvRefusedWithoutCodec).
	src, err := os.ReadFile(chart)
	if err != nil {
		t.Fatal(err)
	}
	plainChart := bytes.ReplaceAll(bytes.Replace(src, []byte("secret: true"), []byte("secret: false"), 1), []byte("TOKEN"), []byte("VALUE"))
	open := &temporal.Executor{Client: ts.GetDefaultClient(), TaskQueue: "plain", WorkflowID: "plain-run"}
	if _, err := open.Exec(ctx, temporal.RunInput{File: chart, Chart: plainChart, Inputs: inputs}); err != nil {
		t.Fatal(err)
	}
	if raw, payloads := history(t, ts.GetDefaultClient(), "plain-run"); len(holds(raw, payloads)) == 0 {
		t.Error("the scan did not find the value in a run without a codec: it cannot fail")
	}
}

// TestCodecKeyRotatedOnServer: in the middle of a rotation from key B to
// key A, a run started by a client still encrypting with B (keys [B, A])
// is run by a worker already encrypting with A (keys [A, B]): each
// decodes the other's payloads, and the record is the local run's.
func TestCodecKeyRotatedOnServer(t *testing.T) {
	a, b := codec.NewKey(), codec.NewKey()
	_, c := codecServer(t, "rotated", [][]byte{b, a}, [][]byte{a, b})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const chart = "testdata/charts/secret.yaml"
	inputs := map[string]any{"token": secretValue}
	run, err := (&temporal.Executor{Client: c, TaskQueue: "rotated", SecretsEncrypted: true}).ExecFile(ctx, chart, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := masked(run.Record), masked(localRecord(t, chart, inputs)); got != want {
		t.Errorf("the record on Temporal differs from the local one:\n%s", lineDiff(want, got))
	}
}

// TestCodecWrongKeyOnWorker: a worker whose key is not the run's fails
// the run in words that name the key it wanted and the one it holds, at
// once, not after a wait; a worker given no key (runbook-temporal's
// keyless codec) says it was given none, and a worker with no codec at
// all fails it too, in the SDK's words.
func TestCodecWrongKeyOnWorker(t *testing.T) {
	a, b := codec.NewKey(), codec.NewKey()
	for _, tc := range []struct {
		name   string
		worker [][]byte
		want   []string
	}{
		{"other key", [][]byte{b}, []string{codec.KeyID(a), codec.KeyID(b), "--codec-key"}},
		{"no key", [][]byte{}, []string{codec.KeyID(a), "given no codec key", "--codec-key"}},
		{"no codec", nil, []string{"unable to decode"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, c := codecServer(t, "wrong-key", [][]byte{a}, tc.worker)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := (&temporal.Executor{Client: c, TaskQueue: "wrong-key", SecretsEncrypted: true}).ExecFile(ctx, "testdata/charts/secret.yaml", map[string]any{"token": secretValue})
			if err == nil {
				t.Fatal("the run went through a worker without its key")
			}
			t.Logf("err: %v", err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err %q, want it to say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), secretValue) {
				t.Errorf("err %q shows the secret", err)
			}
		})
	}
}
