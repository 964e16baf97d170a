package chart

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/rules"
)

// loop reads `loop:`; its target is checked once the chart is read
// (checkLoops).
func (l *loader) loop(e entry, sid string, c *chartCtx) *LoopSpec {
	m, ok := l.block(e, sid, "loop", loopKeys)
	if !ok {
		return nil
	}
	lp := &LoopSpec{}
	if te, ok := m.get("to"); !ok {
		l.missing(m, "to", e.keyPos, sid, "loop has no to: name the earlier stage to jump back to")
	} else if to, ok := l.word(te, sid, "loop to"); ok {
		lp.To = to
		c.loopTo[lp] = te.valPos
	}
	if we, ok := m.get("while"); ok {
		switch v := we.val.(type) {
		case *ast.BoolNode:
			lp.While = rules.MustCompile(fmt.Sprint(v.Value))
		default:
			lp.While, _, _ = l.compile(we, sid, "loop while")
		}
	}
	if me, ok := m.get("max"); ok {
		lp.Max, _ = l.whole(me, sid, "loop max", 1)
	}
	return lp
}

func (l *loader) checkLoops(seq []StageSpec, c *chartCtx, enclosing []string) {
	for i := range seq {
		s := &seq[i]
		earlier := make([]string, 0, len(enclosing)+i)
		earlier = append(earlier, enclosing...)
		for _, p := range seq[:i] {
			earlier = append(earlier, p.ID)
		}
		switch s.Kind {
		case "loop":
			l.checkLoop(s, c, earlier)
		case "decide":
			for _, b := range s.Branches {
				l.checkLoops(b.Stages, c, append(earlier[:len(earlier):len(earlier)], s.ID))
			}
		case "select":
			for _, b := range s.Branches {
				l.checkLoops(b.Stages, c, nil)
			}
		case "parallel":
			for _, b := range s.Parallel {
				l.checkLoops(b.Stages, c, nil)
			}
		}
	}
}

func (l *loader) checkLoop(s *StageSpec, c *chartCtx, earlier []string) {
	if s.Loop == nil || s.Loop.To == "" {
		return
	}
	to := s.Loop.To
	if contains(earlier, to) {
		return
	}
	at, ok := c.loopTo[s.Loop]
	if !ok {
		at = s.Pos
	}
	cands := "there is no earlier stage it could jump to"
	if len(earlier) > 0 {
		cands = "earlier stages it may jump to: " + strings.Join(earlier, ", ")
	}
	_, exists := c.ids[to]
	switch {
	case to == s.ID:
		l.errf(at, s.ID, "loop targets itself: a loop jumps back to an earlier stage (%s)", cands)
	case !exists:
		if near := suggest.Nearest(to, earlier); near != "" {
			l.errf(at, s.ID, "loop to %q names no stage of this chart; did you mean %q? (%s)", to, near, cands)
		} else {
			l.errf(at, s.ID, "loop to %q names no stage of this chart; a foreach body or a subflow is a chart of its own and a loop cannot leave it (%s)", to, cands)
		}
	case posAfter(c.ids[to], at):
		l.errf(at, s.ID, "loop to %q names a later stage: a loop jumps back to an earlier one (%s)", to, cands)
	default:
		l.errf(at, s.ID, "loop to %q names a stage in a branch the loop is not in, or across a parallel or select branch: a loop may jump only to an earlier stage of its own sequence or of one enclosing it through decide branches (%s)", to, cands)
	}
}

func posAfter(a, b Pos) bool {
	return a.Line > b.Line || (a.Line == b.Line && a.Col > b.Col)
}
