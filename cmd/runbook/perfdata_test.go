package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// perfChart is a check wrapping two plugins (scripts in dir printing the
// plugin API's output) whose result.perfdata is perf.
func perfChart(dir, perf string) string {
	return `version: 1
runbook: host-perf
result:
  kind: verdict/nagios
  perfdata: '` + perf + `'
stages:
  - id: load
    exec: {command: ["` + filepath.Join(dir, "check_load") + `"], exitCodes: nagios, parse: nagios}
  - id: disk
    exec: {command: ["` + filepath.Join(dir, "check_disk") + `"], exitCodes: nagios, parse: nagios}
  - id: per
    foreach:
      items: '[{name: "load", out: load}, {name: "disk", out: disk}]'
      as: c
      maxBranches: 10
      stages:
        - id: v
          verdict: {subject: c.name, verdict: 'c.out.status ?? "unknown"'}
`
}

// writePlugins writes the two plugins perfChart runs; disk's perfdata
// names a mount with a space.
func writePlugins(t *testing.T, dir, disk string) {
	t.Helper()
	for name, body := range map[string]string{
		"check_load": "#!/bin/sh\necho 'LOAD OK - load average: 0.50, 0.40, 0.30|load1=0.5;5;10;0 load5=0.4;4;8;0'\n",
		"check_disk": disk,
	} {
		if err := writeExec(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNagiosPassesOnResultPerfdata: a check wrapping plugins passed on
// only its counts per verdict word, so a graph of a plugin's load1 or a
// disk's usage needed that plugin run as its own check. result.perfdata
// names the perfdata to pass on; an object's keys prefix each list's
// labels, quoted as the plugin API quotes them.
func TestNagiosPassesOnResultPerfdata(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writePlugins(t, dir, "#!/bin/sh\necho \"DISK OK|'/mnt/my disk'=100B;800;900;0;1000\"\n")
	writeChart(t, dir, "both.yaml", perfChart(dir, "{load: load.stdout.perfdata, disk: disk.stdout.perfdata}"))
	r := runCLI(t, dir, "exec", "both.yaml", "-o", "nagios")
	want := "host-perf OK - 2 ok | ok=2;;;0 'disk::/mnt/my disk'=100B;800;900;0;1000 load::load1=0.5;5;10;0 load::load5=0.4;4;8;0\n"
	if r.code != 0 || !strings.HasPrefix(r.stdout, want) {
		t.Errorf("exit %d\n%s%s\nwant the first line %q", r.code, r.stdout, r.stderr, want)
	}
	writeChart(t, dir, "one.yaml", perfChart(dir, "load.stdout.perfdata"))
	r = runCLI(t, dir, "exec", "one.yaml", "-o", "nagios")
	if want := "host-perf OK - 2 ok | ok=2;;;0 load1=0.5;5;10;0 load5=0.4;4;8;0\n"; r.code != 0 || !strings.HasPrefix(r.stdout, want) {
		t.Errorf("a list: exit %d\n%s%s\nwant the first line %q", r.code, r.stdout, r.stderr, want)
	}
	// The record keeps them, for a program and a later render alike.
	r = runCLI(t, dir, "exec", "one.yaml", "-o", "json")
	if !strings.Contains(r.stdout, `"perfdata": [`) || !strings.Contains(r.stdout, `"load1=0.5;5;10;0"`) {
		t.Errorf("the JSON record holds no perfdata:\n%s", r.stdout)
	}
}

// TestNagiosResultPerfdataWrittenWholeOrNotAtAll: perfdata that cannot be
// written whole (a label twice, a threshold no range, an expression that
// fails) is not written at all, and the check says why on a line of its
// own; its state is its rows'. A check whose rows do not rest on what the
// run judged writes none either, as it writes no counts.
func TestNagiosResultPerfdataWrittenWholeOrNotAtAll(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writePlugins(t, dir, "#!/bin/sh\necho 'DISK OK|load1=7;80;90'\n")
	for _, tc := range []struct{ name, perf, says string }{
		{"twice", "concat(load.stdout.perfdata, disk.stdout.perfdata)", "no perfdata of result.perfdata: result perfdata concat(load.stdout.perfdata, disk.stdout.perfdata): the label load1 is written twice"},
		{"member", "map(load.stdout.perfdata, ({label: #.label, value: #.value, critical: 1}))", `has no member "critical"`},
		{"error", "load.stdout.perfdata[0].value + \"x\"", "no perfdata of result.perfdata: result perfdata"},
	} {
		writeChart(t, dir, tc.name+".yaml", perfChart(dir, tc.perf))
		r := runCLI(t, dir, "exec", tc.name+".yaml", "-o", "nagios")
		if r.code != 0 || !strings.HasPrefix(r.stdout, "host-perf OK - 2 ok | ok=2;;;0\n") || !strings.Contains(r.stdout, tc.says) {
			t.Errorf("%s: exit %d\n%s%s\nwant no perfdata of the chart's and a line saying %q", tc.name, r.code, r.stdout, r.stderr, tc.says)
		}
	}
	// disk not installed: its row rests on no answer, so no perfdata at all
	if err := os.Remove(filepath.Join(dir, "check_disk")); err != nil {
		t.Fatal(err)
	}
	writeChart(t, dir, "gone.yaml", perfChart(dir, "load.stdout.perfdata"))
	r := runCLI(t, dir, "exec", "gone.yaml", "-o", "nagios")
	if r.code != 3 || strings.Contains(r.stdout, "|") || !strings.Contains(r.stdout, "no perfdata of result.perfdata (2 items): the check's rows do not all rest on what the run judged") {
		t.Errorf("a plugin not installed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestNagiosResultPerfdataLabelOfACountIsWrittenTwice: a plugin whose own
// perfdata counts states (`ok=5 critical=1`, as an aggregating plugin
// writes) passed on as a list wrote `ok=2;;;0 ok=5`: the check's count of
// its ok rows and the plugin's value under one label, and a graph read
// them as one series. A label of a count the check writes, or of a word
// its rows can have, is a label written twice.
func TestNagiosResultPerfdataLabelOfACountIsWrittenTwice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writePlugins(t, dir, "#!/bin/sh\necho 'DISK OK|ok=5 unknown=1'\n")
	for _, tc := range []struct{ name, perf, says string }{
		{"ok", "disk.stdout.perfdata", "the label ok is the check's own count of its verdict \"ok\""},
		{"prefixed", "{disk: disk.stdout.perfdata}", ""},
	} {
		writeChart(t, dir, tc.name+".yaml", perfChart(dir, tc.perf))
		r := runCLI(t, dir, "exec", tc.name+".yaml", "-o", "nagios")
		if tc.says == "" {
			if want := "host-perf OK - 2 ok | ok=2;;;0 disk::ok=5 disk::unknown=1\n"; !strings.HasPrefix(r.stdout, want) {
				t.Errorf("%s: exit %d\n%s%s\nwant the first line %q", tc.name, r.code, r.stdout, r.stderr, want)
			}
			continue
		}
		if r.code != 0 || !strings.HasPrefix(r.stdout, "host-perf OK - 2 ok | ok=2;;;0\n") || !strings.Contains(r.stdout, tc.says) {
			t.Errorf("%s: exit %d\n%s%s\nwant no perfdata of the chart's and a line saying %q", tc.name, r.code, r.stdout, r.stderr, tc.says)
		}
	}
}
