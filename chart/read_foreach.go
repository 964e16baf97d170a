package chart

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
		s.at("foreach.items", ie.valPos)
	}
	if ae, ok := m.get("as"); ok {
		if as, ok := l.word(ae, sid, "foreach as"); ok {
			f.As = as // what a name may be is flow's rule (Field foreach.as)
			s.at("foreach.as", ae.valPos)
		}
	}
	if me, ok := m.get("maxBranches"); !ok {
		l.missing(m, "maxBranches", e.keyPos, sid, "foreach has no maxBranches: it is required, the most branches this foreach may start (≥ 1); items past it do not run and the cut is recorded")
	} else {
		f.MaxBranches, _ = l.whole(me, sid, "foreach maxBranches", 1)
		s.at("foreach.maxBranches", me.valPos)
	}
	if ie, ok := m.get("into"); ok {
		f.Into, _ = l.word(ie, sid, "foreach into")
	}
	if se, ok := m.get("stages"); !ok {
		l.missing(m, "stages", e.keyPos, sid, "foreach has no stages: give it the stages each item runs")
	} else {
		f.Stages = l.stages(se, sid, "foreach stages")
	}
	return f
}
