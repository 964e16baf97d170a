package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openrunbook/runbook/internal/golden"
)

// `runbook mcp` as a real process (the binary TestMain builds), driven by
// the SDK's client over stdio and over streamable HTTP. The honesty stages
// run as the plugin process the binary serves, so these also show that
// the text a model reads is the same bytes either way.

// stdioClient starts `runbook mcp args…` and connects to it over stdio.
func stdioClient(t *testing.T, opts *mcp.ClientOptions, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	return stdioSession(t, opts, nil, args...)
}

// stdioSession is stdioClient with the client's session options (a
// protocol version, for a client older than the SDK's).
func stdioSession(t *testing.T, opts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Stderr = &lockedBuffer{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "runbook-e2e", Version: "v0"}, opts).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, sopts)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs, cmd
}

// callProseAndPanel calls the prose and the panel chart and checks their
// text blocks against the in-process goldens (one server, any transport);
// it returns the prose run's id.
func callProseAndPanel(t *testing.T, cs *mcp.ClientSession) (proseRunID string) {
	t.Helper()
	for _, name := range []string{"volumes-prose", "volumes-panel"} {
		res := callE2E(t, cs, name, map[string]any{"threshold": 90})
		golden.Check(t, filepath.Join(mcpData, name+".golden.txt"), []byte(maskRunID(textOf(t, res))))
		if name == "volumes-prose" {
			proseRunID = structured(t, res)["runId"].(string)
		}
	}
	return proseRunID
}

func callE2E(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

func TestMCPStdioSubprocess(t *testing.T) {
	t.Parallel()
	runs := t.TempDir()
	var asked []string
	cs, cmd := stdioClient(t, elicitWith("accept", map[string]any{"proceed": true}, &asked),
		filepath.Join(mcpData, "prose.yaml"), filepath.Join(mcpData, "panel.yaml"), filepath.Join(mcpData, "secret.yaml"), "--runs", runs)

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 5 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	id := callProseAndPanel(t, cs)
	sec := callE2E(t, cs, "secret-ask", map[string]any{"token": secretToken})
	if s := structured(t, sec); s["status"] != "completed" || len(asked) != 1 {
		t.Errorf("secret-ask over stdio: status %v, asked %d: %s", s["status"], len(asked), textOf(t, sec))
	}
	if strings.Contains(mustJSON(t, sec), secretToken) {
		t.Errorf("the secret shows in the result")
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Exited() {
		t.Errorf("the server did not exit when the client went away: %v", cmd.ProcessState)
	}
	log := cmd.Stderr.(*lockedBuffer).String()
	if strings.Contains(log, secretToken) {
		t.Errorf("the secret shows in the server's log")
	}
	for _, e := range mustReadDir(t, runs) {
		b, _ := os.ReadFile(filepath.Join(runs, e.Name()))
		if strings.Contains(string(b), secretToken) {
			t.Errorf("the secret shows in the record %s", e.Name())
		}
	}

	// A new server on the same --runs explains the old server's run.
	cs2, _ := stdioClient(t, nil, filepath.Join(mcpData, "prose.yaml"), "--runs", runs)
	defer cs2.Close()
	ex := callE2E(t, cs2, toolExplain, map[string]any{"runId": id, "key": "verdicts[0]"})
	if ex.IsError || !strings.Contains(textOf(t, ex), "mark-risk") {
		t.Errorf("explain after a restart: %s", textOf(t, ex))
	}
}

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil || len(es) == 0 {
		t.Fatalf("%s: %v (%d entries)", dir, err, len(es))
	}
	return es
}

// Cancelling a call over stdio stops the run's process; when the client
// goes, the server and every process it started (the honesty plugin)
// are gone: counted.
func TestMCPStdioCancelLeavesNoProcess(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	arg := uniqueSleep()
	defer killSleeps(arg)
	chart := writeChart(t, dir, "sleepy.yaml", sleepChart(arg))
	cs, cmd := stdioClient(t, nil, chart, "--runs", filepath.Join(dir, "runs"))
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sleepy"})
		errc <- err
	}()
	waitFor(t, "the sleep to start", func() bool { return len(sleepPIDs(arg)) == 1 })
	children := childrenOf(cmd.Process.Pid)
	if len(children) < 2 {
		t.Errorf("want the sleep and the honesty plugin under the server, got %v", children)
	}
	cancel()
	if err := <-errc; err == nil {
		t.Errorf("a cancelled call returned no error")
	}
	waitFor(t, "the sleep to be stopped", func() bool { return len(sleepPIDs(arg)) == 0 })
	waitFor(t, "the cancelled record", func() bool {
		es, _ := os.ReadDir(filepath.Join(dir, "runs"))
		if len(es) != 1 {
			return false
		}
		b, _ := os.ReadFile(filepath.Join(dir, "runs", es[0].Name()))
		return strings.Contains(string(b), `"status": "cancelled"`) || strings.Contains(string(b), `"status":"cancelled"`)
	})
	_ = cs.Close()
	waitFor(t, "every process the server started to be gone", func() bool {
		for _, pid := range children {
			if syscall.Kill(pid, 0) == nil && !zombie(pid) {
				return false
			}
		}
		return true
	})
}

// childrenOf lists the live processes whose parent is pid.
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces: read after the last ')'.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) && !zombie(child) {
			out = append(out, child)
		}
	}
	return out
}

// httpServer starts `runbook mcp args… --http 127.0.0.1:0` with env and
// returns its address once it serves.
func httpServer(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, addr, ok := strings.Cut(sc.Text(), " at http://"); ok {
			go func() {
				for sc.Scan() { // keep the pipe drained
				}
			}()
			return "http://" + addr
		}
	}
	t.Fatalf("the server never said where it serves")
	return ""
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func httpConnect(url string, hc *http.Client) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return mcp.NewClient(&mcp.Implementation{Name: "runbook-http", Version: "v0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
}

func TestMCPHTTPSubprocess(t *testing.T) {
	t.Parallel()
	prose := filepath.Join(mcpData, "prose.yaml")
	t.Run("loopback, no token", func(t *testing.T) {
		runs := t.TempDir()
		url := httpServer(t, nil, prose, filepath.Join(mcpData, "panel.yaml"), "--runs", runs)
		cs, err := httpConnect(url, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		tools, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range tools.Tools {
			names = append(names, tool.Name)
		}
		if want := []string{"explain", "resume", "volumes-panel", "volumes-prose"}; !slices.Equal(names, want) {
			t.Errorf("tools over HTTP: %v, want %v", names, want)
		}
		id := callProseAndPanel(t, cs)
		ex := callE2E(t, cs, toolExplain, map[string]any{"runId": id, "key": "verdicts[0]"})
		if ex.IsError || !strings.Contains(textOf(t, ex), "mark-risk") {
			t.Errorf("explain over HTTP: %s", textOf(t, ex))
		}
	})
	t.Run("token required", func(t *testing.T) {
		const token = "tok-9f8e7d6c5b4a"
		url := httpServer(t, []string{"RB_MCP_TEST_TOKEN=" + token}, prose, "--runs", t.TempDir(), "--token-env", "RB_MCP_TEST_TOKEN")
		resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("a request without the token: %s, want 401", resp.Status)
		}
		if cs, err := httpConnect(url, nil); err == nil {
			cs.Close()
			t.Errorf("a client without the token connected")
		}
		if cs, err := httpConnect(url, &http.Client{Transport: bearer{"wrong", http.DefaultTransport}}); err == nil {
			cs.Close()
			t.Errorf("a client with a wrong token connected")
		}
		cs, err := httpConnect(url, &http.Client{Transport: bearer{token, http.DefaultTransport}})
		if err != nil {
			t.Fatalf("with the token: %v", err)
		}
		defer cs.Close()
		if res := callE2E(t, cs, "volumes-prose", nil); res.IsError {
			t.Errorf("call with the token: %s", textOf(t, res))
		}
	})
	t.Run("not loopback without a token is refused", func(t *testing.T) {
		abs, _ := filepath.Abs(prose)
		r := runCLI(t, t.TempDir(), "mcp", "--http", "0.0.0.0:0", "--runs", t.TempDir(), abs)
		if r.code != exitUsage || !strings.Contains(r.stderr, "not a loopback address") {
			t.Errorf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("no chart loads", func(t *testing.T) {
		abs, _ := filepath.Abs(filepath.Join(mcpData, "bad", "typo.yaml"))
		r := runCLI(t, t.TempDir(), "mcp", "--runs", t.TempDir(), abs)
		if r.code != exitUsage || !strings.Contains(r.stderr, "no chart loaded") || !strings.Contains(r.stderr, "typo.yaml:5:5:") {
			t.Errorf("exit %d: %s", r.code, r.stderr)
		}
	})
}

// A client no one here wrote (mcp.md): the TypeScript SDK from npm, when
// node and npm are present (.ci/run's go test runs it then). Only an npm
// install that cannot reach the registry skips; a failed check fails.
func TestMCPTypeScriptClient(t *testing.T) {
	t.Parallel()
	node, errNode := exec.LookPath("node")
	npm, errNpm := exec.LookPath("npm")
	if errNode != nil || errNpm != nil {
		t.Skip("node and npm are not both installed")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--silent", "@modelcontextprotocol/sdk@1")
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Skipf("npm install @modelcontextprotocol/sdk failed (no registry?): %v\n%s", err, out)
	}
	script, err := os.ReadFile(filepath.Join(mcpData, "ts-client", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	chart, _ := filepath.Abs(filepath.Join(mcpData, "prose.yaml"))
	run := exec.CommandContext(ctx, node, "client.mjs", binary, chart, "--runs", filepath.Join(dir, "runs"))
	run.Dir = dir
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("the TypeScript client: %v\n%s", err, out)
	}
	want := `{"names":["explain","resume","volumes-prose"],"status":"completed","rows":2,"failures":[]}`
	if strings.TrimSpace(string(out)) != want {
		t.Errorf("the TypeScript client saw %s\nwant %s", out, want)
	}
}
