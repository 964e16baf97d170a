package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const typedChart = `version: 1
runbook: typed
inputs:
  host: {type: string, required: true}
  n: {type: number, default: 2}
  token: {type: string, secret: true, default: ""}
stages:
  - id: v
    verdict: {subject: host, verdict: '"ok"'}
`

// TestInputsFileErrorsSayWhere: a value of an --inputs file the chart
// refuses (a wrong type, an unknown name) is said at the FILE:LINE:COL
// where the file gives it, YAML ('quoted' keys too) and JSON alike, a
// secret's value still hidden; a value an --input pair overrode is said
// without the file's place (trial: "input "n": is not a number" named no
// place in a file of many inputs).
func TestInputsFileErrorsSayWhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", typedChart)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("in.yaml", "host: db-1\n'n': three\nhots: x\ntoken: [tok-9Zq3Lw8x]\n")
	write("in.json", "{\"host\": \"db-1\",\n  \"n\": true}")
	r := runCLI(t, dir, "exec", "--inputs", "in.yaml", "chart.yaml")
	for _, want := range []string{
		`runbook: --inputs in.yaml:2:1: input "n": is not a number: "three"`,
		`runbook: --inputs in.yaml:3:1: input "hots": is not an input of typed; did you mean "host"?`,
		`runbook: --inputs in.yaml:4:1: input "token": is not a string (value hidden: the input is secret)`,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if r.code != 2 || strings.Contains(r.stderr, "tok-9Zq3Lw8x") {
		t.Errorf("exit %d (want 2), or the secret shown:\n%s", r.code, r.stderr)
	}
	r = runCLI(t, dir, "exec", "--inputs", "in.json", "chart.yaml")
	if want := `runbook: --inputs in.json:2:3: input "n": is not a number`; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	r = runCLI(t, dir, "exec", "--inputs", "in.json", "--input", "n=x", "chart.yaml")
	if want := "runbook: input \"n\": is not a number: \"x\"\n"; !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "in.json:") {
		t.Errorf("the --input pair's value: stderr %q, want %q, no place in the file", r.stderr, want)
	}
}

// TestInputsFileKeyGivenTwice: an --inputs file giving an input twice is
// refused at the second, naming the first, JSON and YAML in the same
// words; before, the JSON decoder kept the last value in silence and the
// run went on with a value the person may not have meant (trial:
// {"host": "a", "host": "b"} ran on b), and a YAML file was refused as
// "neither JSON nor valid YAML here". A key given twice inside a value is
// said at its place, the file's words (a secret's value) never quoted.
func TestInputsFileKeyGivenTwice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", typedChart)
	for _, tc := range []struct{ file, text, want string }{
		{"dup.json", "{\"host\": \"a\",\n  \"n\": 1, \"host\": \"b\"}",
			`runbook: --inputs dup.json:2:11: the input "host" is given twice (first at dup.json:1:2); give each input once`},
		{"dup.yaml", "host: a\nn: 1\nhost: b\n",
			`runbook: --inputs dup.yaml:3:1: the input "host" is given twice (first at dup.yaml:1:1); give each input once`},
		{"inner.yaml", "host: a\ntoken: {k: tok-Hq7Zp3, k: tok-Hq7Zp3}\n",
			`runbook: --inputs inner.yaml:2:24: a key is given twice in an input's value; give each key once`},
	} {
		if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, dir, "exec", "--inputs", tc.file, "chart.yaml")
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "tok-Hq7Zp3") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", tc.file, r.code, r.stderr, tc.want)
		}
	}
}

// TestPauseSaysTheRecordCannotBeResumed: exec that pauses with a record
// resume will refuse (a verdict column derived from a secret, which resume
// cannot derive again) warns on stderr at the pause, naming the stage;
// before, it printed "Resume: runbook resume …" and the refusal came only
// when a person answered, days later (trial).
func TestPauseSaysTheRecordCannotBeResumed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", `version: 1
runbook: stuck
inputs:
  token: {type: string, secret: true, required: true}
stages:
  - id: vb
    verdict: {subject: '"s"', verdict: '"b"', up: 'upper(token)'}
  - id: q
    ask: {question: '"go on?"', expects: {ok: bool}}
`)
	if err := os.WriteFile(filepath.Join(dir, "in.json"), []byte(`{"token": "tok-St8Kq2Lw"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "exec", "--inputs", "in.json", "--record", "r.json", "chart.yaml")
	want := `runbook: warning: this record cannot be resumed: the value of "verdicts" (written by vb) held a secret`
	if r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q: want 0 and %q", r.code, r.stderr, want)
	}
	if strings.Contains(r.stderr+r.stdout, "tok-St8Kq2Lw") {
		t.Errorf("the secret is shown:\n%s\n%s", r.stdout, r.stderr)
	}
}

// TestInputsFileURLWithPortInAFlowListIsRefused: an --inputs file's
// `site: {urls: [http://a:8080/, http://b:8080/]}` gave the chart a list
// of two maps ({"http://a": "8080/"}), where YAML reads two texts: the YAML
// parser splits a plain value at a colon inside a [...] list within
// {...}. It is refused at the value, which is not quoted (it may be a
// secret's), saying to quote it; quoted, it runs.
func TestInputsFileURLWithPortInAFlowListIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", "version: 1\nrunbook: urls\ninputs:\n  site: {type: object, required: true}\nstages:\n  - id: n\n    set: {n: len(site.urls)}\n")
	if err := os.WriteFile(filepath.Join(dir, "in.yaml"), []byte("site: {urls: [http://a:8080/, http://b:8080/]}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "exec", "--inputs", "in.yaml", "chart.yaml")
	want := `runbook: --inputs in.yaml:1:15: the YAML parser reads this value, a text with a ":" inside a [...] list within {...} (a URL with a port, an IPv6 address), as a map, not the text written; quote it`
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %s", r.code, r.stderr, want)
	}
	if err := os.WriteFile(filepath.Join(dir, "in.yaml"), []byte("site: {urls: [\"http://a:8080/\", \"http://b:8080/\"]}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, dir, "exec", "--inputs", "in.yaml", "chart.yaml"); r.code != 0 {
		t.Errorf("quoted: exit %d:\n%s", r.code, r.stderr)
	}
}

// TestInputsFileUnclosedListSaysWhereItOpened: `hosts: [web1, web2` with
// no `]` in an --inputs file was refused at the next line, `in.yaml:3:1:
// the file is neither JSON nor valid YAML here`, a line that is right.
// It names the [ left open too, quoting nothing of the file (a secret's
// value may be in it).
func TestInputsFileUnclosedListSaysWhereItOpened(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "chart.yaml", typedChart)
	if err := os.WriteFile(filepath.Join(dir, "in.yaml"), []byte("host: db-1\ntoken: [tok-9Zq3Lw8x, web2\nn: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, dir, "exec", "--inputs", "in.yaml", "chart.yaml")
	if want := `runbook: --inputs in.yaml:3:1: the file is neither JSON nor valid YAML here: the [ at 2:8 is not closed by a ]; want an object`; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	if r.code != 2 || strings.Contains(r.stderr, "tok-9Zq3Lw8x") {
		t.Errorf("exit %d (want 2), or the secret shown:\n%s", r.code, r.stderr)
	}
}
