package parse

import (
	"reflect"
	"testing"
)

// TestRabbitmqctlBannerIsNoHeader: rabbitmqctl list_queues without -q
// (RabbitMQ 3.10, real output) writes two lines of its own before the
// table, "Timeout: 60.0 seconds ..." and "Listing queues for vhost X
// ...". tsv took the first for the header: over a vhost with queues every
// row was a problem (the run Not sure on every healthy broker), and over
// one with none (or a vhost misspelt, which rabbitmqctl lists as empty,
// exit 0) the second line was a row, {"Timeout: 60.0 seconds ...":
// "Listing queues for vhost ordrs ..."}, that a filter on .consumers
// passed over in silence. The banner lines before the header are passed
// over now: the rows are read, and a banner alone is no row.
func TestRabbitmqctlBannerIsNoHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, mode, out string
		want            []any
	}{
		{"tsv, queues", "tsv", "Timeout: 60.0 seconds ...\nListing queues for vhost / ...\nname\tmessages\tconsumers\njobs\t5\t0\ndead.letters\t1\t0\n",
			[]any{map[string]any{"name": "jobs", "messages": 5, "consumers": 0}, map[string]any{"name": "dead.letters", "messages": 1, "consumers": 0}}},
		{"tsv, no queue", "tsv", "Timeout: 60.0 seconds ...\nListing queues for vhost ordrs ...\n", []any{}},
		{"tsv, users", "tsv", "Listing users ...\nuser\ttags\nguest\t[administrator]\n",
			[]any{map[string]any{"user": "guest", "tags": "[administrator]"}}},
		{"columns, queues", "columns", "Timeout: 60.0 seconds ...\nListing queues for vhost / ...\nname\tmessages\tconsumers\njobs\t5\t0\n",
			[]any{map[string]any{"name": "jobs", "messages": 5, "consumers": 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := Parse(tc.out, Spec{Mode: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Value, tc.want) || r.Problems != 0 {
				t.Errorf("got %#v (%d problems: %s); want %#v", r.Value, r.Problems, r.FirstProblem, tc.want)
			}
		})
	}
}
