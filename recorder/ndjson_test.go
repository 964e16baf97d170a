package recorder

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func ndjson(events []Event, opts ...NDJSONOption) (string, error) {
	var out bytes.Buffer
	n := NewNDJSON(&out, opts...)
	for _, e := range events {
		n.Record(e)
	}
	n.Flush()
	return out.String(), n.Err()
}

// Expression evidence is left out of the golden streams: its inputs marshal
// through rules.Inputs, which rules owns.
var ndjsonFixtures = []struct {
	name   string
	events func() []Event
}{
	{"decide-filter", fixtureDecideFilter},
	{"foreach", fixtureForEach},
	{"retry", fixtureRetry},
	{"error", fixtureError},
	{"linear", fixtureLinear},
}

func TestNDJSONGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range ndjsonFixtures {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := ndjson(tc.events(), WithoutTimings())
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "ndjson/"+tc.name+".ndjson", []byte(out))
		})
	}
}

// Every line is one JSON object whose "event" names its kind; ParseKind
// reads it back.
func TestNDJSONLinesAreJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenFixtures {
		events := tc.events()
		out, err := ndjson(events)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(strings.NewReader(out))
		i := 0
		for sc.Scan() {
			var obj struct {
				Event     Kind     `json:"event"`
				Path      string   `json:"path"`
				ElapsedMs *float64 `json:"elapsedMs"`
			}
			if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
				t.Fatalf("%s line %d: %v: %s", tc.name, i+1, err, sc.Bytes())
			}
			if obj.Event != events[i].Kind || obj.Path != events[i].Path {
				t.Errorf("%s line %d: event %v at %q, want %v at %q", tc.name, i+1, obj.Event, obj.Path, events[i].Kind, events[i].Path)
			}
			if (events[i].Kind == StageEnd) != (obj.ElapsedMs != nil) && events[i].Kind != RunEnd {
				t.Errorf("%s line %d: elapsedMs presence wrong: %s", tc.name, i+1, sc.Bytes())
			}
			i++
		}
		if i != len(events) {
			t.Errorf("%s: %d lines, want %d", tc.name, i, len(events))
		}
	}
}

func TestNDJSONTimings(t *testing.T) {
	t.Parallel()
	out, _ := ndjson(fixtureRetry())
	if !strings.Contains(out, `"elapsedMs":1.5`) || !strings.Contains(out, `"elapsedMs":42`) {
		t.Errorf("timings missing:\n%s", out)
	}
	out, _ = ndjson(fixtureRetry(), WithoutTimings())
	if strings.Contains(out, "elapsedMs") {
		t.Errorf("timings written WithoutTimings:\n%s", out)
	}
}

type brokenWriter struct{ writes int }

func (b *brokenWriter) Write(p []byte) (int, error) {
	b.writes++
	return 0, errors.New("broken pipe")
}

func TestNDJSONWriteError(t *testing.T) {
	t.Parallel()
	w := &brokenWriter{}
	n := NewNDJSON(w)
	for range 3 {
		for _, e := range fixtureLoop(50) { // more than the bufio buffer
			n.Record(e)
		}
	}
	n.Flush()
	err := n.Err()
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Fatalf("Err = %v, want the write error", err)
	}
	if w.writes != 1 {
		t.Errorf("%d writes after the first error, want none", w.writes-1)
	}
	// surfaced through a dispatcher as a problem
	d := NewDispatcher(NewNDJSON(&brokenWriter{}))
	d.Record(Event{Kind: RunStart})
	d.Flush()
	if ps := d.Problems(); len(ps) != 1 || !strings.Contains(ps[0].Message, "broken pipe") {
		t.Errorf("problems = %v", ps)
	}
}

func TestNDJSONValueAlwaysOnWrites(t *testing.T) {
	t.Parallel()
	out, _ := ndjson([]Event{
		{Kind: Write, Key: "k", Value: nil},
		{Kind: Write, Key: "k", Value: 0},
		{Kind: Write, Key: "k", Deleted: true},
		{Kind: BranchStart, Branch: "b~0", Index: 0},
	})
	want := `{"event":"scope.write","key":"k","value":null}
{"event":"scope.write","key":"k","value":0}
{"event":"scope.write","key":"k","deleted":true}
{"event":"branch.start","branch":"b~0","index":0}
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}
