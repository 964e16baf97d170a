package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An answer is given to one question. A resume call names its run, and
// the run may have moved on since (another call answered, the client
// retried a call whose reply it lost): the answers meant for the first
// question must never answer the second.

// A resume retried with the arguments that answered the first question
// (a lost reply, a model repeating its call) is refused: the run now waits
// at the second question, which nobody has been shown. Before, the retry
// answered "DELETE the old token (irreversible)?" with the first
// question's yes.
func TestMCPRetriedResumeCannotAnswerTheNextQuestion(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "twice.yaml"))
	sc := structured(t, m.call(t, "twice", nil))
	id, _ := sc["runId"].(string)
	first := m.call(t, toolResume, map[string]any{"runId": id, "answers": map[string]any{"approve": true}})
	text := textOf(t, first)
	if first.IsError || !strings.Contains(text, "DELETE the old token") {
		t.Fatalf("the first answer: isError %v:\n%s", first.IsError, text)
	}
	if !strings.Contains(text, `"questionNumber": 2`) {
		t.Errorf("the second question's resume call does not name its number:\n%s", text)
	}
	retry := m.call(t, toolResume, map[string]any{"runId": id, "answers": map[string]any{"approve": true}})
	rtext := textOf(t, retry)
	if !retry.IsError || !strings.Contains(rtext, "question 2") || !strings.Contains(rtext, "DELETE the old token") {
		t.Fatalf("a retried first answer: isError %v, want it refused naming question 2 and its text:\n%s", retry.IsError, rtext)
	}
	stale := m.call(t, toolResume, map[string]any{"runId": id, "questionNumber": 1, "answers": map[string]any{"approve": true}})
	if !stale.IsError || !strings.Contains(textOf(t, stale), "question 2") {
		t.Fatalf("an answer to question 1 given as such: isError %v:\n%s", stale.IsError, textOf(t, stale))
	}
	// nothing ran: the run still waits at the second question, and
	// answering it by its number goes on
	done := m.call(t, toolResume, map[string]any{"runId": id, "questionNumber": 2, "answers": map[string]any{"approve": false}})
	dsc := structured(t, done)
	if done.IsError || dsc["status"] != "completed" {
		t.Fatalf("the second question answered: isError %v status %v:\n%s", done.IsError, dsc["status"], textOf(t, done))
	}
	if rows := dsc["verdicts"].(map[string]any)["rows"].([]any); rows[0].(map[string]any)["verdict"] != "kept" {
		t.Errorf("rows %v, want the old token kept", rows)
	}
}

// A client of the multi round-trip protocol answers by coming back with
// the request state it was given. A state given for the first question,
// sent again after the run moved on to the second, is refused; before,
// it answered the second question with the first one's answer.
func TestMCPReplayedAnswerCannotAnswerTheNextQuestion(t *testing.T) {
	opts := &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			t.Error("the SDK answered; this test answers by hand")
			return nil, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	}
	m := newMCPTest(t, "", opts, filepath.Join(mcpData, "twice.yaml"))
	call := func(state string, approve bool) *mcp.CallToolResult {
		t.Helper()
		p := &mcp.CallToolParams{Name: "twice"}
		if state != "" {
			p.RequestState = state
			p.InputResponses = mcp.InputResponseMap{elicitID: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": approve}}}
		}
		res, err := m.cs.CallTool(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	asked := call("", false)
	if asked.RequestState == "" || asked.InputRequests[elicitID] == nil {
		t.Fatalf("the first question was not sent as an input request: %+v", asked)
	}
	first := asked.RequestState
	next := call(first, false) // "no" to a new token; the run asks the second question
	if next.RequestState == "" || !strings.Contains(mustJSON(t, next.InputRequests), "DELETE the old token") {
		t.Fatalf("the second question was not sent: %+v", next)
	}
	replay := call(first, true)
	if replay.RequestState != "" || !replay.IsError {
		t.Fatalf("a replayed answer to the first question was taken: %s", mustJSON(t, replay))
	}
	if text := textOf(t, replay); !strings.Contains(text, "question 2") {
		t.Errorf("the refusal does not say the run waits at question 2:\n%s", text)
	}
	done := call(next.RequestState, false)
	if sc := structured(t, done); done.IsError || sc["status"] != "completed" ||
		sc["verdicts"].(map[string]any)["rows"].([]any)[0].(map[string]any)["verdict"] != "kept" {
		t.Fatalf("the second question answered by its own state: %s", mustJSON(t, done))
	}
}

// A call that asks its question by an elicitation request (a client
// before the multi round-trip) and goes on with the answer is one request:
// its progress must only grow (the protocol says so, and a client may drop
// a notification that goes back). Before, the resumed run counted from
// zero again: 62 stages and branches done, then 1.
func TestMCPProgressOnlyGrowsAcrossAnAnsweredQuestion(t *testing.T) {
	var mu sync.Mutex
	var got []float64
	var asked []string
	opts := elicitWith("accept", map[string]any{"proceed": true}, &asked)
	opts.ProgressNotificationHandler = func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		got = append(got, r.Params.Progress)
		mu.Unlock()
	}
	m := newOldProtocolMCPTest(t, opts, filepath.Join(mcpData, "count-ask.yaml"))
	params := &mcp.CallToolParams{Name: "count-ask"}
	params.SetProgressToken("tok-ask")
	res, err := m.cs.CallTool(context.Background(), params)
	if err != nil || res.IsError || len(asked) != 1 {
		t.Fatalf("call: %v, asked %d: %v", err, len(asked), res)
	}
	if sc := structured(t, res); sc["status"] != "completed" {
		t.Fatalf("status %v", sc["status"])
	}
	// notifications may still be on their way after the result
	time.Sleep(3 * progressTick)
	mu.Lock()
	defer mu.Unlock()
	if len(got) < 2 {
		t.Fatalf("%d progress notifications, want one at least before the question and one after", len(got))
	}
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Errorf("progress went from %v to %v: %v", got[i-1], got[i], got)
			break
		}
	}
}

// A paused run whose record cannot be resumed (a command's output held
// the secret, and resume cannot derive it again) is said to be so at the
// pause, as runbook exec warns: its question is not put to a person whose
// answer cannot be used, and the result gives no resume call. Before, the
// client was asked, and its answer came back refused; without elicitation
// the result said "Resume it with the resume tool".
func TestMCPPausedRunThatCannotBeResumedSaysSo(t *testing.T) {
	for _, elicit := range []bool{true, false} {
		var asked []string
		var opts *mcp.ClientOptions
		if elicit {
			opts = elicitWith("accept", map[string]any{"proceed": true}, &asked)
		}
		m := newOldProtocolMCPTest(t, opts, filepath.Join(mcpData, "probe-ask.yaml"))
		res := m.call(t, "probe-ask", map[string]any{"token": secretToken})
		text := textOf(t, res)
		if len(asked) != 0 {
			t.Errorf("elicit %v: the client was asked %q, a question whose answer cannot be used", elicit, asked)
		}
		if res.StructuredContent == nil {
			t.Fatalf("elicit %v: no result record, isError %v:\n%s", elicit, res.IsError, text)
		}
		sc := structured(t, res)
		if sc["status"] != "paused" {
			t.Fatalf("elicit %v: status %v, want paused:\n%s", elicit, sc["status"], text)
		}
		if strings.Contains(text, "Resume it with the resume tool") || !strings.Contains(text, "It cannot be resumed: ") ||
			!strings.Contains(text, `"probe"`) || !strings.Contains(text, "run the chart again") {
			t.Errorf("elicit %v: the text does not say the run cannot be resumed, and why:\n%s", elicit, text)
		}
		pause, _ := sc["pause"].(map[string]any)
		if r, _ := pause["resume"].(string); !strings.HasPrefix(r, "none: ") {
			t.Errorf("elicit %v: pause.resume = %q, want none and why", elicit, r)
		}
		tail := secretToken[len(secretToken)-5:] // what the command printed
		if raw := text + mustJSON(t, sc); strings.Contains(raw, secretToken) || strings.Contains(raw, `"`+tail+`"`) {
			t.Errorf("elicit %v: the secret, or the piece the command printed, shows:\n%s", elicit, raw)
		}
	}
}

// The server's records folder is not the client's to know (a client over
// HTTP is another machine): a resume or explain of a run the server does
// not keep, or whose record is damaged, says so by the runId alone.
// Before, both named the folder: "record /var/lib/…/runs/ID.json: open
// …: no such file or directory", "no run ID is kept in /var/lib/…/runs".
func TestMCPUnknownRunRefusedWithoutTheRecordsFolder(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "twice.yaml"))
	missing := "twice-20990101T000000Z-00000000"
	broken := "twice-20990101T000000Z-11111111"
	if err := os.WriteFile(filepath.Join(m.runs, broken+".json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool, id, want string
	}{
		{toolResume, missing, "no run " + missing + " is kept by this server"},
		{toolExplain, missing, "no run " + missing + " is kept by this server"},
		{toolResume, broken, "not a readable run record"},
		{toolExplain, broken, "not a readable run record"},
	} {
		args := map[string]any{"runId": tc.id}
		if tc.tool == toolResume {
			args["answers"] = map[string]any{"approve": true}
		}
		res := m.call(t, tc.tool, args)
		text := textOf(t, res)
		if !res.IsError || !strings.Contains(text, tc.want) || !strings.Contains(text, tc.id) {
			t.Errorf("%s %s: isError %v, want %q:\n%s", tc.tool, tc.id, res.IsError, tc.want, text)
		}
		if strings.Contains(text, m.runs) {
			t.Errorf("%s %s names the server's records folder:\n%s", tc.tool, tc.id, text)
		}
	}
}

// An answer's number is one value however it is given: through the
// client's form (an elicitation, on either protocol) as by the resume
// tool. Before, the form's 100000000 reached the run as the float64 the
// SDK decoded, and string(id) wrote the subject "1e+08" where the resume
// tool's answer wrote "100000000".
func TestMCPElicitedNumberIsReadAsTheResumeToolReadsIt(t *testing.T) {
	subject := func(res *mcp.CallToolResult) any {
		t.Helper()
		sc := structured(t, res)
		rows, _ := sc["verdicts"].(map[string]any)["rows"].([]any)
		if sc["status"] != "completed" || len(rows) != 1 {
			t.Fatalf("status %v, rows %v:\n%s", sc["status"], rows, textOf(t, res))
		}
		return rows[0].(map[string]any)["subject"]
	}
	answer := map[string]any{"id": 100000000}
	plain := newMCPTest(t, "", nil, filepath.Join(mcpData, "number-ask.yaml"))
	id, _ := structured(t, plain.call(t, "number-ask", nil))["runId"].(string)
	if got := subject(plain.call(t, toolResume, map[string]any{"runId": id, "answers": answer})); got != "100000000" {
		t.Fatalf("the resume tool's answer wrote %v", got)
	}
	for _, old := range []bool{false, true} {
		var asked []string
		opts := elicitWith("accept", answer, &asked)
		m := newMCPTest(t, "", opts, filepath.Join(mcpData, "number-ask.yaml"))
		if old {
			m = newOldProtocolMCPTest(t, opts, filepath.Join(mcpData, "number-ask.yaml"))
		}
		if got := subject(m.call(t, "number-ask", nil)); got != "100000000" || len(asked) != 1 {
			t.Errorf("old protocol %v: the form's answer wrote %v (asked %d), want 100000000 as the resume tool's", old, got, len(asked))
		}
	}
}

// An explain call giving whyNot with a key or a stage is refused in the
// tool's own argument names; it said "--why-not takes the stage itself:
// give no KEY with it", a flag and an argument the agent never saw.
func TestMCPExplainWhyNotWithAKeySaysWhyNot(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "prose.yaml"))
	id := structured(t, m.call(t, "volumes-prose", map[string]any{"threshold": 90}))["runId"].(string)
	for _, other := range []string{"key", "stage"} {
		res := m.call(t, toolExplain, map[string]any{"runId": id, "whyNot": "mark-ok", other: "verdicts[0]"})
		text := textOf(t, res)
		if !res.IsError || !strings.Contains(text, "whyNot") || strings.Contains(text, "--why-not") || strings.Contains(text, "KEY") {
			t.Errorf("whyNot with %s: isError %v, text %q: want it refused naming whyNot, not --why-not", other, res.IsError, text)
		}
	}
}

// A question put to the client by an elicitation request (a client before
// the multi round-trip) may be answered by another call while the form is
// open: the resume tool, given the first question's answer, moves the run
// on to the second. The form's answer, when it comes, was given to the
// first question and is refused; before, it answered the second.
func TestMCPFormAnsweredAfterAnotherCallAnsweredIsRefused(t *testing.T) {
	var m *mcpTest
	var forms []string
	opts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		forms = append(forms, req.Params.Message)
		if len(forms) > 1 {
			return &mcp.ElicitResult{Action: "decline"}, nil // the second question, asked of the resume call
		}
		entries, err := os.ReadDir(m.runs)
		if err != nil || len(entries) != 1 {
			t.Errorf("runs kept: %v %v", entries, err)
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		id := strings.TrimSuffix(entries[0].Name(), ".json")
		other, err := m.cs.CallTool(ctx, &mcp.CallToolParams{Name: toolResume,
			Arguments: map[string]any{"runId": id, "questionNumber": 1, "answers": map[string]any{"approve": false}}})
		if err != nil || other.IsError {
			t.Errorf("the other call's answer: %v %v", err, other)
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	}}
	m = newOldProtocolMCPTest(t, opts, filepath.Join(mcpData, "twice.yaml"))
	res := m.call(t, "twice", nil)
	text := textOf(t, res)
	if len(forms) != 2 || !strings.Contains(forms[1], "DELETE") {
		t.Fatalf("forms %q, want the first question, then the second asked of the other call", forms)
	}
	if !res.IsError || !strings.Contains(text, "question 2") || strings.Contains(text, "deleted") {
		t.Fatalf("the form's answer to question 1, given after the run moved on: isError %v:\n%s", res.IsError, text)
	}
}
