package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/openrunbook/runbook/internal/golden"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// The tests mcp.md asks for, driven by the official Go SDK's client:
// in-process over the SDK's in-memory transport here; over a real
// `runbook mcp` subprocess (stdio and HTTP) in mcp_e2e_test.go.

// lockedBuffer is a server log several goroutines write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// mcpTest is one in-process server and a client connected to it.
type mcpTest struct {
	s    *mcpServer
	cs   *mcp.ClientSession
	log  *lockedBuffer
	runs string
}

// newMCPTest serves paths (records under runs; a fresh folder when "")
// and connects a client with opts.
func newMCPTest(t *testing.T, runs string, opts *mcp.ClientOptions, paths ...string) *mcpTest {
	t.Helper()
	if runs == "" {
		runs = t.TempDir()
	}
	log := &lockedBuffer{}
	s := newMCPServer(mcpConfig{runs: runs, plugins: pluginFlags{honesty: "inprocess"}, honesty: runbook.InProcess(),
		logger: slog.New(slog.NewTextHandler(log, nil)), log: log})
	s.gather(paths, nil)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "runbook-test", Version: "v0"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return &mcpTest{s: s, cs: cs, log: log, runs: runs}
}

func (m *mcpTest) call(t *testing.T, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// textOf is a result's one text block.
func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want one content block, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

// structured is a result's structuredContent as a JSON object.
func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		t.Fatalf("structuredContent is not an object: %s", b)
	}
	return m
}

var runIDPattern = regexp.MustCompile(`[A-Za-z0-9_-]+-\d{8}T\d{6}Z-[0-9a-f]{8}`)

// maskRunID makes a text block comparable: run ids differ every call.
func maskRunID(s string) string { return runIDPattern.ReplaceAllString(s, "RUNID") }

const mcpData = "testdata/mcp"

func TestMCPToolListGolden(t *testing.T) {
	m := newMCPTest(t, "", nil, "../../examples/disk", "../../examples/approval", filepath.Join(mcpData, "panel.yaml"), filepath.Join(mcpData, "secret.yaml"))
	res, err := m.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := outputSchema()
	if err != nil {
		t.Fatal(err)
	}
	wantOut, _ := json.Marshal(want)
	type shown struct {
		Name        string `json:"name"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description"`
		InputSchema any    `json:"inputSchema"`
	}
	var list []shown
	for _, tool := range res.Tools {
		switch tool.Name {
		case toolExplain, toolResume:
			if tool.OutputSchema != nil {
				t.Errorf("%s has an output schema", tool.Name)
			}
		default:
			got, _ := json.Marshal(tool.OutputSchema)
			if !bytes.Equal(got, wantOut) {
				t.Errorf("%s: the output schema is not the result record's", tool.Name)
			}
		}
		list = append(list, shown{tool.Name, tool.Title, tool.Description, tool.InputSchema})
		if tool.Name == "secret-ask" {
			tok := tool.InputSchema.(map[string]any)["properties"].(map[string]any)["token"].(map[string]any)
			if tok["writeOnly"] != true || tok["default"] != nil {
				t.Errorf("the secret input's schema: %v, want writeOnly and no default", tok)
			}
		}
	}
	got, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join(mcpData, "tools.golden.json"), append(got, '\n'))
	names := []string{}
	for _, s := range list {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "disk-triage explain resume secret-ask tmp-cleanup volumes-panel" {
		t.Errorf("tools %v", names)
	}
}

// The output schema is the record schema's: a result record of a real
// run validates against it (so a client that validates accepts it).
func TestMCPOutputSchemaHoldsTheResult(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "prose.yaml"))
	res := m.call(t, "volumes-prose", nil)
	sc := structured(t, res)
	if sc["runId"] == "" || sc["status"] != "completed" || sc["runbook"] != "volumes-prose" {
		t.Fatalf("structuredContent: %v", sc)
	}
	schema, _ := outputSchema()
	if err := validateJSON(schema, sc); err != nil {
		t.Errorf("the result breaks the output schema: %v", err)
	}
	delete(sc, "runId")
	if err := validateJSON(schema, sc); err == nil {
		t.Errorf("a result without runId passes the output schema")
	}
}

func TestMCPChartsThatDoNotLoadAreLoggedNotOffered(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "prose.yaml"), filepath.Join(mcpData, "bad"), filepath.Join(mcpData, "missing.yaml"))
	res, err := m.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, " ") != "explain resume volumes-prose" {
		t.Errorf("tools %v, want explain resume volumes-prose", names)
	}
	log := m.log.String()
	for _, want := range []string{
		"testdata/mcp/bad/typo.yaml:5:5:", // the load error, where
		"testdata/mcp/bad/typo.yaml: not offered: the chart does not load",
		`testdata/mcp/bad/same-name.yaml: not offered: the tool name "volumes-prose" is taken by testdata/mcp/prose.yaml`,
		"testdata/mcp/missing.yaml: stat",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "ok_test.yaml") {
		t.Errorf("a test file was read as a chart:\n%s", log)
	}
}

// Prose: the table, the prose note, the meanings, the coverage and the
// line. Panel: the same without the table, with the panel note.
func TestMCPCallProseAndPanel(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "prose.yaml"), filepath.Join(mcpData, "panel.yaml"))
	for _, name := range []string{"volumes-prose", "volumes-panel"} {
		t.Run(name, func(t *testing.T) {
			res := m.call(t, name, map[string]any{"threshold": 90})
			if res.IsError {
				t.Fatalf("isError: %s", textOf(t, res))
			}
			text := textOf(t, res)
			golden.Check(t, filepath.Join(mcpData, name+".golden.txt"), []byte(maskRunID(text)))
			sc := structured(t, res)
			vs := sc["verdicts"].(map[string]any)
			table, _ := vs["table"].(string)
			if name == "volumes-prose" {
				if table == "" || !strings.Contains(text, strings.TrimRight(table, "\n")) {
					t.Errorf("the prose text does not hold the record's table verbatim:\n%s", text)
				}
				if !strings.Contains(text, record.ProseNote) {
					t.Errorf("no prose note")
				}
			} else {
				if table != "" || strings.Contains(text, "|") {
					t.Errorf("a panel result shows a table:\n%s", text)
				}
				if !strings.Contains(text, record.PanelNote) {
					t.Errorf("no panel note")
				}
			}
			if id := sc["runId"].(string); !strings.Contains(text, "runId "+id) {
				t.Errorf("the text does not name the runId %s", id)
			}
			if _, err := os.Stat(filepath.Join(m.runs, sc["runId"].(string)+".json")); err != nil {
				t.Errorf("the record was not kept: %v", err)
			}
		})
	}
}

func TestMCPFailedRunIsError(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "fail.yaml"))
	res := m.call(t, "failing", nil)
	if !res.IsError {
		t.Fatalf("a failed run is not isError")
	}
	if text := textOf(t, res); !strings.Contains(text, "The run failed at guard: the disk is full") {
		t.Errorf("the text does not say where and why:\n%s", text)
	}
	if sc := structured(t, res); sc["status"] != "failed" {
		t.Errorf("status %v", sc["status"])
	}
}

func TestMCPBadInputsRunNothing(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "prose.yaml"), filepath.Join(mcpData, "secret.yaml"))
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"volumes-prose", map[string]any{"threshold": "lots"}, `input "threshold": is not a number: "lots"`},
		{"volumes-prose", map[string]any{"thresold": 1}, `"thresold"`},
		{"secret-ask", nil, `input "token"`},
	} {
		res := m.call(t, tc.tool, tc.args)
		text := textOf(t, res)
		if !res.IsError || !strings.Contains(text, tc.want) || !strings.Contains(text, "nothing ran") {
			t.Errorf("%s %v: isError %v, text %q, want it to hold %q", tc.tool, tc.args, res.IsError, text, tc.want)
		}
	}
	if entries, _ := os.ReadDir(m.runs); len(entries) != 0 {
		t.Errorf("a refused call left %d records", len(entries))
	}
}

// Records are kept under --runs: a new server on the same folder explains
// a run the old one made, and serves its record as a resource.
func TestMCPExplainAfterRestart(t *testing.T) {
	runs := t.TempDir()
	first := newMCPTest(t, runs, nil, filepath.Join(mcpData, "prose.yaml"))
	id := structured(t, first.call(t, "volumes-prose", map[string]any{"threshold": 90}))["runId"].(string)
	first.cs.Close()

	m := newMCPTest(t, runs, nil, filepath.Join(mcpData, "prose.yaml"))
	res := m.call(t, toolExplain, map[string]any{"runId": id})
	if res.IsError {
		t.Fatalf("explain: %s", textOf(t, res))
	}
	text := textOf(t, res)
	if !strings.Contains(text, "per-volume") || !strings.Contains(text, "Headroom") {
		t.Errorf("explain text says nothing of the decisions:\n%s", text)
	}
	sc := structured(t, res)
	if sc["explanation"] == nil || sc["record"] != runURIPrefix+id {
		t.Errorf("explain structuredContent: %v", sc)
	}
	if strings.Contains(text+mustJSON(t, sc), runs) {
		t.Errorf("explain shows the server's folder %s", runs)
	}
	key := m.call(t, toolExplain, map[string]any{"runId": id, "key": "verdicts[0].verdict"})
	if key.IsError || !strings.Contains(textOf(t, key), "mark-risk") {
		t.Errorf("explain key: %s", textOf(t, key))
	}

	rr, err := m.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: runURIPrefix + id})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || rr.Contents[0].MIMEType != "application/json" {
		t.Fatalf("resource: %+v", rr.Contents)
	}
	if _, problems, err := record.ParseRecord([]byte(rr.Contents[0].Text)); err != nil || len(problems) > 0 {
		t.Errorf("the resource is not a sound run record: %v %v", err, problems)
	}
	tpl, err := m.cs.ListResourceTemplates(context.Background(), nil)
	if err != nil || len(tpl.ResourceTemplates) != 1 || tpl.ResourceTemplates[0].URITemplate != "runbook://runs/{runId}" {
		t.Errorf("resource templates: %v %v", tpl, err)
	}
	for _, bad := range []string{"../../etc/passwd", "nope-20260101T000000Z-00000000"} {
		if _, err := m.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: runURIPrefix + bad}); err == nil {
			t.Errorf("resource %q: no error", bad)
		}
		if r := m.call(t, toolExplain, map[string]any{"runId": bad}); !r.IsError {
			t.Errorf("explain %q: not isError", bad)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// elicitWith is a client that answers every elicitation with action and
// content, counting the requests.
func elicitWith(action string, content map[string]any, asked *[]string) *mcp.ClientOptions {
	var mu sync.Mutex
	return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		*asked = append(*asked, req.Params.Message)
		mu.Unlock()
		return &mcp.ElicitResult{Action: action, Content: content}, nil
	}}
}

const secretToken = "s3cr3t-T0KEN-value"

// An ask answered through the client: the run goes on in the same call,
// the answer recorded as the MCP client's; the secret input, needed again
// after the question, is given again by the server from the call.
func TestMCPAskAnsweredByElicitation(t *testing.T) {
	var asked []string
	m := newMCPTest(t, "", elicitWith("accept", map[string]any{"proceed": true}, &asked), filepath.Join(mcpData, "secret.yaml"))
	res := m.call(t, "secret-ask", map[string]any{"token": secretToken})
	text := textOf(t, res)
	if res.IsError {
		t.Fatalf("isError: %s", text)
	}
	if len(asked) != 1 || asked[0] != "Go on?" {
		t.Errorf("elicitations %q, want one asking \"Go on?\"", asked)
	}
	sc := structured(t, res)
	if sc["status"] != "completed" {
		t.Fatalf("status %v:\n%s", sc["status"], text)
	}
	if rows := sc["verdicts"].(map[string]any)["rows"].([]any); rows[0].(map[string]any)["verdict"] != "go" {
		t.Errorf("rows %v", rows)
	}
	rr, _, err := record.ReadRecord(filepath.Join(m.runs, sc["runId"].(string)+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Answers) != 1 || rr.Answers[0].By != "MCP client runbook-test" {
		t.Errorf("answers %+v, want one by the MCP client", rr.Answers)
	}
	assertNoSecret(t, m, secretToken, text, sc)
}

func TestMCPAskDeclinedStaysPaused(t *testing.T) {
	var asked []string
	m := newMCPTest(t, "", elicitWith("decline", nil, &asked), filepath.Join(mcpData, "secret.yaml"))
	res := m.call(t, "secret-ask", map[string]any{"token": secretToken})
	text := textOf(t, res)
	sc := structured(t, res)
	if res.IsError || sc["status"] != "paused" || len(asked) != 1 {
		t.Fatalf("isError %v, status %v, asked %d:\n%s", res.IsError, sc["status"], len(asked), text)
	}
	if !strings.Contains(text, `Resume it with the resume tool: {"runId": "`+sc["runId"].(string)+`", "questionNumber": 1, "answers": {"proceed": <bool>, "token": <the secret input, again>}}`) {
		t.Errorf("the paused text does not say how to resume:\n%s", text)
	}
	if !strings.Contains(text, "Ask — ") {
		t.Errorf("no Ask standing:\n%s", text)
	}
}

// Without the elicitation capability the call says the run paused; the
// resume tool continues it (the secret given again, as resume asks).
func TestMCPAskResumedByTheResumeTool(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "secret.yaml"))
	res := m.call(t, "secret-ask", map[string]any{"token": secretToken})
	sc := structured(t, res)
	if sc["status"] != "paused" {
		t.Fatalf("status %v", sc["status"])
	}
	id := sc["runId"].(string)
	texts := []string{textOf(t, res)}

	bad := m.call(t, toolResume, map[string]any{"runId": id, "answers": map[string]any{"proceed": "maybe"}})
	if !bad.IsError || !strings.Contains(textOf(t, bad), "proceed") || !strings.Contains(textOf(t, bad), "Run "+id+" is still paused") {
		t.Errorf("a bad answer: isError %v, %s", bad.IsError, textOf(t, bad))
	}
	missing := m.call(t, toolResume, map[string]any{"runId": id, "answers": map[string]any{"proceed": true}})
	if !missing.IsError || !strings.Contains(textOf(t, missing), `"token"`) {
		t.Errorf("the secret not given again: isError %v, %s", missing.IsError, textOf(t, missing))
	}
	done := m.call(t, toolResume, map[string]any{"runId": id, "answers": map[string]any{"proceed": true, "token": secretToken}})
	dsc := structured(t, done)
	if done.IsError || dsc["status"] != "completed" || dsc["runId"] != id {
		t.Fatalf("resume: isError %v status %v: %s", done.IsError, dsc["status"], textOf(t, done))
	}
	texts = append(texts, textOf(t, done), textOf(t, bad), textOf(t, missing))
	again := m.call(t, toolResume, map[string]any{"runId": id, "answers": map[string]any{"proceed": true, "token": secretToken}})
	if !again.IsError {
		t.Errorf("a finished run resumed again")
	}
	assertNoSecret(t, m, secretToken, strings.Join(texts, "\n"), sc, dsc)
}

// assertNoSecret searches every place a secret could leak: the texts and
// structured results given, every record kept, every resource, every
// explain answer, and the server's log.
func assertNoSecret(t *testing.T, m *mcpTest, secret string, text string, scs ...map[string]any) {
	t.Helper()
	where := map[string]string{"text": text, "log": m.log.String()}
	for i, sc := range scs {
		where["structuredContent"+string(rune('0'+i))] = mustJSON(t, sc)
	}
	entries, _ := os.ReadDir(m.runs)
	if len(entries) == 0 {
		t.Fatalf("no record kept")
	}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(m.runs, e.Name()))
		where["record "+e.Name()] = string(b)
		id := strings.TrimSuffix(e.Name(), ".json")
		rr, err := m.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: runURIPrefix + id})
		if err == nil {
			where["resource "+id] = mustJSON(t, rr)
		}
		ex := m.call(t, toolExplain, map[string]any{"runId": id, "key": "first"})
		where["explain "+id] = mustJSON(t, ex)
	}
	if !strings.Contains(where["record "+entries[0].Name()], "first") {
		t.Fatalf("the record does not hold the stage that printed the secret")
	}
	for name, s := range where {
		if strings.Contains(s, secret) {
			t.Errorf("the secret shows in %s", name)
		}
	}
}

func TestMCPProgressFor200Branches(t *testing.T) {
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	m := newMCPTest(t, "", &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		got = append(got, r.Params)
		mu.Unlock()
	}}, filepath.Join(mcpData, "many.yaml"))
	params := &mcp.CallToolParams{Name: "many"}
	params.SetProgressToken("tok-1")
	res, err := m.cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		last := ""
		if n > 0 {
			last = got[n-1].Message
		}
		mu.Unlock()
		if strings.Contains(last, "branches 200/200") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no final progress: %d notifications, last %q", n, last)
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	prev := -1.0
	for _, p := range got {
		if p.ProgressToken != "tok-1" || p.Progress <= prev {
			t.Errorf("notification %+v after progress %v", p, prev)
		}
		prev = p.Progress
	}
	// Without a token, no notification.
	n := len(got)
	mu.Unlock()
	m.call(t, "many", nil)
	time.Sleep(3 * progressTick)
	mu.Lock()
	if len(got) != n {
		t.Errorf("a call without a progress token got %d notifications", len(got)-n)
	}
}

// Cancelling the call cancels the run: its process is stopped and the
// partial record, status cancelled, is kept.
func TestMCPCancelStopsTheRun(t *testing.T) {
	dir := t.TempDir()
	arg := uniqueSleep()
	defer killSleeps(arg)
	chart := writeChart(t, dir, "sleepy.yaml", sleepChart(arg))
	m := newMCPTest(t, "", nil, chart)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := m.cs.CallTool(ctx, &mcp.CallToolParams{Name: "sleepy"})
		errc <- err
	}()
	waitFor(t, "the sleep to start", func() bool { return len(sleepPIDs(arg)) == 1 })
	cancel()
	if err := <-errc; err == nil {
		t.Errorf("a cancelled call returned no error")
	}
	waitFor(t, "the sleep to be stopped", func() bool { return len(sleepPIDs(arg)) == 0 })
	waitFor(t, "the cancelled record", func() bool {
		entries, _ := os.ReadDir(m.runs)
		if len(entries) != 1 {
			return false
		}
		rr, _, err := record.ReadRecord(filepath.Join(m.runs, entries[0].Name()))
		return err == nil && rr.Result.Status == "cancelled"
	})
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An answer for a run the server never asked about is refused, not run.
func TestMCPForgedRequestStateRefused(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "secret.yaml"))
	id := "secret-ask-20260101T000000Z-00000000"
	for _, state := range []string{id + ".00", id, "", "../x." + strings.Repeat("0", 64)} {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "secret-ask", RequestState: state,
			InputResponses: mcp.InputResponseMap{elicitID: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"proceed": true}}}}}
		res, err := m.s.chartHandler(m.s.charts["secret-ask"])(context.Background(), req)
		if err != nil || !res.IsError || !strings.Contains(textOf(t, res), "did not ask about") {
			t.Errorf("state %q: %v %v", state, err, res)
		}
	}
}

func TestMCPToolNames(t *testing.T) {
	for in, want := range map[string]string{"disk-triage": "disk-triage", "disk triage/v2": "disk_triage_v2", "é": "_", "": "_"} {
		if got := toolName(in); got != want {
			t.Errorf("toolName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMCPHTTPAddressRules(t *testing.T) {
	t.Setenv("RB_TEST_TOKEN", "0123456789abcdef0123456789abcdef")
	t.Setenv("RB_TEST_SHORT", "tok")
	t.Setenv("RB_TEST_EMPTY", "")
	for _, tc := range []struct {
		f    mcpFlags
		want string // "" accepted
	}{
		{mcpFlags{http: "127.0.0.1:0"}, ""},
		{mcpFlags{http: "localhost:8080"}, ""},
		{mcpFlags{http: "[::1]:8080"}, ""},
		{mcpFlags{http: "0.0.0.0:8080"}, "not a loopback address"},
		{mcpFlags{http: ":8080"}, "not a loopback address"},
		{mcpFlags{http: "10.1.2.3:8080"}, "not a loopback address"},
		{mcpFlags{http: "0.0.0.0:8080", tokenEnv: "RB_TEST_TOKEN"}, ""},
		{mcpFlags{http: "0.0.0.0:8080", tokenEnv: "RB_TEST_EMPTY"}, "unset or empty"},
		{mcpFlags{http: "0.0.0.0:8080", tokenEnv: "RB_TEST_SHORT"}, "the token is 3 characters; a bearer token needs at least 16"},
		{mcpFlags{tokenEnv: "RB_TEST_TOKEN"}, "give --http ADDR"},
		{mcpFlags{http: "8080"}, "want host:port"},
	} {
		_, _, err := tc.f.checkHTTP()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.f, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: %v, want %q", tc.f, err, tc.want)
		}
	}
}

// validateJSON checks v against schema (draft 2020-12), as a client that
// validates structuredContent would.
func validateJSON(schema map[string]any, v any) error {
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://output.json", schema); err != nil {
		return err
	}
	sch, err := c.Compile("mem://output.json")
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(mustJSONPlain(v)))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

func mustJSONPlain(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
