package runbook

import (
	"encoding/json"
	"strings"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// masker replaces secret values wherever a record would show them: whole
// values and values that contain one (a command's output, a message).
type masker []string

func (m masker) text(s string) string {
	for _, sec := range m {
		if sec != "" && strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, record.Masked)
		}
	}
	return s
}

// value returns v with every secret masked; unchanged parts are shared.
// A secret that is not a string (a number, a bool, a list, an object) is
// held as its JSON text: a value whose JSON text is a secret's is masked
// whole. The check costs one encoding per value of the secret's shape, and
// only when some secret has that shape (a string secret costs nothing here).
func (m masker) value(v any) any {
	if len(m) == 0 {
		return v
	}
	switch t := v.(type) {
	case string:
		return m.text(t)
	case nil:
		return v
	case map[string]any, []any:
		if m.composite() && m.whole(t) {
			return record.Masked
		}
	default:
		if m.scalar() && m.whole(t) {
			return record.Masked
		}
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = m.value(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = m.value(e)
		}
		return out
	}
	return v
}

// whole reports whether v's JSON text is one of the secrets.
func (m masker) whole(v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	for _, sec := range m {
		if sec == string(b) {
			return true
		}
	}
	return false
}

// scalar reports whether some secret reads as a JSON number or bool.
func (m masker) scalar() bool {
	for _, sec := range m {
		if sec != "" && strings.IndexByte("-0123456789tf", sec[0]) >= 0 && json.Valid([]byte(sec)) {
			return true
		}
	}
	return false
}

// composite reports whether some secret is a list or an object.
func (m masker) composite() bool {
	for _, sec := range m {
		if strings.HasPrefix(sec, "[") || strings.HasPrefix(sec, "{") {
			return true
		}
	}
	return false
}

func (m masker) rules(rs []decide.RuleEvidence) []decide.RuleEvidence {
	if len(m) == 0 {
		return rs
	}
	out := make([]decide.RuleEvidence, len(rs))
	for i, r := range rs {
		r.Result = m.value(r.Result)
		r.Err = m.text(r.Err)
		if len(r.Inputs) > 0 {
			in := make(rules.Inputs, len(r.Inputs))
			for j, x := range r.Inputs {
				in[j] = rules.Input{Path: x.Path, Value: m.value(x.Value)}
			}
			r.Inputs = in
		}
		if len(r.Conditions) > 0 {
			cs := make([]rules.ConditionEvidence, len(r.Conditions))
			for j, c := range r.Conditions {
				c.Actual, c.Expected = m.value(c.Actual), m.value(c.Expected)
				c.Reason = m.text(c.Reason)
				cs[j] = c
			}
			r.Conditions = cs
		}
		out[i] = r
	}
	return out
}

// maskLog is the commit log with secrets masked, for the saved record.
func maskLog(l flow.Log, m masker) flow.Log {
	out := flow.Log{Commits: make([]flow.Commit, len(l.Commits))}
	if l.Inputs != nil {
		out.Inputs = m.value(l.Inputs).(map[string]any)
	}
	for i, c := range l.Commits {
		c.Err = m.text(c.Err)
		if len(c.Reads) > 0 {
			rs := make([]flow.Read, len(c.Reads))
			for j, r := range c.Reads {
				r.Value = m.value(r.Value)
				rs[j] = r
			}
			c.Reads = rs
		}
		if len(c.Writes) > 0 {
			ws := make([]flow.Write, len(c.Writes))
			for j, w := range c.Writes {
				w.Value = m.value(w.Value)
				ws[j] = w
			}
			c.Writes = ws
		}
		if c.Decision != nil {
			d := *c.Decision
			d.Rules = m.rules(d.Rules)
			c.Decision = &d
		}
		out.Commits[i] = c
	}
	return out
}

// maskRecorders wraps the caller's recorders (WithRecorders: an NDJSON
// stream, a progress line) so that every event they see has the secrets
// masked — a read of a secret input, a write derived from it, a rule's
// inputs, a stage's error. With no secret they are returned as given.
func maskRecorders(rs []recorder.Recorder, m masker) []recorder.Recorder {
	if len(m) == 0 {
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
	m masker
}

func (mr maskedRecorder) Record(e recorder.Event) {
	if e.Value != nil {
		e.Value = mr.m.value(e.Value)
	}
	e.Err = mr.m.text(e.Err)
	if e.Decision != nil {
		d := *e.Decision
		d.Rules = mr.m.rules(d.Rules)
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
