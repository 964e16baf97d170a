package assessment

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestAnnotate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		req      Request
		standing Standing
		said     bool
	}{
		{"consistent, always", Request{Summary: Summary{HonestyRan: []string{"label"}}}, Consistent, true},
		{"consistent, unless-consistent", Request{Summary: Summary{HonestyRan: []string{"label"}}, When: UnlessConsistent}, Consistent, false},
		{"known, not-sure-or-ask", Request{Summary: Summary{Checks: []Check{{Expr: "a", Passed: true}}}, When: NotSureOrAsk}, Known, false},
		{"ask, not-sure-or-ask", Request{Summary: Summary{Paused: true}, When: NotSureOrAsk}, Ask, true},
		{"not-sure, not-sure-or-ask", Request{Summary: Summary{Stopped: StoppedCancelled}, When: NotSureOrAsk}, NotSure, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp := Annotate(tc.req)
			if resp.Assessment.Standing != tc.standing || resp.Said != tc.said {
				t.Errorf("got %q said=%v, want %q said=%v", resp.Assessment.Standing, resp.Said, tc.standing, tc.said)
			}
			// The standing travels whether or not the line is said.
			if !reflect.DeepEqual(resp.Assessment, Assess(tc.req.Summary)) {
				t.Errorf("assessment differs from Assess: %+v", resp.Assessment)
			}
		})
	}
}

// TestAnnotateJSONRoundTrip is the plugin boundary: a request encoded,
// decoded and answered gives the same response bytes as the in-process
// call, and the response decodes to what was sent.
func TestAnnotateJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range assessCases {
		for _, when := range []When{"", Always, UnlessConsistent, NotSureOrAsk} {
			t.Run(tc.name+"/"+string(when), func(t *testing.T) {
				t.Parallel()
				req := Request{Summary: tc.summary, When: when}
				in, err := json.Marshal(req)
				if err != nil {
					t.Fatal(err)
				}
				var decoded Request
				if err := json.Unmarshal(in, &decoded); err != nil {
					t.Fatal(err)
				}
				local, err := json.Marshal(Annotate(req))
				if err != nil {
					t.Fatal(err)
				}
				remote, err := json.Marshal(Annotate(decoded))
				if err != nil {
					t.Fatal(err)
				}
				if string(local) != string(remote) {
					t.Fatalf("bytes differ across the boundary:\n%s\n%s", local, remote)
				}
				var back Response
				if err := json.Unmarshal(remote, &back); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(back, Annotate(req)) {
					t.Errorf("response did not survive JSON: %+v", back)
				}
			})
		}
	}
}

func TestAssessmentJSONKeys(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(Assess(Summary{Runbook: "search_logs", Assumed: []Assumed{{Name: "window", Value: "2h", By: "search_logs"}}}))
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"version":5,"standing":"not-sure","reasons":["argument-assumed"],"checked":[],` +
		`"line":"Not sure — window = \"2h\" was assumed by search_logs's rule, not given by you."}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}
}

func TestRequestJSONLeavesSecretOut(t *testing.T) {
	t.Parallel()
	req := Request{Summary: Summary{Runbook: "r", Assumed: []Assumed{
		{Name: "password", Value: "hunter2", Secret: true},
		{Name: "user", Value: "ops"},
	}}}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"summary":{"runbook":"r","assumed":[{"name":"password","secret":true},{"name":"user","value":"ops"}]}}`
	if string(b) != want {
		t.Errorf("request JSON:\n got %s\nwant %s", b, want)
	}
	if req.Summary.Assumed[0].Value != "hunter2" {
		t.Error("encoding edited the caller's value")
	}
}
