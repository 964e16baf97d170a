package chart

import (
	"slices"
	"strings"

	"github.com/openrunbook/runbook/rules"
)

// VerdictWords lists the verdict words the chart's rows can have, sorted,
// and whether that list is complete: it is when every `verdict:` stage's
// verdict column is a constant expression ('"at-risk"') and no stage but a
// verdict stage writes the verdicts key (a set:, an into:, an ask's
// answer, a subflow chart not loaded). A word outside a complete list is
// one no run of this chart can give — a misspelled `--fail-on
// verdict=critcal` would never hold — while an incomplete list says
// nothing about any word.
//
// A verdict column that is an exec stage's declared answer, `d.status`
// where d is written by that one stage alone and it declares exitCodes:,
// has that stage's words (`{0: clean, 1: dirty}`: clean, dirty): a code
// it does not declare leaves status absent, and a verdict stage fails
// over a word that is no text. `--fail-on verdict=dirtty` over such a
// chart was taken, and a gate that could never hold passed every run.
func (s *Spec) VerdictWords() (words []string, complete bool) {
	w := &verdictWords{complete: true, seen: map[*Spec]bool{}, writers: map[string]int{}, answers: map[string][]string{}}
	w.chart(s)
	for _, key := range w.statusOf {
		words, ok := w.answers[key]
		if !ok || w.writers[key] != 1 {
			w.complete = false
			continue
		}
		w.words = append(w.words, words...)
	}
	slices.Sort(w.words)
	return slices.Compact(w.words), w.complete
}

// ProjectsVerdicts reports whether the chart's answer is verdict rows: its
// result.kind starts with verdict/. Without it the rows its verdict stages
// write stay in the state, and nothing shows, counts or judges them: no
// table, no Nagios state, no --fail-on verdict= condition.
func (s *Spec) ProjectsVerdicts() bool {
	return s.Result != nil && strings.HasPrefix(s.Result.Kind, "verdict/")
}

// WritesVerdicts reports whether a stage of the chart itself (not a chart
// it mounts) is a verdict: stage. Under no result: block its rows are
// shown by nothing, and a run says so (record's unshown item); runbook
// plan says it before any run.
func (s *Spec) WritesVerdicts() bool {
	found := false
	walkStages(s.Stages, func(st *StageSpec) bool {
		found = st.Kind == "verdict"
		return !found
	})
	return found
}

type verdictWords struct {
	words    []string
	complete bool
	seen     map[*Spec]bool
	// writers counts the places that write each key (an input, a var, a
	// stage's set:, into:, an ask's answer, a foreach's item); answers
	// are the words of an exec stage's exitCodes:, by its into: key;
	// statusOf are the keys K of verdict columns written K.status.
	writers  map[string]int
	answers  map[string][]string
	statusOf []string
	// unloaded is set when a subflow's chart was not loaded: the keys
	// it writes are not known.
	unloaded bool
}

func (w *verdictWords) chart(s *Spec) {
	if s == nil || w.seen[s] {
		return
	}
	w.seen[s] = true
	for _, in := range s.Inputs {
		w.other(in.Name)
	}
	for _, v := range s.Vars {
		w.other(v.Key)
	}
	w.stages(s.Stages)
}

func (w *verdictWords) stages(stages []StageSpec) {
	for i := range stages {
		st := &stages[i]
		for _, a := range st.Set {
			w.other(a.Key)
		}
		if st.Exec != nil {
			key := intoOr(st.Exec.Into, st.ID)
			w.other(key)
			if words := st.Exec.AnswerWords(); len(words) > 0 {
				w.answers[key] = append(w.answers[key], words...)
			}
		}
		if st.Read != nil {
			w.other(intoOr(st.Read.Into, st.ID))
		}
		if st.Plugin != nil {
			w.other(intoOr(st.Plugin.Into, st.ID))
		}
		if st.Ask != nil {
			for _, x := range st.Ask.Expects {
				w.other(x.Name)
			}
		}
		for _, a := range st.Verdict {
			if a.Key == "verdict" {
				w.column(a.Expr)
			}
		}
		if fe := st.ForEach; fe != nil {
			w.other(intoOr(fe.Into, st.ID))
			w.other(fe.As)
			w.stages(fe.Stages)
		}
		if sf := st.Subflow; sf != nil {
			if sf.Chart != "" && sf.Spec == nil {
				w.complete = false
				w.unloaded = true
			}
			for _, a := range sf.Inputs {
				w.other(a.Key)
			}
			w.stages(sf.Stages)
			w.chart(sf.Spec)
		}
		for _, brs := range [][]BranchSpec{st.Branches, st.Parallel} {
			for _, br := range brs {
				w.stages(br.Stages)
			}
		}
	}
}

// other is a key a stage other than a verdict stage writes: the verdicts
// key written so holds rows whose words no constant says.
func (w *verdictWords) other(key string) {
	if key == VerdictsKey {
		w.complete = false
	}
	w.writers[key]++
}

// column reads a verdict column: a constant expression (no name read)
// whose value is text is a word; anything else leaves the list incomplete.
func (w *verdictWords) column(v rules.Valuer) {
	x, ok := v.(*rules.Expr)
	if ok {
		if roots := x.Roots(); len(roots) == 1 && strings.TrimSpace(x.String()) == roots[0]+".status" {
			w.statusOf = append(w.statusOf, roots[0]) // an exec stage's answer, resolved when all is read
			return
		}
	}
	if !ok || len(x.Roots()) > 0 {
		w.complete = false
		return
	}
	val, _, err := x.Value(noNames{})
	word, isText := val.(string)
	if err != nil || !isText {
		w.complete = false
		return
	}
	w.words = append(w.words, word)
}

func intoOr(into, id string) string {
	if into != "" {
		return into
	}
	return id
}

// noNames is a scope with no key: a constant expression reads none.
type noNames struct{}

func (noNames) Get(string) (any, bool) { return nil, false }
