package sdktest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/plugins/sdk/sdktest"
)

// adversary is a third party's plugin written from the docs alone, that
// answers each call the way a careless or hostile plugin in the wild does:
// the arg mode says how. It declares RunsCode, so every call files a
// script row from the Facts it returns.
type adversary struct{}

func (adversary) Describe() sdk.Description {
	return sdk.Description{Name: "adversary", Version: "0.1.0", RunsCode: true,
		Args: []sdk.Arg{
			{Name: "mode", Type: "string", Required: true},
			{Name: "token", Type: "string", Sensitive: true, Default: "", HasDefault: true},
		}}
}

func (adversary) Run(_ context.Context, req sdk.Request) (sdk.Response, error) {
	tok, _ := req.Args["token"].(string)
	switch req.Args["mode"] {
	case "key":
		// The secret it was given, as the key of an object.
		return sdk.Response{Result: map[string]any{tok: true, "deeper": map[string]any{tok: "x"}, "list": []any{map[string]any{tok: 1}}}, Facts: sdk.Exited(0)}, nil
	case "killed":
		// The process it ran was killed: it reached no exit.
		return sdk.Response{Result: map[string]any{"healthy": true}, Facts: &sdk.Facts{TerminatedBy: "SIGKILL"}}, nil
	case "absent-nowhere":
		// An absence that names no place it looked.
		return sdk.Response{Result: sdk.Absent("the lock file"), Facts: sdk.Exited(0)}, nil
	case "huge":
		// 9 MiB of text: past what a run keeps of any one value.
		return sdk.Response{Result: map[string]any{"healthy": true, "dump": strings.Repeat("y", 9<<20)}, Facts: sdk.Exited(0)}, nil
	case "exit0-killed":
		// Its process "exited 0" and "was killed by SIGKILL".
		zero := 0
		return sdk.Response{Result: map[string]any{"healthy": true}, Facts: &sdk.Facts{ExitCode: &zero, TerminatedBy: "SIGKILL"}}, nil
	case "exit0-not-ok":
		// Its process exited 0; the plugin judged the call failed.
		zero, no := 0, false
		return sdk.Response{Result: map[string]any{"healthy": true}, Facts: &sdk.Facts{ExitCode: &zero, OK: &no}}, nil
	case "exit0-service-error":
		zero := 0
		return sdk.Response{Result: map[string]any{"healthy": true}, Facts: &sdk.Facts{ExitCode: &zero, ServiceError: true}}, nil
	case "ledger-echo":
		// Its coverage declaration names the mirror it logged in to, the
		// token in it: a checked item, a not-checked one and its reason.
		return sdk.Response{Result: sdk.Ledger(map[string]any{"healthy": true},
			[]string{"mirror login as " + tok},
			[]string{"package openssl: the mirror said 401 to " + tok}), Facts: sdk.Exited(0)}, nil
	case "absence-echo":
		r := sdk.Absent("a package signed with "+tok, "the keyring of "+tok)
		r["try_instead"] = "curl -H 'X-Token: " + tok + "' the mirror"
		r["note"] = "asked with " + tok
		return sdk.Response{Result: r, Facts: sdk.Exited(0)}, nil
	case "nan":
		// A ratio of nothing over nothing, deep in its result.
		return sdk.Response{Result: map[string]any{"disks": []any{map[string]any{"name": "sda", "used": math.NaN()}}}, Facts: sdk.Exited(0)}, nil
	case "killed-echo":
		// Its Facts name who sent the signal, the token with it.
		return sdk.Response{Result: map[string]any{"healthy": true}, Facts: &sdk.Facts{TerminatedBy: "SIGTERM (sent by the mirror for " + tok + ")"}}, nil
	case "huge-error":
		// Its error quotes the 30 MB it could not parse.
		return sdk.Response{}, errors.New("cannot parse the inventory: " + strings.Repeat("E", 30<<20))
	case "huge-signal":
		return sdk.Response{Result: map[string]any{"healthy": true}, Facts: &sdk.Facts{TerminatedBy: "SIG" + strings.Repeat("S", 30<<20)}}, nil
	case "exit-mid-call":
		// It dies in the middle of the call, before it answers.
		os.Exit(3)
	case "no-facts":
		// It ran code, and says nothing of how that code ended.
		return sdk.Response{Result: map[string]any{"healthy": true}}, nil
	case "basic-auth-error":
		// The request it sent, quoted in its error: the token inside a
		// Basic auth header, base64 of user:token.
		return sdk.Response{}, errors.New("GET /api/v1/health: 401 with Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("ci:"+tok)))
	case "basic-auth-result":
		return sdk.Response{Result: map[string]any{"sent": "Basic " + base64.StdEncoding.EncodeToString([]byte("ci-bot:"+tok)), "token_b64": base64.URLEncoding.EncodeToString([]byte(tok))}, Facts: sdk.Exited(0)}, nil
	case "error-not-utf8":
		return sdk.Response{}, errors.New("the device said \xff\xfe and stopped")
	}
	return sdk.Response{Result: map[string]any{"mode": req.Args["mode"]}, Facts: sdk.Exited(0)}, nil
}

func adversaryChart(mode string) string {
	return `version: 1
runbook: adversary-test
result:
  kind: state
inputs:
  tok: {type: string, secret: true}
stages:
  - id: call
    plugin:
      name: adversary
      args: {mode: '"` + mode + `"', token: tok}
      into: out
`
}

const adversaryToken = "Adv-Secret-Key-7781"

// recordJSON is the run's result record as `runbook exec --format json` writes
// it, where a test looks for what must not be shown.
func recordJSON(t *testing.T, r *sdktest.Result) []byte {
	t.Helper()
	b, err := json.Marshal(r.Record)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func runAdversary(t *testing.T, mode string) *sdktest.Result {
	t.Helper()
	return sdktest.Run(t, adversaryChart(mode), sdktest.Plugin("adversary", adversary{}),
		sdktest.Inputs(map[string]any{"tok": adversaryToken}))
}

// A secret a plugin echoes back as an object's KEY was shown in the clear
// (the state, the verdict table, the --record file): masking walked an
// object's values and never its keys.
func TestPluginResultKeyedBySecretIsMasked(t *testing.T) {
	r := runAdversary(t, "key")
	if r.Record == nil {
		return // the plugin process
	}
	r.ExpectStatus("completed")
	b := recordJSON(t, r)
	if strings.Contains(string(b), adversaryToken) {
		t.Errorf("the secret the plugin used as a key shows in the record: %s", b)
	}
}

// A plugin that quotes the Authorization header it sent, in its error or
// its result, showed the token base64-encoded (`Basic ` + base64 of
// `ci:TOKEN`) in the run's error, the record and the state: the masker knew
// a secret's text, escaped and quoted, never encoded. Decoding the header
// gave the token back.
func TestPluginEchoingTheSecretInBase64IsMasked(t *testing.T) {
	for _, mode := range []string{"basic-auth-error", "basic-auth-result"} {
		r := runAdversary(t, mode)
		if r.Record == nil {
			return
		}
		b := recordJSON(t, r)
		text := string(b)
		for _, user := range []string{"ci:", "ci-bot:", ""} {
			enc := base64.StdEncoding.EncodeToString([]byte(user + adversaryToken))
			// The characters only the token's bytes decide.
			inner := enc[len(user)*4/3+2 : len(enc)-4]
			if strings.Contains(text, inner) {
				t.Errorf("%s: the token, base64-encoded after %q, shows: %s", mode, user, text)
			}
		}
		if !strings.Contains(text, "***") {
			t.Errorf("%s: nothing masked: %s", mode, text)
		}
	}
}

// Facts that say exit code 0 and, beside it, that the code failed (killed
// by a signal, ok false, a service error) were filed "completed": the
// label reads an exit code first and dropped the rest, so the run stood
// "Consistent with the run's record" over a process the plugin said was
// killed. Such an answer is refused as a fault of the plugin, naming both
// facts.
func TestPluginFactsThatContradictThemselvesAreRefused(t *testing.T) {
	for _, mode := range []string{"exit0-killed", "exit0-not-ok", "exit0-service-error"} {
		r := runAdversary(t, mode)
		if r.Record == nil {
			return
		}
		r.ExpectStatus("failed")
		r.ExpectError("contradict themselves (exit code 0, ")
		r.ExpectStanding("not-sure")
	}
}

// A secret a plugin echoed in its coverage declaration (a ledger's checked
// and not-checked items, an absence's looked_for, try_instead and note) was
// shown in the clear: in the record's coverage ledger and in the standing
// line built from it ("did not check package openssl: the mirror said 401
// to TOKEN"), in every output format and the --record file. The record
// masked the state and the log, never the ledger.
func TestPluginCoverageEchoingTheSecretIsMasked(t *testing.T) {
	for _, mode := range []string{"ledger-echo", "absence-echo"} {
		r := runAdversary(t, mode)
		if r.Record == nil {
			return
		}
		r.ExpectStatus("completed")
		b := recordJSON(t, r)
		if strings.Contains(string(b), adversaryToken) {
			t.Errorf("%s: the secret shows in the record: %s", mode, b)
		}
		if len(r.Record.Coverage) == 0 {
			t.Errorf("%s: no coverage entry: the declaration was not read", mode)
		}
	}
}

// A result holding NaN failed its call with encoding/json's words, "result:
// encode JSON: json: unsupported value: NaN": where in the result, and what
// JSON can carry instead, were left to the plugin's author to find. The
// call still fails (the plugin's own fault, its row reported-failure), and
// says both.
func TestPluginResultHoldingNaNSaysWhereAndWhatToSend(t *testing.T) {
	r := runAdversary(t, "nan")
	if r.Record == nil {
		return
	}
	r.ExpectStatus("failed")
	r.ExpectError("the number at result.disks[0].used is NaN or infinite, which JSON cannot carry (send null for no value, or the number as text)")
	r.ExpectStanding("not-sure")
}

// A secret a plugin's Facts held (TerminatedBy, free text on the wire) was
// shown in the clear in the script row's facts, the standing line ("killed
// by SIGTERM (sent by the mirror for TOKEN)") and every format: the record
// masked a row's argv, output tails and cause, never its facts.
func TestPluginFactsEchoingTheSecretAreMasked(t *testing.T) {
	r := runAdversary(t, "killed-echo")
	if r.Record == nil {
		return
	}
	r.ExpectStatus("completed")
	r.ExpectScript("call", "reported-failure")
	b := recordJSON(t, r)
	if strings.Contains(string(b), adversaryToken) {
		t.Errorf("the secret shows in the record: %s", b)
	}
	if !strings.Contains(string(b), "killed by SIGTERM (sent by the mirror for ***)") {
		t.Errorf("the standing line lost the signal: %s", b)
	}
}

// A plugin's error (and its facts' TerminatedBy) had no bound while its
// result had 8 MiB: an error quoting a 30 MB input went whole into the
// run's error, the stage's into.error and a 63 MB record, and runbook
// exec printed it all on stderr; 30 MB of TerminatedBy also broke the
// honesty process's label call (grpc: received message larger than max).
// Each is cut at plugins.MaxMessageBytes, saying so.
func TestPluginErrorPastTheBoundIsCut(t *testing.T) {
	for _, mode := range []string{"huge-error", "huge-signal"} {
		r := runAdversary(t, mode)
		if r.Record == nil {
			return
		}
		b := recordJSON(t, r)
		if len(b) > 1<<20 {
			t.Errorf("%s: the record is %d bytes", mode, len(b))
		}
		if !strings.Contains(string(b), "…(cut: ") {
			t.Errorf("%s: the record does not say the text was cut", mode)
		}
		if mode == "huge-error" {
			r.ExpectError("cannot parse the inventory: EEEE")
		}
	}
}

// A plugin whose process exited in the middle of a call filed an
// outcome-unknown row with no cause: the standing line said "the run
// recorded no outcome for script "call" (outcome unknown)" and runbook
// explain "outcome unknown: the record does not say why", under the
// stage's own error saying the process exited. The row's cause says it.
func TestPluginExitMidCallSaysWhyTheOutcomeIsUnknown(t *testing.T) {
	r := runAdversary(t, "exit-mid-call")
	if r.Record == nil {
		return
	}
	r.ExpectStatus("failed")
	r.ExpectScript("call", "outcome-unknown")
	const want = "the plugin process exited (exit status 3) during the call"
	if len(r.Record.Scripts) != 1 || r.Record.Scripts[0].Cause != want {
		t.Errorf("scripts = %+v; want one row whose cause is %q", r.Record.Scripts, want)
	}
	r.ExpectReason("script-unknown")
}

// A code-running plugin whose process was killed by a signal (Facts with
// TerminatedBy and no exit code) was labelled "returned" and the run
// stood "Consistent with the run's record" over the healthy-looking
// result. It failed, as an exec stage's process killed by a signal does:
// "reported failure, killed by SIGKILL".
func TestPluginProcessKilledBySignalFailed(t *testing.T) {
	r := runAdversary(t, "killed")
	if r.Record == nil {
		return
	}
	r.ExpectStatus("completed")
	r.ExpectScript("call", "reported-failure")
	r.ExpectStanding("not-sure")
}

// sdk.Absent with no place checked is an absence claimed over nothing:
// the coverage stage read it as ordinary data in silence, so a chart that
// routes on af_absent == true said "missing" and the run stood
// "Consistent". It is now a part that cannot be read: a warning and a
// not-checked item, the standing Not sure.
func TestAbsenceThatNamesNoPlaceCheckedIsNotSure(t *testing.T) {
	r := runAdversary(t, "absent-nowhere")
	if r.Record == nil {
		return
	}
	r.ExpectStatus("completed")
	r.ExpectStanding("not-sure")
}

// A plugin's own error whose text is not UTF-8 could not be encoded
// (protobuf strings are UTF-8): the call failed as a transport fault,
// outcome-unknown, naming grpc's marshaling, and every call of its batch
// with it. It is the plugin's answer, a reported failure, its bad bytes
// shown as U+FFFD.
func TestPluginErrorNotUTF8IsItsOwnAnswer(t *testing.T) {
	r := runAdversary(t, "error-not-utf8")
	if r.Record == nil {
		return
	}
	r.ExpectStatus("failed")
	r.ExpectError("the device said")
	r.ExpectScript("call", "reported-failure")
}

// badDescription describes itself with text that is not UTF-8.
type badDescription struct{ adversary }

func (badDescription) Describe() sdk.Description {
	d := adversary{}.Describe()
	d.Description = "probes the \xff device"
	return d
}

// A description holding text that is not UTF-8 could not be encoded: the
// host heard only "grpc: error while marshaling". The plugin now says which
// field it is.
func TestPluginDescriptionNotUTF8SaysWhichField(t *testing.T) {
	r := sdktest.Run(t, adversaryChart("ok"), sdktest.Plugin("adversary", badDescription{}),
		sdktest.Inputs(map[string]any{"tok": adversaryToken}))
	if r.Record == nil {
		return
	}
	r.ExpectStatus("failed")
	r.ExpectError(`its description: Description "probes the \xff device" is not UTF-8`)
}

// A result of any size was taken into the scope and the record (a 30 MB
// answer made a 63 MB --record file; go-plugin lets a message be 2 GiB),
// while an exec stage's output past its cap is withheld and an
// expression's value past 8 MiB fails its stage. A plugin's result past
// plugins.MaxResultBytes now fails its call, saying so.
func TestPluginResultPastTheCapFailsTheCall(t *testing.T) {
	r := runAdversary(t, "huge")
	if r.Record == nil {
		return
	}
	r.ExpectStatus("failed")
	r.ExpectError("more than the 8 MiB a plugin's result may be")
	r.ExpectScript("call", "outcome-unknown")
	if b, _ := json.Marshal(r.Record); len(b) > 1<<20 {
		t.Errorf("the record is %d bytes: the result was kept", len(b))
	}
}

// A code-running plugin that answered with no Facts filed a "returned"
// row, which no reason doubted: with an answer check over its result the
// run stood "Known" over code whose end is on no record (the SDK's doc
// said such an answer "files none"). No Facts is now no answer to stand
// on: script-unknown, Not sure.
func TestPluginThatRunsCodeWithoutFactsIsNotKnown(t *testing.T) {
	chart := strings.Replace(adversaryChart("no-facts"), "  kind: state\n", "  kind: state\n  checks: ['out.healthy == true']\n", 1)
	r := sdktest.Run(t, chart, sdktest.Plugin("adversary", adversary{}),
		sdktest.Inputs(map[string]any{"tok": adversaryToken}))
	if r.Record == nil {
		return
	}
	r.ExpectStatus("completed")
	r.ExpectScript("call", "returned")
	r.ExpectStanding("not-sure")
	r.ExpectReason("script-unknown")
}

// otherName is another plugin installed under adversary's file name: it
// declares a name of its own.
type otherName struct{ adversary }

func (otherName) Describe() sdk.Description {
	d := adversary{}.Describe()
	d.Name = "disk-wiper"
	return d
}

// A plugin that declares another name than the one the chart calls it by
// (another plugin copied to runbook-plugin-NAME, a chart's plugins: map
// pointing at the wrong file) ran, and answered, as the plugin the chart
// asked for: the describe now refuses it, naming both names.
func TestPluginDeclaringAnotherNameIsRefused(t *testing.T) {
	r := sdktest.Run(t, adversaryChart("ok"), sdktest.Plugin("adversary", otherName{}),
		sdktest.Inputs(map[string]any{"tok": adversaryToken}))
	if r.Record == nil {
		return
	}
	r.ExpectStatus("failed")
	r.ExpectError(`plugin "adversary": describe: declares its name "disk-wiper", but the chart calls it "adversary"`)
}
