package runbook

import (
	"strings"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// masker replaces secret values wherever a record would show them: whole
// values and values that contain one (a command's output, a message).
type masker []string

func (m masker) text(s string) string {
	for _, sec := range m {
		if sec != "" && strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Masked)
		}
	}
	return s
}

// value returns v with every secret masked; unchanged parts are shared.
func (m masker) value(v any) any {
	if len(m) == 0 {
		return v
	}
	switch t := v.(type) {
	case string:
		return m.text(t)
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
