package label

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestNewRow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		settlement     Settlement
		facts          *Facts
		resultWithheld bool
		wantJSON       string
	}{
		{"completed", Returned, &Facts{OK: ptr(true), ExitCode: ptr(0)}, false,
			`{"path":"collect","settlement":"returned","facts":{"ok":true,"exitCode":0},"label":"completed","exitCode":0,"words":"completed"}`},
		{"failure exit 7", Returned, &Facts{OK: ptr(false), ExitCode: ptr(7)}, false,
			`{"path":"collect","settlement":"returned","facts":{"ok":false,"exitCode":7},"label":"completed-with-failure","exitCode":7,"words":"completed with failure, exit 7"}`},
		{"withheld result keeps the label", Returned, &Facts{OK: ptr(true), ExitCode: ptr(0)}, true,
			`{"path":"collect","settlement":"returned","facts":{"ok":true,"exitCode":0},"label":"completed","exitCode":0,"resultWithheld":true,"words":"completed"}`},
		{"withheld with no facts", Returned, nil, true,
			`{"path":"collect","settlement":"returned","label":"returned","resultWithheld":true,"words":"returned"}`},
		{"timed out", Threw, nil, false,
			`{"path":"collect","settlement":"threw","label":"outcome-unknown","words":"outcome unknown"}`},
		{"service error", Returned, &Facts{OK: ptr(false), ServiceError: true}, false,
			`{"path":"collect","settlement":"returned","facts":{"ok":false,"serviceError":true},"label":"outcome-unknown","words":"outcome unknown"}`},
		{"never started", NotEntered, nil, false,
			`{"path":"collect","settlement":"not-entered","label":"submitted","words":"submitted"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			row := NewRow("collect", tc.settlement, tc.facts, tc.resultWithheld)
			b, err := json.Marshal(row)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.wantJSON {
				t.Fatalf("got  %s\nwant %s", b, tc.wantJSON)
			}
			back, err := ReadRow(b)
			if err != nil {
				t.Fatalf("ReadRow refused what NewRow filed: %v", err)
			}
			if !reflect.DeepEqual(back, row) {
				t.Fatalf("read back %s, want %s", show(back), show(row))
			}
			// resultWithheld never changes the label.
			if other := NewRow("collect", tc.settlement, tc.facts, !tc.resultWithheld); other.Label != row.Label {
				t.Fatalf("resultWithheld changed the label: %q vs %q", other.Label, row.Label)
			}
		})
	}
}

func TestNewRowCopiesFacts(t *testing.T) {
	t.Parallel()
	f := &Facts{OK: ptr(false), ExitCode: ptr(2)}
	row := NewRow("x", Returned, f, false)
	*f.ExitCode = 0
	*f.OK = true
	if *row.Facts.ExitCode != 2 || *row.Facts.OK {
		t.Fatalf("row changed with the caller's facts: %s", show(row))
	}
}

func TestReadRowRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		json    string
		wantErr string // a fragment the message must hold
	}{
		{"not JSON", `{`, "not JSON"},
		{"not an object", `[1]`, "must be a JSON object"},
		{"missing path", `{"settlement":"returned","label":"returned"}`, "path is missing"},
		{"path not a string", `{"path":3,"settlement":"returned","label":"returned"}`, "path must be a string"},
		{"missing settlement", `{"path":"a","label":"returned"}`, "settlement is missing"},
		{"unknown settlement", `{"path":"a","settlement":"exploded","label":"outcome-unknown"}`, `settlement "exploded" is not one of`},
		{"unknown label", `{"path":"a","settlement":"returned","label":"done"}`, `label "done" is not one of`},
		{"label missing", `{"path":"a","settlement":"returned"}`, "label is missing"},
		{"exit code fraction", `{"path":"a","settlement":"returned","facts":{"exitCode":0},"label":"completed","exitCode":0.5}`, "exitCode 0.5 is not an exit code"},
		{"exit code string", `{"path":"a","settlement":"returned","label":"completed","exitCode":"0"}`, `exitCode "0" is not an exit code`},
		{"completed without a code", `{"path":"a","settlement":"returned","facts":{"exitCode":0},"label":"completed"}`, `label "completed" does not fit no exit code`},
		{"completed with 3", `{"path":"a","settlement":"returned","facts":{"exitCode":3},"label":"completed","exitCode":3}`, `label "completed" does not fit exit code 3`},
		{"failure with 0", `{"path":"a","settlement":"returned","label":"completed-with-failure","exitCode":0}`, "does not fit exit code 0"},
		{"code on returned", `{"path":"a","settlement":"returned","label":"returned","exitCode":1}`, `label "returned" does not fit exit code 1`},
		{"label disagrees with facts", `{"path":"a","settlement":"returned","facts":{"ok":true},"label":"completed","exitCode":0}`, `which file "reported-success" with no exit code`},
		{"code disagrees with facts", `{"path":"a","settlement":"returned","facts":{"exitCode":2},"label":"completed-with-failure","exitCode":3}`, `which file "completed-with-failure" with exit code 2`},
		{"label disagrees with settlement", `{"path":"a","settlement":"threw","label":"returned"}`, `which file "outcome-unknown"`},
		{"facts not an object", `{"path":"a","settlement":"returned","facts":[],"label":"returned"}`, "facts must be an object"},
		{"facts exit code fraction", `{"path":"a","settlement":"returned","facts":{"exitCode":1.5},"label":"returned"}`, "facts.exitCode 1.5 is not an exit code"},
		{"facts ok string", `{"path":"a","settlement":"returned","facts":{"ok":"true"},"label":"reported-success"}`, "facts.ok must be true or false"},
		{"facts serviceError number", `{"path":"a","settlement":"returned","facts":{"serviceError":1},"label":"outcome-unknown"}`, "facts.serviceError must be true or false"},
		{"facts terminatedBy number", `{"path":"a","settlement":"returned","facts":{"terminatedBy":9},"label":"returned"}`, "facts.terminatedBy must be a string"},
		{"resultWithheld string", `{"path":"a","settlement":"returned","label":"returned","resultWithheld":"no"}`, "resultWithheld must be true or false"},
		{"wrong words", `{"path":"a","settlement":"returned","label":"returned","words":"fine"}`, `words "fine" should be "returned"`},
		{"words not a string", `{"path":"a","settlement":"returned","label":"returned","words":1}`, "words must be a string"},
		{"attempt zero", `{"path":"a","settlement":"returned","label":"returned","attempt":0}`, "attempt 0 is not an attempt number"},
		{"attempt text", `{"path":"a","settlement":"returned","label":"returned","attempt":"2"}`, `attempt "2" is not an attempt number`},
		{"call zero", `{"path":"a","settlement":"returned","label":"returned","call":0}`, "call 0 is not a call number"},
		{"call fraction", `{"path":"a","settlement":"returned","label":"returned","call":1.5}`, "call 1.5 is not a call number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ReadRow([]byte(tc.json))
			if err == nil {
				t.Fatalf("ReadRow accepted %s", tc.json)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %q does not say %q", err, tc.wantErr)
			}
		})
	}
}

func TestReadRowAccepts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		json string
		want Row
	}{
		{"nulls count as omitted",
			`{"path":"a","settlement":"returned","facts":{"ok":null,"exitCode":null},"label":"returned","exitCode":null,"resultWithheld":null,"words":null}`,
			Row{Path: "a", Settlement: Returned, Facts: &Facts{}, Label: LabelReturned, Words: "returned"}},
		{"unknown keys ignored",
			`{"path":"a","settlement":"not-entered","label":"submitted","stage":"Collect"}`,
			Row{Path: "a", Settlement: NotEntered, Label: Submitted, Words: "submitted"}},
		{"exit code written as 7.0",
			`{"path":"a","settlement":"returned","facts":{"exitCode":7.0},"label":"completed-with-failure","exitCode":7}`,
			Row{Path: "a", Settlement: Returned, Facts: &Facts{ExitCode: ptr(7)}, Label: CompletedWithFailure, ExitCode: ptr(7), Words: "completed with failure, exit 7"}},
		{"negative exit code",
			`{"path":"a","settlement":"threw","facts":{"exitCode":-9},"label":"completed-with-failure","exitCode":-9,"words":"completed with failure, exit -9"}`,
			Row{Path: "a", Settlement: Threw, Facts: &Facts{ExitCode: ptr(-9)}, Label: CompletedWithFailure, ExitCode: ptr(-9), Words: "completed with failure, exit -9"}},
		{"an attempt of a retried execution",
			`{"path":"a","settlement":"returned","label":"returned","attempt":2}`,
			Row{Path: "a", Settlement: Returned, Label: LabelReturned, Words: "returned", Attempt: 2}},
		{"a Go stage's second command",
			`{"path":"a","settlement":"returned","label":"returned","call":2}`,
			Row{Path: "a", Settlement: Returned, Label: LabelReturned, Words: "returned", Call: 2}},
		{"terminatedBy with ok false",
			`{"path":"a","settlement":"returned","facts":{"ok":false,"terminatedBy":"SIGSEGV"},"label":"reported-failure"}`,
			Row{Path: "a", Settlement: Returned, Facts: &Facts{OK: ptr(false), TerminatedBy: "SIGSEGV"}, Label: ReportedFailure, Words: "reported failure"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ReadRow([]byte(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %s, want %s", show(got), show(tc.want))
			}
		})
	}
}

func TestRowFromValueNeverPanicsOnOddGoValues(t *testing.T) {
	t.Parallel()
	for _, v := range []any{nil, 1, "x", []any{nil}, map[string]any{"path": "a", "settlement": "returned", "facts": map[string]any{"exitCode": int64(3)}, "label": "completed-with-failure", "exitCode": uint8(3)}} {
		_, _ = RowFromValue(v)
	}
}

func TestAnnotateRoundTrip(t *testing.T) {
	t.Parallel()
	req := Request{Calls: []Call{
		{Path: "collect", Settlement: Returned, Facts: &Facts{OK: ptr(false), ExitCode: ptr(7)}},
		{Path: "per-volume~3/posture", Settlement: Threw},
		{Path: "fetch", Settlement: Returned, Facts: &Facts{OK: ptr(true)}, ResultWithheld: true},
		{Path: "remote", Settlement: Returned, Facts: &Facts{OK: ptr(false), ServiceError: true}},
		{Path: "later", Settlement: NotEntered},
	}}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var req2 Request
	if err := json.Unmarshal(b, &req2); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(req, req2) {
		t.Fatalf("request changed over JSON:\n%s\n%s", show(req), show(req2))
	}

	resp := Annotate(req2)
	wantLabels := []Label{CompletedWithFailure, OutcomeUnknown, ReportedSuccess, OutcomeUnknown, Submitted}
	for i, row := range resp.Rows {
		if row.Label != wantLabels[i] {
			t.Errorf("row %d: label %q, want %q", i, row.Label, wantLabels[i])
		}
	}
	b, err = json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var resp2 Response
	if err := json.Unmarshal(b, &resp2); err != nil {
		t.Fatalf("response does not read back: %v\n%s", err, b)
	}
	if !reflect.DeepEqual(resp, resp2) {
		t.Fatalf("response changed over JSON:\n%s\n%s", show(resp), show(resp2))
	}
	if got := Annotate(Request{}); got.Rows == nil || len(got.Rows) != 0 {
		t.Fatalf("empty request: got %#v, want an empty list", got.Rows)
	}
}
