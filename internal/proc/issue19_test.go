package proc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue #19, "Processes (none may outlive the run)", the exec side: a
// grandchild that leaves the command's process group (setsid) is killed
// and reaped when the stage ends, however it ends; and a SIGKILLed runner
// takes its command with it (the parent-death signal).

func TestIssue19SetsidGrandchildDoesNotOutliveTheStage(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the subreaper sweep is Linux's")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	t.Parallel()
	tests := []struct {
		name string
		// %[1]s is the tag, a unique sleep argument.
		shell   string
		timeout time.Duration
		cancel  time.Duration
		want    func(Result) string
	}{
		{name: "the command ends", shell: `setsid -f sleep %[1]s; echo started`,
			want: func(r Result) string {
				if r.ExitCode == nil || *r.ExitCode != 0 || string(r.Stdout) != "started\n" {
					return fmt.Sprintf("exit %s, stdout %q; want 0, started", showExit(r.ExitCode), r.Stdout)
				}
				return ""
			}},
		{name: "stdout closed", shell: `setsid -f sleep %[1]s >/dev/null 2>&1 </dev/null`,
			want: func(r Result) string {
				if r.ExitCode == nil || *r.ExitCode != 0 {
					return "exit " + showExit(r.ExitCode)
				}
				return ""
			}},
		{name: "a chain of them", shell: `setsid -f bash -c 'setsid -f sleep %[1]s; sleep %[1]s' >/dev/null 2>&1`,
			want: func(r Result) string { return "" }},
		{name: "timeout", shell: `setsid -f sleep %[1]s; sleep 30`, timeout: 300 * time.Millisecond,
			want: func(r Result) string {
				if !r.TimedOut {
					return "not TimedOut"
				}
				return ""
			}},
		{name: "cancelled", shell: `setsid -f sleep %[1]s; sleep 30`, cancel: 300 * time.Millisecond,
			want: func(r Result) string {
				if !r.Cancelled {
					return "not Cancelled"
				}
				return ""
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tag := fmt.Sprintf("41.%d%09d", os.Getpid(), time.Now().UnixNano()%1_000_000_000)
			t.Cleanup(func() { killTagged(tag) })
			ctx := context.Background()
			if tc.cancel > 0 {
				var stop context.CancelFunc
				ctx, stop = context.WithTimeout(ctx, tc.cancel)
				defer stop()
			}
			r := Run(ctx, Spec{Shell: fmt.Sprintf(tc.shell, tag), Timeout: tc.timeout})
			if r.StartErr != nil {
				t.Fatal(r.StartErr)
			}
			if msg := tc.want(r); msg != "" {
				t.Error(msg)
			}
			// Gone when Run returns: not running, not a zombie either.
			if left := tagged(tag); len(left) > 0 {
				t.Errorf("processes of the stage outlived it: %s", describePids(left))
			}
		})
	}
}

// TestIssue19ChildDiesWithTheRunner: a runner SIGKILLed while its command
// runs leaves no command behind. The runner is this test binary again
// (TestIssue19Helper), which runs `sleep TAG` through Run.
func TestIssue19ChildDiesWithTheRunner(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux's")
	}
	t.Parallel()
	tag := fmt.Sprintf("42.%d%09d", os.Getpid(), time.Now().UnixNano()%1_000_000_000)
	t.Cleanup(func() { killTagged(tag) })
	helper := exec.Command(os.Args[0], "-test.run=^TestIssue19Helper$")
	helper.Env = append(os.Environ(), "PROC_ISSUE19_HELPER="+tag)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(tagged(tag)) == 0 {
		if time.Now().After(deadline) {
			_ = helper.Process.Kill()
			_ = helper.Wait()
			t.Fatal("the helper's sleep never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = helper.Process.Kill()
	_ = helper.Wait()
	deadline = time.Now().Add(2 * time.Second)
	left := tagged(tag)
	for len(left) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		left = tagged(tag)
	}
	if len(left) > 0 {
		t.Errorf("the command outlived its SIGKILLed runner: %v", left)
	}
}

// TestIssue19Helper is the runner TestIssue19ChildDiesWithTheRunner
// kills; run on its own it does nothing. Its Run starts on a goroutine
// that exits right after, the case the thread lock is for.
func TestIssue19Helper(t *testing.T) {
	tag := os.Getenv("PROC_ISSUE19_HELPER")
	if tag == "" {
		t.Skip("a helper process only")
	}
	Run(context.Background(), Spec{Argv: []string{"sleep", tag}})
}

// tagged lists the live (not zombie) processes whose command line holds tag.
func tagged(tag string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Contains(cmdline, []byte(tag)) {
			continue
		}
		if _, state, ok := readStatForTest(pid); ok && state != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// describePids names each pid's command line, parent and state.
func describePids(pids []int) string {
	var b strings.Builder
	for _, p := range pids {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
		ppid, state, _ := readStatForTest(p)
		fmt.Fprintf(&b, "\n%d (%s) ppid %d state %s", p, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}), ppid, state)
	}
	return b.String()
}

func killTagged(tag string) {
	for _, p := range tagged(tag) {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}

func readStatForTest(pid int) (ppid int, state string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return 0, "", false
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 2 {
		return 0, "", false
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[0], true
}

// TestIssue19EveryChildCarriesTheTag: the mark the sweep finds a run's
// processes by is in the child's environment, and neither BaseEnv nor Env
// can replace it.
func TestIssue19EveryChildCarriesTheTag(t *testing.T) {
	t.Parallel()
	r := Run(context.Background(), Spec{Argv: []string{"env"}, BaseEnv: []string{tagKey + "=forged"},
		Env: map[string]string{tagKey: "forged"}})
	out := string(r.Stdout)
	if !strings.Contains(out, tagKey+"="+strconv.Itoa(os.Getpid())+".") || strings.Contains(out, "forged") {
		t.Errorf("env = %q, want %s=<runner pid>.<n>, never the spec's", out, tagKey)
	}
}
