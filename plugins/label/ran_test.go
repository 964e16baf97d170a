package label

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestRowRanRoundTrip: what a call ran, its declared answer word and the
// cause of an unknown outcome survive a save and a read; a wrong type in
// any of them is refused naming the field.
func TestRowRanRoundTrip(t *testing.T) {
	code := 2
	row := NewRow("s", Returned, &Facts{ExitCode: &code}, false)
	row.Ran = &Ran{Argv: []string{"check_load", "-w", "1"}, Dir: "/tmp", StdoutTail: "CRITICAL", StderrTail: "x"}
	row.Answer = "critical"
	data, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadRow(data)
	if err != nil {
		t.Fatalf("ReadRow: %v", err)
	}
	if !reflect.DeepEqual(back, row) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, row)
	}
	for _, bad := range []struct{ doc, field string }{
		{`"ran": 3`, "ran must be an object"},
		{`"ran": {"argv": [1]}`, "ran.argv[0]"},
		{`"ran": {"shell": true}`, "ran.shell"},
		{`"answer": 2`, "answer must be a string"},
		{`"cause": []`, "cause must be a string"},
	} {
		doc := `{"path":"s","settlement":"threw","label":"outcome-unknown",` + bad.doc + `}`
		if _, err := ReadRow([]byte(doc)); err == nil || !strings.Contains(err.Error(), bad.field) {
			t.Errorf("ReadRow(%s) = %v; want an error naming %q", doc, err, bad.field)
		}
	}
}
