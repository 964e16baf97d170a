package runbook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/label"
)

// PluginHost is an optional interface of Stubs: a run whose stubs implement
// it starts no stage plugin of its own. A plugin stage its stubs do not
// answer (Plugin's nil, nil) has its plugin described and called through
// the PluginHost, which runs it elsewhere (RunPlugin, on a worker), and the
// run files each answer as it files its own plugin's, so the record is the
// same. A Temporal workflow, which may start no process, is one.
//
// The run describes each plugin once (Describe set), as a local run starts
// it once, and keeps a start that failed as the answer for every later
// stage that calls it.
type PluginHost interface {
	CallPlugin(ctx context.Context, call PluginRunCall) (*PluginAnswer, error)
}

// PluginRunCall is one plugin stage's call, in a form that can travel
// (JSON) to the machine that runs it: which plugin, found where, and the
// request as the stage resolved it (arguments evaluated, declared defaults
// filled, the scope values the plugin reads).
type PluginRunCall struct {
	Path   string // runtime path
	Stage  string // the stage's id
	Plugin string // the plugin's name
	// Sources are the chart's plugins: map, commands absolute; Dir is the
	// plugin directory looked in next ("": RunPlugin reads
	// RUNBOOK_PLUGIN_DIR where it runs).
	Sources map[string]host.Source `json:",omitempty"`
	Dir     string                 `json:",omitempty"`
	// Timeout is the stage's, bounding the start and the call together as
	// in a local run (0: none).
	Timeout time.Duration `json:",omitempty"`
	// Describe asks only for the plugin's description: it is started,
	// describes itself and is stopped; Request is not sent.
	Describe bool             `json:",omitempty"`
	Request  *plugins.Request `json:",omitempty"`
	// Secrets mask the plugin's stderr wherever an error quotes it; what
	// carries the call must keep them as safe as the secrets themselves.
	Secrets []string `json:",omitempty"`
}

// PluginAnswer is what a plugin did for one call, where it ran: its
// description and provenance, its result (JSON text, so whole numbers stay
// whole on the way) and facts, or how the call failed, in the words and
// with the cause a local run would file.
type PluginAnswer struct {
	Description *plugins.Description `json:",omitempty"`
	Provenance  *host.Provenance     `json:",omitempty"`
	Result      json.RawMessage      `json:",omitempty"`
	Facts       *label.Facts         `json:",omitempty"`
	// RunErr is the message of a call the plugin's Run failed
	// (host.RunError); Err is a plugin that could not start, crashed, hung
	// or answered garbage, Cause the record's cause for it ("" none) and
	// TimedOut that the stage's time ran out.
	RunErr   string `json:",omitempty"`
	Err      string `json:",omitempty"`
	Cause    string `json:",omitempty"`
	TimedOut bool   `json:",omitempty"`
}

// RunPlugin starts the plugin call names, here, as a local run finds and
// starts it (the chart's plugins: map, then the plugin directory), and
// describes it or calls it once: the half of a plugin stage that a worker
// on another machine runs for a run that files its answer (PluginHost).
// The plugin is stopped before RunPlugin returns.
func RunPlugin(ctx context.Context, call PluginRunCall) *PluginAnswer {
	if call.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, call.Timeout)
		defer cancel()
	}
	dir := call.Dir
	if dir == "" {
		dir = os.Getenv("RUNBOOK_PLUGIN_DIR")
	}
	secrets := secret.New()
	for _, v := range call.Secrets {
		secrets.Add(v)
	}
	m := host.NewManager(call.Sources, dir, host.WithMask(secrets.Text))
	defer m.Close()
	st, err := m.Stage(ctx, call.Plugin)
	if err != nil {
		return failed(ctx, outOfTime(ctx, err), call.Timeout)
	}
	d := st.Description()
	ans := &PluginAnswer{Description: &d}
	for _, p := range m.Started() {
		if p.Name == call.Plugin {
			ans.Provenance = &p
		}
	}
	if call.Describe || call.Request == nil {
		return ans
	}
	resp, err := st.Run(ctx, *call.Request)
	err = outOfTime(ctx, err)
	var re *host.RunError
	switch {
	case errors.As(err, &re) && !errors.Is(err, context.DeadlineExceeded):
		ans.RunErr = re.Message
		return ans
	case err != nil:
		return failed(ctx, err, call.Timeout)
	}
	b, err := json.Marshal(resp.Result)
	if err != nil {
		return failed(ctx, fmt.Errorf("plugin %q: its result: %w", call.Plugin, err), call.Timeout)
	}
	ans.Result, ans.Facts = b, resp.Facts
	return ans
}

// failed is a call that failed before or instead of an answer.
func failed(ctx context.Context, err error, timeout time.Duration) *PluginAnswer {
	return &PluginAnswer{Err: err.Error(), Cause: pluginCause(ctx, nil, err, timeout), TimedOut: errors.Is(err, context.DeadlineExceeded)}
}

// remotePluginError is a plugin failure that crossed from another
// machine: its words, the cause the record files, and, when the stage ran
// out of time, context.DeadlineExceeded to errors.Is (retry.on timeout).
type remotePluginError struct {
	msg, cause string
	timedOut   bool
}

func (e *remotePluginError) Error() string { return e.msg }
func (e *remotePluginError) Unwrap() error {
	if e.timedOut {
		return context.DeadlineExceeded
	}
	return nil
}

// answerErr is a failed answer as the error the stage fails with.
func (a *PluginAnswer) answerErr(plugin string) error {
	switch {
	case a.Err != "":
		return &remotePluginError{msg: a.Err, cause: a.Cause, timedOut: a.TimedOut}
	case a.RunErr != "":
		return &host.RunError{Plugin: plugin, Message: a.RunErr}
	}
	return nil
}

// remoteStage is a stage plugin run elsewhere, as pluginStage calls it:
// call is the stage's, the plugin's description the one it gave.
type remoteStage struct {
	ph      PluginHost
	call    PluginRunCall
	desc    plugins.Description
	secrets secret.Set
}

func (r *remoteStage) Description() plugins.Description { return r.desc }

func (r *remoteStage) Run(ctx context.Context, req plugins.Request) (plugins.Response, error) {
	call := r.call
	call.Describe, call.Request, call.Secrets = false, &req, r.secrets.Forms()
	ans, err := r.ph.CallPlugin(ctx, call)
	if err != nil {
		return plugins.Response{}, err
	}
	if err := ans.answerErr(call.Plugin); err != nil {
		return plugins.Response{}, err
	}
	res, err := decodeResult(ans.Result)
	if err != nil {
		return plugins.Response{}, fmt.Errorf("plugin %q: its result, as it came back: %w", call.Plugin, err)
	}
	return plugins.Response{Result: res, Facts: ans.Facts}, nil
}

// remote is the plugin call names, described through ph once per run: a
// description, or the failure every stage that calls it fails with, as a
// local run's manager starts each plugin once. No lock is held across the
// call (a workflow's coroutines would stall on it); two stages asking at
// once both ask, and the first answer stays.
func (sp *stagePlugins) remote(ctx context.Context, ph PluginHost, call PluginRunCall, secrets secret.Set) (pluginConn, error) {
	call.Sources, call.Dir = sp.chart, sp.dir
	sp.mu.Lock()
	ans, ok := sp.described[call.Plugin]
	sp.mu.Unlock()
	if !ok {
		d := call
		d.Describe, d.Secrets = true, secrets.Forms()
		a, err := ph.CallPlugin(ctx, d)
		if err != nil {
			return nil, err
		}
		sp.mu.Lock()
		if sp.described == nil {
			sp.described = map[string]*PluginAnswer{}
		}
		if ans, ok = sp.described[call.Plugin]; !ok {
			ans = a
			sp.described[call.Plugin] = a
		}
		sp.mu.Unlock()
	}
	if err := ans.answerErr(call.Plugin); err != nil {
		return nil, err
	}
	if ans.Description == nil {
		return nil, fmt.Errorf("plugin %q: it came back with no description", call.Plugin)
	}
	return &remoteStage{ph: ph, call: call, desc: *ans.Description, secrets: secrets}, nil
}

// decodeResult reads a result's JSON text as the host read the plugin's
// own (jsonv.DecodePlain).
func decodeResult(b []byte) (any, error) { return jsonv.DecodePlain(b) }
