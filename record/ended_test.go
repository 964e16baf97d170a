package record

import "testing"

// A run its timeout ended is said to have timed out, from the saved record
// alone; one cancelled otherwise, that it was cancelled.
func TestEnded(t *testing.T) {
	for _, tc := range []struct {
		rec  *Record
		want string
	}{
		{nil, ""},
		{&Record{Status: "completed"}, ""},
		{&Record{Status: "paused"}, ""},
		{&Record{Status: "failed", Error: &RecordError{Message: "boom"}}, "failed"},
		{&Record{Status: "cancelled", Error: &RecordError{Message: "the run was cancelled while this stage ran: context canceled"}}, "was cancelled"},
		{&Record{Status: "cancelled", Error: &RecordError{Message: "the run timed out while this stage ran: context deadline exceeded"}}, "timed out"},
		{&Record{Status: "cancelled", Error: &RecordError{Message: "the run timed out before this stage started: context deadline exceeded"}}, "timed out"},
		{&Record{Status: "cancelled"}, "was cancelled"},
	} {
		if got := tc.rec.Ended(); got != tc.want {
			t.Errorf("%+v: Ended = %q, want %q", tc.rec, got, tc.want)
		}
	}
}

// TestNoRowsTable: an empty projection is "the projected set is empty"
// only for a run that completed; one that stopped or paused before a row
// says so (TestStoppedRunTableIsNotAnEmptySet in cmd/runbook holds the
// outputs to it).
func TestNoRowsTable(t *testing.T) {
	for _, tc := range []struct {
		rec  *Record
		want string
	}{
		{&Record{Status: "completed"}, EmptySet},
		{&Record{Status: "paused"}, "No verdict rows yet: the run paused to ask a question before it wrote any."},
		{&Record{Status: "failed", Error: &RecordError{Message: "boom"}}, "No verdict rows: the run failed before it wrote any."},
		{&Record{Status: "cancelled", Error: &RecordError{Message: "the run timed out while this stage ran: context deadline exceeded"}}, "No verdict rows: the run timed out before it wrote any."},
		{&Record{Status: "cancelled"}, "No verdict rows: the run was cancelled before it wrote any."},
	} {
		if got := tc.rec.NoRowsTable(); got != tc.want {
			t.Errorf("%s: NoRowsTable = %q, want %q", tc.rec.Status, got, tc.want)
		}
	}
}
