package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Found by driving a real `runbook mcp` as an agent's builder would, from
// the docs alone (wave-mcp): what the agent sent, what it got back, and
// why the agent would have misread it.

// A question put to the person through the client and declined (or
// dismissed) came back as the same paused result a client that was never
// asked gets: "The run paused to ask: Go on?" and the resume call to
// answer it. Nothing said the person had been asked and had said no, so
// an agent read a question waiting for an answer, and answered it
// itself with the resume tool. The result now says the person declined
// it, on either protocol.
func TestMCPDeclinedQuestionSaysThePersonDeclined(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		action, protocol, want string
	}{
		{"decline", "", "declined to answer"},
		{"cancel", "", "dismissed the question without answering"},
		{"decline", "2025-06-18", "declined to answer"},
		{"cancel", "2025-06-18", "dismissed the question without answering"},
	} {
		var asked []string
		var sopts *mcp.ClientSessionOptions
		if tc.protocol != "" {
			sopts = &mcp.ClientSessionOptions{ProtocolVersion: tc.protocol}
		}
		cs, _ := stdioSession(t, elicitWith(tc.action, nil, &asked), sopts,
			filepath.Join(mcpData, "secret.yaml"), "--runs", t.TempDir())
		res := callE2E(t, cs, "secret-ask", map[string]any{"token": secretToken})
		text := textOf(t, res)
		sc := structured(t, res)
		_ = cs.Close()
		if res.IsError || sc["status"] != "paused" || len(asked) != 1 {
			t.Fatalf("%s on %q: isError %v, status %v, asked %d:\n%s", tc.action, tc.protocol, res.IsError, sc["status"], len(asked), text)
		}
		if !strings.Contains(text, "The person was asked through the client and "+tc.want+". The run stays paused") {
			t.Errorf("%s on %q: the text does not say the person was asked and gave no answer (%q):\n%s", tc.action, tc.protocol, tc.want, text)
		}
		if !strings.Contains(text, "resume it only with their answer") {
			t.Errorf("%s on %q: the text does not say whose answer a resume must carry:\n%s", tc.action, tc.protocol, text)
		}
	}
}

// explain cuts a long value at 80 characters and says how to see it
// whole. The explain tool said it in the command line's words, "--full
// prints them whole", a flag no tool call can pass: an agent read that it
// could not get the value, or sent "--full" as a key. The tool takes full
// now, and the note names it.
func TestMCPExplainCutValueSaysTheToolsFullArgument(t *testing.T) {
	t.Parallel()
	cs, _ := stdioClient(t, nil, filepath.Join(mcpData, "long-value.yaml"), "--runs", t.TempDir())
	defer cs.Close()
	id, _ := structured(t, callE2E(t, cs, "long-value", nil))["runId"].(string)
	cut := callE2E(t, cs, toolExplain, map[string]any{"runId": id, "key": "verdicts[0]"})
	text := textOf(t, cut)
	if cut.IsError || strings.Contains(text, "(end)") {
		t.Fatalf("isError %v; want the value cut:\n%s", cut.IsError, text)
	}
	if strings.Contains(text, "--") || !strings.Contains(text, "full: true prints them whole") {
		t.Errorf("the note does not name the tool's argument:\n%s", text)
	}
	whole := callE2E(t, cs, toolExplain, map[string]any{"runId": id, "key": "verdicts[0]", "full": true})
	if wt := textOf(t, whole); whole.IsError || !strings.Contains(wt, "(end)") || strings.Contains(wt, "cut at") {
		t.Errorf("full: isError %v, want the value whole:\n%s", whole.IsError, wt)
	}
}

// Of two resumes of one run at once from two processes (two servers on
// one --runs folder, or a runbook resume beside a server), the second
// was refused in the command line's words: "RUNID.json is being resumed
// by another process (pid … on HOST since …); if none is running, remove
// RUNID.json.lock", a file on the server's host the agent cannot reach,
// with the server's pid and host name. It is now told what it can do,
// as a second call to the same server is. The other process is stood in
// for by its lock, as LockRecord writes it.
func TestMCPResumeLockedByAnotherProcessSaysWhatTheAgentCanDo(t *testing.T) {
	t.Parallel()
	runs := t.TempDir()
	cs, _ := stdioClient(t, nil, filepath.Join(mcpData, "twice.yaml"), "--runs", runs)
	defer cs.Close()
	id, _ := structured(t, callE2E(t, cs, "twice", nil))["runId"].(string)
	lock := filepath.Join(runs, id+".json.lock")
	if err := os.WriteFile(lock, []byte("pid 4001 on build-host-7 since 2026-12-06T17:46:34Z\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := callE2E(t, cs, toolResume, map[string]any{"runId": id, "answers": map[string]any{"approve": true}})
	text := textOf(t, res)
	if !res.IsError {
		t.Fatalf("a resume of a locked run was not refused:\n%s", text)
	}
	for _, bad := range []string{".lock", "remove", "4001", "build-host-7", runs} {
		if strings.Contains(text, bad) {
			t.Errorf("the refusal names %q, which is the server host's, not the agent's:\n%s", bad, text)
		}
	}
	for _, want := range []string{"run " + id + " is being resumed by another process now", "the explain tool says how the run ended"} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, text)
		}
	}
	// nothing ran: once the other process is done, the run resumes
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if again := callE2E(t, cs, toolResume, map[string]any{"runId": id, "answers": map[string]any{"approve": true}}); again.IsError {
		t.Errorf("the resume after the lock went: %s", textOf(t, again))
	}
}

// A call of a tool the server does not serve (a typo, a chart that did
// not load) was the SDK's bare `unknown tool "volumes-prse"`: nothing
// said which tools there are, the one meant, or that a chart was left
// out because it does not load, which only the server's log says.
func TestMCPUnknownToolSaysWhatIsServed(t *testing.T) {
	t.Parallel()
	cs, _ := stdioClient(t, nil, filepath.Join(mcpData, "prose.yaml"), filepath.Join(mcpData, "bad"), "--runs", t.TempDir())
	defer cs.Close()
	for _, tc := range []struct{ name, want string }{
		{"volumes-prse", `unknown tool "volumes-prse"; did you mean "volumes-prose"? This server serves explain, resume, volumes-prose; 2 charts given to it were not offered (the server's log says why)`},
		{"disk-triage", `unknown tool "disk-triage"; this server serves explain, resume, volumes-prose; 2 charts given to it were not offered (the server's log says why)`},
	} {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.name, Arguments: map[string]any{}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("a call of %s: %v\nwant it refused with %q", tc.name, err, tc.want)
		}
	}
}

// An answer that holds a secret input (a person pasting the token they
// were asked about into a text answer) was masked in the state, the rows
// and explain, and kept as typed in the record's list of answers, which
// the resource runbook://runs/{runId} serves to any client: the one part
// of the record the masker never saw.
func TestMCPAnswerHoldingASecretIsMaskedInTheRecord(t *testing.T) {
	t.Parallel()
	runs := t.TempDir()
	cs, _ := stdioClient(t, nil, filepath.Join(mcpData, "secret-note.yaml"), "--runs", runs)
	defer cs.Close()
	id, _ := structured(t, callE2E(t, cs, "secret-note", map[string]any{"token": secretToken}))["runId"].(string)
	done := callE2E(t, cs, toolResume, map[string]any{"runId": id,
		"answers": map[string]any{"note": "leaked as " + secretToken, "token": secretToken}})
	if sc := structured(t, done); done.IsError || sc["status"] != "completed" {
		t.Fatalf("resume: isError %v status %v:\n%s", done.IsError, sc["status"], textOf(t, done))
	}
	rec, err := os.ReadFile(filepath.Join(runs, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(rec), secretToken) {
		t.Errorf("the record holds the secret:\n%s", rec)
	}
	var saved struct {
		Answers []struct {
			Answers map[string]any `json:"answers"`
		} `json:"answers"`
	}
	if err := json.Unmarshal(rec, &saved); err != nil || len(saved.Answers) != 1 {
		t.Fatalf("the record's answers: %v %+v", err, saved)
	}
	if note, _ := saved.Answers[0].Answers["note"].(string); !strings.Contains(note, "***") {
		t.Errorf("the record's answer %q, want it kept masked", note)
	}
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: runURIPrefix + id})
	if err != nil || len(rr.Contents) != 1 || strings.Contains(rr.Contents[0].Text, secretToken) {
		t.Errorf("the resource holds the secret (or does not read: %v)", err)
	}
}

// Answers refused at a run's second question (a bool given as "maybe")
// were told "call the resume tool with its runId and the answers", and
// an agent that did so, without questionNumber, was refused again: once
// a run has been answered, answers that name no question are not taken.
// The refusal now gives the call that answers the question the run waits
// at, its number in it.
func TestMCPRefusedAnswerSaysTheCallThatAnswers(t *testing.T) {
	t.Parallel()
	cs, _ := stdioClient(t, nil, filepath.Join(mcpData, "twice.yaml"), "--runs", t.TempDir())
	defer cs.Close()
	id, _ := structured(t, callE2E(t, cs, "twice", nil))["runId"].(string)
	if first := callE2E(t, cs, toolResume, map[string]any{"runId": id, "answers": map[string]any{"approve": true}}); first.IsError {
		t.Fatalf("the first answer: %s", textOf(t, first))
	}
	bad := callE2E(t, cs, toolResume, map[string]any{"runId": id, "questionNumber": 2, "answers": map[string]any{"approve": "maybe"}})
	text := textOf(t, bad)
	want := `Run ` + id + ` is still paused at question 2: answer it with the resume tool: {"runId": "` + id + `", "questionNumber": 2, "answers": {"approve": <bool>}}`
	if !bad.IsError || !strings.Contains(text, want) {
		t.Fatalf("isError %v; the refusal does not give the call that answers:\n%s\nwant %s", bad.IsError, text, want)
	}
	if done := callE2E(t, cs, toolResume, map[string]any{"runId": id, "questionNumber": 2, "answers": map[string]any{"approve": false}}); done.IsError {
		t.Errorf("the call the refusal gave: %s", textOf(t, done))
	}
}

// A question declined through the client came back with the paused
// run's result read from its record, and a record edited in the runs
// folder meanwhile (a verdict, a question's words) was given as the
// run's, though the resume tool refuses a damaged record
// (wave-forensics). The declined call now says the record is damaged.
func TestMCPDeclinedQuestionOverADamagedRecordSaysSo(t *testing.T) {
	t.Parallel()
	runs := t.TempDir()
	var asked []string
	opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, req.Params.Message)
		files, _ := filepath.Glob(filepath.Join(runs, "*.json"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(f, []byte(strings.Replace(string(b), `"Go on?"`, `"Stop now?"`, 1)), 0o600); err != nil {
				return nil, err
			}
		}
		return &mcp.ElicitResult{Action: "decline"}, nil
	}}
	cs, _ := stdioSession(t, opts, nil, filepath.Join(mcpData, "secret.yaml"), "--runs", runs)
	res := callE2E(t, cs, "secret-ask", map[string]any{"token": secretToken})
	text := textOf(t, res)
	_ = cs.Close()
	if len(asked) != 1 || !res.IsError || !strings.Contains(text, "its record is damaged, so what it holds is not given as the run's") {
		t.Fatalf("asked %d, isError %v; want the damaged record said:\n%s", len(asked), res.IsError, text)
	}
	if strings.Contains(text, runs) {
		t.Errorf("the error names the server's runs folder:\n%s", text)
	}
}
