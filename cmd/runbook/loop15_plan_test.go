package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/internal/golden"
)

// markerBin makes a folder of stand-in binaries, each a script that, if
// it were ever started, would create the file marker: plan must leave it
// absent. It returns the folder.
func markerBin(t *testing.T, marker string, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		script := "#!/bin/sh\necho started > '" + marker + "'\n"
		if err := writeExec(filepath.Join(dir, n), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runPlan runs the real binary's plan in dir with PATH set to path only.
func runPlan(t *testing.T, dir, path string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"plan"}, args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + path, "NO_COLOR=1", "HOME=" + t.TempDir()}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// exampleCharts are the chart files under examples/, found, not listed:
// an example added without a plan golden fails until `-update` writes one.
func exampleCharts(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "chart.yaml" {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("examples: %v (%d charts)", err, len(out))
	}
	return out
}

// TestLoop15PlanExamples: the plan of every example chart, text and JSON,
// is golden. PATH is a folder of stand-in binaries (its path masked as
// BIN), so the output is the same on every machine; a chart that maps a
// plugin is planned from a copy beside a stand-in plugin (its folder
// masked as CHART) with --no-plugins, so a plugin built locally changes
// nothing and nothing starts.
func TestLoop15PlanExamples(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, chart := range exampleCharts(t, root) {
		name := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(chart, "examples/"), "/chart.yaml"), "/", "-")
		for _, format := range []string{"text", "json"} {
			t.Run(name+"/"+format, func(t *testing.T) {
				t.Parallel()
				marker := filepath.Join(t.TempDir(), "started")
				// The examples' commands: the disk, linux-60s and sixty-seconds tools, and
				// the nagios plugins (planned from that folder, as
				// --input plugins=DIR), whether or not this machine has them.
				bin := markerBin(t, marker, "bash", "df", "awk", "find", "nproc", "vmstat", "mpstat", "iostat", "pidstat", "sar", "uptime",
					"check_load", "check_disk", "check_users", "check_procs", "check_swap")
				dir, arg := root, chart
				var extra []string
				if name == "nagios" {
					extra = []string{"--input", "plugins=" + bin}
				}
				pluginMarker := marker
				src, err := os.ReadFile(filepath.Join(root, chart))
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Contains(src, []byte("\nplugins:")) {
					dir = t.TempDir()
					arg = "chart.yaml"
					if err := os.WriteFile(filepath.Join(dir, arg), src, 0o644); err != nil {
						t.Fatal(err)
					}
					// The plugin: a script that would write a marker beside
					// itself; its bytes (and so its sha256) are the same on
					// every machine.
					plug := "#!/bin/sh\necho started > \"$(dirname \"$0\")/started\"\n"
					if err := writeExec(filepath.Join(dir, "runbook-plugin-file-age"), []byte(plug), 0o755); err != nil {
						t.Fatal(err)
					}
					pluginMarker = filepath.Join(dir, "started")
					// plan starts a plugin to hold the stage's arguments to
					// its description (issue #17); --no-plugins is the plan
					// that starts nothing, which this golden pins.
					extra = append(extra, "--no-plugins")
				}
				out, errs, code := runPlan(t, dir, bin, append([]string{arg, "-o", format}, extra...)...)
				if code != 0 {
					t.Fatalf("plan %s: exit %d\n%s%s", chart, code, out, errs)
				}
				for _, m := range []string{marker, pluginMarker} {
					if _, err := os.Stat(m); err == nil {
						t.Fatal("plan started a process")
					}
				}
				got := strings.ReplaceAll(out, bin, "BIN")
				got = strings.ReplaceAll(got, dir, "CHART")
				golden.Check(t, filepath.Join("testdata", "plan", name+"."+format), []byte(got))
			})
		}
	}
}

const planChartYAML = `version: 1
runbook: plan-probe
description: a chart for plan's own tests
inputs:
  host: {type: string, default: db-1}
  warn: {type: number, default: 80}
  token: {type: string, secret: true, default: s3cr3t-t0ken}
vars:
  port: warn * 100
  auth: '"Bearer " + token'
stages:
  - id: list
    exec:
      command: [lister, "--host=${host}", "-w", "${warn}", "${port}"]
      parse: json
  - id: per
    foreach:
      items: list.stdout
      as: item
      maxBranches: 10
      stages:
        - id: probe
          exec:
            command: [prober, "${item.name}", "--port=${port}"]
            envFrom: {TOKEN: token, HOST: host, AUTH: auth}
  - id: missing
    exec:
      command: [no-such-binary-anywhere]
  - id: pinned
    plugin: {name: touch, args: {host: host}}
plugins:
  touch: {command: ./runbook-plugin-touch, sha256: 0000000000000000000000000000000000000000000000000000000000000000}
`

// planProbe writes plan-probe's chart and a plugin beside it that would
// write the marker if it were started.
func planProbe(t *testing.T, marker string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "chart.yaml"), []byte(planChartYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeExec(filepath.Join(dir, "runbook-plugin-touch"), []byte("#!/bin/sh\necho started > '"+marker+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Plan renders templates from the inputs and vars, writes <from EXPR> for
// a part only the run knows, finds binaries on PATH (or says which is
// not), holds a plugin to its pin, never shows a secret, exits 2 on a
// failed check, and starts nothing: neither the commands (stand-ins that
// would write a marker) nor the plugin (likewise).
func TestLoop15PlanChecksAndRunsNothing(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "started")
	bin := markerBin(t, marker, "lister", "prober", "bash")
	dir := planProbe(t, marker)
	out, errs, code := runPlan(t, dir, bin, "chart.yaml", "--input", "host=web-2")
	if code != 2 {
		t.Errorf("exit %d, want 2 (a binary not found, a pin that does not match)\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("plan started a process")
	}
	for _, want := range []string{
		"argv lister --host=web-2 -w 80 8000",
		"argv prober <from item.name> --port=8000",
		"env TOKEN=<secret>",
		"env HOST=web-2",
		"env AUTH=<secret>",
		"auth           var      <secret>  (var)",
		"binary lister: " + bin + "/lister",
		"binary no-such-binary-anywhere: NOT FOUND",
		`missing: the binary "no-such-binary-anywhere" is not found`,
		"checksum mismatch: the chart pins sha256 0000000000000000000000000000000000000000000000000000000000000000",
		"(the chart pins 0000000000000000000000000000000000000000000000000000000000000000: NO MATCH)",
		"per~*/probe  exec",
		"token          string   <secret>  (default)",
		"host           string   \"web-2\"  (given)",
		"port           var      8000  (var)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out+errs, "s3cr3t") {
		t.Errorf("the secret is in the output:\n%s%s", out, errs)
	}
	jout, _, jcode := runPlan(t, dir, bin, "chart.yaml", "-o", "json")
	var p plan
	if err := json.Unmarshal([]byte(jout), &p); err != nil || jcode != 2 {
		t.Fatalf("json plan (exit %d): %v\n%s", jcode, err, jout)
	}
	if p.OK || len(p.Checks) != 2 || p.Stages[0].Argv[1] != "--host=db-1" || strings.Contains(jout, "s3cr3t") {
		t.Errorf("json plan: ok %v, %d checks, argv %v", p.OK, len(p.Checks), p.Stages[0].Argv)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("plan -o json started a process")
	}
}

// Bad inputs are a failed check (exit 2) naming the input, and the argv
// they would have filled is left <from …>.
func TestLoop15PlanBadInputs(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "started")
	bin := markerBin(t, marker, "lister", "prober", "no-such-binary-anywhere")
	dir := planProbe(t, marker)
	out, _, code := runPlan(t, dir, bin, "chart.yaml", "--input", "warn=lots", "--input", "hots=x")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	for _, want := range []string{`input "hots": is not an input of plan-probe; did you mean "host"?`, `input "warn": `, "argv lister --host=<from host>"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
}
