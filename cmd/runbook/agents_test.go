package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// What programs and agents get from a run (mcp.md, cli.md "--format
// json"), held against the answers a reader would take for confident and
// wrong: each test here failed before its fix.

const agentsData = "testdata/agents"

// TestStoppedRunTableIsNotAnEmptySet: a run that failed, or paused,
// before it wrote a verdict row has judged nothing. Its record's table
// (what `exec -o json` prints and an MCP tool's structuredContent holds,
// beside a note saying to output it verbatim) and an MCP tool's text said
// "The projected set is empty: the run produced no verdict rows", which a
// model repeats as nothing found; the text format already said the run
// stopped. All three now say it, by record.NoRowsTable.
func TestStoppedRunTableIsNotAnEmptySet(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs(agentsData)
	for _, tc := range []struct {
		chart, tool, want string
		args              []string
	}{
		{"early.yaml", "early-fail", "No verdict rows: the run failed before it wrote any.", nil},
		{"ask.yaml", "ask-first", "No verdict rows yet: the run paused to ask a question before it wrote any.", []string{"--record", filepath.Join(t.TempDir(), "r.json")}},
	} {
		r := runCLI(t, dir, append([]string{"exec", tc.chart, "-o", "json"}, tc.args...)...)
		var rec struct {
			Status   string `json:"status"`
			Verdicts struct {
				Table string `json:"table"`
			} `json:"verdicts"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
			t.Fatalf("%s: -o json: %v\n%s", tc.chart, err, r.stdout)
		}
		if rec.Verdicts.Table != tc.want {
			t.Errorf("%s (%s): -o json table %q, want %q", tc.chart, rec.Status, rec.Verdicts.Table, tc.want)
		}
		if tc.args != nil { // a paused record is not written over: a file of its own
			tc.args = []string{"--record", filepath.Join(t.TempDir(), "r.json")}
		}
		if txt := runCLI(t, dir, append([]string{"exec", tc.chart}, tc.args...)...); !strings.HasPrefix(txt.stdout, tc.want+"\n") {
			t.Errorf("%s: text:\n%s\nwant it to start %q", tc.chart, txt.stdout, tc.want)
		}

		m := newMCPTest(t, "", nil, filepath.Join(agentsData, tc.chart))
		res := m.call(t, tc.tool, nil)
		text := textOf(t, res)
		if !strings.HasPrefix(text, tc.want+"\n") || strings.Contains(text, "projected set is empty") {
			t.Errorf("%s: MCP text:\n%s\nwant it to start %q", tc.tool, text, tc.want)
		}
		vs, _ := structured(t, res)["verdicts"].(map[string]any)
		if vs["table"] != tc.want {
			t.Errorf("%s: structuredContent's table %q, want %q", tc.tool, vs["table"], tc.want)
		}
	}
}

// newOldProtocolMCPTest is newMCPTest with a client on protocol
// 2025-06-18, the version the clients people use speak: a server asks it
// a question by an elicitation request, not by the multi round-trip's
// input requests.
func newOldProtocolMCPTest(t *testing.T, opts *mcp.ClientOptions, paths ...string) *mcpTest {
	t.Helper()
	m := connectMCP(t, "old-client", opts, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"}, nil, paths...)
	if v := m.cs.InitializeResult().ProtocolVersion; v != "2025-06-18" {
		t.Fatalf("negotiated %s", v)
	}
	return m
}

// connectMCP serves paths in-process (records in a fresh folder) and
// connects a client named name with opts and session options; wire, when
// not nil, receives every JSON-RPC message as it crossed, before any
// client decoded it.
func connectMCP(t *testing.T, name string, opts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions, wire io.Writer, paths ...string) *mcpTest {
	t.Helper()
	runs := t.TempDir()
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
	var transport mcp.Transport = ct
	if wire != nil {
		transport = &mcp.LoggingTransport{Transport: ct, Writer: wire}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "v0"}, opts).Connect(ctx, transport, sopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return &mcpTest{s: s, cs: cs, log: log, runs: runs}
}

// TestMCPUnansweredElicitationKeepsTheRunID: a client asked a paused
// run's question that could not answer it (its elicitation handler
// failed, or its answer did not fit the form) got a protocol error
// ("multi-round-trip: fulfilling input request …") from the SDK's stand-in
// for older clients, and with it lost the runId of a run that was paused
// and kept: nothing told it the run existed, or how to resume it. The
// call now returns the paused run, saying why it has no answer, and the
// run resumes. An accepted answer still resumes it in the call, the
// secret input given again.
func TestMCPUnansweredElicitationKeepsTheRunID(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func() (*mcp.ElicitResult, error)
		want   string
	}{
		{"client error", func() (*mcp.ElicitResult, error) { return nil, errors.New("the user closed the form") }, "the user closed the form"},
		{"answer off the form", func() (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"proceed": "perhaps"}}, nil
		}, "does not match requested schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return tc.answer() }}
			m := newOldProtocolMCPTest(t, opts, filepath.Join(mcpData, "secret.yaml"))
			res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "secret-ask", Arguments: map[string]any{"token": secretToken}})
			if err != nil {
				t.Fatalf("the call failed, so its runId is lost: %v", err)
			}
			text := textOf(t, res)
			sc := structured(t, res)
			id, _ := sc["runId"].(string)
			if res.IsError || sc["status"] != "paused" || id == "" {
				t.Fatalf("isError %v, status %v, runId %q:\n%s", res.IsError, sc["status"], id, text)
			}
			for _, want := range []string{"The question got no answer through the client: ", tc.want, "The run stays paused.", `Resume it with the resume tool: {"runId": "` + id + `"`} {
				if !strings.Contains(text, want) {
					t.Errorf("the text does not hold %q:\n%s", want, text)
				}
			}
			done := m.call(t, toolResume, map[string]any{"runId": id, "answers": map[string]any{"proceed": true, "token": secretToken}})
			if dsc := structured(t, done); done.IsError || dsc["status"] != "completed" {
				t.Errorf("resume: isError %v, status %v:\n%s", done.IsError, dsc["status"], textOf(t, done))
			}
			assertNoSecret(t, m, secretToken, text, sc)
		})
	}
	t.Run("declined", func(t *testing.T) {
		var asked []string
		m := newOldProtocolMCPTest(t, elicitWith("decline", nil, &asked), filepath.Join(mcpData, "secret.yaml"))
		res := m.call(t, "secret-ask", map[string]any{"token": secretToken})
		text := textOf(t, res)
		if sc := structured(t, res); res.IsError || sc["status"] != "paused" || len(asked) != 1 {
			t.Fatalf("isError %v, status %v, asked %q:\n%s", res.IsError, sc["status"], asked, text)
		}
		if strings.Contains(text, "got no answer") || !strings.Contains(text, "Resume it with the resume tool") {
			t.Errorf("a declined question:\n%s", text)
		}
	})
	t.Run("accepted", func(t *testing.T) {
		var asked []string
		m := newOldProtocolMCPTest(t, elicitWith("accept", map[string]any{"proceed": true}, &asked), filepath.Join(mcpData, "secret.yaml"))
		res := m.call(t, "secret-ask", map[string]any{"token": secretToken})
		sc := structured(t, res)
		if res.IsError || sc["status"] != "completed" || len(asked) != 1 {
			t.Fatalf("isError %v, status %v, asked %q:\n%s", res.IsError, sc["status"], asked, textOf(t, res))
		}
		rr, _, err := record.ReadRecord(filepath.Join(m.runs, sc["runId"].(string)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(rr.Answers) != 1 || rr.Answers[0].By != "MCP client old-client" {
			t.Errorf("answers %+v, want one by the MCP client", rr.Answers)
		}
	})
}

// TestParseJSONKeepsEveryDigit: a command's JSON ids past 2^53 (and past
// int64) were float64s, so `-o json`, the text table and an MCP tool's
// answer gave 9007199254740992 for the object whose id is …993 — two
// objects one id, under a Consistent standing. Numbers now settle as
// jsonv.Decoded settles them: exact ints, and the digits of a number no
// float64 holds, which the record file writes as a number
// (record/recordwrite.go) and explain reads back as one.
func TestParseJSONKeepsEveryDigit(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs(agentsData)
	r := runCLI(t, dir, "exec", "ids.yaml", "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{`"id": 9007199254740992`, `"id": 9007199254740993`, `"id": 12345678901234567890`, `"id": 0.1`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("-o json does not hold %s:\n%s", want, r.stdout)
		}
	}
	rec := filepath.Join(t.TempDir(), "ids.json")
	txt := runCLI(t, dir, "exec", "ids.yaml", "--record", rec)
	for _, want := range []string{"| object 1 | seen | 9007199254740993 |", "| object 2 | seen | 12345678901234567890 |"} {
		if !strings.Contains(txt.stdout, want) {
			t.Errorf("the text does not hold %q:\n%s", want, txt.stdout)
		}
	}
	// An MCP tool's structuredContent was the record read back with
	// float64 numbers.
	// (Read on the wire: the Go client itself decodes numbers as float64.)
	wire := &lockedBuffer{}
	m := connectMCP(t, "runbook-test", nil, nil, wire, filepath.Join(agentsData, "ids.yaml"))
	res := m.call(t, "wide-ids", nil)
	if !strings.Contains(wire.String(), `"rows":[{"id":9007199254740992,"subject":"object 0","verdict":"seen"},{"id":9007199254740993,`) ||
		!strings.Contains(wire.String(), `{"id":12345678901234567890,"subject":"object 2"`) {
		t.Errorf("structuredContent on the wire does not hold the ids as printed:\n%s", wire.String())
	}
	m.call(t, toolExplain, map[string]any{"runId": structured(t, res)["runId"], "key": "objects.stdout[2].id"})
	if !strings.Contains(wire.String(), `"value":12345678901234567890`) {
		t.Errorf("explain's structuredContent on the wire does not hold 12345678901234567890:\n%s", wire.String())
	}
	// The record file wrote a json.Number as a string, so explain read
	// the id back as the text "12345678901234567890".
	for key, want := range map[string]string{"objects.stdout[1].id": "objects.stdout[1].id = 9007199254740993\n", "objects.stdout[2].id": "objects.stdout[2].id = 12345678901234567890\n"} {
		if ex := runCLI(t, dir, "explain", rec, key); !strings.HasPrefix(ex.stdout, want) {
			t.Errorf("explain %s:\n%s\nwant it to start %q", key, ex.stdout, want)
		}
	}
}

// TestMCPResumeAsksTheNextQuestion: a run paused at its first question,
// resumed with the resume tool by a client that can answer questions,
// asks the second through the client. The resume tool took the call that
// came back with the answer for a new call with the first answers only:
// the person's answer was dropped, and the result said it was refused
// ("give it as the argument second_ok"). Both protocols: the multi round
// trip's input requests, and an older client's elicitation request.
func TestMCPResumeAsksTheNextQuestion(t *testing.T) {
	for _, protocol := range []string{"", "2025-06-18"} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			chart := filepath.Join(agentsData, "two-asks.yaml")
			first := newMCPTest(t, "", nil, chart)
			id, _ := structured(t, first.call(t, "two-asks", nil))["runId"].(string)

			var asked []string
			opts := elicitWith("accept", map[string]any{"second_ok": true}, &asked)
			var m *mcpTest
			if protocol == "" {
				m = newMCPTest(t, first.runs, opts, chart)
			} else {
				m = newOldProtocolMCPTest(t, opts, chart)
				copyRun(t, first.runs, m.runs, id)
			}
			res := m.call(t, toolResume, map[string]any{"runId": id, "answers": map[string]any{"first_ok": true}})
			text := textOf(t, res)
			if res.IsError {
				t.Fatalf("isError, asked %q:\n%s", asked, text)
			}
			sc := structured(t, res)
			if sc["status"] != "completed" || len(asked) != 1 || asked[0] != "Second: really?" {
				t.Fatalf("isError %v, status %v, asked %q:\n%s", res.IsError, sc["status"], asked, text)
			}
			if !strings.Contains(text, "| api | go |") {
				t.Errorf("the answers did not both reach the run:\n%s", text)
			}
		})
	}
}

// copyRun copies run id's record from one --runs folder to another.
func copyRun(t *testing.T, from, to, id string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(from, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(to, id+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestMCPPausedRunSaysHowToResumeByTheTool: a paused run's
// structuredContent said how to resume it as the record does for a person
// at the server's shell — `runbook resume /path/on/the/server/RUNID.json`,
// the server's own folder, a command the agent cannot run — and the text's
// resume call left out the secret input the resume refuses without. Both
// now give the resume tool's arguments, the secret named (never its value).
func TestMCPPausedRunSaysHowToResumeByTheTool(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "secret.yaml"))
	res := m.call(t, "secret-ask", map[string]any{"token": secretToken})
	sc := structured(t, res)
	id, _ := sc["runId"].(string)
	call := `{"runId": "` + id + `", "questionNumber": 1, "answers": {"proceed": <bool>, "token": <the secret input, again>}}`
	pause, _ := sc["pause"].(map[string]any)
	if got := pause["resume"]; got != "the resume tool: "+call {
		t.Errorf("structuredContent's pause.resume = %q, want the resume tool's call %s", got, call)
	}
	if schema, _ := outputSchema(); validateJSON(schema, sc) != nil {
		t.Errorf("the paused result breaks the output schema: %v", validateJSON(schema, sc))
	}
	text := textOf(t, res)
	if !strings.Contains(text, "Resume it with the resume tool: "+call) {
		t.Errorf("the text does not give the resume call %s:\n%s", call, text)
	}
	if raw := mustJSON(t, sc) + text; strings.Contains(raw, m.runs) || strings.Contains(raw, "runbook resume") {
		t.Errorf("the answer names the server's records folder or a command line:\n%s", raw)
	}
	// Followed as said, with the secret given again, it resumes.
	done := m.call(t, toolResume, map[string]any{"runId": id, "answers": map[string]any{"proceed": true, "token": secretToken}})
	if dsc := structured(t, done); done.IsError || dsc["status"] != "completed" {
		t.Errorf("resume: %s", textOf(t, done))
	}
	assertNoSecret(t, m, secretToken, text, sc)
}

// TestMCPPausedRunWhoseRecordWasNotKept: when the server could not write
// a paused run's record, its answer told the agent to resume it with the
// resume tool, then that it could not be resumed, with the server's
// records folder in the error. It now says only that it cannot be
// resumed; the server's log keeps why.
func TestMCPPausedRunWhoseRecordWasNotKept(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "secret.yaml"))
	if err := os.RemoveAll(m.runs); err != nil {
		t.Fatal(err)
	}
	res := m.call(t, "secret-ask", map[string]any{"token": secretToken})
	text := textOf(t, res)
	sc := structured(t, res)
	if sc["status"] != "paused" {
		t.Fatalf("status %v:\n%s", sc["status"], text)
	}
	if !strings.Contains(text, "It cannot be resumed: its record was not kept.") || strings.Contains(text, "Resume it with the resume tool") {
		t.Errorf("the text does not say the run cannot be resumed:\n%s", text)
	}
	if pause, _ := sc["pause"].(map[string]any); pause["resume"] != "none: the run's record was not kept" {
		t.Errorf("pause.resume = %q", pause["resume"])
	}
	if raw := mustJSON(t, sc) + text; strings.Contains(raw, m.runs) {
		t.Errorf("the answer names the server's records folder:\n%s", raw)
	}
	if !strings.Contains(m.log.String(), "was not kept") || !strings.Contains(m.log.String(), m.runs) {
		t.Errorf("the server's log does not say why:\n%s", m.log.String())
	}
}

// TestMCPTwoResumesOfOneRunAtOnce: of two resume calls of one paused run
// at once, one resumes it; the other was told that another process held
// the record's lock — its own server — and to remove the lock file, by
// its path in the server's records folder, "if none is running", while
// the first call ran. It is now told the truth, naming no path.
func TestMCPTwoResumesOfOneRunAtOnce(t *testing.T) {
	dir := t.TempDir()
	chart := writeChart(t, dir, "slow-after.yaml", `
version: 1
runbook: slow-after
description: Ask, then take a while
stages:
  - id: q
    ask: {question: '"Go on?"', expects: {proceed: bool}}
  - id: nap
    exec: {command: [sleep, "3"]}
`)
	m := newMCPTest(t, "", nil, chart)
	id, _ := structured(t, m.call(t, "slow-after", nil))["runId"].(string)
	results := make(chan *mcp.CallToolResult, 2)
	for range 2 {
		go func() {
			res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolResume, Arguments: map[string]any{"runId": id, "answers": map[string]any{"proceed": true}}})
			if err != nil {
				t.Error(err)
			}
			results <- res
		}()
	}
	var done, refused int
	for range 2 {
		res := <-results
		if res == nil {
			continue
		}
		text := textOf(t, res)
		switch {
		case !res.IsError:
			done++
		case strings.Contains(text, "is being resumed by another call to this server now"):
			refused++
			if strings.Contains(text, m.runs) || strings.Contains(text, "remove") {
				t.Errorf("the refusal names the server's folder or asks to remove the lock:\n%s", text)
			}
		default:
			t.Errorf("a refusal that does not say why:\n%s", text)
		}
	}
	if done != 1 || refused != 1 {
		t.Errorf("%d resumed, %d refused; want one of each", done, refused)
	}
}

// TestInputsReadAsOneNumberEverywhere: an input's number is the same value
// however it is given. A tool call's arguments, an --inputs file (JSON or
// YAML) and a list or object --input were read into float64s, so an MCP
// call with {"id": 100000000} wrote the subject "1e+08" where `runbook
// exec --input id=100000000` wrote "100000000", and 9007199254740993 was
// …992. Every reader now reads JSON as jsonv.Unmarshal does.
func TestInputsReadAsOneNumberEverywhere(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.Abs(agentsData)
	tmp := t.TempDir()
	jsonFile := filepath.Join(tmp, "in.json")
	yamlFile := filepath.Join(tmp, "in.yaml")
	for _, tc := range []struct {
		id, obj string
		want    []string
	}{
		{"100000000", `{"k": 1}`, []string{`"subject": "100000000"`, `"id": 100000000`, `"k": 1`}},
		{"9007199254740993", `{"k": 12345678901234567890}`, []string{`"subject": "9007199254740993"`, `"id": 9007199254740993`, `"k": 12345678901234567890`}},
	} {
		if err := os.WriteFile(jsonFile, []byte(`{"id": `+tc.id+`, "obj": `+tc.obj+`}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(yamlFile, []byte("id: "+tc.id+"\nobj: "+tc.obj+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		outs := map[string]string{
			"--input":       runCLI(t, dir, "exec", "echo-id.yaml", "-o", "json", "--input", "id="+tc.id, "--input", "obj="+tc.obj).stdout,
			"--inputs JSON": runCLI(t, dir, "exec", "echo-id.yaml", "-o", "json", "--inputs", jsonFile).stdout,
			"--inputs YAML": runCLI(t, dir, "exec", "echo-id.yaml", "-o", "json", "--inputs", yamlFile).stdout,
		}
		// an MCP tool call, its arguments as a client sends them, read on
		// the wire (the Go client decodes numbers as float64)
		wire := &lockedBuffer{}
		m := connectMCP(t, "runbook-test", nil, nil, wire, filepath.Join(agentsData, "echo-id.yaml"))
		res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo-id", Arguments: json.RawMessage(`{"id": ` + tc.id + `, "obj": ` + tc.obj + `}`)})
		if err != nil || res.IsError {
			t.Fatalf("MCP call: %v %v", err, res)
		}
		answer := wire.String()
		if i := strings.LastIndex(answer, `"structuredContent"`); i >= 0 {
			answer = answer[i:] // the result, not the call's own arguments
		}
		outs["MCP"] = strings.ReplaceAll(answer, `":`, `": `)
		for how, out := range outs {
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("id %s given by %s: the result does not hold %s:\n%s", tc.id, how, want, out)
				}
			}
		}
	}
}
