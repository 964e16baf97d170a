package charttest

import (
	"context"
	"path/filepath"
	"testing"
)

// TestAbsoluteChartPathIsItself: a test file kept apart from its chart
// named it `chart: /srv/charts/nginx/chart.yaml`, and runbook test joined
// that to the test file's folder and said `/tmp/t/srv/charts/…: chart
// cannot be read`, a path nobody wrote. An absolute chart: (and an
// absolute stdoutFile:) is that file; a relative one is relative to the
// test file, as before.
func TestAbsoluteChartPathIsItself(t *testing.T) {
	t.Parallel()
	charts, tests := t.TempDir(), t.TempDir()
	chart := writeFile(t, charts, "chart.yaml", "version: 1\nrunbook: v\nresult: {kind: verdict/modules}\nstages:\n  - id: v\n    exec: {command: [nginx, -V]}\n  - id: row\n    verdict: {subject: '\"nginx\"', verdict: 'v.stderr contains \"dav\" ? \"dav\" : \"clean\"'}\n")
	out := writeFile(t, charts, "v.txt", "configure arguments: --with-http_dav_module\n")
	if !filepath.IsAbs(chart) || !filepath.IsAbs(out) {
		t.Fatalf("temp paths not absolute: %s %s", chart, out)
	}
	text := "version: 1\nchart: " + chart + "\ncases:\n  - name: dav\n    stubs:\n      v: {stderrFile: " + out + "}\n    expect:\n      verdicts: [{subject: nginx, verdict: dav}]\n"
	f, err := Load(writeFile(t, tests, "a_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	if !res.Cases[0].Passed() {
		t.Fatalf("an absolute chart: and stderrFile: did not run: %v", res.Cases[0].Failures)
	}
}
