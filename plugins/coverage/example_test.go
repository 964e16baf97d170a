package coverage_test

import (
	"encoding/json"
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

func ExampleRead() {
	var result any
	_ = json.Unmarshal([]byte(`{
		"af_coverage": {"checked": ["eu-west-1"], "not_checked": [{"what": "us-east-1", "why": "no credentials"}]},
		"result": {"af_absent": true, "looked_for": "open incidents on db-1", "checked": ["pagerduty"]}
	}`), &result)

	reading, ok := coverage.Read(result, nil)
	fmt.Println(ok, reading.Status)
	for _, d := range reading.Declared {
		fmt.Println(d.Kind, d.Checked[0].What)
	}
	// Output:
	// true absent
	// ledger eu-west-1
	// absence pagerduty
}

func ExampleServe() {
	var result any
	_ = json.Unmarshal([]byte(`{
		"af_absent": true,
		"checked": [{"what": "pagerduty", "short": "pd"}],
		"period": {"queried": {"from": "2024-05-01T00:00:00Z", "to": "2024-05-02T00:00:00Z"},
		           "held": {"from": "2024-05-01T12:00:00Z", "to": "2024-06-01T00:00:00Z"}}
	}`), &result)

	served, changed := coverage.Serve(result)
	m := served.(map[string]any)
	fmt.Println(changed)
	fmt.Println(m["checked"])
	fmt.Println(m["period"].(map[string]any)["verdict"])
	fmt.Println(m["note"])
	// Output:
	// true
	// [map[what:pagerduty]]
	// partly-held
	// Period: the store held only part of the time this read asked about; the rest is not covered by the result.
}

func ExamplePeriodVerdict() {
	p := coverage.Period{
		Queried: coverage.Span{From: "2024-05-02T00:00:00Z", To: "2024-05-03T00:00:00Z"},
		Held:    &coverage.Span{From: "2024-05-01T00:00:00Z", To: "2024-05-02T00:00:00Z"},
	}
	// The spans share one instant, so the store held part of the time.
	fmt.Println(coverage.PeriodVerdict(p))
	p.Held = nil
	fmt.Println(coverage.PeriodVerdict(p))
	fmt.Println(coverage.Least(coverage.Covered, coverage.Unknown, coverage.PartlyHeld))
	// Output:
	// partly-held
	// unknown
	// partly-held
}
