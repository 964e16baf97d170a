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
