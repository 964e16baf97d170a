package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The secrets of the secret-search test, each with what JSON and Go
// quoting change: a quote, a backslash, HTML characters.
const (
	searchToken    = `tK"<9f3Kq\7Zr2pXw-long`
	searchPin      = 73914021
	searchPassword = "pw-778899-x2"
)

// searchSecrets are the values no output may show, by what they are.
func searchSecrets() map[string]string {
	return map[string]string{
		"the secret string":          searchToken,
		"the secret number":          strconv.Itoa(searchPin),
		"the secret object's member": searchPassword,
		"a value derived (upper)":    strings.ToUpper(searchToken),
	}
}

// searchForms are the representations a secret's text takes: exact,
// JSON-escaped (HTML escaped and not), Go-quoted, a number as a float's
// text, and the first eight
// bytes of each (what a cut leaves). Written here, not asked of the
// masker, so the masker is not graded by its own rule.
func searchForms(sec string) map[string]string {
	j, _ := json.Marshal(sec)
	js := strings.Trim(string(j), `"`)
	out := map[string]string{
		"exact":        sec,
		"json":         js,
		"json-no-html": strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(js),
		"quoted":       strings.Trim(strconv.Quote(sec), `"`),
	}
	if n, err := strconv.ParseFloat(sec, 64); err == nil {
		out["float"] = fmt.Sprint(n) // expr's string() of a number: 7.3914021e+07
	}
	for name, f := range map[string]string{"exact": sec, "json": js, "quoted": out["quoted"]} {
		if len(f) > 8 {
			out[name+"-prefix"] = f[:8]
		}
	}
	return out
}

// searchLeaks names where text shows a secret, and in which form.
func searchLeaks(where, text string) []string {
	var out []string
	for what, sec := range searchSecrets() {
		for form, r := range searchForms(sec) {
			if strings.Contains(text, r) {
				out = append(out, fmt.Sprintf("%s shows %s (%s %q)", where, what, form, r))
			}
		}
	}
	return out
}

var logargsOnce struct {
	sync.Once
	bin string
	err error
}

// logargsPlugin builds the test plugin that logs its arguments to stderr.
func logargsPlugin(t *testing.T) string {
	t.Helper()
	logargsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "runbook-logargs-")
		if err != nil {
			logargsOnce.err = err
			return
		}
		logargsOnce.bin = filepath.Join(dir, "runbook-plugin-logargs")
		out, err := exec.Command("go", "build", "-o", logargsOnce.bin, "github.com/openrunbook/runbook/plugins/internal/testplugin/logargs").CombinedOutput()
		if err != nil {
			logargsOnce.err = fmt.Errorf("building logargs: %v\n%s", err, out)
		}
	})
	if logargsOnce.err != nil {
		t.Fatal(logargsOnce.err)
	}
	return logargsOnce.bin
}

// TestIssue19SecretSearch runs one chart that holds a secret string, a
// secret number, a secret object's member and values derived from them
// through every output runbook has — each --format on stdout, stderr with
// -v (the narrative and the plugin's log, which prints the plugin's
// arguments), the --record file, `explain` of that record, and the
// /proc/PID/cmdline and /proc/PID/environ of runbook and every process it
// starts, read while they run — and searches each for every form of every
// secret (exact, JSON-escaped, Go-quoted, a cut prefix), failing with
// where it leaked (issue #19).
//
// The one place a secret may be is the environment of the process it was
// given to, explicitly, by envFrom: the "held" stage's shell (and the
// sleep it runs, which inherits it), marked SECRET_HOLDER=1 by the chart.
// That is how a secret reaches a command by design; nowhere else.
func TestIssue19SecretSearch(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../testdata/issue19/secrets-search/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "chart.yaml", string(src))
	copyExec(t, logargsPlugin(t), filepath.Join(dir, "runbook-plugin-logargs"))
	// The secrets come in a file: --input would put them in runbook's argv.
	inputs, _ := json.Marshal(map[string]any{"token": searchToken, "pin": searchPin, "creds": map[string]any{"user": "admin", "password": searchPassword}})
	inputsFile := filepath.Join(dir, "inputs.json")
	if err := os.WriteFile(inputsFile, inputs, 0o600); err != nil {
		t.Fatal(err)
	}

	var found []string
	for _, format := range formats {
		record := filepath.Join(dir, format+".record.json")
		out, errOut, procs := runWatched(t, dir, "exec", chart, "--inputs", inputsFile, "--format", format, "-v", "--record", record)
		found = append(found, searchLeaks("stdout --format "+format, out)...)
		found = append(found, searchLeaks("stderr -v --format "+format, errOut)...)
		found = append(found, procs...)
		saved, err := os.ReadFile(record)
		if err != nil {
			t.Fatalf("--format %s: no record: %v\n%s", format, err, errOut)
		}
		found = append(found, searchLeaks("the --record file ("+format+")", string(saved))...)
		if format != "json" {
			continue
		}
		// The run really ran: the plugin logged, the command was given
		// the secrets (its output masked), and a narrative was told.
		if !strings.Contains(errOut, "logargs: args") {
			t.Errorf("the plugin's stderr is not in the -v log:\n%s", errOut)
		}
		var rec struct {
			Status    string         `json:"status"`
			State     map[string]any `json:"state"`
			Narrative []string       `json:"narrative"`
		}
		if err := json.Unmarshal([]byte(out), &rec); err != nil {
			t.Fatalf("stdout: %v\n%s", err, out)
		}
		held, _ := rec.State["held"].(map[string]any)
		if rec.Status != "completed" || held["stdout"] != "token *** pin *** pw ***\n***\n" {
			t.Errorf("status %s, held %v", rec.Status, held)
		}
		found = append(found, searchLeaks("the narrative", strings.Join(rec.Narrative, "\n"))...)
		for _, args := range [][]string{{"explain", record}, {"explain", record, "header"}, {"explain", record, "held"}} {
			r := runCLI(t, dir, args...)
			found = append(found, searchLeaks(strings.Join(args[:1], " ")+" "+strings.Join(args[2:], " "), r.stdout+r.stderr)...)
		}
	}
	for _, f := range found {
		t.Error(f)
	}
}

// runWatched runs the binary and, while it runs, reads the cmdline and
// environ of it and every process below it; it returns stdout, stderr and
// where a secret was seen in a process.
func runWatched(t *testing.T, dir string, args ...string) (string, string, []string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done, exited := make(chan struct{}), make(chan struct{})
	var leaks []string
	seen := map[int]bool{}
	holders := 0
	go func() {
		defer close(done)
		for {
			for _, pid := range processTree(cmd.Process.Pid) {
				cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
				environ, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
				if len(cmdline) == 0 {
					continue // gone, or a zombie
				}
				name := strings.ReplaceAll(string(bytes.TrimRight(cmdline, "\x00")), "\x00", " ")
				leaks = append(leaks, searchLeaks(fmt.Sprintf("/proc/%d/cmdline (%s)", pid, clip(name)), string(cmdline))...)
				holder := bytes.Contains(environ, []byte("\x00SECRET_HOLDER=1\x00")) || bytes.HasPrefix(environ, []byte("SECRET_HOLDER=1\x00"))
				if holder {
					if !seen[pid] {
						holders++
					}
				} else {
					leaks = append(leaks, searchLeaks(fmt.Sprintf("/proc/%d/environ (%s)", pid, clip(name)), string(environ))...)
				}
				seen[pid] = true
			}
			select {
			case <-time.After(20 * time.Millisecond):
			case <-exited:
				return
			}
		}
	}()
	err := cmd.Wait()
	close(exited)
	<-done
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	if holders == 0 {
		leaks = append(leaks, "the test never saw the process given the secrets (SECRET_HOLDER): /proc was not searched while it ran")
	}
	if len(seen) < 3 {
		leaks = append(leaks, fmt.Sprintf("the test saw %d processes under runbook, want at least its children (held, bystander, the plugin)", len(seen)))
	}
	return out.String(), errb.String(), dedupe(leaks)
}

// processTree is pid and every process below it, from /proc's parent
// links.
func processTree(root int) []int {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so read after ")".
		rest := string(stat[bytes.LastIndexByte(stat, ')')+1:])
		if f := strings.Fields(rest); len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	out := []int{root}
	for changed := true; changed; {
		changed = false
		for pid, pp := range parent {
			if !containsInt(out, pid) && containsInt(out, pp) {
				out = append(out, pid)
				changed = true
			}
		}
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
