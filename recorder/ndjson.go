package recorder

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// NDJSON writes the run's events as newline-delimited JSON, one object a
// line, with only the fields that mean something for the event's kind:
//
//	{"event":"stage.start","path":"load#0","stage":"load","name":"Load"}
//	{"event":"scope.write","path":"load#0","stage":"load","name":"Load","key":"used","value":95}
//	{"event":"flow.decision","path":"classify#1",…,"branches":["at-risk"],"decision":{…}}
//	{"event":"stage.end","path":"load#0","stage":"load","name":"Load","elapsedMs":0.042}
//
// Fields: event (Kind's wire name), path, stage (id), name, subflow, key,
// value, deleted, decision (decide.Evidence as JSON), branches, branch,
// index, total, target, error, elapsedMs. Strings are left out when empty;
// value always appears on reads and writes (null included); index appears on
// branch, loop, retry, commit and truncation events, total where it is set.
//
// Output goes through a bufio.Writer: call Flush (the engine does) to write
// the tail. The first write error stops the stream and is returned by Err.
//
// Cost per event: appending the JSON to a buffer; values of plain types and
// nested maps and slices of them are written without encoding/json; decision
// evidence goes through encoding/json.
type NDJSON struct {
	w       *bufio.Writer
	timings bool
	line    []byte
	err     error
}

// NDJSONOption sets an optional part of an NDJSON recorder.
type NDJSONOption func(*NDJSON)

// WithoutTimings leaves elapsedMs out, so the same run writes the same bytes
// (golden files, diffs between runs).
func WithoutTimings() NDJSONOption { return func(n *NDJSON) { n.timings = false } }

// NewNDJSON writes events to w.
func NewNDJSON(w io.Writer, opts ...NDJSONOption) *NDJSON {
	n := &NDJSON{w: bufio.NewWriter(w), timings: true}
	for _, o := range opts {
		o(n)
	}
	return n
}

// Record writes e as one line. After a write error it does nothing.
func (n *NDJSON) Record(e Event) {
	if n.err != nil {
		return
	}
	n.line = AppendJSON(n.line[:0], e, n.timings)
	n.line = append(n.line, '\n')
	if _, err := n.w.Write(n.line); err != nil {
		n.err = fmt.Errorf("recorder: ndjson: %w", err)
	}
}

// Flush writes what is buffered.
func (n *NDJSON) Flush() {
	if n.err != nil {
		return
	}
	if err := n.w.Flush(); err != nil {
		n.err = fmt.Errorf("recorder: ndjson: %w", err)
	}
}

// Err is the first write error, or nil.
func (n *NDJSON) Err() error { return n.err }

// AppendJSON appends e as the NDJSON recorder writes it (one object, no
// newline). timings false leaves elapsedMs out.
func AppendJSON(b []byte, e Event, timings bool) []byte {
	b = append(b, `{"event":`...)
	b = appendString(b, e.Kind.String())
	b = field(b, "path", e.Path)
	b = field(b, "stage", e.StageID)
	b = field(b, "name", e.StageName)
	b = field(b, "subflow", e.Subflow)
	b = field(b, "key", e.Key)
	if e.Kind == Read || e.Kind == Write {
		if !e.Deleted {
			b = append(b, `,"value":`...)
			b = appendValue(b, e.Value, 0)
		}
	} else if e.Value != nil {
		b = append(b, `,"value":`...)
		b = appendValue(b, e.Value, 0)
	}
	if e.Deleted {
		b = append(b, `,"deleted":true`...)
	}
	if len(e.Branches) > 0 {
		b = append(b, `,"branches":[`...)
		for i, s := range e.Branches {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s)
		}
		b = append(b, ']')
	}
	b = field(b, "branch", e.Branch)
	switch e.Kind {
	case BranchStart, BranchEnd, Loop, Retry, Commit, Truncated:
		b = append(b, `,"index":`...)
		b = strconv.AppendInt(b, int64(e.Index), 10)
	default:
		if e.Index != 0 {
			b = append(b, `,"index":`...)
			b = strconv.AppendInt(b, int64(e.Index), 10)
		}
	}
	if e.Total != 0 {
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(e.Total), 10)
	}
	b = field(b, "target", e.Target)
	b = field(b, "error", e.Err)
	if timings && (e.Elapsed != 0 || e.Kind == StageEnd || e.Kind == RunEnd) {
		b = append(b, `,"elapsedMs":`...)
		b = strconv.AppendFloat(b, float64(e.Elapsed.Nanoseconds())/1e6, 'f', -1, 64)
	}
	if e.Decision != nil {
		b = append(b, `,"decision":`...)
		if data, err := json.Marshal(e.Decision); err == nil {
			b = append(b, data...)
		} else {
			b = append(b, `{"error":`...)
			b = appendString(b, err.Error())
			b = append(b, '}')
		}
	}
	return append(b, '}')
}

func field(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, value)
}
