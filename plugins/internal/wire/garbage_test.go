package wire

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc"

	"github.com/openrunbook/runbook/plugins/internal/pb"
)

// garbagePB answers every batch with the results it holds.
type garbagePB struct{ results []*pb.CallResult }

func (g garbagePB) Describe(context.Context, *pb.DescribeRequest, ...grpc.CallOption) (*pb.Description, error) {
	return &pb.Description{}, nil
}

func (g garbagePB) RunBatch(context.Context, *pb.RunBatchRequest, ...grpc.CallOption) (*pb.RunBatchResponse, error) {
	return &pb.RunBatchResponse{Results: g.results}, nil
}

// TestRunBatchRefusesGarbage: a plugin's answer that is not what was asked
// — a result that is not JSON, two values, an answer to a call never made,
// one answered twice, one missing — is an error for the batch (the host
// makes it a *host.Error naming the plugin), never a panic or a wrong
// value handed to the wrong caller.
func TestRunBatchRefusesGarbage(t *testing.T) {
	t.Parallel()
	calls := []Call{{ID: 1}, {ID: 2}}
	ok := func(id uint64) *pb.CallResult { return &pb.CallResult{Id: id, ResultJson: []byte(`{"a":1}`)} }
	tests := []struct {
		name    string
		results []*pb.CallResult
		want    string
	}{
		{"not JSON", []*pb.CallResult{ok(1), {Id: 2, ResultJson: []byte("\x00\xffgarbage")}}, "result of call 2 is not JSON"},
		// A plugin in another language sending raw bytes: encoding/json
		// read each as U+FFFD, a value the plugin never sent.
		{"not UTF-8", []*pb.CallResult{ok(1), {Id: 2, ResultJson: []byte("{\"s\":\"\xff\xfe\"}")}}, "not UTF-8: byte 6 is 0xff"},
		// A key named twice, half a UTF-16 pair: encoding/json kept the
		// last value, read U+FFFD, in silence.
		{"key twice", []*pb.CallResult{ok(1), {Id: 2, ResultJson: []byte(`{"s":"ok","s":"failed"}`)}}, `names the key "s" twice`},
		{"half a pair", []*pb.CallResult{ok(1), {Id: 2, ResultJson: []byte(`{"s":"\ud83d"}`)}}, `escapes \ud83d at byte 6`},
		{"two values", []*pb.CallResult{ok(1), {Id: 2, ResultJson: []byte(`1 2`)}}, "more than one value"},
		{"cut short", []*pb.CallResult{ok(1), {Id: 2, ResultJson: []byte(`{"a":`)}}, "is not JSON"},
		{"never asked", []*pb.CallResult{ok(1), ok(2), ok(9)}, "call 9, which was not asked"},
		{"answered twice", []*pb.CallResult{ok(1), ok(1), ok(2)}, "answered twice"},
		{"missing", []*pb.CallResult{ok(2)}, "no answer for call 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &StageClient{c: garbagePB{results: tc.results}}
			out, err := c.RunBatch(context.Background(), calls)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("out %v err %v; want %q", out, err, tc.want)
			}
		})
	}
}
