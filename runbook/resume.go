package runbook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/record"
)

// Resume continues a run that paused at an `ask:` stage, from its saved
// record, in this process (which need not be the one that paused it).
//
// It owns the rules of an answer:
//
//	expects          every name the question expects must be answered, with
//	                 a value of its type (strings, as --input gives them, are
//	                 converted as inputs are); nothing else may be given,
//	                 except a secret input's value (below)
//	secrets          a record keeps no secret: a secret input the person
//	                 gave must be given again by name; one filled by its
//	                 default is filled again
//	once             a record that is not paused, or already resumed
//	                 (RunRecord.Resumed), is refused (*ResumeError); two
//	                 processes resuming one file at once: see LockRecord
//	reject           ResumeReject(reason) answers nothing: the run ends
//	                 failed at the asking stage with the reason, recorded
//	the chart        must be the chart that paused (ChartHash), by name and hash,
//	                 the chart files it mounts included
//	a continue       a run its host stopped (WithYield) takes no answer and
//	                 no rejection; it leaves no answer, no commit and no
//	                 pause: the record of the run that never stopped
//
// The answer is written by the asking stage as one more commit of it
// (flow.Chart.Resume), carrying who answered and when (flow.Answer), and
// the run goes on with its counters continued. The returned Result is the
// whole run: the saved log with the new commits after it (one continuous
// log for explain), the decisions, scripts and coverage of both parts, the
// answers in RunRecord().Answers.
//
// Example:
//
//	rec, _, err := record.ReadRecord("approval.paused.json")
//	res, err := rb.Resume(ctx, rec, map[string]any{"approve": "true"}, runbook.AnsweredBy("ann"))
//	err = res.WriteRecord("approval.paused.json")
func (rb *Runbook) Resume(ctx context.Context, rec *record.RunRecord, answers map[string]any, opts ...ResumeOption) (*Result, error) {
	ro := resumeOptions{now: time.Now}
	for _, opt := range opts {
		opt(&ro)
	}
	var o execOptions
	for _, opt := range ro.exec {
		opt(&o)
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := rb.CanResume(rec); err != nil {
		return nil, err
	}
	cp := *rec.Checkpoint
	cp.State = slices.Clone(cp.State)
	cont := cp.Kind == flow.CheckpointContinue
	if cont && ro.reject != "" {
		return nil, &ResumeError{Msg: "the run was stopped by its host to go on elsewhere, not by a question: there is nothing to reject"}
	}
	given, in, err := rb.resumeInputs(rec, &cp, answers, ro.reject != "")
	if err != nil {
		return nil, err
	}
	by, at := ro.by, ""
	if !cont { // a continue is answered by no one, at no time
		if by == "" {
			by = osUser()
		}
		at = ro.now().UTC().Format(time.RFC3339)
	}

	old := rec.Result
	if old == nil {
		old = &record.Record{}
	}
	// What the first part of the run filed, as if this run had filed it.
	h := &record.Harvest{}
	for _, d := range old.Decisions {
		h.Decisions = append(h.Decisions, record.Harvested{Path: d.Path, Decider: d.Decider, Name: d.Name,
			Evidence: &decide.Evidence{Kind: d.Kind, Chosen: d.Chosen, Default: d.Default, Rules: d.Rules}})
	}
	r := rb.prepare(&o, in, h)
	defer r.end.ensure()
	r.rs.scripts = append(r.rs.scripts, old.Scripts...)
	r.rs.priorAssumed = assumedFrom(old.Plugins)
	for _, e := range old.Coverage {
		if e.Path != VerdictsKey { // the declined count is made again
			r.rs.ledger = append(r.rs.ledger, e)
		}
	}

	var fres *flow.Result
	if ro.reject != "" {
		fres = rejected(&cp, ro.reject, by)
	} else {
		fres, err = rb.chart.Resume(ctx, &cp, given, r.options()...)
		if fres == nil {
			return nil, &ResumeError{Msg: err.Error()}
		}
	}
	// One continuous log: the saved commits, then the new ones; the first
	// new commit is the answer.
	newCommits := fres.Log.Commits()
	fres.Log = flow.NewLog(in.values, append(slices.Clone(rec.Log.Commits()), newCommits...))
	ans := record.AnswerRecord{Stage: RecordPath(cp.Pause.Path), Asked: cp.Pause.Path, Question: cp.Pause.Question, By: by, At: at, Rejected: ro.reject}
	if len(given) > 0 {
		ans.Answers = given
	}
	if !cont && len(newCommits) > 0 && newCommits[0].Stage == cp.Pause.Stage {
		ans.Answered = newCommits[0].Path
		fres.Log.Commits()[len(rec.Log.Commits())].Answer = &flow.Answer{Asked: cp.Pause.Path, Question: cp.Pause.Question, By: by, At: at, Rejected: ro.reject}
	}
	fres.Stages += old.Stats.Stages
	fres.Elapsed += time.Duration(old.Stats.DurationMs * float64(time.Millisecond))

	res := r.finish(fres)
	out := res.Record
	out.Warnings = append(slices.Clone(old.Warnings), out.Warnings...)
	// Both parts of the run name their plugins: the same build once, a
	// plugin rebuilt between the parts twice (each part ran its own).
	out.Plugins = mergePlugins(old.Plugins, out.Plugins)
	if r.narr != nil || len(old.Narrative) > 0 {
		out.Narrative = append(slices.Clone(old.Narrative), out.Narrative...)
	}
	if out.Pause != nil && out.Pause.Resume == "" {
		out.Pause.Resume = o.resume
	}
	res.answers = slices.Clone(rec.Answers)
	if !cont { // a continue was asked nothing and answered by no one
		res.answers = append(res.answers, ans)
	}
	return res, nil
}

// ResumeOption configures Resume.
type ResumeOption func(*resumeOptions)

type resumeOptions struct {
	exec   []ExecOption
	by     string
	reject string
	now    func() time.Time
}

// AnsweredBy names who answered (default: the OS user running Resume).
func AnsweredBy(name string) ResumeOption { return func(o *resumeOptions) { o.by = name } }

// ResumeReject rejects the question instead of answering it: the run ends
// failed at the asking stage, with the reason in its error and its record.
func ResumeReject(reason string) ResumeOption { return func(o *resumeOptions) { o.reject = reason } }

// ResumeExec passes exec options (recorders, narrative, timeout, the
// resume command of a run that asks again) to the continued run.
func ResumeExec(opts ...ExecOption) ResumeOption {
	return func(o *resumeOptions) { o.exec = append(o.exec, opts...) }
}

// ResumeClock sets the clock the answer's time is read from (tests).
func ResumeClock(now func() time.Time) ResumeOption { return func(o *resumeOptions) { o.now = now } }

// ResumeError is a resume refused before anything ran: the record is not
// paused, was resumed already, is of another chart, or is being resumed
// by another process (errors.Is ErrBeingResumed).
type ResumeError struct {
	Msg string
	err error
}

func (e *ResumeError) Error() string { return "resume: " + e.Msg }

// Unwrap is the refusal's kind, when it has one (ErrBeingResumed).
func (e *ResumeError) Unwrap() error { return e.err }

// ErrBeingResumed is LockRecord's refusal when another process holds the
// record's lock: a caller that is not at the record's host (an MCP
// client) is told in its own terms, not to remove the lock file.
var ErrBeingResumed = errors.New("the record is being resumed by another process")

// CanResume says whether rec can be resumed with this runbook, and if not,
// why (a *ResumeError).
func (rb *Runbook) CanResume(rec *record.RunRecord) error {
	switch {
	case rec == nil:
		return &ResumeError{Msg: "no record"}
	case rec.RecordVersion != record.RecordVersion:
		return &ResumeError{Msg: fmt.Sprintf("the record is version %d; this runbook resumes version %d", rec.RecordVersion, record.RecordVersion)}
	case rec.Resumed != nil:
		msg := fmt.Sprintf("the record was already resumed by %s at %s", rec.Resumed.By, rec.Resumed.At)
		if rec.Resumed.Into != "" {
			msg += "; the continued run is in " + rec.Resumed.Into
		}
		return &ResumeError{Msg: msg}
	case rec.Checkpoint == nil:
		status := "not paused"
		if rec.Result != nil && rec.Result.Status != "" {
			status = rec.Result.Status
		}
		msg := fmt.Sprintf("the run is %s: only a run paused at an ask: stage can be resumed", status)
		if ended := rec.Result.Ended(); ended != "" {
			// "the run is cancelled" was said of a run its --timeout ended
			msg = fmt.Sprintf("the run %s before it finished: only a run paused at an ask: stage can be resumed; run the chart again", ended)
		}
		if len(rec.Answers) > 0 {
			a := rec.Answers[len(rec.Answers)-1]
			msg += fmt.Sprintf(" (its question was answered by %s at %s)", a.By, a.At)
		}
		return &ResumeError{Msg: msg}
	case rec.Result != nil && rec.Result.Runbook != "" && rec.Result.Runbook != rb.Name():
		return &ResumeError{Msg: fmt.Sprintf("the record is of runbook %q, not %q", rec.Result.Runbook, rb.Name())}
	}
	if rec.ChartSHA256 != "" {
		if h := rb.ChartHash(); h != rec.ChartSHA256 {
			msg := fmt.Sprintf("the chart has changed since the run paused (sha256 %s then, %s now): resume it with the chart it paused with", short(rec.ChartSHA256), short(h))
			if mounted := rb.mountedCharts(); len(mounted) > 0 {
				// The hash is of every file: the one that changed may be a
				// mounted chart, with the chart named on the command line
				// as it was.
				msg = fmt.Sprintf("the chart has changed since the run paused (sha256 %s then, %s now): it or a chart it mounts (%s) is not as it was; resume it with the files it paused with", short(rec.ChartSHA256), short(h), strings.Join(mounted, ", "))
			}
			return &ResumeError{Msg: msg}
		}
	}
	if err := record.CheckCheckpoint(rec); err != nil {
		return &ResumeError{Msg: err.Error()}
	}
	return nil
}

// ChartHash identifies the chart a record was made with: "sha256:" and the
// hash of the chart's bytes as the loader read them, else "structure:" and
// the hash of its static structure as JSON. A chart that mounts chart
// files (`subflow: {chart: …}`, at any depth) is those files too: its hash
// is then the hash of every file's hash, the chart's first and the mounted
// ones in the order written — so that a subflow file changed between a
// pause and its answer is a changed chart, never its new commands run
// under an answer given to the old. A chart that mounts none keeps the
// hash of its own bytes.
func (rb *Runbook) ChartHash() string {
	if rb.spec.SHA256 != "" {
		var mounted []string
		rb.WalkStages(func(v StageVisit) {
			if sf := v.Stage.Subflow; sf != nil && sf.Spec != nil {
				mounted = append(mounted, sf.Spec.SHA256)
			}
		})
		if len(mounted) == 0 {
			return "sha256:" + rb.spec.SHA256
		}
		h := sha256.New()
		for _, m := range append([]string{rb.spec.SHA256}, mounted...) {
			h.Write([]byte(m + "\n"))
		}
		return "sha256:" + hex.EncodeToString(h.Sum(nil))
	}
	b, _ := json.Marshal(rb.structure)
	sum := sha256.Sum256(b)
	return "structure:" + hex.EncodeToString(sum[:])
}

// ChangedFiles are the files of the chart (its own, then each chart it
// mounts, as ChartHash reads them) whose bytes are no longer those it was
// loaded from, or that can no longer be read: a process that loaded the
// chart once and runs it for a long time (runbook mcp) would answer by
// rules its file no longer holds, where `runbook exec` reads the file as
// it is. Nil for a chart not read from files.
func (rb *Runbook) ChangedFiles() []string {
	var changed []string
	check := func(s *chart.Spec) {
		if s == nil || s.File == "" || s.SHA256 == "" {
			return
		}
		data, err := os.ReadFile(s.File)
		if sum := sha256.Sum256(data); err != nil || hex.EncodeToString(sum[:]) != s.SHA256 {
			changed = append(changed, s.File)
		}
	}
	check(rb.spec)
	rb.WalkStages(func(v StageVisit) {
		if sf := v.Stage.Subflow; sf != nil {
			check(sf.Spec)
		}
	})
	return changed
}

// mountedCharts are the chart files the chart mounts, at any depth, as
// each subflow names its file, in the order ChartHash reads them.
func (rb *Runbook) mountedCharts() []string {
	var files []string
	rb.WalkStages(func(v StageVisit) {
		if sf := v.Stage.Subflow; sf != nil && sf.Spec != nil {
			files = append(files, sf.Chart)
		}
	})
	return files
}

func short(h string) string {
	if _, rest, ok := strings.Cut(h, ":"); ok && len(rest) > 12 {
		return rest[:12]
	}
	return h
}

// resumeInputs checks the answers against the question's expects, puts
// secrets back into the checkpoint's state, and rebuilds the run's inputs.
func (rb *Runbook) resumeInputs(rec *record.RunRecord, cp *flow.Checkpoint, given map[string]any, rejecting bool) (map[string]any, *resolvedInputs, error) {
	var errs InputErrors
	answers := map[string]any{}
	declared := map[string]chart.InputSpec{}
	for _, in := range rb.spec.Inputs {
		declared[in.Name] = in
	}
	secretsGiven := map[string]any{}
	for _, k := range sortedNames(given) {
		typ, expected := cp.Pause.Expects[k]
		switch {
		case expected && !rejecting:
			v, err := convertInput(typ, given[k])
			if err != nil {
				errs = append(errs, &InputError{Input: k, Msg: "the answer " + err.Error()})
				continue
			}
			answers[k] = v
		case declared[k].Secret:
			if _, wasGiven := rec.Result.InputsGiven()[k]; !wasGiven {
				// Put in place of the default the run read before the
				// pause, it would make two values of one input in one
				// run, and the record would still call it assumed.
				how := "it was not set"
				if _, wasAssumed := rec.Result.InputsAssumed()[k]; wasAssumed {
					how = "it read its default"
				}
				errs = append(errs, &InputError{Input: k, Msg: "is secret, and the paused run was not given it (" + how + "): a resume gives again only the secret inputs the run was given, so that the run reads one value of each input; leave it out, or run the chart again with it"})
				continue
			}
			v, err := convertInput(declared[k].Type, given[k])
			if err != nil {
				errs = append(errs, &InputError{Input: k, Msg: "is not a " + declared[k].Type + " (value hidden: the input is secret)"})
				continue
			}
			secretsGiven[k] = v
		case expected:
			errs = append(errs, &InputError{Input: k, Msg: "is an answer, and the question is being rejected: give answers or a rejection, not both"})
		default:
			msg := "is not an answer the question expects"
			if near := suggest.Nearest(k, sortedNames(cp.Pause.Expects)); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			errs = append(errs, &InputError{Input: k, Msg: msg + expectsWords(cp.Pause.Expects)})
		}
	}
	if !rejecting {
		for _, k := range sortedNames(cp.Pause.Expects) {
			if _, ok := answers[k]; !ok && !hasErr(errs, k) {
				errs = append(errs, &InputError{Input: k, Msg: fmt.Sprintf("the question %q expects it (%s)", cp.Pause.Question, cp.Pause.Expects[k]), Fix: FixGive})
			}
		}
	}

	// The run's inputs, with the secrets put back.
	in := &resolvedInputs{values: map[string]any{}, secrets: secret.New(), varInputs: rb.varsFrom()}
	for k, v := range rec.Log.Inputs {
		in.values[k] = v
	}
	if rec.Result != nil {
		in.given = sortedNames(rec.Result.Inputs.Given)
		in.assumed = sortedNames(rec.Result.Inputs.Assumed)
	}
	for _, spec := range rb.spec.Inputs {
		if !spec.Secret {
			continue
		}
		_, wasGiven := rec.Result.InputsGiven()[spec.Name]
		_, wasAssumed := rec.Result.InputsAssumed()[spec.Name]
		var v any
		switch {
		case secretsGiven[spec.Name] != nil:
			v = secretsGiven[spec.Name]
		case wasAssumed && spec.HasDefault:
			d, err := convertInput(spec.Type, spec.Default)
			if err != nil {
				continue
			}
			v = d
		case wasGiven && !rejecting:
			errs = append(errs, &InputError{Input: spec.Name, Msg: "is secret: the record does not keep it", Fix: FixGiveAgain})
			continue
		default:
			continue
		}
		in.values[spec.Name] = v
		in.secrets.Add(v)
		for i := range cp.State {
			if cp.State[i].Key == spec.Name && cp.State[i].Writer == "" {
				cp.State[i].Value = v
			}
		}
	}
	if len(errs) > 0 {
		return nil, nil, errs.maskedBy(in.secrets) // an answer refused may quote a secret given with it
	}
	if rejecting {
		// A rejection runs nothing: no secret is needed, and no value is
		// derived again; the record keeps the masks it had (so the CLI's
		// --reject, which takes no --input, can reject a run with secrets).
		return answers, in, nil
	}
	if err := rb.revaluateVars(cp, in); err != nil {
		return nil, nil, err
	}
	if err := rb.rederiveState(rec, cp, in); err != nil {
		return nil, nil, err
	}
	return answers, in, nil
}

// revaluateVars puts back each var the record keeps masked (one computed
// from a secret input is a derived secret), evaluated again over the
// inputs with the secrets given at resume, as the run first evaluated it;
// a var that shows no mask keeps its saved value.
func (rb *Runbook) revaluateVars(cp *flow.Checkpoint, in *resolvedInputs) error {
	if len(rb.spec.Vars) == 0 || in.secrets.Empty() {
		return nil
	}
	saved := make(map[string]any, len(rb.spec.Vars))
	for _, a := range rb.spec.Vars {
		saved[a.Key] = in.values[a.Key]
	}
	if _, err := rb.evalVars(in.values, in.secrets, nil, nil); err != nil {
		return errors.New(in.secrets.Text(err.Error())) // as resolveInputs says it
	}
	for _, a := range rb.spec.Vars {
		if !holdsMask(saved[a.Key]) {
			in.values[a.Key] = saved[a.Key]
			continue
		}
		for i := range cp.State {
			if cp.State[i].Key == a.Key && cp.State[i].Writer == "" {
				cp.State[i].Value = in.values[a.Key]
			}
		}
	}
	return nil
}

// rederiveState puts back, into the checkpoint's state, each value that
// held a secret and is masked in the record (RunRecord.CheckpointSecrets):
// derived again from the secrets given at resume, never read back — the
// mask is not data. A value a set: stage wrote is evaluated again, its
// expression over the values its commit read (each masked one derived
// again the same way, down to the secret inputs); a value any other stage
// wrote (a command's output, a plugin's result) cannot be made again, and
// the resume is refused, naming it.
func (rb *Runbook) rederiveState(rec *record.RunRecord, cp *flow.Checkpoint, in *resolvedInputs) error {
	if len(rec.CheckpointSecrets) == 0 {
		return nil
	}
	d := deriver{rb: rb, log: rec.Log.Commits(), inputs: in.values, at: map[string]int{}}
	for i, c := range d.log {
		d.at[c.Path] = i
	}
	for i := range cp.State {
		e := &cp.State[i]
		if e.Writer == "" || !slices.Contains(rec.CheckpointSecrets, e.Key) {
			continue // a secret input: put back from what was given
		}
		v, err := d.value(e.Writer, e.Key, 0)
		if err != nil {
			return &ResumeError{Msg: fmt.Sprintf("the value of %q (written by %s) held a secret, which the record keeps masked, and %s: run the chart again, or keep the secret out of what that stage writes", e.Key, RecordPath(e.Writer), err)}
		}
		e.Value = v
		in.secrets.Derived(v)
	}
	return nil
}

// deriver evaluates again what set: stages wrote, over the saved log.
type deriver struct {
	rb     *Runbook
	log    []flow.Commit
	at     map[string]int
	inputs map[string]any // the run's inputs, the secrets given again
}

// value is key as the commit at path wrote it.
func (d deriver) value(path, key string, depth int) (any, error) {
	i, ok := d.at[path]
	if !ok || depth > len(d.log) {
		return nil, fmt.Errorf("the commit that wrote it is not in the record's log")
	}
	c := d.log[i]
	st := d.rb.stageSpec(c.Stage)
	if st == nil || st.Kind != "set" {
		return nil, fmt.Errorf("stage %q is not a set: stage, so its value cannot be derived again", c.Stage)
	}
	env := stateEnv{}
	for _, r := range c.Reads {
		if r.Missing {
			continue
		}
		v := r.Value
		if holdsMask(v) {
			var err error
			if r.Writer == "" {
				v, ok = d.inputs[r.Key]
				if !ok {
					return nil, fmt.Errorf("the input %q it read is not given", r.Key)
				}
			} else if v, err = d.value(r.Writer, r.Key, depth+1); err != nil {
				return nil, err
			}
		}
		env[r.Key] = v
	}
	for _, a := range st.Set {
		v, _, err := a.Expr.Value(env)
		if err != nil {
			return nil, setError(a, err)
		}
		env[a.Key] = v // a later assignment reads it (read-your-writes)
		if a.Key == key {
			return v, nil
		}
	}
	return nil, fmt.Errorf("stage %q does not set %q", c.Stage, key)
}

// holdsMask reports whether a saved value shows the mask anywhere.
func holdsMask(v any) bool {
	b, _ := json.Marshal(v)
	return strings.Contains(string(b), record.Masked)
}

// stageSpec is the chart's stage of that id, at any depth (nil: none).
func (rb *Runbook) stageSpec(id string) *chart.StageSpec {
	var find func([]chart.StageSpec) *chart.StageSpec
	find = func(list []chart.StageSpec) *chart.StageSpec {
		for i := range list {
			st := &list[i]
			if st.ID == id {
				return st
			}
			for _, brs := range [][]chart.BranchSpec{st.Branches, st.Parallel} {
				for _, br := range brs {
					if f := find(br.Stages); f != nil {
						return f
					}
				}
			}
			if st.ForEach != nil {
				if f := find(st.ForEach.Stages); f != nil {
					return f
				}
			}
		}
		return nil
	}
	return find(rb.spec.Stages)
}

func hasErr(errs InputErrors, name string) bool {
	return slices.ContainsFunc(errs, func(e *InputError) bool { return e.Input == name })
}

func expectsWords(ex map[string]string) string {
	if len(ex) == 0 {
		return ""
	}
	var parts []string
	for _, k := range sortedNames(ex) {
		parts = append(parts, k+" ("+ex[k]+")")
	}
	return " (it expects " + strings.Join(parts, ", ") + ")"
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// rejected is the engine's result of a question rejected: one more commit
// of the asking stage, failed with the reason; the state as it was.
func rejected(cp *flow.Checkpoint, reason, by string) *flow.Result {
	path := fmt.Sprintf("%s#%d", RecordPath(cp.Pause.Path), cp.Counter)
	msg := fmt.Sprintf("rejected by %s: %s", by, reason)
	state := map[string]any{}
	for _, e := range cp.State {
		if !e.Deleted {
			state[e.Key] = e.Value
		}
	}
	res := &flow.Result{
		Chart:  cp.Chart,
		Status: flow.StatusFailed,
		Err:    &flow.RunError{Path: path, Stage: cp.Pause.Stage, Message: msg},
		Log:    flow.NewLog(nil, []flow.Commit{{Index: cp.Commits, Path: path, Stage: cp.Pause.Stage, Err: msg}}),
		Stages: 1,
	}
	res.SetState(state)
	return res
}

func osUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "unknown"
}

// LockRecord takes the resume lock of the record file at path: a file
// beside it (path + ".lock") created with O_EXCL, so that of two resumes
// of one record at once exactly one wins. unlock removes it. The lock
// names its holder (process id, host, time) for the message of the loser.
func LockRecord(path string) (unlock func(), err error) {
	lock := path + ".lock"
	// The holder's words are written first, to a file of our own, and only
	// then linked in as the lock: a loser that finds the lock always finds
	// it whole (created empty and written after, a loser could read it
	// between the two and name no holder).
	tmp, err := os.CreateTemp(filepath.Dir(lock), filepath.Base(lock)+".*")
	if err != nil {
		return nil, fmt.Errorf("resume: lock %s: %w", lock, err)
	}
	defer os.Remove(tmp.Name())
	host, _ := os.Hostname()
	fmt.Fprintf(tmp, "pid %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("resume: lock %s: %w", lock, err)
	}
	if err := os.Link(tmp.Name(), lock); err != nil {
		if errors.Is(err, os.ErrExist) {
			holder, _ := ResumeHolder(path)
			return nil, &ResumeError{Msg: fmt.Sprintf("%s is being resumed by another process (%s); if none is running, a resume was stopped before it wrote its record, and the stages after the question may have run: see what they did before you remove %s and answer again",
				path, holder, lock), err: ErrBeingResumed}
		}
		return nil, fmt.Errorf("resume: lock %s: %w", lock, err)
	}
	return func() { os.Remove(lock) }, nil
}

// ResumeHolder says who holds the resume lock of the record at path
// (LockRecord): "pid 6052 on web1 since 2026-12-07T11:54:44Z", and true,
// while a resume runs — or after one stopped (SIGKILL, a machine that went
// down) before it wrote its record, the stages after the question run or
// not. false when no lock is there.
func ResumeHolder(path string) (string, bool) {
	b, err := os.ReadFile(path + ".lock")
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}

// MarkResumed rewrites the paused record at path (atomically) with
// Resumed set, so it is never resumed again. Call it under LockRecord when
// the continued record was written elsewhere.
func MarkResumed(path string, rec *record.RunRecord, by, at, into string) error {
	marked := *rec
	marked.Resumed = &record.ResumedRecord{By: by, At: at, Into: into}
	return record.WriteFile(path, &marked)
}

// mergePlugins is the provenance of a resumed run: the saved part's and
// the new part's, one entry per build (name, version, path and digest), its
// stages the union of both parts', sorted by name.
func mergePlugins(old, now []record.PluginRun) []record.PluginRun {
	out := slices.Clone(old)
	for _, p := range now {
		k := slices.IndexFunc(out, func(o record.PluginRun) bool {
			return o.Name == p.Name && o.Version == p.Version && o.Protocol == p.Protocol && o.Path == p.Path && o.SHA256 == p.SHA256
		})
		if k < 0 {
			out = append(out, p)
			continue
		}
		stages := append(slices.Clone(out[k].Stages), p.Stages...)
		slices.Sort(stages)
		out[k].Stages = slices.Compact(stages)
		// the part after the pause comes after it in the log
		out[k].Assumed = append(slices.Clone(out[k].Assumed), p.Assumed...)
	}
	slices.SortStableFunc(out, func(a, b record.PluginRun) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// CannotResume says why a paused run's record could not be resumed, while
// the run that paused still holds its secrets: resume derives every
// secret-holding value of the checkpoint again (rederiveState), and one no
// set: stage wrote (a verdict row, a command's output) cannot be; nil when
// the record can be resumed, or the run did not pause at an ask. Said at
// the pause, not days later when a person answers.
func (r *Result) CannotResume() error {
	if r == nil || r.Run == nil || r.Run.Checkpoint == nil || r.Run.Checkpoint.Kind == flow.CheckpointContinue {
		return nil
	}
	rr := r.RunRecord()
	if len(rr.CheckpointSecrets) == 0 {
		return nil
	}
	cp := *rr.Checkpoint
	cp.State = slices.Clone(cp.State)
	in := &resolvedInputs{values: r.Run.Log.Inputs, secrets: secret.New()}
	return r.rb.rederiveState(rr, &cp, in)
}
