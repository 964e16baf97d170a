package proc

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// bound is the generous limit every "returns fast" check uses.
const bound = 5 * time.Second

func ptr[T any](v T) *T { return &v }

func TestRunOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		spec   Spec
		exit   *int
		signal string
		stdout string
	}{
		{
			name:   "exit 0",
			spec:   Spec{Argv: []string{"sh", "-c", "echo ok"}},
			exit:   ptr(0),
			stdout: "ok\n",
		},
		{
			name: "exit 7",
			spec: Spec{Argv: []string{"sh", "-c", "exit 7"}},
			exit: ptr(7),
		},
		{
			name:   "killed by a signal the runner did not send",
			spec:   Spec{Shell: "kill -9 $$"},
			signal: "SIGKILL",
		},
		{
			name:   "shell mode",
			spec:   Spec{Shell: `x=2; echo "$((x+1))" | cat`},
			exit:   ptr(0),
			stdout: "3\n",
		},
		{
			name: "stdin nil is EOF at once",
			spec: Spec{Argv: []string{"cat"}},
			exit: ptr(0),
		},
		{
			name:   "stdin given",
			spec:   Spec{Argv: []string{"cat"}, Stdin: []byte("hello\n")},
			exit:   ptr(0),
			stdout: "hello\n",
		},
		{
			name: "stdin larger than a pipe the child never reads",
			spec: Spec{Shell: "exit 0", Stdin: bytes.Repeat([]byte("x"), 1<<20)},
			exit: ptr(0),
		},
		{
			name:   "env passed",
			spec:   Spec{Shell: `printf '%s' "$RB_GREETING"`, Env: map[string]string{"RB_GREETING": "hi there"}},
			exit:   ptr(0),
			stdout: "hi there",
		},
		{
			name:   "explicit base env, Env laid over it",
			spec:   Spec{Argv: []string{"env", "-u", tagKey, "env"}, BaseEnv: []string{"A=1", "B=old"}, Env: map[string]string{"B": "2"}},
			exit:   ptr(0),
			stdout: "A=1\nB=2\n", // and the run's tag (TestIssue19EveryChildCarriesTheTag)
		},
		{
			name:   "dir",
			spec:   Spec{Shell: "pwd -P", Dir: "/"},
			exit:   ptr(0),
			stdout: "/\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Run(context.Background(), tc.spec)
			if r.StartErr != nil {
				t.Fatalf("StartErr: %v", r.StartErr)
			}
			if got, want := showExit(r.ExitCode), showExit(tc.exit); got != want || r.Signal != tc.signal {
				t.Errorf("exit %s signal %q, want exit %s signal %q", got, r.Signal, want, tc.signal)
			}
			if got := string(r.Stdout); got != tc.stdout {
				t.Errorf("stdout = %q, want %q (stderr %q)", got, tc.stdout, r.Stderr)
			}
			if !r.Started || r.TimedOut || r.Cancelled || r.Truncated {
				t.Errorf("Started=%v TimedOut=%v Cancelled=%v Truncated=%v, want started and the rest false", r.Started, r.TimedOut, r.Cancelled, r.Truncated)
			}
		})
	}
}

func TestRunStartErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noExec := writeFile(t, dir, "noexec.sh", "#!/bin/sh\necho hi\n", 0o644)
	noShebang := writeFile(t, dir, "noshebang", "echo hi\n", 0o755)
	badInterp := writeFile(t, dir, "badinterp", "#!/nonexistent/runbook-interp\necho hi\n", 0o755)
	pathDir := t.TempDir()
	writeFile(t, pathDir, "rb-only-noexec", "#!/bin/sh\n", 0o644)

	tests := []struct {
		name string
		spec Spec
		is   error    // errors.Is target, when one applies
		says []string // substrings of the message
	}{
		{"not found in PATH", Spec{Argv: []string{"runbook-no-such-command"}, Env: map[string]string{"PATH": "/nonexistent-a:/nonexistent-b"}},
			exec.ErrNotFound, []string{`"runbook-no-such-command"`, "not found in PATH", "/nonexistent-a:/nonexistent-b"}},
		{"found in PATH but not executable", Spec{Argv: []string{"rb-only-noexec"}, Env: map[string]string{"PATH": pathDir}},
			fs.ErrPermission, []string{"rb-only-noexec", "permission denied"}},
		{"path without execute permission", Spec{Argv: []string{noExec}},
			fs.ErrPermission, []string{noExec, "permission denied"}},
		{"exec format error", Spec{Argv: []string{noShebang}},
			syscall.ENOEXEC, []string{noShebang, "exec format error", "#!"}},
		{"missing #! interpreter", Spec{Argv: []string{badInterp}},
			syscall.ENOENT, []string{badInterp, "interpreter"}},
		{"no such file by path", Spec{Argv: []string{filepath.Join(dir, "absent")}},
			syscall.ENOENT, []string{"absent", "no such file"}},
		{"relative path resolved in Dir", Spec{Argv: []string{"./absent"}, Dir: dir},
			syscall.ENOENT, []string{"./absent", "no such file"}},
		{"working directory missing", Spec{Argv: []string{"true"}, Dir: filepath.Join(dir, "nope")},
			fs.ErrNotExist, []string{"working directory"}},
		{"empty spec", Spec{}, nil, []string{"no command given"}},
		{"argv and shell both", Spec{Argv: []string{"true"}, Shell: "true"}, nil, []string{"both argv and shell"}},
		{"bad env name", Spec{Argv: []string{"true"}, Env: map[string]string{"A=B": "x"}}, nil, []string{"not valid"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Run(context.Background(), tc.spec)
			if r.StartErr == nil {
				t.Fatalf("StartErr = nil, want an error (result %+v)", r)
			}
			if tc.is != nil && !errors.Is(r.StartErr, tc.is) {
				t.Errorf("StartErr %q is not %v", r.StartErr, tc.is)
			}
			for _, s := range tc.says {
				if !strings.Contains(r.StartErr.Error(), s) {
					t.Errorf("StartErr %q does not say %q", r.StartErr, s)
				}
			}
			if r.ExitCode != nil || r.Signal != "" || r.TimedOut || r.Cancelled {
				t.Errorf("exit %v signal %q timedOut %v cancelled %v, want no outcome", r.ExitCode, r.Signal, r.TimedOut, r.Cancelled)
			}
		})
	}
}

func TestRunStoppedByRunner(t *testing.T) {
	t.Parallel()
	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		start := time.Now()
		r := Run(context.Background(), Spec{Argv: []string{"sleep", "10"}, Timeout: 100 * time.Millisecond})
		assertStopped(t, r, start)
		if !r.TimedOut || r.Cancelled {
			t.Errorf("TimedOut=%v Cancelled=%v, want timed out", r.TimedOut, r.Cancelled)
		}
	})
	t.Run("ctx cancel", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		r := Run(ctx, Spec{Argv: []string{"sleep", "10"}})
		assertStopped(t, r, start)
		if !r.Cancelled || r.TimedOut {
			t.Errorf("TimedOut=%v Cancelled=%v, want cancelled", r.TimedOut, r.Cancelled)
		}
	})
	t.Run("ctx done before start is not entered", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r := Run(ctx, Spec{Argv: []string{"sh", "-c", "echo should not run"}})
		if !r.Cancelled || r.Started || r.ExitCode != nil || r.StartErr != nil || r.Stdout != nil {
			t.Errorf("got %+v, want cancelled, not started, no exit, no output", r)
		}
	})
	t.Run("timeout passed before the start is a timeout", func(t *testing.T) {
		// A loaded machine can take longer than the timeout to reach the
		// fork; os/exec then refuses to start with the context's error. That
		// is the runner's stop, not a command that could not be started
		// (the CI failure of TestRunConcurrentNoLeaks, run 2).
		t.Parallel()
		r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "echo should not run"}, Timeout: time.Nanosecond})
		if !r.TimedOut || r.Cancelled || r.StartErr != nil || r.ExitCode != nil || r.Stdout != nil {
			t.Errorf("got %+v, want timed out, no start error, no exit, no output", r)
		}
	})
	t.Run("timeout kills grandchildren", func(t *testing.T) {
		t.Parallel()
		start := time.Now()
		r := Run(context.Background(), Spec{Shell: "sleep 30 & echo $!; sleep 30", Timeout: 200 * time.Millisecond})
		assertStopped(t, r, start)
		assertGone(t, echoedPID(t, r.Stdout))
	})
	t.Run("SIGTERM ignored: SIGKILL after grace", func(t *testing.T) {
		t.Parallel()
		start := time.Now()
		r := Run(context.Background(), Spec{
			Shell:   `trap "" TERM; sleep 30 & echo $!; wait; wait; sleep 30`,
			Timeout: 200 * time.Millisecond,
			Grace:   300 * time.Millisecond,
		})
		assertStopped(t, r, start)
		if r.Duration < 400*time.Millisecond {
			t.Errorf("Duration %v: the group was killed before its grace", r.Duration)
		}
		assertGone(t, echoedPID(t, r.Stdout))
	})
}

func TestRunGrandchildHoldsStdout(t *testing.T) {
	t.Parallel()
	start := time.Now()
	r := Run(context.Background(), Spec{Shell: "sleep 30 & echo $!; echo hi"})
	if took := time.Since(start); took > bound {
		t.Fatalf("took %v: a grandchild holding stdout hung the run", took)
	}
	lines := strings.Split(strings.TrimSpace(string(r.Stdout)), "\n")
	if len(lines) != 2 || lines[1] != "hi" {
		t.Fatalf("stdout = %q, want the pid and hi", r.Stdout)
	}
	if r.ExitCode == nil || *r.ExitCode != 0 || r.TimedOut || r.Cancelled {
		t.Errorf("exit %s timedOut %v cancelled %v, want exit 0: the leader exited on its own", showExit(r.ExitCode), r.TimedOut, r.Cancelled)
	}
	assertGone(t, echoedPID(t, r.Stdout))
}

func TestRunGrandchildHoldsStdinUnread(t *testing.T) {
	t.Parallel()
	start := time.Now()
	r := Run(context.Background(), Spec{
		Shell: `exec 3<&0; sleep 30 <&3 3<&- & echo $!`,
		Stdin: bytes.Repeat([]byte("x"), 1<<20), // far more than a pipe holds
	})
	if took := time.Since(start); took > bound {
		t.Fatalf("took %v: a grandchild holding stdin unread hung the run", took)
	}
	if r.ExitCode == nil || *r.ExitCode != 0 {
		t.Errorf("exit %v, want 0", r.ExitCode)
	}
	assertGone(t, echoedPID(t, r.Stdout))
}

func TestRunBackgroundChildNotHoldingPipesIsKilled(t *testing.T) {
	t.Parallel()
	r := Run(context.Background(), Spec{Shell: "sleep 30 >/dev/null 2>&1 & echo $!"})
	assertGone(t, echoedPID(t, r.Stdout))
}

func TestRunOutputCap(t *testing.T) {
	t.Parallel()
	t.Run("huge output is capped and does not hang", func(t *testing.T) {
		t.Parallel()
		start := time.Now()
		r := Run(context.Background(), Spec{Shell: "head -c 5000000 /dev/zero; head -c 3000000 /dev/zero >&2"})
		if took := time.Since(start); took > bound {
			t.Fatalf("took %v", took)
		}
		if len(r.Stdout) != DefaultMaxOutput || len(r.Stderr) != DefaultMaxOutput || !r.Truncated {
			t.Errorf("len stdout %d, stderr %d, Truncated %v; want %d each and truncated", len(r.Stdout), len(r.Stderr), r.Truncated, DefaultMaxOutput)
		}
		if r.ExitCode == nil || *r.ExitCode != 0 {
			t.Errorf("exit %v, want 0: the child must never block on a full pipe", r.ExitCode)
		}
	})
	t.Run("exactly the cap is not truncated", func(t *testing.T) {
		t.Parallel()
		r := Run(context.Background(), Spec{Shell: "printf 12345", MaxOutput: 5})
		if string(r.Stdout) != "12345" || r.Truncated {
			t.Errorf("stdout %q Truncated %v, want 12345 and not truncated", r.Stdout, r.Truncated)
		}
	})
	t.Run("one past the cap is truncated", func(t *testing.T) {
		t.Parallel()
		r := Run(context.Background(), Spec{Shell: "printf 123456", MaxOutput: 5})
		if string(r.Stdout) != "12345" || !r.Truncated {
			t.Errorf("stdout %q Truncated %v, want 12345 and truncated", r.Stdout, r.Truncated)
		}
	})
	t.Run("binary and non-UTF-8 output", func(t *testing.T) {
		t.Parallel()
		r := Run(context.Background(), Spec{Argv: []string{"printf", `a\377\376\000b`}})
		if want := []byte{'a', 0xff, 0xfe, 0, 'b'}; !bytes.Equal(r.Stdout, want) {
			t.Errorf("stdout = %q, want %q", r.Stdout, want)
		}
		if got, want := Text(r.Stdout), "a\uFFFD\uFFFD\x00b"; got != want {
			t.Errorf("Text = %q, want %q", got, want)
		}
	})
}

func TestRunMinimalBaseEnv(t *testing.T) {
	// Not parallel: t.Setenv.
	t.Setenv("RB_PROC_NOT_INHERITED", "leak")
	t.Setenv("TZ", "UTC")
	r := Run(context.Background(), Spec{Argv: []string{"env"}})
	out := string(r.Stdout)
	if strings.Contains(out, "RB_PROC_NOT_INHERITED") {
		t.Errorf("a variable outside the inherited list reached the child:\n%s", out)
	}
	if !strings.Contains(out, "TZ=UTC\n") {
		t.Errorf("TZ is inherited, but the child's env is:\n%s", out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		k, _, _ := strings.Cut(line, "=")
		found := k == tagKey || k == "LC_NUMERIC" || k == "LC_TIME" || k == "LC_MESSAGES" || k == "LC_CTYPE" // the run's mark (issue #19), numbers, times, words and characters pinned: never a value of runbook's
		for _, want := range inheritedKeys {
			found = found || k == want
		}
		if !found {
			t.Errorf("child env holds %s, not in the inherited list", k)
		}
	}
}

// TestChildWritesNumbersInC: under a runner's de_DE.UTF-8 a child wrote
// `load average: 4,54` (a text no number rule orders) and `printf "%'d"`
// 1234 as `1.234`, which a chart read as the number 1.234 in silence.
// The child's numbers are C's whatever the runner's locale; its other
// categories keep the runner's.
func TestChildWritesNumbersInC(t *testing.T) {
	for _, tc := range []struct {
		name, lang, all string
		want            []string
	}{
		{"LANG", "de_DE.UTF-8", "", []string{"LANG=de_DE.UTF-8", "LC_COLLATE=C", "LC_MESSAGES=C", "LC_NUMERIC=C", "LC_TIME=C"}},
		{"LC_ALL", "en_US.UTF-8", "de_DE.UTF-8", []string{"LANG=de_DE.UTF-8", "LC_COLLATE=C", "LC_MESSAGES=C", "LC_NUMERIC=C", "LC_TIME=C"}},
		{"LC_ALL C", "de_DE.UTF-8", "C.UTF-8", []string{"LANG=de_DE.UTF-8", "LC_ALL=C.UTF-8"}},
		{"C", "C.UTF-8", "", []string{"LANG=C.UTF-8"}},
		{"POSIX", "POSIX", "", []string{"LANG=POSIX"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("LANG", tc.lang)
			t.Setenv("LC_ALL", tc.all)
			if tc.all == "" {
				os.Unsetenv("LC_ALL")
			}
			var got []string
			for _, kv := range InheritedEnv() {
				if strings.HasPrefix(kv, "LANG=") || strings.HasPrefix(kv, "LC_") {
					got = append(got, kv)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("locale of the child's env = %q, want %q", got, tc.want)
			}
		})
	}
	// A real locale, where this machine can build one: the numbers a
	// child prints are what a chart reads.
	dir := t.TempDir()
	if err := exec.Command("localedef", "-i", "de_DE", "-f", "UTF-8", filepath.Join(dir, "de_DE.UTF-8")).Run(); err != nil {
		t.Logf("no de_DE locale built here (%v): the printed numbers are not checked", err)
		return
	}
	t.Setenv("LC_ALL", "de_DE.UTF-8")
	r := Run(context.Background(), Spec{Shell: `printf "%'d %.2f\n" 1234 4.5`, Env: map[string]string{"LOCPATH": dir}})
	if got := string(r.Stdout); got != "1234 4.50\n" {
		t.Errorf("under LC_ALL=de_DE.UTF-8 the child printed %q (stderr %q), want C's numbers %q", got, r.Stderr, "1234 4.50\n")
	}
}

// TestChildWritesTimesInC: under a runner's de_DE.UTF-8 `date "+%b %e"`
// printed `Dez  7`, and a chart grepping today's ERROR lines out of a
// syslog (whose stamps rsyslog writes in C, `Dec  7 01:02:03`) counted
// none and said OK over an error of that morning. A child writes its
// times in C too, whatever the runner's locale.
func TestChildWritesTimesInC(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("localedef", "-i", "de_DE", "-f", "UTF-8", filepath.Join(dir, "de_DE.UTF-8")).Run(); err != nil {
		t.Skipf("no de_DE locale built here (%v)", err)
	}
	for _, tc := range []struct{ name, key string }{{"LANG", "LANG"}, {"LC_ALL", "LC_ALL"}} {
		t.Run(tc.name, func(t *testing.T) {
			os.Unsetenv("LC_ALL")
			t.Setenv("LANG", "C.UTF-8")
			t.Setenv(tc.key, "de_DE.UTF-8")
			r := Run(context.Background(), Spec{Shell: `date -u -d @1796605323 "+%b %e %a"`, Env: map[string]string{"LOCPATH": dir}})
			if got, want := string(r.Stdout), "Dec  7 Mon\n"; got != want {
				t.Errorf("under %s=de_DE.UTF-8 the child printed %q (stderr %q), want C's %q", tc.key, got, r.Stderr, want)
			}
		})
	}
}

// TestChildSortsInC: under a runner's de_DE.UTF-8 `sort | head -n 1` over
// user names gave `alice`, where the chart's author, under C, saw `Bob`
// (de_DE sorts without regard to case): a chart picking the first name, or
// comparing a sorted list with a baseline, judged another row (wave-locale's
// design question). A child sorts by byte, as C does, whatever the
// runner's locale.
func TestChildSortsInC(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("localedef", "-i", "de_DE", "-f", "UTF-8", filepath.Join(dir, "de_DE.UTF-8")).Run(); err != nil {
		t.Skipf("no de_DE locale built here (%v)", err)
	}
	probe := exec.Command("sh", "-c", `printf 'alice\nBob\n' | sort | head -n 1`)
	probe.Env = []string{"LC_ALL=de_DE.UTF-8", "LOCPATH=" + dir, "PATH=" + os.Getenv("PATH")}
	if out, _ := probe.Output(); string(out) != "alice\n" {
		t.Skipf("sort does not collate by de_DE here (it gave %q)", out)
	}
	for _, tc := range []struct{ name, key string }{{"LANG", "LANG"}, {"LC_ALL", "LC_ALL"}} {
		t.Run(tc.name, func(t *testing.T) {
			os.Unsetenv("LC_ALL")
			t.Setenv("LANG", "C.UTF-8")
			t.Setenv(tc.key, "de_DE.UTF-8")
			r := Run(context.Background(), Spec{Shell: `printf 'alice\nBob\n' | sort | head -n 1`, Env: map[string]string{"LOCPATH": dir}})
			if got, want := string(r.Stdout), "Bob\n"; got != want {
				t.Errorf("under %s=de_DE.UTF-8 the child sorted %q first (stderr %q), want C's %q", tc.key, got, r.Stderr, want)
			}
		})
	}
}

// TestChildWritesMessagesInC: under a runner's de_DE.UTF-8 grep over a
// log rotated away said `Datei oder Verzeichnis nicht gefunden`, which is
// not the `No such file or directory` a run reads as a file it could not
// read, so `grep -c ERROR app.log || echo 0` said OK, Consistent; and
// mpstat labelled its summary `Durchschn.:`, which a chart's filter of
// its `Average:` rows did not find, so two CPUs 100% busy read as none
// busy. A child writes its words in C too, whatever the runner's locale.
func TestChildWritesMessagesInC(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("localedef", "-i", "de_DE", "-f", "UTF-8", filepath.Join(dir, "de_DE.UTF-8")).Run(); err != nil {
		t.Skipf("no de_DE locale built here (%v)", err)
	}
	missing := filepath.Join(dir, "app.log")
	probe := exec.Command("cat", missing)
	probe.Env = []string{"LC_ALL=de_DE.UTF-8", "LOCPATH=" + dir, "PATH=" + os.Getenv("PATH")}
	if out, _ := probe.CombinedOutput(); strings.Contains(string(out), "No such file") {
		t.Skip("cat has no German messages here (no coreutils translation installed)")
	}
	for _, tc := range []struct{ name, key string }{{"LANG", "LANG"}, {"LC_ALL", "LC_ALL"}} {
		t.Run(tc.name, func(t *testing.T) {
			os.Unsetenv("LC_ALL")
			t.Setenv("LANG", "C.UTF-8")
			t.Setenv(tc.key, "de_DE.UTF-8")
			r := Run(context.Background(), Spec{Argv: []string{"cat", missing}, Env: map[string]string{"LOCPATH": dir}})
			if got := string(r.Stderr); !strings.Contains(got, "No such file or directory") {
				t.Errorf("under %s=de_DE.UTF-8 the child said %q, want C's %q", tc.key, got, "No such file or directory")
			}
		})
	}
}

func TestRunSecretsMasked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		spec           Spec
		stdout, stderr string
		truncated      bool
	}{
		{"stdout and stderr",
			Spec{Shell: `echo "token=$TOK"; echo "err $TOK" >&2`, Env: map[string]string{"TOK": "s3cr3t"}, Secrets: []string{"s3cr3t"}},
			"token=***\n", "err ***\n", false},
		{"split across reads",
			Spec{Shell: `printf abc; sleep 0.2; printf 'def\n'`, Secrets: []string{"abcdef"}},
			"***\n", "", false},
		{"straddling the cap is masked whole",
			Spec{Shell: `printf 'xxxxsecretyyy'`, Secrets: []string{"secret"}, MaxOutput: 6},
			"xxxx***", "", true},
		{"a partial secret at the end of the stream is not the secret",
			Spec{Shell: `printf 'xxsec'`, Secrets: []string{"secret"}},
			"xxsec", "", false},
		{"empty secret ignored",
			Spec{Shell: `printf abc`, Secrets: []string{""}},
			"abc", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Run(context.Background(), tc.spec)
			if string(r.Stdout) != tc.stdout || string(r.Stderr) != tc.stderr || r.Truncated != tc.truncated {
				t.Errorf("stdout %q stderr %q truncated %v; want %q %q %v", r.Stdout, r.Stderr, r.Truncated, tc.stdout, tc.stderr, tc.truncated)
			}
		})
	}
}

func TestText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"é ✓", "é ✓"},
		{"\xff\xfe", "\uFFFD\uFFFD"},
		{"a\xe2\x9cb", "a\uFFFD\uFFFDb"}, // a cut 3-byte sequence: one U+FFFD per byte
	}
	for _, tc := range tests {
		if got := Text([]byte(tc.in)); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFirstInvalid: where Text changes a text is said exactly — the count
// of bytes it replaces (one per byte of a cut sequence), the first one's
// offset and line, and that line raw — and UTF-8 is never flagged.
func TestFirstInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Invalid
		bad  bool
	}{
		{"", Invalid{}, false},
		{"é ✓\nok\n", Invalid{}, false},
		{"ok\ncaf\xe9\n", Invalid{Bytes: 1, Offset: 6, Line: 2, LineText: "caf\xe9"}, true},
		{"\xff", Invalid{Bytes: 1, Offset: 0, Line: 1, LineText: "\xff"}, true},
		{"a\nb\nx\xe2\x9c", Invalid{Bytes: 2, Offset: 5, Line: 3, LineText: "x\xe2\x9c"}, true}, // a sequence cut at the end
		{"\xe9a\n\xe8b", Invalid{Bytes: 2, Offset: 0, Line: 1, LineText: "\xe9a"}, true},
	}
	for _, tc := range tests {
		got, bad := FirstInvalid([]byte(tc.in))
		if bad != tc.bad || got != tc.want {
			t.Errorf("FirstInvalid(%q) = %+v, %v; want %+v, %v", tc.in, got, bad, tc.want, tc.bad)
		}
	}
}

func TestSignalName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sig  syscall.Signal
		want string
	}{
		{syscall.SIGKILL, "SIGKILL"},
		{syscall.SIGTERM, "SIGTERM"},
		{syscall.SIGSEGV, "SIGSEGV"},
		{34, "SIGRTMIN+2"},
		{99, "signal 99"},
	}
	for _, tc := range tests {
		if got := SignalName(tc.sig); got != tc.want {
			t.Errorf("SignalName(%d) = %q, want %q", tc.sig, got, tc.want)
		}
	}
}

func TestKillGroup(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sh", "-c", "sleep 30 & echo $!; sleep 30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 32)
	n, _ := out.Read(line)
	grandchild := echoedPID(t, line[:n])
	waited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(waited) }()

	start := time.Now()
	if err := KillGroup(cmd.Process.Pid, time.Second); err != nil {
		t.Fatalf("KillGroup: %v", err)
	}
	if took := time.Since(start); took > bound {
		t.Errorf("KillGroup took %v", took)
	}
	<-waited
	assertGone(t, grandchild)
	if err := KillGroup(cmd.Process.Pid, time.Second); err != nil {
		t.Errorf("KillGroup on a gone group: %v, want nil", err)
	}
}

func TestKillGroupRefusesDangerousGroups(t *testing.T) {
	t.Parallel()
	for _, pgid := range []int{-5, 0, 1, syscall.Getpgrp()} {
		if err := KillGroup(pgid, time.Millisecond); err == nil {
			t.Errorf("KillGroup(%d) = nil, want a refusal", pgid)
		}
	}
}

func TestRunConcurrentNoLeaks(t *testing.T) {
	// Not parallel, so the goroutine count is only this test's.
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			spec := Spec{Shell: "echo " + strconv.Itoa(i) + "; sleep 30 & exit 3"}
			if i%2 == 0 {
				spec = Spec{Argv: []string{"sleep", "10"}, Timeout: 50 * time.Millisecond}
			}
			r := Run(context.Background(), spec)
			if i%2 == 1 && (r.ExitCode == nil || *r.ExitCode != 3 || string(r.Stdout) != strconv.Itoa(i)+"\n") {
				t.Errorf("run %d: exit %s stdout %q", i, showExit(r.ExitCode), r.Stdout)
			}
			if i%2 == 0 && !r.TimedOut {
				t.Errorf("run %d: not timed out", i)
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(bound)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

// assertStopped checks a run the runner stopped: fast, and no outcome.
func assertStopped(t *testing.T, r Result, start time.Time) {
	t.Helper()
	if took := time.Since(start); took > bound {
		t.Errorf("took %v, want well under %v", took, bound)
	}
	if !r.Started || r.ExitCode != nil || r.Signal != "" || r.StartErr != nil {
		t.Errorf("started %v exit %v signal %q err %v; want started and nothing else", r.Started, r.ExitCode, r.Signal, r.StartErr)
	}
}

// assertGone waits (up to bound) until pid no longer runs. A killed orphan
// may linger as a zombie until its new parent reaps it; a zombie runs
// nothing, so it counts as gone.
func assertGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for {
		if syscall.Kill(pid, 0) == syscall.ESRCH || isZombie(pid) {
			return
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d is still alive after the run", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func isZombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) STATE …; comm may hold spaces, so read after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func echoedPID(t *testing.T, out []byte) int {
	t.Helper()
	first, _, _ := strings.Cut(string(out), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || pid <= 1 {
		t.Fatalf("no pid echoed: %q", out)
	}
	return pid
}

func writeFile(t *testing.T, dir, name, body string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // the umask may have cut bits
		t.Fatal(err)
	}
	return p
}

func showExit(code *int) string {
	if code == nil {
		return "<nil>"
	}
	return strconv.Itoa(*code)
}

// TestChildCasesLettersInC: under a runner's tr_TR.UTF-8 a child cased
// the ASCII letter i as Turkish does (i and İ, ı and I), so `grep -ic
// failed` counted a log's "failed" lines and not its "FAILED" ones, and a
// chart counting failures case-blind said OK over systemd's upper-case
// FAILED. A Turkic locale's child cases letters as C does, in UTF-8 where
// the runner's locale is UTF-8; any other locale's characters stay the
// runner's.
func TestChildCasesLettersInC(t *testing.T) {
	for _, tc := range []struct {
		lang, want string
	}{
		{"tr_TR.UTF-8", "LC_CTYPE=C"},
		{"az_AZ.utf8", "LC_CTYPE=C"},
		{"ku_TR.UTF-8", "LC_CTYPE=C"},
		{"tt_RU.UTF-8@iqtelif", "LC_CTYPE=C"},
		{"tr_TR.ISO-8859-9", "LC_CTYPE=C"},
		{"tr_TR", "LC_CTYPE=C"},
		{"de_DE.UTF-8", ""},
		{"ku_IQ.UTF-8", ""},
		{"tt_RU.UTF-8", ""},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Setenv("LANG", tc.lang)
			os.Unsetenv("LC_ALL")
			got := ""
			for _, kv := range InheritedEnv() {
				if strings.HasPrefix(kv, "LC_CTYPE=") {
					got = kv
				}
			}
			if !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
				t.Errorf("LANG=%s: the child's %q, want %q…", tc.lang, got, tc.want)
			}
			if tc.want != "" && !strings.Contains(tc.lang, "UTF") && !strings.Contains(tc.lang, "utf") && got != "LC_CTYPE=C" {
				t.Errorf("LANG=%s, no UTF-8: the child's %q, want LC_CTYPE=C", tc.lang, got)
			}
		})
	}
	// A real locale, where this machine can build one: what grep counts.
	dir := t.TempDir()
	if err := exec.Command("localedef", "-i", "tr_TR", "-f", "UTF-8", filepath.Join(dir, "tr_TR.UTF-8")).Run(); err != nil {
		t.Logf("no tr_TR locale built here (%v): grep's count is not checked", err)
		return
	}
	_ = exec.Command("localedef", "-i", "C", "-f", "UTF-8", filepath.Join(dir, "C.UTF-8")).Run()
	for _, key := range []string{"LANG", "LC_ALL"} {
		t.Run("grep under "+key, func(t *testing.T) {
			os.Unsetenv("LC_ALL")
			t.Setenv("LANG", "C.UTF-8")
			t.Setenv(key, "tr_TR.UTF-8")
			r := Run(context.Background(), Spec{Shell: `printf 'FAILED a\nfailed b\nŞ\n' | grep -ic -e failed -e ş`, Env: map[string]string{"LOCPATH": dir}})
			if got := string(r.Stdout); got != "3\n" {
				t.Errorf("under %s=tr_TR.UTF-8 grep -ic counted %q (stderr %q), want C's 3", key, got, r.Stderr)
			}
		})
	}
}

// TestChildOfARunnerWithNoLocaleWritesUTF8: a runner with no locale at
// all (LANG and LC_ALL unset: a container, RHEL's cron, NRPE) left its
// children in C, whose characters are ASCII: ps wrote the ü of
// /srv/Büro/sync.sh as ??, so `pgrep -f /srv/Büro/sync.sh` exited 1 and
// a chart said the job was not running, Consistent, over it; systemctl
// marked a failed unit * where a terminal shows ●. Such a child gets
// LC_CTYPE=C.UTF-8 where this machine has it; a runner that set C or
// POSIX keeps it.
func TestChildOfARunnerWithNoLocaleWritesUTF8(t *testing.T) {
	if cCharacters("C.UTF-8") != "C.UTF-8" {
		t.Skip("no C.UTF-8 locale on this machine")
	}
	for _, tc := range []struct {
		name, lang string
		want       []string
	}{
		{"none", "", []string{"LC_CTYPE=C.UTF-8"}},
		{"C set", "C", []string{"LANG=C"}},
		{"POSIX set", "POSIX", []string{"LANG=POSIX"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Unsetenv("LC_ALL")
			t.Setenv("LANG", tc.lang)
			if tc.lang == "" {
				os.Unsetenv("LANG")
			}
			var got []string
			for _, kv := range InheritedEnv() {
				if strings.HasPrefix(kv, "LANG=") || strings.HasPrefix(kv, "LC_") {
					got = append(got, kv)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("locale of the child's env = %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("ps", func(t *testing.T) {
		os.Unsetenv("LC_ALL")
		t.Setenv("LANG", "")
		os.Unsetenv("LANG")
		dir := t.TempDir()
		name := filepath.Join(dir, "B\u00fcro-sync")
		if err := os.Symlink("/bin/sleep", name); err != nil {
			t.Skip(err)
		}
		r := Run(context.Background(), Spec{Shell: `"$N" 5 & p=$!; ps -o args= -p "$p"; kill "$p"`, Env: map[string]string{"N": name}})
		if got := string(r.Stdout); !strings.Contains(got, "B\u00fcro-sync") {
			t.Errorf("ps wrote %q (stderr %q), want the name as it is", got, r.Stderr)
		}
	})
}
