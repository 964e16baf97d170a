package coverage

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestAnnotate(t *testing.T) {
	t.Parallel()
	req := Request{Results: []StageResult{
		{Path: "lookup", Value: j(t, `{"af_absent":true,"looked_for":"x","checked":[{"what":"pd","short":"p"}],"period":{`+queriedDay+`,"held":"unknown"},"provenance":"bad"}`)},
		{Path: "lookup", Value: j(t, `{"af_absent":true,"checked":["a"],"period":"bad"}`)},
		{Path: "regions", Value: j(t, `{"af_coverage":{"checked":["eu"],"in_progress":[{"what":"resync","count":2}]},"result":{"af_absent":true,"checked":["pd"]}}`)},
		{Path: "plain", Value: j(t, `{"rows":[1]}`)},
		{Path: "nothing", Value: nil},
	}}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var req2 Request
	if err := json.Unmarshal(b, &req2); err != nil || !reflect.DeepEqual(req, req2) {
		t.Fatalf("request changed over JSON: %v", err)
	}

	resp := Annotate(req2)
	if len(resp.Results) != len(req.Results) {
		t.Fatalf("%d results for %d", len(resp.Results), len(req.Results))
	}
	first := resp.Results[0]
	if first.Status != StatusAbsent || !first.Changed || len(first.Declared) != 1 || first.Declared[0].Checked[0].Short != "p" {
		t.Fatalf("first: %s", show(first))
	}
	if r := resp.Results[2]; r.Status != StatusAbsent || len(r.Declared) != 2 || r.Declared[0].Kind != KindLedger || r.Changed {
		t.Fatalf("regions: %s", show(r))
	}
	if r := resp.Results[3]; r.Status != "" || r.Declared != nil || r.Changed || !same(r.Value, req2.Results[3].Value) {
		t.Fatalf("plain: %s", show(r))
	}
	if len(resp.Warnings) != 1 || resp.Warnings[0].Path != "lookup" || resp.Warnings[0].Part != "provenance" {
		t.Fatalf("want one warning for lookup, got %+v", resp.Warnings)
	}

	b, err = json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var resp2 Response
	if err := json.Unmarshal(b, &resp2); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(resp, resp2) {
		t.Fatalf("response changed over JSON:\n%s\n%s", show(resp), show(resp2))
	}
}

func TestAnnotatorWarnsOncePerRun(t *testing.T) {
	t.Parallel()
	var a Annotator
	req := Request{Results: []StageResult{{Path: "s", Value: j(t, `{"af_coverage":{"period":1}}`)}}}
	if got := a.Annotate(req).Warnings; len(got) != 1 {
		t.Fatalf("first request: %+v", got)
	}
	if got := a.Annotate(req).Warnings; len(got) != 0 {
		t.Fatalf("second request warned again: %+v", got)
	}
}
