package chart

import (
	"unicode"
)

// forEach reads `foreach:`; its stages form a chart of their own.
func (l *loader) forEach(e entry, s *StageSpec) *ForEachSpec {
	sid := s.ID
	m, ok := l.block(e, sid, "foreach", foreachKeys)
	if !ok {
		return nil
	}
	f := &ForEachSpec{As: "item", Into: s.ID}
	if ie, ok := m.get("items"); !ok {
		l.missing(m, "items", e.keyPos, sid, "foreach has no items: give it an expression giving the list, such as items: volumes")
	} else {
		f.Items, _, _ = l.compile(ie, sid, "foreach items")
	}
	if ae, ok := m.get("as"); ok {
		if as, ok := l.word(ae, sid, "foreach as"); ok {
			switch {
			case as == "index":
				l.errf(ae.valPos, sid, "foreach as is \"index\", the key every branch already gets for its item's position: choose another name (default \"item\")")
			case !isIdent(as):
				l.errf(ae.valPos, sid, "foreach as %q is not a name an expression can read: use letters, digits and _, not starting with a digit", as)
			default:
				f.As = as
			}
		}
	}
	if me, ok := m.get("maxBranches"); !ok {
		l.missing(m, "maxBranches", e.keyPos, sid, "foreach has no maxBranches: it is required, the most branches this foreach may start (≥ 1); items past it do not run and the cut is recorded")
	} else {
		f.MaxBranches, _ = l.whole(me, sid, "foreach maxBranches", 1)
	}
	if ie, ok := m.get("into"); ok {
		f.Into, _ = l.word(ie, sid, "foreach into")
	}
	if se, ok := m.get("stages"); !ok {
		l.missing(m, "stages", e.keyPos, sid, "foreach has no stages: give it the stages each item runs")
	} else {
		c := newChartCtx()
		f.Stages = l.stages(se, sid, "foreach stages", c)
		l.checkLoops(f.Stages, c, nil)
	}
	return f
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}
