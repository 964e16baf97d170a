package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/runbook"
)

// A tool call (mcp.md): the chart runs exactly as `runbook exec` runs it
// (rb.Exec with exec's run options: plugins, honesty, the resume command),
// its record is kept under --runs as RUNID.json, and the answer goes back
// as the result record (structuredContent) and one text block. A run that
// asks is answered through the client by elicitation when the client can
// (the SDK's multi round-trip: the call returns an input request, the
// client answers, the same call comes back with the answer and the run is
// resumed as `runbook resume` resumes it), else the result says it paused.

// runURIPrefix is where run records are served as resources.
const runURIPrefix = "runbook://runs/"

// elicitID is the key of the one input request a paused run sends.
const elicitID = "answer"

// chartHandler runs c for one call, or, when the call comes back with the
// answer to the question its run asked, resumes that run.
func (s *mcpServer) chartHandler(c *mcpChart) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		defer s.progressed.Delete(req)
		given, err := toolArgs(req.Params.Arguments, "the chart's inputs")
		if err != nil {
			return toolError(err.Error()), nil
		}
		if req.Params.RequestState != "" || len(req.Params.InputResponses) > 0 {
			return s.answered(ctx, req, c, given), nil
		}
		if refused := s.stale(c); refused != nil {
			return refused, nil
		}
		id := newRunID(c.tool)
		path, _ := s.runPath(id)
		prog := s.startProgress(ctx, req)
		res, err := c.rb.Exec(ctx, given, s.execOptions(path, prog)...)
		prog.stop()
		if err != nil {
			if ies, ok := inputErrors(err); ok {
				return toolError(inputErrorText("the inputs of "+c.tool+" were refused", ies)), nil
			}
			return toolError(fmt.Sprintf("%s: %v", c.tool, err)), nil
		}
		return s.answer(ctx, req, c, id, given, res, res.WriteRecord(path)), nil
	}
}

// stale refuses a call of chart c when its file (or a chart it mounts)
// changed since the server loaded it (runbook.ChangedFiles): the server
// would answer by the rules it loaded, and `runbook exec` of the same
// file by the rules it holds now, so that an operator's fix (a threshold
// lowered, a rule that read a failure as ok) went on unseen by the agent
// until the server was restarted. Nothing runs; the files are named in
// the server's log only, as its folders are never named to the client.
func (s *mcpServer) stale(c *mcpChart) *mcp.CallToolResult {
	changed := c.rb.ChangedFiles()
	if len(changed) == 0 {
		return nil
	}
	fmt.Fprintf(s.log, "runbook mcp: %s: not run: changed since the server loaded it: %s; restart the server to serve it as it is now\n", c.tool, strings.Join(changed, ", "))
	return toolError(fmt.Sprintf("%s: nothing ran: the chart's file (or a chart it mounts) changed after this server loaded it, so the chart this tool describes is no longer the chart's, and an answer by it could differ from what runbook exec answers now; the server's operator must restart the server to serve the chart as it is now (the server's log names the file)", c.tool))
}

// execOptions are exec's run options (runOptions: the logger, the resume
// command for the record at path, plugins and honesty), with the call's
// progress.
func (s *mcpServer) execOptions(path string, prog *mcpProgress) []runbook.ExecOption {
	opts, _ := runOptions(execFlags{format: "json", plugins: s.plugins}, path, "", s.logger, s.honesty, io.Discard)
	if prog != nil {
		opts = append(opts, runbook.WithRecorders(prog))
	}
	return opts
}

// answer is a finished (or paused) run as the call's result. A paused run
// whose question an elicitation form can hold, for a client that declared
// elicitation, is asked through the client: an input request to a client
// of the multi round-trip protocol, else an elicitation request sent from
// here. given are the call's inputs (or a resume's answers): the secret
// ones are given again to the resumed run.
func (s *mcpServer) answer(ctx context.Context, req *mcp.CallToolRequest, c *mcpChart, id string, given map[string]any, res *runbook.Result, recordErr error) *mcp.CallToolResult {
	rec := res.Record
	if recordErr != nil {
		fmt.Fprintf(s.log, "runbook mcp: %s: the record of run %s was not kept: %v\n", c.tool, id, recordErr)
	}
	q := 0       // the question the run waits at, when it paused
	cannot := "" // why the paused run can never be resumed
	if rec.Status == "paused" {
		q = questionNumber(res.RunRecord())
		cannot = cannotResume(res)
	}
	// A question is put to a person only when the answer can be used.
	if rec.Status == "paused" && rec.Pause != nil && recordErr == nil && cannot == "" && canElicit(req) {
		if schema, ok := expectsSchema(rec.Pause.Expects); ok {
			ask := &mcp.ElicitParams{Mode: "form", Message: clean(rec.Pause.Question), RequestedSchema: schema}
			if multiRoundTrip(req) {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{elicitID: ask}, RequestState: s.sign(id, q)}
			}
			// Asked here, not through the SDK's stand-in for older
			// clients, which turns an answer that failed (the client's
			// error, an answer its form refused, the call cancelled) into a
			// protocol error: the paused run's runId, its record and how
			// to resume it would be lost with it.
			er, err := req.Session.Elicit(ctx, ask)
			if err != nil {
				line, _ := record.Headline(err.Error())
				return s.result(id, q, rec, c, nil, "", "The question got no answer through the client: "+line+". The run stays paused.")
			}
			if er == nil || er.Action != "accept" {
				return s.result(id, q, rec, c, nil, "", notAccepted(er))
			}
			return s.takeAnswer(ctx, req, c, id, q, given, er)
		}
	}
	return s.result(id, q, rec, c, recordErr, cannot, "")
}

// multiRoundTrip says whether the client speaks the multi round-trip
// protocol (2026-07-28 on), where a server asks by input requests and
// may not send an elicitation request of its own.
func multiRoundTrip(req *mcp.CallToolRequest) bool {
	ip := req.Session.InitializeParams()
	return ip != nil && ip.ProtocolVersion >= "2026-07-28"
}

// answered is the call coming back with the client's answer to the
// question run RequestState asked: accepted, the run is resumed with it;
// declined or cancelled, the run stays paused and the result says so.
func (s *mcpServer) answered(ctx context.Context, req *mcp.CallToolRequest, c *mcpChart, given map[string]any) *mcp.CallToolResult {
	id, q, ok := s.verify(req.Params.RequestState)
	if !ok {
		return toolError("this call carries an answer for a run this server did not ask about (the server may have restarted): call the resume tool with the paused run's runId and the answers")
	}
	path, _ := s.runPath(id)
	er, _ := req.Params.InputResponses[elicitID].(*mcp.ElicitResult)
	if er == nil || er.Action != "accept" {
		rr, problems, err := record.ReadRecord(path)
		if err != nil {
			return toolError(fmt.Sprintf("run %s: its record cannot be read: %s", id, s.inRuns(err)))
		}
		if len(problems) > 0 {
			// What a damaged record holds is not shown as the run's, as
			// the resume tool resumes none (wave-forensics).
			return toolError(fmt.Sprintf("run %s: its record is damaged, so what it holds is not given as the run's: %s", id, s.hideRuns(strings.Join(problems, "; "))))
		}
		if rr.Result == nil {
			return toolError(fmt.Sprintf("run %s: its record holds no result", id))
		}
		return s.result(id, questionNumber(rr), rr.Result, c, nil, "", notAccepted(er))
	}
	return s.takeAnswer(ctx, req, c, id, q, given, er)
}

// notAccepted says why a question put to the person through the client
// has no answer (er: the client's reply; nil when it held none). Without
// it the result read as a question nobody had been shown, with the resume
// call that answers it: an agent answered, with the resume tool, a
// question the person had just declined.
func notAccepted(er *mcp.ElicitResult) string {
	why := "The client's reply to the question held no answer"
	if er != nil {
		switch er.Action {
		case "decline":
			why = "The person was asked through the client and declined to answer"
		case "cancel":
			why = "The person was asked through the client and dismissed the question without answering"
		default:
			why = fmt.Sprintf("The client's reply to the question was %q, not an answer", er.Action)
		}
	}
	return why + ". The run stays paused; resume it only with their answer."
}

// takeAnswer resumes paused run id with an accepted elicitation's answers
// to its question number q.
func (s *mcpServer) takeAnswer(ctx context.Context, req *mcp.CallToolRequest, c *mcpChart, id string, q int, given map[string]any, er *mcp.ElicitResult) *mcp.CallToolResult {
	answers, err := formAnswers(er.Content)
	if err != nil {
		return toolError(fmt.Sprintf("run %s: the answer from the client's form does not read: %v", id, err))
	}
	// A record keeps no secret: the secret inputs this call gave are given
	// again, as `runbook resume --input` would.
	for _, in := range c.rb.Inputs() {
		if v, ok := given[in.Name]; ok && in.Secret {
			answers[in.Name] = v
		}
	}
	return s.resumeRun(ctx, req, c, id, q, answers, "MCP client "+clientName(req))
}

// formAnswers are an elicitation form's answers read as the resume tool's
// are (jsonv.Unmarshal, the one reader of JSON from outside): the SDK
// decoded the form into float64s, and the run's string(id) of a form's
// 100000000 said "1e+08" where the resume tool's said "100000000".
func formAnswers(content map[string]any) (map[string]any, error) {
	b, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	return toolArgs(b, "the question's answers")
}

// resumeRun continues paused run id with answers to its question number
// q (0: not named, taken only for a run's first question), as `runbook resume`
// continues a record (LockRecord, ReadRecord, rb.Resume, the record
// written back), and answers the call with the continued run. The record
// is unlocked before the answer: a run that pauses again may be asked its
// next question, and resumed with that answer, in this call.
func (s *mcpServer) resumeRun(ctx context.Context, req *mcp.CallToolRequest, c *mcpChart, id string, q int, answers map[string]any, by string) *mcp.CallToolResult {
	res, refused, recordErr := s.resumeLocked(ctx, req, c, id, q, answers, by)
	if refused != nil {
		return refused
	}
	return s.answer(ctx, req, c, id, answers, res, recordErr)
}

// resumeLocked is resumeRun's part under the record's lock: the run
// resumed and whether its record was written (recordErr), or the call
// refused.
func (s *mcpServer) resumeLocked(ctx context.Context, req *mcp.CallToolRequest, c *mcpChart, id string, q int, answers map[string]any, by string) (res *runbook.Result, refused *mcp.CallToolResult, recordErr error) {
	if _, busy := s.resuming.LoadOrStore(id, true); busy {
		return nil, toolError(fmt.Sprintf("run %s is being resumed by another call to this server now; a run is resumed once: when that call has answered, the explain tool says how the run ended", id)), nil
	}
	defer s.resuming.Delete(id)
	path, _ := s.runPath(id)
	unlock, err := runbook.LockRecord(path)
	if errors.Is(err, runbook.ErrBeingResumed) {
		// LockRecord's words are for the record's host: the holder's pid
		// and host, and the lock file to remove, none the client's to use.
		return nil, toolError(fmt.Sprintf("run %s is being resumed by another process now (another server or runbook resume on this server's records); a run is resumed once: when it has finished, the explain tool says how the run ended. If the run stays so, a process stopped while it resumed the run, and only the server's operator can free it", id)), nil
	}
	if err != nil {
		return nil, toolError(fmt.Sprintf("run %s: %s", id, s.inRuns(err))), nil
	}
	defer unlock()
	rr, problems, err := record.ReadRecord(path)
	if err != nil {
		return nil, toolError(fmt.Sprintf("run %s: %s", id, s.inRuns(err))), nil
	}
	if len(problems) > 0 {
		return nil, toolError(fmt.Sprintf("run %s: a damaged record is not resumed: %s", id, strings.Join(problems, "; "))), nil
	}
	if msg := otherQuestion(c, id, q, rr); msg != "" {
		return nil, toolError(msg), nil
	}
	if refused := s.stale(c); refused != nil {
		return nil, refused, nil
	}
	prog := s.startProgress(ctx, req)
	res, err = c.rb.Resume(ctx, rr, answers, runbook.ResumeExec(s.execOptions(path, prog)...), runbook.AnsweredBy(by))
	prog.stop()
	if err != nil {
		// Answers that were refused can be given again; a refusal of the
		// record itself (a secret resume cannot derive again, a chart
		// changed since the pause) stands whatever the answers.
		if ies, ok := inputErrors(err); ok {
			still := ""
			if rr.Checkpoint != nil && rr.Resumed == nil && rr.Result != nil && rr.Result.Pause != nil {
				// the whole call: a run answered before refuses answers
				// that name no question (otherQuestion)
				now := questionNumber(rr)
				still = fmt.Sprintf("\nRun %s is still paused at question %d: answer it with the resume tool: %s",
					id, now, resumeCall(id, now, rr.Result.Pause.Expects, givenAgain(c, rr.Result)))
			}
			return nil, toolError(inputErrorText("the answer was refused", ies) + still), nil
		}
		return nil, toolError(fmt.Sprintf("run %s: %s", id, s.inRuns(err))), nil
	}
	return res, nil, res.WriteRecord(path)
}

// inRuns is err's message with the server's records folder left out of
// every path: the client names a run by its runId, and where the server
// keeps its files is not the client's to know.
func (s *mcpServer) inRuns(err error) string { return s.hideRuns(err.Error()) }

// hideRuns is msg with the server's records folder left out (inRuns).
func (s *mcpServer) hideRuns(msg string) string {
	return strings.ReplaceAll(msg, s.runs+string(filepath.Separator), "")
}

// keptRun is where run id's record is kept, or the call refused (what,
// the tool refusing) when id is no run id or no run of that id is kept:
// said by the runId, never by the server's folder.
func (s *mcpServer) keptRun(what, id string) (string, *mcp.CallToolResult) {
	path, err := s.runPath(id)
	if err != nil {
		return "", toolError(what + ": " + err.Error())
	}
	if _, err := os.Stat(path); err != nil {
		return "", toolError(fmt.Sprintf("%s: no run %s is kept by this server: a runId is what a call of a chart's tool returned, and the server keeps its runs' records until they are removed", what, id))
	}
	return path, nil
}

// resumeHandler is the resume tool: {runId, answers}.
func (s *mcpServer) resumeHandler(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	defer s.progressed.Delete(req)
	var in struct {
		RunID          string         `json:"runId"`
		QuestionNumber int            `json:"questionNumber"`
		Answers        map[string]any `json:"answers"`
	}
	if err := strictJSON(req.Params.Arguments, &in); err != nil {
		return toolError("resume: " + err.Error() + `; want {"runId": "…", "answers": {"NAME": VALUE}}`), nil
	}
	jsonv.Settle(in.Answers) // numbers as a chart's tool reads them (toolArgs)
	path, refused := s.keptRun("resume", in.RunID)
	if refused != nil {
		return refused, nil
	}
	rr, _, err := record.ReadRecord(path)
	if err != nil {
		return toolError(fmt.Sprintf("resume: run %s: %s", in.RunID, s.inRuns(err))), nil
	}
	name := ""
	if rr.Result != nil {
		name = rr.Result.Runbook
	}
	c, ok := s.charts[toolName(name)]
	if !ok || c.rb.Name() != name {
		return toolError(fmt.Sprintf("resume: run %s is of the runbook %q, which this server does not serve", in.RunID, name)), nil
	}
	if req.Params.RequestState != "" || len(req.Params.InputResponses) > 0 {
		// The call come back with the answer to the question the resumed
		// run asked next: in.Answers answered the one before, and only
		// their secret inputs are given again.
		return s.answered(ctx, req, c, in.Answers), nil
	}
	if in.QuestionNumber < 0 {
		return toolError(fmt.Sprintf("resume: questionNumber %d: a question's number is 1 or more, as the paused result's resume call gives it", in.QuestionNumber)), nil
	}
	return s.resumeRun(ctx, req, c, in.RunID, in.QuestionNumber, in.Answers, "MCP client "+clientName(req)), nil
}

// explainHandler is the explain tool: what `runbook explain` prints for
// the run's record, as text, with its JSON form as structuredContent.
func (s *mcpServer) explainHandler(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct {
		RunID  string `json:"runId"`
		Key    string `json:"key"`
		Stage  string `json:"stage"`
		WhyNot string `json:"whyNot"`
		At     *int   `json:"at"`
		Full   bool   `json:"full"`
	}
	if err := strictJSON(req.Params.Arguments, &in); err != nil {
		return toolError("explain: " + err.Error() + `; want {"runId": "…"}, at most one of key, stage, whyNot, and at or full if wanted`), nil
	}
	path, refused := s.keptRun("explain", in.RunID)
	if refused != nil {
		return refused, nil
	}
	if in.Key != "" && in.Stage != "" {
		return toolError("explain: give key or stage, not both"), nil
	}
	if in.WhyNot != "" && in.Key+in.Stage != "" {
		// said here in the tool's names: explain's own refusal names its
		// flag, --why-not, and its argument, KEY
		return toolError("explain: whyNot names the stage or branch itself: give it without key or stage"), nil
	}
	f := explainFlags{at: -1, whyNot: in.WhyNot, full: in.Full, tool: true}
	if in.At != nil {
		f.at = *in.At
	}
	q := in.Key + in.Stage
	var text, js, errs bytes.Buffer
	f.format = "text"
	if err := explainRecord(path, q, f, in.At != nil, &text, &errs); err != nil {
		return explainRefused(s.hideRuns(strings.TrimSpace(errs.String() + "\n" + err.Error()))), nil
	}
	f.format = "json"
	if err := explainRecord(path, q, f, in.At != nil, &js, io.Discard); err != nil {
		return explainRefused(s.inRuns(err)), nil
	}
	structured, err := jsonObject(js.Bytes())
	if err != nil {
		return toolError("explain: " + err.Error()), nil
	}
	structured["record"] = runURIPrefix + in.RunID // the server's file path is not the client's business
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text.String()}}, StructuredContent: structured}, nil
}

// explainRefused is explain's refusal, "explain:" said once: the errors
// of runbook explain (and flow's under them) already begin with it.
func explainRefused(msg string) *mcp.CallToolResult {
	return toolError("explain: " + strings.TrimPrefix(msg, "explain: "))
}

// readRun serves runbook://runs/{runId}: the saved run record.
func (s *mcpServer) readRun(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := strings.CutPrefix(uri, runURIPrefix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	path, err := s.runPath(id)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(data)}}}, nil
}

// result is a run's answer: the result record with its runId, and the
// one text block (cannot: why a paused run can never be resumed;
// unanswered: why its question, put to the client, has no answer);
// isError when the run failed or was cancelled.
func (s *mcpServer) result(id string, q int, rec *record.Record, c *mcpChart, recordErr error, cannot, unanswered string) *mcp.CallToolResult {
	again := givenAgain(c, rec)
	structured, err := structuredOf(rec, id)
	if err != nil {
		return toolError(fmt.Sprintf("run %s: the result record does not encode: %v", id, err))
	}
	if p, ok := structured["pause"].(map[string]any); ok && rec.Pause != nil {
		// The record's resume is the command line on this server's host,
		// with the path of its file: a client resumes by the tool, and
		// only a run whose record was kept.
		p["resume"] = "the resume tool: " + resumeCall(id, q, rec.Pause.Expects, again)
		if recordErr != nil {
			p["resume"] = "none: the run's record was not kept"
		} else if cannot != "" {
			p["resume"] = "none: " + cannot
		}
	}
	text := mcpText(rec, id, q, scriptInto(c.rb.Spec()), recordErr, cannot, unanswered, again)
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: structured,
		IsError:           rec.Status == "failed" || rec.Status == "cancelled",
	}
}

// givenAgain are the secret inputs run rec was given, which a resume must
// be given again: its record keeps no secret.
func givenAgain(c *mcpChart, rec *record.Record) []string {
	var again []string
	for _, in := range c.rb.Inputs() {
		if _, given := rec.Inputs.Given[in.Name]; given && in.Secret {
			again = append(again, in.Name)
		}
	}
	return again
}

// structuredOf is the result record as `--format json` writes it, plus runId.
func structuredOf(rec *record.Record, id string) (map[string]any, error) {
	var buf bytes.Buffer
	if err := writeJSON(&buf, rec, ""); err != nil {
		return nil, err
	}
	m, err := jsonObject(buf.Bytes())
	if err != nil {
		return nil, err
	}
	m["runId"] = id
	return m, nil
}

// jsonObject reads a JSON object that goes back to the client as
// structuredContent, its numbers as their digits (json.Number), so that
// the SDK writes them as they were written: a float64 would make the id
// 9007199254740993 of a command's JSON …992.
func jsonObject(b []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("not a JSON object: %.40s", b)
	}
	return m, nil
}

// toolError is a call the server refused or could not run, said to the
// model (isError), not a protocol error: it can read it and correct itself.
// Each line is cleaned and the line breaks kept (a refusal lists one input
// a line), never spelt `\n` for the model to unpick.
func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: cleanLines(msg)}}, IsError: true}
}

// inputErrorText says what was refused ("the answer was refused"), then
// each refused input, as the tool's arguments take it.
func inputErrorText(what string, ies []*runbook.InputError) string {
	lines := []string{what + "; nothing ran:"}
	for _, ie := range ies {
		fix := ""
		switch ie.Fix {
		case runbook.FixGive:
			fix = fmt.Sprintf("; give it as the argument %q", ie.Input)
		case runbook.FixGiveAgain:
			fix = fmt.Sprintf("; give it again as %q in answers", ie.Input)
		}
		lines = append(lines, "- "+ie.Error()+fix)
	}
	return strings.Join(lines, "\n")
}

// toolArgs reads a call's arguments: a JSON object, or nothing. Its
// numbers are read as `--input` and `--inputs` read them (jsonv.Unmarshal):
// a float64 made the call's 100000000 "1e+08" in string(id), where `runbook
// exec --input id=100000000` said "100000000".
func toolArgs(raw json.RawMessage, what string) (map[string]any, error) {
	given := map[string]any{}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return given, nil
	}
	v, err := jsonv.Unmarshal(raw)
	if err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object of %s: %v", what, err)
	}
	given, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the arguments are not a JSON object of %s: they are %s", what, jsonv.Describe(v))
	}
	return given, nil
}

// strictJSON decodes a built-in tool's arguments, refusing unknown keys.
func strictJSON(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	dec.UseNumber() // an any the caller settles (jsonv.Settle)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the arguments do not read: %v", err)
	}
	return nil
}

// canElicit says whether the client declared the elicitation capability.
func canElicit(req *mcp.CallToolRequest) bool {
	caps := req.ClientCapabilities()
	return caps != nil && caps.Elicitation != nil
}

// clientName is the client's name as it introduced itself.
func clientName(req *mcp.CallToolRequest) string {
	if ci := req.ClientInfo(); ci != nil && ci.Name != "" {
		return clean(ci.Name)
	}
	return "(unnamed)"
}

// newRunID names one run: the tool, the UTC time, and random hex, so ids
// sort by time and never collide.
func newRunID(tool string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return tool + "-" + time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// runPath is where run id's record is kept; an id that is not one this
// server makes (a path, a dot) is refused.
func (s *mcpServer) runPath(id string) (string, error) {
	if id == "" || strings.Trim(id, "_-") == "" || toolName(id) != id {
		return "", fmt.Errorf("runId %q: not a run id (a tool call's runId, like disk-triage-20260101T000000Z-1a2b3c4d)", id)
	}
	return filepath.Join(s.runs, id+".json"), nil
}

// sign makes the request state an input request carries: the run id,
// the number of the question asked (questionNumber) and their HMAC under
// this server's key, so a call cannot come back claiming to answer a run
// it was not asked about, nor answer a later question of the run with an
// answer given to an earlier one (a state sent again).
func (s *mcpServer) sign(id string, q int) string {
	m := hmac.New(sha256.New, s.key())
	fmt.Fprintf(m, "%s.%d", id, q)
	return fmt.Sprintf("%s.%d.%s", id, q, hex.EncodeToString(m.Sum(nil)))
}

// verify reads a request state sign made: the run and its question number.
func (s *mcpServer) verify(state string) (string, int, bool) {
	rest, _, ok := cutLast(state, '.')
	if !ok {
		return "", 0, false
	}
	id, num, ok := cutLast(rest, '.')
	if !ok {
		return "", 0, false
	}
	q, err := strconv.Atoi(num)
	if err != nil || q < 1 || !hmac.Equal([]byte(s.sign(id, q)), []byte(state)) {
		return "", 0, false
	}
	if _, err := s.runPath(id); err != nil {
		return "", 0, false
	}
	return id, q, true
}

// cutLast is s around its last sep.
func cutLast(s string, sep byte) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// questionNumber is the number of the question a paused run waits at:
// its first is 1, and each answer the run was given moves it on by one.
// It names one question of one run for good, where the run's id names
// whichever question the run waits at now.
func questionNumber(rr *record.RunRecord) int { return len(rr.Answers) + 1 }

// otherQuestion refuses answers meant for another question than the one
// paused run id waits at now (q, 0 when the call did not name one): a
// call retried after its reply was lost, or a state sent again, would
// otherwise answer a question nobody was shown. A run's first question
// may be answered unnamed: no other question of the run has been asked.
// "" when the answers may be taken, or the run is not paused (resume's
// own refusal says so).
func otherQuestion(c *mcpChart, id string, q int, rr *record.RunRecord) string {
	if rr.Checkpoint == nil || rr.Resumed != nil || rr.Result == nil || rr.Result.Pause == nil {
		return ""
	}
	now := questionNumber(rr)
	if q == now || (q == 0 && now == 1) {
		return ""
	}
	asked := "these answers are not for it"
	if q != 0 {
		asked = fmt.Sprintf("these answers are for question %d", q)
	}
	return fmt.Sprintf("run %s waits at question %d now, %q, and %s; nothing ran. Answer question %d only once it has been read: %s",
		id, now, clean(rr.Result.Pause.Question), asked, now, resumeCall(id, now, rr.Result.Pause.Expects, givenAgain(c, rr.Result)))
}

// key is the server's signing key, made once per process.
func (s *mcpServer) key() []byte {
	s.keyOnce.Do(func() {
		s.keyBytes = make([]byte, 32)
		_, _ = rand.Read(s.keyBytes)
	})
	return s.keyBytes
}

// Progress (mcp.md "Long runs"): a call with a progress token gets
// notifications of stages done and branches done of total, at most once
// per progressTick and once more when the run ends.

// mcpProgress counts a run's events and sends them to the client.
type mcpProgress struct {
	counts
	done    chan struct{}
	stopped sync.WaitGroup
}

// counts are what progress.go's display counts, for one call.
type counts struct{ stages, branches, total atomic.Int64 }

func (p *mcpProgress) Record(e recorder.Event) {
	switch e.Kind {
	case recorder.StageEnd:
		p.stages.Add(1)
	case recorder.BranchEnd:
		p.branches.Add(1)
	case recorder.Fork:
		if e.Total > 0 {
			p.total.Add(int64(e.Total))
		} else {
			p.total.Add(int64(len(e.Branches)))
		}
	}
}

// startProgress starts sending progress for req, or returns nil when the
// call carries no progress token. One call may run a chart more than once
// (a run asks, the client answers by an elicitation, the run is resumed):
// each run's count goes on from the last progress the call sent
// (s.progressed), since a request's progress must only grow.
func (s *mcpServer) startProgress(ctx context.Context, req *mcp.CallToolRequest) *mcpProgress {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	base := int64(0)
	if v, ok := s.progressed.Load(req); ok {
		base = v.(int64)
	}
	p := &mcpProgress{done: make(chan struct{})}
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		tick := time.NewTicker(progressTick)
		defer tick.Stop()
		last := int64(0) // a run that has done nothing yet says nothing
		send := func() {
			st, br, tot := p.stages.Load(), p.branches.Load(), p.total.Load()
			if st+br == last {
				return
			}
			last = st + br
			s.progressed.Store(req, base+last)
			// Progress must only grow: stages and branches done together.
			_ = req.Session.NotifyProgress(context.WithoutCancel(ctx), &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      float64(base + last),
				Message:       fmt.Sprintf("stages done %d, branches %d/%d", st, br, tot),
			})
		}
		for {
			select {
			case <-p.done:
				send()
				return
			case <-tick.C:
				send()
			}
		}
	}()
	return p
}

// stop sends the last count and waits for the sender; nil is a no-op.
func (p *mcpProgress) stop() {
	if p == nil {
		return
	}
	close(p.done)
	p.stopped.Wait()
}
