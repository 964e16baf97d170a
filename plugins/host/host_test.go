package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/host"
)

// bins are the test plugins, built once for the package.
var bins = map[string]string{}

func TestMain(m *testing.M) {
	if os.Getenv("HOST_HELPER") != "" {
		hostHelper() // a host process the parent-death test kills
		return
	}
	dir, err := os.MkdirTemp("", "rbp-host-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, name := range []string{"behave", "junk", "proto2", "nohandshake", "noshutdown", "escapes"} {
		bin := filepath.Join(dir, host.Prefix+name)
		out, err := exec.Command("go", "build", "-o", bin, "github.com/openrunbook/runbook/plugins/internal/testplugin/"+name).CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", name, err, out)
			os.Exit(1)
		}
		bins[name] = bin
	}
	code := m.Run()
	os.RemoveAll(dir)
	// No goroutine outlives the tests: every plugin's reader, waiter and
	// gRPC connection ends with Kill (none ignored).
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: goroutines left after the tests: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

func start(t *testing.T, name string, opts ...host.Option) *host.Stage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := host.Start(ctx, host.Source{Name: name, Path: bins[name]}, opts...)
	if err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	t.Cleanup(p.Kill)
	st, err := p.Stage(ctx)
	if err != nil {
		t.Fatalf("stage %s: %v", name, err)
	}
	return st
}

func TestDescribeAndRun(t *testing.T) {
	t.Parallel()
	st := start(t, "behave")
	d := st.Description()
	if d.Name != "behave" || d.Version != "0.0.1" || len(d.Args) != 3 || d.Args[1].Default != 1 {
		t.Fatalf("description: %+v", d)
	}
	if st.Plugin().Protocol() != plugins.ProtocolVersion {
		t.Fatalf("protocol %d", st.Plugin().Protocol())
	}
	resp, err := st.Run(context.Background(), plugins.Request{Path: "p", Args: map[string]any{"mode": "ok", "n": 7}, Scope: map[string]any{"seed": 1.5}})
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Result.(map[string]any)
	// Whole numbers cross as int, others as float64.
	if m["n"] != 7 || m["seed"] != 1.5 || m["path"] != "p" {
		t.Fatalf("result %#v", m)
	}
}

func TestConcurrentCallsShareOneProcess(t *testing.T) {
	t.Parallel()
	st := start(t, "behave")
	var wg sync.WaitGroup
	errs := make(chan error, 500)
	for i := range 500 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{"n": i}})
			if err != nil {
				errs <- err
				return
			}
			if got := resp.Result.(map[string]any)["n"]; got != i {
				errs <- fmt.Errorf("call %d got the answer of %v", i, got)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestPluginErrorIsRunError(t *testing.T) {
	t.Parallel()
	st := start(t, "behave")
	_, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": "error"}})
	var re *host.RunError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "the thing it checks is broken") {
		t.Fatalf("err = %v", err)
	}
	// The process is sound: the next call works.
	if _, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
}

func TestStartFailures(t *testing.T) {
	dir := t.TempDir()
	noexec := filepath.Join(dir, "noexec")
	copyFile(t, bins["behave"], noexec, 0o644)
	garbage := filepath.Join(dir, "garbage")
	if err := os.WriteFile(garbage, []byte("\x7fELF\x02\x01\x01 this is not a real binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "started")
	env := host.WithEnv("BEHAVE_STARTED=" + marker)
	tests := []struct {
		name string
		src  host.Source
		want []string
	}{
		{"checksum mismatch", host.Source{Name: "behave", Path: bins["behave"], SHA256: strings.Repeat("ab", 32)},
			[]string{`plugin "behave"`, "checksum mismatch", strings.Repeat("ab", 32), "refused before starting it"}},
		{"protocol mismatch", host.Source{Name: "proto2", Path: bins["proto2"]},
			[]string{`plugin "proto2"`, "speaks plugin protocol 2", "this runbook speaks protocol 1"}},
		{"junk on the handshake line", host.Source{Name: "junk", Path: bins["junk"]},
			[]string{`plugin "junk"`, "wrote to stdout before the handshake", "Hello from junk!", "I print a greeting"}},
		{"not executable", host.Source{Name: "noexec", Path: noexec}, []string{"is not executable", "chmod +x"}},
		{"wrong architecture", host.Source{Name: "garbage", Path: garbage}, []string{"not an executable for this machine", "exec format error"}},
		{"missing", host.Source{Name: "gone", Path: filepath.Join(dir, "gone")}, []string{"no executable at"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			began := time.Now()
			p, err := host.Start(ctx, tc.src, host.WithStartTimeout(10*time.Second), env)
			if err == nil {
				p.Kill()
				t.Fatal("started")
			}
			var he *host.Error
			if !errors.As(err, &he) {
				t.Fatalf("err %T %v", err, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if time.Since(began) > 5*time.Second {
				t.Errorf("took %s", time.Since(began))
			}
		})
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the checksum-mismatched plugin was started")
	}
	// The same binary with its right checksum starts.
	sum := sha256sum(t, bins["behave"])
	p, err := host.Start(context.Background(), host.Source{Name: "behave", Path: bins["behave"], SHA256: sum}, env)
	if err != nil {
		t.Fatal(err)
	}
	p.Kill()
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the marker a started plugin writes is missing (%v): the check above proves nothing", err)
	}
}

func TestCrashMidCall(t *testing.T) {
	t.Parallel()
	st := start(t, "behave")
	_, err := st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": "crash"}})
	var he *host.Error
	if !errors.As(err, &he) {
		t.Fatalf("err %T %v", err, err)
	}
	for _, w := range []string{`plugin "behave"`, "exit status 3", "about to crash on purpose"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

func TestHangPastTimeout(t *testing.T) {
	t.Parallel()
	st := start(t, "behave")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := st.Run(ctx, plugins.Request{Args: map[string]any{"mode": "hang"}})
	if err == nil || !strings.Contains(err.Error(), "no answer within ") || !strings.Contains(err.Error(), "hanging on purpose") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Fatalf("returned after %s", d)
	}
	began = time.Now()
	st.Plugin().Kill()
	if d := time.Since(began); d > 2*time.Second {
		t.Fatalf("killing a hung plugin took %s", d)
	}
}

// TestCallPastItsTimeoutSaysTheTimeItWasGiven: a call that got no answer
// said "no answer before the deadline: rpc error: code = DeadlineExceeded
// desc = context deadline exceeded", which told the plugin's author
// neither how long the host waited nor what to change. It says the time
// the call was given, the deadline's (not the time it took to notice).
func TestCallPastItsTimeoutSaysTheTimeItWasGiven(t *testing.T) {
	t.Parallel()
	st := start(t, "behave")
	defer st.Plugin().Kill()
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	_, err := st.Run(ctx, plugins.Request{Args: map[string]any{"mode": "hang"}})
	if err == nil || !strings.Contains(err.Error(), `plugin "behave": call: no answer within 700ms, the time the call was given (answer sooner, or give it a longer timeout)`) {
		t.Fatalf("err = %v; want the 700ms it was given", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v is not context.DeadlineExceeded to errors.Is", err)
	}
}

func TestKillStopsChildren(t *testing.T) {
	t.Parallel()
	st := start(t, "behave")
	pidfile := filepath.Join(t.TempDir(), "pids")
	go st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": "spawn", "pidfile": pidfile}})
	pids := waitPids(t, pidfile, 2)
	st.Plugin().Kill()
	for _, pid := range pids {
		waitGone(t, pid, 2*time.Second)
	}
}

// TestHostKilledPluginExits kills (SIGKILL) a host process while its
// plugin is in a call; the plugin must exit by itself within 2s.
func TestHostKilledPluginExits(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "HOST_HELPER=1", "HELPER_PLUGIN="+bins["behave"], "HELPER_PIDFILE="+pidfile)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, pidfile, 1)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	waitGone(t, pids[0], 2*time.Second)
}

func hostHelper() {
	p, err := host.Start(context.Background(), host.Source{Name: "behave", Path: os.Getenv("HELPER_PLUGIN")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	st, err := p.Stage(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mode := os.Getenv("HELPER_MODE")
	if mode == "" {
		mode = "hang"
	}
	_, _ = st.Run(context.Background(), plugins.Request{Args: map[string]any{"mode": mode, "pidfile": os.Getenv("HELPER_PIDFILE")}})
	os.Exit(0)
}

func TestManagerStartsOnceAndStopsAll(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Two plugins, each called by the name it declares: one from the
	// chart's map, one from the directory.
	copyFile(t, bins["noshutdown"], filepath.Join(dir, host.Prefix+"noshutdown"), 0o755)
	m := host.NewManager(map[string]host.Source{"behave": {Name: "behave", Path: bins["behave"]}}, dir)
	var wg sync.WaitGroup
	pids := make(chan int, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := []string{"behave", "noshutdown"}[i%2]
			st, err := m.Stage(context.Background(), name)
			if err != nil {
				t.Error(err)
				return
			}
			pids <- st.Plugin().Pid()
		}()
	}
	wg.Wait()
	close(pids)
	seen := map[int]bool{}
	for p := range pids {
		seen[p] = true
	}
	if len(seen) != 2 {
		t.Fatalf("%d processes for 2 plugins", len(seen))
	}
	if _, err := m.Stage(context.Background(), "nope"); err == nil || !strings.Contains(err.Error(), `plugin "nope" not found`) {
		t.Fatalf("err = %v", err)
	}
	m.Close()
	for p := range seen {
		waitGone(t, p, 2*time.Second)
	}
}

func TestDiscover(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []string{host.Prefix + "b", host.Prefix + "a", "other", host.Prefix} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	srcs, err := host.Discover(dir)
	if err != nil || len(srcs) != 2 || srcs[0].Name != "a" || srcs[1].Name != "b" {
		t.Fatalf("%v %+v", err, srcs)
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
}

func sha256sum(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("sha256sum", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(out))[0]
}

func waitPids(t *testing.T, file string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(file); err == nil {
			var pids []int
			for _, f := range strings.Fields(string(b)) {
				p, _ := strconv.Atoi(f)
				pids = append(pids, p)
			}
			if len(pids) >= n {
				return pids
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no pids in %s", file)
	return nil
}

// waitGone waits until pid is no process (or a zombie nobody reaped).
func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d still alive after %s", pid, within)
}

func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
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
