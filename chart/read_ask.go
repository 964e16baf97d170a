package chart

import (
	"fmt"
)

// ask reads `ask:`.
func (l *loader) ask(e entry, sid string) *AskSpec {
	m, ok := l.block(e, sid, "ask", askKeys)
	if !ok {
		return nil
	}
	a := &AskSpec{}
	if qe, ok := m.get("question"); !ok {
		l.missing(m, "question", e.keyPos, sid, "ask has no question: give the question to put, such as question: '\"Proceed with the restart?\"'")
	} else {
		a.Question, _ = l.valuer(qe, sid, "ask question", "question")
	}
	if xe, ok := m.get("expects"); !ok {
		l.missing(m, "expects", e.keyPos, sid, "ask has no expects: name the answers it waits for and their types, such as expects: {proceed: bool}")
	} else if xm, ok := l.asMap(xe.val, xe.keyPos, sid, "ask expects"); ok {
		if len(xm.entries) == 0 {
			l.errf(xe.valPos, sid, "ask expects is an empty map: name at least one answer and its type")
		}
		for _, x := range xm.entries {
			if t, ok := l.oneOf(x, sid, fmt.Sprintf("ask expects %q type", x.key), InputTypes...); ok {
				a.Expects = append(a.Expects, Expect{Name: x.key, Type: t})
			}
		}
	}
	return a
}

// checkAskPlaces refuses an ask: where a run cannot pause — inside a
// foreach, parallel or select branch, or in a subflow (a chart mounted by
// one, or a subflow's inline stages) — at load, before any stage has run:
// the engine refuses it only when the run reaches it (flow.Scope.Ask), by
// then after the stages before it touched the world. mounted is whether
// this file is a subflow chart. It refuses too an ask that expects an
// answer named as a secret input: a resume is given the secret again by
// its name (a record keeps no secret), so answer and secret would be one
// key, and no resume of the run could ever be taken.
func (l *loader) checkAskPlaces(spec *Spec, mounted bool) {
	if spec == nil {
		return
	}
	inside := ""
	if mounted {
		inside = "a subflow chart"
	}
	secrets := map[string]bool{}
	for _, in := range spec.Inputs {
		if in.Secret {
			secrets[in.Name] = true
		}
	}
	l.askPlaces(spec.Stages, inside, secrets)
}

func (l *loader) askPlaces(list []StageSpec, inside string, secrets map[string]bool) {
	for i := range list {
		st := &list[i]
		if st.Ask != nil && inside != "" {
			l.errf(st.Pos, st.ID, "ask cannot pause the run here: it is inside %s, and a run pauses only at the top level of its chart or in a decide stage's branch; ask before it (one question for every item or branch) or after it", inside)
		}
		if st.Ask != nil {
			for _, x := range st.Ask.Expects {
				if secrets[x.Name] {
					l.errf(st.Pos, st.ID, "ask expects %q, the name of a secret input: a resume is given the secret again by that name, so the answer could never be told from it and the run could not be resumed; name the answer otherwise (new_%s)", x.Name, x.Name)
				}
			}
		}
		in := func(where string) string {
			if inside != "" {
				return inside
			}
			return where
		}
		switch {
		case st.ForEach != nil:
			l.askPlaces(st.ForEach.Stages, in(fmt.Sprintf("foreach %q", st.ID)), secrets)
		case st.Subflow != nil:
			l.askPlaces(st.Subflow.Stages, in(fmt.Sprintf("subflow %q", st.ID)), secrets)
		case st.Kind == "select":
			for _, br := range st.Branches {
				l.askPlaces(br.Stages, in(fmt.Sprintf("a branch of select %q", st.ID)), secrets)
			}
		default:
			for _, br := range st.Branches {
				l.askPlaces(br.Stages, inside, secrets)
			}
		}
		for _, br := range st.Parallel {
			l.askPlaces(br.Stages, in(fmt.Sprintf("a branch of parallel %q", st.ID)), secrets)
		}
	}
}
