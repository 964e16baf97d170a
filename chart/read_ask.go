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
