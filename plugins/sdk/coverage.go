package sdk

// Absent is a result that declares an ABSENCE: the plugin looked for
// lookedFor in each of checked and found nothing. It is an answer, not a
// failure; the run's coverage stage files it on the ledger and the
// assessment reads it. Name at least one place in checked: an absence
// that looked nowhere is no answer, and the run warns, files a not-checked
// item and stands Not sure over it (the value reaches the chart as
// ordinary data).
//
//	sdk.Absent("file /var/log/app.log", "/var/log")
//	// {"af_absent": true, "looked_for": "file /var/log/app.log", "checked": ["/var/log"]}
func Absent(lookedFor string, checked ...string) map[string]any {
	items := make([]any, len(checked))
	for i, c := range checked {
		items[i] = c
	}
	return map[string]any{"af_absent": true, "looked_for": lookedFor, "checked": items}
}

// Ledger is a result bounded by a coverage ledger: result covers checked
// and not notChecked (each "what", or "what: why" left as written). The
// chart reads result one level down, under the stage's into as
// INTO.result (`"openssl" in inv.result.missing`), beside INTO.af_coverage.
// A ledger says only what its checked and notChecked lists say: runbook
// cannot see what the plugin really looked at, so name each place checked
// by what was read (`package openssl in /var/lib/dpkg/status`).
//
//	sdk.Ledger(map[string]any{"missing": []any{}}, []string{"package openssl"}, nil)
//	// {"af_coverage": {"checked": ["package openssl"]}, "result": {"missing": []}}
func Ledger(result any, checked, notChecked []string) map[string]any {
	cov := map[string]any{}
	if len(checked) > 0 {
		cov["checked"] = strings2any(checked)
	}
	if len(notChecked) > 0 {
		cov["not_checked"] = strings2any(notChecked)
	}
	return map[string]any{"af_coverage": cov, "result": result}
}

func strings2any(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
