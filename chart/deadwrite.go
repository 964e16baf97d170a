package chart

import "slices"

// checkOverwrites refuses a key written by a stage and written again by a
// later stage of the same list before any stage between them reads it:
// what the first wrote is never read, so whatever the chart decides reads
// the second. `into: state` given to two exec stages (systemctl
// is-active, then a check of its uptime) loaded, the second's output
// replaced the first's, and the service check stood Consistent, "up",
// over a unit that was inactive (TestIntoReusedBeforeItIsReadIsRefused).
//
//	asked        two stages of one list (the chart's, a branch's, a
//	             foreach body's, an inline subflow's), both writing a key
//	             (Writes: a set: key, an into:, an ask's answer)
//	not asked    the verdicts key (rows are appended, not replaced); a
//	             chart with a loop: (a pass may read it on the way back)
//	read         any expression of a stage between them, or of the second
//	             stage itself (set: {n: n + 1}), or of a stage inside one;
//	             a subflow mounting a chart, a plugin stage (its reads are
//	             in its description) or an expression reading $env reads
//	             every key
func (l *loader) checkOverwrites(spec *Spec) {
	if hasLoop(spec, map[*Spec]bool{}) || idsRepeat(spec) {
		return // an id used twice is flow's to refuse; a stage's reads are found by its id
	}
	reads := map[string]map[string]bool{} // file\x00stage id → roots read
	for _, c := range l.s.compiled {
		k := c.l.file + "\x00" + c.stage
		if reads[k] == nil {
			reads[k] = map[string]bool{}
		}
		if c.x.ReadsWholeScope() {
			reads[k]["$env"] = true
		}
		for _, r := range c.x.Roots() {
			reads[k][r] = true
		}
	}
	readsKey := func(st *StageSpec, key string) bool {
		found := false
		walkStages([]StageSpec{*st}, func(s *StageSpec) bool {
			if (s.Subflow != nil && s.Subflow.Spec != nil) || s.Plugin != nil {
				// a mounted chart: its reads are its file's; a plugin:
				// the keys it reads are in its description (Reads), which
				// the loader does not see
				found = true
				return false
			}
			r := reads[s.Pos.File+"\x00"+s.ID]
			if r[key] || r["$env"] {
				found = true
				return false
			}
			return true
		})
		return found
	}
	l.inputsOverwritten(spec, reads, readsKey)
	seen := map[*Spec]bool{}
	var charts func(s *Spec)
	var lists func(list []StageSpec)
	lists = func(list []StageSpec) {
		l.overwrites(list, readsKey)
		for i := range list {
			st := &list[i]
			for _, brs := range [][]BranchSpec{st.Branches, st.Parallel} {
				for _, br := range brs {
					lists(br.Stages)
				}
			}
			if st.ForEach != nil {
				lists(st.ForEach.Stages)
			}
			if sf := st.Subflow; sf != nil {
				lists(sf.Stages)
				charts(sf.Spec)
			}
		}
	}
	charts = func(s *Spec) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		lists(s.Stages)
	}
	charts(spec)
}

// overwrites reports, in one list of stages, each key a later stage writes
// again before any read.
func (l *loader) overwrites(list []StageSpec, readsKey func(*StageSpec, string) bool) {
	for i := range list {
		first := &list[i]
		for _, key := range first.Writes() {
			if key == VerdictsKey {
				continue
			}
			for j := i + 1; j < len(list); j++ {
				st := &list[j]
				if readsKey(st, key) {
					break
				}
				if !slices.Contains(st.Writes(), key) {
					continue
				}
				l.errf(st.Pos, st.ID, "writes the key %s, which stage %q (at %d:%d) wrote and no stage between them read, so what %q wrote is never read and everything after reads this stage's %s instead; give one of them another key (into: or the set: key), or read %s between them",
					key, first.ID, first.Pos.Line, first.Pos.Col, first.ID, key, key)
				break
			}
		}
	}
}

// hasLoop says whether a chart, or a chart it mounts, holds a loop: stage.
func hasLoop(spec *Spec, seen map[*Spec]bool) bool {
	if spec == nil || seen[spec] {
		return false
	}
	seen[spec] = true
	found := false
	walkStages(spec.Stages, func(st *StageSpec) bool {
		if st.Loop != nil || (st.Subflow != nil && hasLoop(st.Subflow.Spec, seen)) {
			found = true
			return false
		}
		return true
	})
	return found
}

// idsRepeat says whether an id is written twice in one chart file (a
// foreach's body may reuse its chart's ids: it is a chart of its own).
func idsRepeat(spec *Spec) bool {
	seen := map[string]bool{}
	repeat := false
	walkStages(spec.Stages, func(st *StageSpec) bool {
		k := st.Pos.File + "\x00" + st.ID
		if seen[k] {
			repeat = true
			return false
		}
		seen[k] = true
		return true
	})
	return repeat
}

// inputsOverwritten reports a stage of the chart's list that writes the
// name of one of its inputs or vars before any stage (or var) read it:
// the value given for the input is never read. `set: {n: 85, limit: 95}`
// over the input limit said lo, Consistent, to --input limit=80, under
// which 85 is high (TestInputOverwrittenBeforeItIsReadIsRefused).
func (l *loader) inputsOverwritten(spec *Spec, reads map[string]map[string]bool, readsKey func(*StageSpec, string) bool) {
	early := map[string]string{}
	for _, in := range spec.Inputs {
		early[in.Name] = "the input " + in.Name + ": the value given for it"
	}
	for _, v := range spec.Vars {
		early[v.Key] = "the var " + v.Key + ": its value"
	}
	byVars := reads[spec.Pos.File+"\x00"]
	done := map[string]bool{}
	for j := range spec.Stages {
		st := &spec.Stages[j]
		for _, key := range st.Writes() {
			what, ok := early[key]
			if !ok || done[key] {
				continue
			}
			done[key] = true
			if byVars[key] || byVars["$env"] {
				continue
			}
			read := false
			for i := 0; i <= j && !read; i++ {
				read = readsKey(&spec.Stages[i], key)
			}
			if !read {
				l.errf(st.Pos, st.ID, "writes the key %s, which is %s is never read, as no stage before this one reads it; name the key otherwise, or read %s first", key, what, key)
			}
		}
	}
}
