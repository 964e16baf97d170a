package chart

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/rules"
)

// loop reads `loop:`. Where its target may be is flow's rule (Field
// loop.to); the loader only says where `to` was written.
func (l *loader) loop(e entry, s *StageSpec) *LoopSpec {
	sid := s.ID
	m, ok := l.block(e, sid, "loop", loopKeys)
	if !ok {
		return nil
	}
	lp := &LoopSpec{}
	if te, ok := m.get("to"); !ok {
		l.missing(m, "to", e.keyPos, sid, "loop has no to: name the earlier stage to jump back to")
	} else if to, ok := l.word(te, sid, "loop to"); ok {
		lp.To = to
		s.at("loop.to", te.valPos)
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
		s.at("loop.max", me.valPos)
	}
	return lp
}
