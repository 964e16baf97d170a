package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/runbook"
)

// `runbook mcp` (mcp.md): every chart a tool for agents over the Model
// Context Protocol, on the official Go SDK. This file is the command and
// the server's shape (charts gathered, tools, resources, transports);
// mcp_call.go runs a call, mcp_text.go lays out the text a model reads,
// mcp_tools.go derives a tool from a chart.

// mcpFlags are mcp's flags.
type mcpFlags struct {
	http     string // --http ADDR: streamable HTTP instead of stdio
	tokenEnv string // --token-env NAME: the variable holding the bearer token
	runs     string // --runs DIR: where every run's record is kept
	plugins  pluginFlags
	allow    []string
}

func newMCPCmd(stderr io.Writer) *cobra.Command {
	var f mcpFlags
	cmd := &cobra.Command{
		Use:   "mcp [CHART|DIR]…",
		Short: "Serve charts as tools to agents over the Model Context Protocol",
		Long: `mcp serves each chart as one MCP tool: a call runs the chart as runbook exec
does and returns the result record (structuredContent, with a runId) and one
text block laid out by the chart's presentation. Also served: the explain and
resume tools, and every run's record as the resource runbook://runs/{runId}.

Charts: each CHART file, and every *.yaml chart in each DIR (test files,
*_test.yaml, excluded). A chart that does not load is reported on stderr with
its errors and not offered.

Transport: stdio by default (the client starts this process). --http ADDR
serves the streamable HTTP transport at ADDR; an address that is not loopback
is refused unless --token-env NAME names an environment variable holding a
bearer token of at least 16 characters, which every request must then carry
(Authorization: Bearer …). The token is read from the environment, never
from the command line.

--runs DIR keeps every run's record (default $XDG_STATE_HOME/runbook/runs), so
explain and resume work across server restarts.`,
		Example: `  runbook mcp examples/disk examples/approval
  runbook mcp charts/ --runs /var/lib/runbook/runs
  RUNBOOK_MCP_TOKEN=… runbook mcp charts/ --http 0.0.0.0:8080 --token-env RUNBOOK_MCP_TOKEN`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, a []string) error {
			return serveMCP(cmd.Context(), a, f, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.http, "http", "", "serve the streamable HTTP transport at `ADDR` (host:port) instead of stdio")
	fl.StringVar(&f.tokenEnv, "token-env", "", "require the bearer token held in environment variable `NAME` on every HTTP request")
	fl.StringVar(&f.runs, "runs", "", "keep every run's record in `DIR` (default $XDG_STATE_HOME/runbook/runs)")
	addPluginFlags(fl, &f.plugins)
	allowChartPath(fl, &f.allow)
	return cmd
}

// serveMCP is `runbook mcp`: it gathers the charts, then serves until the
// client goes away or the process is interrupted.
func serveMCP(ctx context.Context, paths []string, f mcpFlags, stderr io.Writer) error {
	listen, token, err := f.checkHTTP()
	if err != nil {
		return err
	}
	runs := f.runs
	if runs == "" {
		if runs, err = defaultRunsDir(); err != nil {
			return exit(exitUsage, "%v; give --runs DIR", err)
		}
	}
	if err := os.MkdirAll(runs, 0o700); err != nil {
		return exit(exitUsage, "--runs %s: %v", runs, err)
	}
	logger := newLogger(stderr)
	honesty, stopHonesty, err := startHonesty(f.plugins, logger)
	if err != nil {
		return err
	}
	defer stopHonesty()
	s := newMCPServer(mcpConfig{runs: runs, plugins: f.plugins, honesty: honesty, logger: logger, log: stderr})
	if s.gather(paths, f.allow) == 0 {
		return exit(exitUsage, "no chart loaded: there is nothing to serve")
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if listen == "" {
		err := s.srv.Run(ctx, &mcp.StdioTransport{})
		if err != nil && ctx.Err() == nil && !errors.Is(err, mcp.ErrConnectionClosed) && !errors.Is(err, io.EOF) {
			return exit(exitFailed, "mcp: %v", err)
		}
		return nil
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return exit(exitUsage, "--http %s: %v", listen, err)
	}
	fmt.Fprintf(stderr, "runbook mcp: serving %d tools at http://%s/\n", len(s.charts), ln.Addr())
	hs := &http.Server{Handler: s.httpHandler(token), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return exit(exitFailed, "--http %s: %v", listen, err)
	}
	return nil
}

// checkHTTP refuses an HTTP address that is not loopback unless a bearer
// token is configured, and reads the token from the environment.
func (f mcpFlags) checkHTTP() (addr, token string, err error) {
	if f.tokenEnv != "" {
		if f.http == "" {
			return "", "", &usageError{err: errors.New("--token-env guards the HTTP transport: give --http ADDR with it")}
		}
		token = os.Getenv(f.tokenEnv)
		if strings.TrimSpace(token) == "" {
			return "", "", exit(exitUsage, "--token-env %s: the environment variable is unset or empty; set it to the bearer token clients must send", f.tokenEnv)
		}
		if n := len(strings.TrimSpace(token)); n < minTokenLen {
			// the only guard of charts served on the network: a word a
			// person picks is guessed
			return "", "", exit(exitUsage, "--token-env %s: the token is %d characters; a bearer token needs at least %d (make one with: openssl rand -hex 32)", f.tokenEnv, n, minTokenLen)
		}
	}
	if f.http == "" {
		return "", token, nil
	}
	host, _, err := net.SplitHostPort(f.http)
	if err != nil {
		return "", "", &usageError{err: fmt.Errorf("--http %q: want host:port, like 127.0.0.1:8080 (%v)", f.http, err)}
	}
	if token == "" && !loopbackHost(host) {
		return "", "", exit(exitUsage, "--http %s: not a loopback address; anyone who can reach it could run these charts: serve on 127.0.0.1, or require a bearer token with --token-env NAME", f.http)
	}
	return f.http, token, nil
}

// minTokenLen is the shortest bearer token --token-env takes.
const minTokenLen = 16

// loopbackHost says whether host names only this machine: localhost or a
// loopback IP. An empty host is every interface.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// defaultRunsDir is $XDG_STATE_HOME/runbook/runs, else the XDG default
// under the home directory.
func defaultRunsDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "runbook", "runs"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no folder for run records: %v", err)
	}
	return filepath.Join(home, ".local", "state", "runbook", "runs"), nil
}

// mcpConfig is what a server is made from: where records go and how the
// runs' plugins and honesty stages are reached (as exec's flags say).
type mcpConfig struct {
	runs    string
	plugins pluginFlags
	honesty runbook.Honesty
	logger  *slog.Logger
	log     io.Writer // the server's log (stderr): load errors, refusals
}

// mcpServer is one MCP server over the charts gathered.
type mcpServer struct {
	mcpConfig
	srv    *mcp.Server
	charts map[string]*mcpChart // by tool name
	// keyBytes signs the request state of a question sent for answering
	// (mcp_call.go sign); made once, never leaves the process.
	keyOnce  sync.Once
	keyBytes []byte
	// resuming holds the run ids a call of this server is resuming now
	// (mcp_call.go resumeLocked): a second call is told so, not that
	// another process holds the record's lock.
	resuming sync.Map
	// progressed holds the last progress sent to each call under way
	// (*mcp.CallToolRequest → int64; mcp_call.go startProgress).
	progressed sync.Map
	// notOffered counts the charts gathered that are not tools (they do
	// not load, or their name is taken), for a call of an unknown tool.
	notOffered int
}

// mcpChart is one chart served as a tool.
type mcpChart struct {
	tool string
	rb   *runbook.Runbook
}

// Built-in tool names; a chart of one of these names is refused.
const (
	toolExplain = "explain"
	toolResume  = "resume"
)

func newMCPServer(c mcpConfig) *mcpServer {
	s := &mcpServer{mcpConfig: c, charts: map[string]*mcpChart{}}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "runbook", Title: "runbook", Version: runbook.Version},
		&mcp.ServerOptions{Logger: sdkLogger(c.log),
			Instructions: "Each tool runs one runbook chart and returns its answer with the evidence behind it. Present a prose table verbatim; never retype rows. The standing line says how far the answer stands: repeat it. Ask why with the explain tool and the call's runId."})
	s.srv.AddReceivingMiddleware(s.unknownTool)
	s.addBuiltins()
	return s
}

// sdkLogger is where the SDK's own diagnostics go: the server's log, its
// warnings and errors only (a session's start and end are not news).
func sdkLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// gather loads each CHART and every chart in each DIR and offers those
// that load; it returns how many are offered.
func (s *mcpServer) gather(paths, allow []string) int {
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(s.log, "runbook mcp: %s: %v\n", p, err)
			continue
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		found, _ := filepath.Glob(filepath.Join(p, "*.yaml"))
		sort.Strings(found)
		n := 0
		for _, f := range found {
			if !strings.HasSuffix(f, "_test.yaml") {
				files = append(files, f)
				n++
			}
		}
		if n == 0 {
			s.noChartsIn(p)
		}
	}
	for _, f := range files {
		rb, ok := load(f, allow, s.log)
		if !ok {
			s.notOffered++
			fmt.Fprintf(s.log, "runbook mcp: %s: not offered: the chart does not load\n", f)
			continue
		}
		if err := s.offer(rb); err != nil {
			s.notOffered++
			fmt.Fprintf(s.log, "runbook mcp: %s: not offered: %v\n", f, err)
		}
	}
	return len(s.charts)
}

// noChartsIn logs that folder dir holds no chart of its own: only its
// *.yaml files are served, not its folders'. `runbook mcp examples`, whose
// charts are examples/disk/chart.yaml and the like, said only "no chart
// loaded: there is nothing to serve"; the log now names the charts one
// level down and how to serve them.
func (s *mcpServer) noChartsIn(dir string) {
	below, _ := filepath.Glob(filepath.Join(dir, "*", "*.yaml"))
	var charts []string
	for _, f := range below {
		if !strings.HasSuffix(f, "_test.yaml") {
			charts = append(charts, f)
		}
	}
	sort.Strings(charts)
	msg := fmt.Sprintf("runbook mcp: %s: no chart in it: a folder serves the *.yaml files in it, not those in its folders", dir)
	if len(charts) > 0 {
		shown := charts
		if len(shown) > 3 {
			shown = shown[:3]
		}
		msg += fmt.Sprintf("; its folders hold %d (%s", len(charts), strings.Join(shown, ", "))
		if len(charts) > len(shown) {
			msg += ", …"
		}
		msg += "): name them, or their folders (runbook mcp " + filepath.Join(dir, "*") + ")"
	}
	fmt.Fprintln(s.log, msg)
}

// unknownTool refuses a call of a tool this server does not serve in
// words an agent can act on: the SDK's own refusal was the bare `unknown
// tool "volumes-prse"`, with neither the tool meant nor the tools there
// are, nor that a chart was left out because it does not load, which only
// the server's log says. Still the protocol error the spec asks for.
func (s *mcpServer) unknownTool(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
			name := call.Params.Name
			if _, served := s.charts[name]; !served && name != toolExplain && name != toolResume {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: s.unknownToolText(name)}
			}
		}
		return next(ctx, method, req)
	}
}

// maxNamed is how many tools a refusal names before it counts the rest.
const maxNamed = 30

// unknownToolText says name is no tool here: the tool it was likely meant
// to be, the tools served (maxNamed of them), and how many charts given to
// the server are not offered.
func (s *mcpServer) unknownToolText(name string) string {
	served := []string{toolExplain, toolResume}
	for tool := range s.charts {
		served = append(served, tool)
	}
	sort.Strings(served)
	msg := fmt.Sprintf("unknown tool %q; ", clean(name))
	if near := suggest.Nearest(name, served); near != "" {
		msg += fmt.Sprintf("did you mean %q? This", near)
	} else {
		msg += "this"
	}
	named := served
	if len(named) > maxNamed {
		named = named[:maxNamed]
	}
	msg += " server serves " + strings.Join(named, ", ")
	if more := len(served) - len(named); more > 0 {
		msg += fmt.Sprintf(" and %d more (tools/list names them all)", more)
	}
	switch s.notOffered {
	case 0:
	case 1:
		msg += "; 1 chart given to it was not offered (the server's log says why)"
	default:
		msg += fmt.Sprintf("; %d charts given to it were not offered (the server's log says why)", s.notOffered)
	}
	return msg
}

// offer adds rb as a tool, refusing a name already taken.
func (s *mcpServer) offer(rb *runbook.Runbook) error {
	name := toolName(rb.Name())
	if name == toolExplain || name == toolResume {
		return fmt.Errorf("the tool name %q is the server's own; rename the chart (runbook: …)", name)
	}
	if prev, ok := s.charts[name]; ok {
		return fmt.Errorf("the tool name %q is taken by %s; give one chart another runbook: name", name, prev.rb.Spec().File)
	}
	out, err := outputSchema()
	if err != nil {
		return err
	}
	c := &mcpChart{tool: name, rb: rb}
	s.charts[name] = c
	s.srv.AddTool(&mcp.Tool{
		Name:         name,
		Title:        rb.Name(),
		Description:  toolDescription(rb.Spec()),
		InputSchema:  inputSchema(rb.Inputs()),
		OutputSchema: out,
	}, s.chartHandler(c))
	return nil
}

// addBuiltins adds the explain and resume tools and the run records'
// resource template.
func (s *mcpServer) addBuiltins() {
	s.srv.AddTool(&mcp.Tool{
		Name:  toolExplain,
		Title: "explain a run",
		Description: "Say why a run answered what it did, from its record (what runbook explain prints): the stages, reads, writes and decisions behind the answer, newest cause first. " +
			"runId is a tool call's runId. Give key (a state key such as verdicts[3]) or stage (a stage path or id) to explain that instead of the whole answer, " +
			"whyNot (a stage or branch) to ask why it did not run, at (a commit number) to answer as of that commit. The text cuts values at 80 characters and says so; full prints them whole. Nothing is run again.",
		InputSchema: map[string]any{
			"type":                 "object",
			"additionalProperties": false,
			"required":             []string{"runId"},
			"properties": map[string]any{
				"runId":  map[string]any{"type": "string", "description": "the runId a chart's tool returned"},
				"key":    map[string]any{"type": "string", "description": "a state key: df.stdout[2].usedPct, verdicts[3], verdicts[3].verdict"},
				"stage":  map[string]any{"type": "string", "description": "a stage path (per-volume~3/headroom) or id"},
				"whyNot": map[string]any{"type": "string", "description": "a stage or branch that did not run"},
				"at":     map[string]any{"type": "integer", "minimum": 0, "description": "answer as of this commit number"},
				"full":   map[string]any{"type": "boolean", "description": "print values, and what a command printed, whole (the text cuts them at 80 characters and says so)"},
			},
		},
	}, s.explainHandler)
	s.srv.AddTool(&mcp.Tool{
		Name:  toolResume,
		Title: "resume a paused run",
		Description: "Continue a run that paused at a question (status paused), as runbook resume does: answers holds one value per name the question expects, " +
			"plus any secret input the paused run was given (a record keeps no secret). questionNumber is the number of the question answered, as the paused result's resume call gives it: " +
			"a run that was answered before and now waits at another question refuses answers not named for it, so that an answer is never taken for a question it was not given to. " +
			"Returns what the chart's tool returns.",
		InputSchema: map[string]any{
			"type":                 "object",
			"additionalProperties": false,
			"required":             []string{"runId", "answers"},
			"properties": map[string]any{
				"runId":          map[string]any{"type": "string", "description": "the paused run's runId"},
				"questionNumber": map[string]any{"type": "integer", "minimum": 1, "description": "the number of the question these answers are for (1 for a run's first question); needed once a run has been answered before"},
				"answers":        map[string]any{"type": "object", "description": "the answers, by the names the question expects"},
			},
		},
	}, s.resumeHandler)
	s.srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "run record",
		Title:       "a run's saved record",
		Description: "The saved run record of a tool call (runbook exec --record): the result, the commit log and the chart's structure, secrets masked.",
		MIMEType:    "application/json",
		URITemplate: runURIPrefix + "{runId}",
	}, s.readRun)
}

// httpHandler is the streamable HTTP transport, behind the bearer token
// when one is configured.
func (s *mcpServer) httpHandler(token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, nil)
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="runbook mcp"`)
			http.Error(w, "runbook mcp: a bearer token is required (Authorization: Bearer …)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
