package record

import (
	"slices"
	"strconv"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// Masker is the run's secrets (a secret.Set) as the record, events and
// messages ask them: every mask of a run goes through it, and what a secret
// looks like as text — exact, escaped, quoted, cut, a member, derived — is
// internal/secret's one rule. A Masker is a handle (copies share the set,
// which grows as the run derives values); the zero Masker masks nothing and
// costs nothing.
type Masker secret.Set

func (m Masker) set() secret.Set { return secret.Set(m) }

// Text is s with every secret inside it masked, in every representation.
func (m Masker) Text(s string) string { return m.set().Text(s) }

// Message is an error's message with every secret masked, and a quoted
// piece of one too (secret.Set.Message).
func (m Masker) Message(s string) string { return m.set().Message(s) }

// Value returns v with every secret masked; unchanged parts are shared.
// A value that is a secret as a whole (a secret number, bool, list or
// object, a short member of one) is Masked; a string has the secrets inside
// it masked; an object's or list's members are masked each.
func (m Masker) Value(v any) any {
	set := m.set()
	if set.Empty() {
		return v
	}
	switch t := v.(type) {
	case nil:
		return v
	case string:
		if set.Whole(t) {
			return Masked
		}
		return set.Text(t)
	case map[string]any:
		if set.Whole(t) {
			return Masked
		}
		out := make(map[string]any, len(t))
		renamed := false
		for k, e := range t {
			if m.key(k) != k {
				renamed = true
				break
			}
			out[k] = m.Value(e)
		}
		if renamed {
			return m.maskKeys(t)
		}
		return out
	case []any:
		if set.Whole(t) {
			return Masked
		}
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = m.Value(e)
		}
		return out
	default:
		if set.Whole(t) || set.Holds(t) {
			return Masked
		}
		return v
	}
}

// key is an object's key with every secret masked, as Value masks a
// string: a plugin's result or a command's JSON keyed by a secret (`{TOKEN:
// true}`) showed it in the clear when only values were masked.
func (m Masker) key(k string) string { return m.set().Key(k) }

// maskKeys is Value of an object some of whose keys hold a secret. Two keys
// masked alike would be one key, and a member lost in silence, so the
// later ones, in the order of the keys as given, are told apart by "#2",
// "#3"…: the same object masks to the same bytes every time.
func (m Masker) maskKeys(t map[string]any) map[string]any {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make(map[string]any, len(t))
	for _, k := range keys {
		mk := m.key(k)
		for n := 2; ; n++ {
			if _, taken := out[mk]; !taken {
				break
			}
			mk = m.key(k) + "#" + strconv.Itoa(n)
		}
		out[mk] = m.Value(t[k])
	}
	return out
}

// Ran is what a script row says ran — argv, shell text, folder, output
// tails — with every secret masked. Filing a row masks it with the secrets
// held then; the record masks it again with those held at the end, so a
// value derived after the command printed it (upper(token) a stage later)
// is masked in the row as it is in the state. It masks with no secret
// held too: a secret known by its form (secret.ByForm) is masked whatever
// the inputs, and squidclient's `mgr:info@PASSWORD` stood whole in the
// argv of a run given no secret input (TestRanMasksSecretFormsWithNoSecretInput).
func (m Masker) Ran(r *label.Ran) *label.Ran {
	if r == nil {
		return r
	}
	out := &label.Ran{Shell: m.Text(r.Shell), Dir: m.Text(r.Dir), StdoutTail: m.Text(r.StdoutTail), StderrTail: m.Text(r.StderrTail)}
	if r.Argv != nil {
		out.Argv = make([]string, len(r.Argv))
		for i, a := range r.Argv {
			out.Argv[i] = m.Text(a)
		}
	}
	return out
}

// Coverage is the ledger with every secret masked in its words: each
// item's what and why, an absence's looked_for, try_instead (and its
// tool's), provenance and note. A plugin's result, a command's JSON and a
// set: value declare their coverage in text the value itself holds; the
// state was masked and the ledger read from the same value was not, so a
// plugin that named the mirror it logged in to with its token ("the mirror
// said 401 to TOKEN") showed the token in the record, every format's
// coverage section and the standing line built from it.
func (m Masker) Coverage(es []coverage.Entry) []coverage.Entry {
	if m.set().Empty() {
		return es
	}
	items := func(its []coverage.Item) []coverage.Item {
		if its == nil {
			return nil
		}
		out := make([]coverage.Item, len(its))
		for i, it := range its {
			it.What, it.Why, it.Short = m.Text(it.What), m.Text(it.Why), m.Text(it.Short)
			out[i] = it
		}
		return out
	}
	out := make([]coverage.Entry, len(es))
	for i, e := range es {
		d := e.Declaration
		d.LookedFor, d.TryInstead, d.Note = m.Text(d.LookedFor), m.Text(d.TryInstead), m.Text(d.Note)
		d.Checked, d.NotChecked, d.CannotCover = items(d.Checked), items(d.NotChecked), items(d.CannotCover)
		if d.InProgress != nil {
			ps := make([]coverage.InProgressItem, len(d.InProgress))
			for j, p := range d.InProgress {
				p.What, p.Why, p.Short = m.Text(p.What), m.Text(p.Why), m.Text(p.Short)
				ps[j] = p
			}
			d.InProgress = ps
		}
		if h := d.TryInsteadTool; h != nil {
			d.TryInsteadTool = &coverage.ToolHint{Tool: m.Text(h.Tool), Why: m.Text(h.Why)}
		}
		if p := d.Provenance; p != nil {
			d.Provenance = &coverage.Provenance{Source: m.Text(p.Source), MeasuredAt: m.Text(p.MeasuredAt)}
		}
		e.Declaration = d
		out[i] = e
	}
	return out
}

// Facts are a script row's facts with every secret masked in the one
// text they hold, TerminatedBy: a plugin's facts cross the wire as free
// text, and a plugin that named who sent the signal with a token showed it
// in the row and the standing line read from it ("killed by SIGTERM (sent
// by the mirror for TOKEN)").
func (m Masker) Facts(f *label.Facts) *label.Facts {
	if f == nil || f.TerminatedBy == "" || m.set().Empty() {
		return f
	}
	out := *f
	out.TerminatedBy = m.Text(f.TerminatedBy)
	return &out
}

// Rules is a decision's rule evidence with every secret masked.
func (m Masker) Rules(rs []decide.RuleEvidence) []decide.RuleEvidence {
	if m.set().Empty() {
		return rs
	}
	out := make([]decide.RuleEvidence, len(rs))
	for i, r := range rs {
		r.Result = m.Value(r.Result)
		r.Err = m.Message(r.Err)
		if len(r.Inputs) > 0 {
			in := make(rules.Inputs, len(r.Inputs))
			for j, x := range r.Inputs {
				in[j] = rules.Input{Path: x.Path, Value: m.Value(x.Value)}
			}
			r.Inputs = in
		}
		if len(r.Conditions) > 0 {
			cs := make([]rules.ConditionEvidence, len(r.Conditions))
			for j, c := range r.Conditions {
				c.Actual, c.Expected = m.Value(c.Actual), m.Value(c.Expected)
				c.Reason = m.Text(c.Reason)
				cs[j] = c
			}
			r.Conditions = cs
		}
		out[i] = r
	}
	return out
}

// Log is the commit log with secrets masked, for the saved record: each
// read's and write's value, and its key, as the state's keys are (a Go
// stage may name a key from a secret, s.Set("seen-"+token, true), and the
// log held it in the clear where the state said "seen-***").
//
// With no secret the log is returned as it is (the zero Masker costs
// nothing): a wide foreach's log is most of its run's memory, and a copy
// of it was most of the rest.
func (m Masker) Log(l flow.Log) flow.Log {
	if m.set().Empty() {
		return l
	}
	cs := l.Commits()
	out := flow.NewLog(nil, make([]flow.Commit, len(cs)))
	if l.Inputs != nil {
		out.Inputs = m.Value(l.Inputs).(map[string]any)
	}
	for i, c := range cs {
		// A compact decision is rebuilt from the reads as they were, before
		// they are masked; its evidence is then masked as a whole.
		if ev := c.Evidence(); ev != nil {
			d := *ev
			d.Rules = m.Rules(d.Rules)
			c.Decision = &d
		}
		c.Err = m.Message(c.Err)
		if a := c.Answer; a != nil {
			masked := *a
			masked.Question, masked.Rejected = m.Text(a.Question), m.Text(a.Rejected)
			c.Answer = &masked
		}
		if len(c.Reads) > 0 {
			rs := make([]flow.Read, len(c.Reads))
			for j, r := range c.Reads {
				r.Key, r.Value = m.key(r.Key), m.Value(r.Value)
				rs[j] = r
			}
			c.Reads = rs
		}
		if len(c.Writes) > 0 {
			ws := make([]flow.Write, len(c.Writes))
			for j, w := range c.Writes {
				w.Key, w.Value = m.key(w.Key), m.Value(w.Value)
				ws[j] = w
			}
			c.Writes = ws
		}
		out.Commits()[i] = c
	}
	return out
}

// Answers is as with every secret masked in the answers given (a person
// may paste the token they were asked about into a text answer), the
// question and a rejection's reason: the record lists them beside the
// log, and the log's masking never saw them.
func (m Masker) Answers(as []AnswerRecord) []AnswerRecord {
	if m.set().Empty() || len(as) == 0 {
		return as
	}
	out := make([]AnswerRecord, len(as))
	for i, a := range as {
		a.Question, a.Rejected = m.Text(a.Question), m.Text(a.Rejected)
		if a.Answers != nil {
			masked, ok := m.Value(a.Answers).(map[string]any)
			if !ok { // the answers as a whole are a secret: each is
				masked = make(map[string]any, len(a.Answers))
				for k := range a.Answers {
					masked[k] = Masked
				}
			}
			a.Answers = masked
		}
		out[i] = a
	}
	return out
}

// Recorders wraps the caller's recorders (WithRecorders: an NDJSON
// stream, a progress line) so that every event they see has the secrets
// masked — a read of a secret input, a write derived from it, a rule's
// inputs, a stage's error. With no secret they are returned as given.
func (m Masker) Recorders(rs []recorder.Recorder) []recorder.Recorder {
	if m.set().Empty() {
		return rs
	}
	out := make([]recorder.Recorder, len(rs))
	for i, r := range rs {
		out[i] = maskedRecorder{r: r, m: m}
	}
	return out
}

// maskedRecorder hands its recorder masked events, and passes on what the
// dispatcher asks of it (Flush, Wants, Err).
type maskedRecorder struct {
	r recorder.Recorder
	m Masker
}

func (mr maskedRecorder) Record(e recorder.Event) {
	if e.Value != nil {
		e.Value = mr.m.Value(e.Value)
	}
	e.Key = mr.m.key(e.Key)
	e.Err = mr.m.Message(e.Err)
	if e.Decision != nil {
		d := *e.Decision
		d.Rules = mr.m.Rules(d.Rules)
		e.Decision = &d
	}
	mr.r.Record(e)
}

func (mr maskedRecorder) Flush() {
	if f, ok := mr.r.(recorder.Flusher); ok {
		f.Flush()
	}
}

func (mr maskedRecorder) Wants(k recorder.Kind) bool {
	if s, ok := mr.r.(recorder.Selective); ok {
		return s.Wants(k)
	}
	return true
}

func (mr maskedRecorder) Err() error {
	if e, ok := mr.r.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}
