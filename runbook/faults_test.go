package runbook_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/runbook"
)

// The faults of docs/RELIABILITY.md, at the runbook level: each run ends
// with a clear status, its record holds everything before the fault, no
// process it started is left (checked by pid) and no goroutine (goleak, in
// TestMain).

// TestExecFaultsEndCleanly: the exec faults a run meets, each an outcome
// with a script row, the run going on to its end.
func TestExecFaultsEndCleanly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	grand := filepath.Join(dir, "grandchild.pid")
	rb := parse(t, fmt.Sprintf(`version: 1
runbook: faults
honesty: [label]
stages:
  - {id: missing, exec: {command: [no-such-command-rb], into: m}}
  - {id: killed, exec: {shell: "kill -9 $$", into: k}}
  - {id: slow, exec: {command: [sleep, "30"], timeout: 200ms, into: s}}
  - id: grandchild
    exec:
      shell: 'sleep 30 & echo $! > %s; echo parent done'
      timeout: 20s
      into: g
  - {id: huge, exec: {shell: "head -c 3000000 /dev/zero", into: h}}
  - {id: nonutf8, exec: {shell: "printf 'caf\\351 \\000\\377\\376 end'", into: b}}
  - {id: stdin, exec: {command: [cat], into: c}}
  - {id: after, set: {reached: "true"}}
`, grand))
	began := time.Now()
	rec := exec(t, rb, nil)
	if d := time.Since(began); d > 15*time.Second {
		t.Errorf("the run took %s: something waited on a process", d)
	}
	if rec.Status != "completed" || rec.State["reached"] != true {
		t.Fatalf("status %s, reached %v", rec.Status, rec.State["reached"])
	}
	want := map[string]label.Label{"missing": label.OutcomeUnknown, "killed": label.ReportedFailure, "slow": label.OutcomeUnknown,
		"grandchild": label.Completed, "huge": label.Completed, "nonutf8": label.Completed, "stdin": label.Completed}
	if len(rec.Scripts) != len(want) {
		t.Fatalf("%d script rows, want %d: %+v", len(rec.Scripts), len(want), rec.Scripts)
	}
	for _, r := range rec.Scripts {
		if r.Label != want[r.Path] {
			t.Errorf("%s: label %s, want %s", r.Path, r.Label, want[r.Path])
		}
	}
	if g := rec.State["g"].(map[string]any); g["stdout"] != "parent done\n" || g["exitCode"] != 0 {
		t.Errorf("grandchild: %v", g)
	}
	if k := rec.State["k"].(map[string]any); k["signal"] != "SIGKILL" {
		t.Errorf("killed: %v", k)
	}
	if b := rec.State["b"].(map[string]any)["stdout"].(string); !strings.HasPrefix(b, "caf\uFFFD") || !strings.HasSuffix(b, " end") {
		t.Errorf("non-UTF-8 output = %q", b)
	}
	if c := rec.State["c"].(map[string]any); c["stdout"] != "" || c["exitCode"] != 0 {
		t.Errorf("a command reading stdin: %v", c)
	}
	if h := rec.State["h"].(map[string]any); h["withheld"] == nil {
		t.Errorf("output past the cap: %v", h)
	}
	waitGone(t, readPid(t, grand), 5*time.Second)
}

// cancelAt cancels the run at the first event about the root stage id:
// its stage.start (a recorder sees it on the run's goroutine, before the
// stage's body runs), or for the kinds that emit none, the commit of a
// parallel's fork or of a loop's condition.
type cancelAt struct {
	id     string
	cancel context.CancelFunc
}

func (c cancelAt) Record(e recorder.Event) {
	if e.StageID == c.id && e.Subflow == "" {
		c.cancel()
	}
}

// testStage is the stage plugin this test binary serves (TestMain, with
// the argument serve-stage): it fails at once with args.fail, or writes its
// pid to args.mark and waits for its context.
type testStage struct{}

func (testStage) Describe() sdk.Description {
	return sdk.Description{Name: "wait", Version: "0.0.1", Description: "waits for its context",
		Args: []sdk.Arg{{Name: "mark", Type: "string"}, {Name: "fail", Type: "string"}}}
}

func (testStage) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	if msg, _ := req.Args["fail"].(string); msg != "" {
		return sdk.Response{}, errors.New(msg)
	}
	if mark, _ := req.Args["mark"].(string); mark != "" {
		_ = os.WriteFile(mark+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o644)
		_ = os.Rename(mark+".tmp", mark)
	}
	<-ctx.Done()
	return sdk.Response{}, ctx.Err()
}

// waitPlugin is the path of a plugin binary serving testStage (this test
// binary, started with serve-stage), for a chart's plugins: map.
func waitPlugin(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "runbook-plugin-wait")
	if err := os.WriteFile(wrapper, fmt.Appendf(nil, "#!/bin/sh\nexec %q serve-stage\n", exe), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper
}

// TestCancelAtEveryStageKind cancels a run just before a stage of each kind
// starts, and — for the kinds that can hold the run — from inside it, while
// a process it started runs. Each time: status cancelled naming the stage
// that was running, the record keeps what the stage before wrote, nothing
// after it ran, and the process is gone.
func TestCancelAtEveryStageKind(t *testing.T) {
	t.Parallel()
	wrapper := waitPlugin(t)
	// A stage body that writes its pid to $MARK and then waits.
	const hold = `{id: inner, exec: {shell: 'echo $$ > "$MARK.tmp" && mv "$MARK.tmp" "$MARK" && exec sleep 30', envFrom: {MARK: mark}}}`
	tests := []struct {
		kind, stage string
		inside      bool // cancel while inner's process runs (else at stage.start)
		// want is the record's error stage: the stage that was running, or
		// — cancelled between stages — the one that was about to start
		// (a container's first inner stage; a loop's target).
		want string
		// Or, the other honest answer: the stage may end before it notices
		// (a set is quick; an exec stopped by the cancel is an outcome, not
		// a failure) and commit, and the next stage is then the one
		// cancelled before it started — "after", or alt.
		alt string
	}{
		{"set", `{id: target, set: {x: "1"}}`, false, "target", ""},
		{"exec", `{id: target, exec: {command: [sleep, "30"]}}`, false, "target", ""},
		{"exec", `{id: target, exec: {shell: 'echo $$ > "$MARK.tmp" && mv "$MARK.tmp" "$MARK" && exec sleep 30', envFrom: {MARK: mark}}}`, true, "target", ""},
		{"decide", `{id: target, decide: {rules: [{when: 'true', then: a}], default: a}, branches: {a: [` + hold + `]}}`, false, "inner", ""},
		{"decide", `{id: target, decide: {rules: [{when: 'true', then: a}], default: a}, branches: {a: [` + hold + `]}}`, true, "inner", ""},
		{"select", `{id: target, select: {rules: [{when: 'true', then: a}]}, branches: {a: [` + hold + `]}}`, false, "target~a/inner", ""},
		{"select", `{id: target, select: {rules: [{when: 'true', then: a}]}, branches: {a: [` + hold + `]}}`, true, "target~a/inner", ""},
		{"parallel", `{id: target, parallel: {a: [` + hold + `], b: [{id: other, set: {y: "2"}}]}}`, false, "target~a/inner", ""},
		{"parallel", `{id: target, parallel: {a: [` + hold + `], b: [{id: other, set: {y: "2"}}]}}`, true, "target~a/inner", ""},
		{"foreach", `{id: target, foreach: {items: '[1]', maxBranches: 5, stages: [` + hold + `]}}`, false, "target", "target~0/inner"},
		{"foreach", `{id: target, foreach: {items: '[1]', maxBranches: 5, stages: [` + hold + `]}}`, true, "target~0/inner", ""},
		{"subflow", `{id: target, subflow: {stages: [` + hold + `]}}`, false, "target/inner", ""},
		{"subflow", `{id: target, subflow: {stages: [` + hold + `]}}`, true, "target/inner", ""},
		{"loop", `{id: target, loop: {to: before, while: 'true', max: 3}}`, false, "before", ""},
		{"plugin", `{id: target, plugin: {name: wait, args: {mark: mark}, into: out}}`, false, "target", ""},
		{"plugin", `{id: target, plugin: {name: wait, args: {mark: mark}, into: out}}`, true, "target", ""},
		{"verdict", `{id: target, verdict: {subject: '"s"', verdict: '"ok"'}}`, false, "target", ""},
		{"fail", `{id: target, fail: '"never said"'}`, false, "target", ""},
		{"ask", `{id: target, ask: {question: '"go on?"', expects: {ok: bool}}}`, false, "target", ""},
	}
	for _, tc := range tests {
		name := tc.kind + "/before"
		if tc.inside {
			name = tc.kind + "/inside"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mark := filepath.Join(t.TempDir(), "pid")
			rb := parse(t, fmt.Sprintf(`version: 1
runbook: cancel-%s
honesty: [label]
plugins: {wait: {command: %q}}
inputs: {mark: {type: string, required: true}}
stages:
  - {id: before, set: {a: "1"}}
  - %s
  - {id: after, set: {b: "1"}}
`, tc.kind, wrapper, tc.stage))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var opts []runbook.ExecOption
			if tc.inside {
				go func() {
					readPidWithin(mark, 20*time.Second)
					cancel()
				}()
			} else {
				opts = append(opts, runbook.WithRecorders(cancelAt{id: "target", cancel: cancel}))
			}
			began := time.Now()
			res, err := rb.Exec(ctx, map[string]any{"mark": mark}, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(began); d > 15*time.Second {
				t.Errorf("the cancelled run took %s", d)
			}
			rec := res.Record
			if rec.Status != "cancelled" || rec.Error == nil || (rec.Error.Stage != tc.want && rec.Error.Stage != tc.alt && rec.Error.Stage != "after") {
				t.Fatalf("status %s error %+v; want cancelled at %s", rec.Status, rec.Error, tc.want)
			}
			if rec.State["a"] != 1 {
				t.Errorf("the write of the stage before the cancel is lost: state %v", rec.State)
			}
			if _, ok := rec.State["b"]; ok {
				t.Error("the stage after the cancel ran")
			}
			if c := res.Run.Log.Commits(); len(c) == 0 || c[0].Stage != "before" {
				t.Errorf("the log does not begin with the stage before: %+v", c)
			}
			if tc.inside {
				waitGone(t, readPid(t, mark), 5*time.Second)
			}
		})
	}
}

// TestForEachHundredThousandItems: a foreach over 100,000 items with
// maxBranches 1000 runs 1000 branches, records the cut (items and bound),
// and stays within a generous time and memory budget.
func TestForEachHundredThousandItems(t *testing.T) {
	rb := parse(t, `version: 1
runbook: wide
honesty: []
stages:
  - {id: seed, set: {items: '0..99999'}}
  - id: each
    foreach:
      items: items
      maxBranches: 1000
      into: out
      stages: [{id: double, set: {d: 'item * 2'}}]
  - {id: count, set: {n: len(out)}}
`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	began := time.Now()
	rec := exec(t, rb, nil)
	elapsed := time.Since(began)
	runtime.ReadMemStats(&after)
	if rec.Status != "completed" || rec.State["n"] != 1000 {
		t.Fatalf("status %s n %v error %+v", rec.Status, rec.State["n"], rec.Error)
	}
	if len(rec.Truncations) != 1 || rec.Truncations[0].Path != "each" || rec.Truncations[0].Items != 100000 || rec.Truncations[0].MaxBranches != 1000 {
		t.Errorf("truncations = %+v", rec.Truncations)
	}
	if elapsed > 20*time.Second {
		t.Errorf("took %s", elapsed)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<30 {
		t.Errorf("allocated %d MiB for 1000 branches", alloc>>20)
	}
}

// TestLoopThatNeverSettles fails naming the loop and its bound.
func TestLoopThatNeverSettles(t *testing.T) {
	t.Parallel()
	rec := exec(t, parse(t, `version: 1
runbook: spin
honesty: []
stages:
  - {id: tick, set: {n: '(n ?? 0) + 1'}}
  - {id: again, loop: {to: tick, while: 'n > 0', max: 50}}
  - {id: after, set: {done: 'true'}}
`), nil)
	if rec.Status != "failed" || rec.Error == nil || rec.Error.Stage != "again" || !strings.Contains(rec.Error.Message, "50") {
		t.Fatalf("status %s error %+v", rec.Status, rec.Error)
	}
	if rec.State["n"] != 51 {
		t.Errorf("n = %v: the passes before the bound are lost", rec.State["n"])
	}
	if _, ok := rec.State["done"]; ok {
		t.Error("the stage after an unsettled loop ran")
	}
}

type panickingRecorder struct{}

func (panickingRecorder) Record(e recorder.Event) {
	if e.Kind == recorder.StageStart {
		panic("a recorder bug")
	}
}

// TestPanickingRecorder: the run completes, the record says which
// recorder failed, and the other outputs are whole.
func TestPanickingRecorder(t *testing.T) {
	t.Parallel()
	rec := exec(t, parse(t, `version: 1
runbook: r
honesty: []
stages:
  - {id: one, set: {a: '1'}}
  - {id: two, set: {b: 'a + 1'}}
`), nil, runbook.WithRecorders(panickingRecorder{}), runbook.WithNarrative())
	if rec.Status != "completed" || rec.State["b"] != 2 {
		t.Fatalf("status %s state %v", rec.Status, rec.State)
	}
	if len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0], "panickingRecorder") || !strings.Contains(rec.Warnings[0], "a recorder bug") {
		t.Errorf("warnings = %q", rec.Warnings)
	}
	if len(rec.Narrative) == 0 {
		t.Error("the narrative recorder was lost with the panicking one")
	}
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	pid := readPidWithin(file, 5*time.Second)
	if pid == 0 {
		t.Fatalf("no pid in %s", file)
	}
	return pid
}

func readPidWithin(file string, d time.Duration) int {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(file); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}

// waitGone waits until pid is no process (or a zombie).
func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d is still alive %s after the run", pid, within)
}

func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
