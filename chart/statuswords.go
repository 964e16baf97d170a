package chart

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/rules"
)

// checkStatusWords refuses an expression that compares an exec stage's
// answer (`K.status`, K written by that one stage alone, under
// exitCodes:) with a word its exitCodes: never gives: the comparison is
// then the same on every run. `exitCodes: {0: clean, 4: erorrs}` beside
// a rule `check.status == "errors"` (or `{4: errors}` beside `==
// "error"`) never matched, and e2fsck's 4 over a filesystem with errors
// fell to the default, clean, OK, Consistent
// (TestStatusWordNoExitCodeGivesIsRefused, testdata/wave-fsck).
func (l *loader) checkStatusWords(spec *Spec, d *defs) {
	w := &verdictWords{complete: true, seen: map[*Spec]bool{}, writers: map[string]int{}, answers: map[string][]string{}}
	w.chart(spec)
	if w.unloaded {
		return // a chart not loaded may write any key
	}
	// answerWords are the words of the answer path reads (K.status), and
	// K; false when path is no such answer.
	answerWords := func(path []string) ([]string, string, bool) {
		if len(path) != 2 || path[1] != "status" {
			return nil, "", false
		}
		words, ok := w.answers[path[0]]
		if !ok || w.writers[path[0]] != 1 {
			return nil, "", false
		}
		return slices.Compact(slices.Sorted(slices.Values(words))), path[0], true
	}
	for _, c := range l.s.compiled {
		for _, cmp := range c.x.Comparisons() {
			words, key, ok := answerWords(cmp.Path)
			if !ok {
				continue
			}
			for _, word := range cmp.Words {
				if !slices.Contains(words, word) {
					pos := c.l.exprPos(c.e, &rules.CompileError{Line: cmp.Line, Column: cmp.Column})
					c.l.errf(pos, c.stage, "%s", statusWordText(fmt.Sprintf("%s: expression %q", c.what, c.x.String()), key, word, words))
				}
			}
		}
	}
	for _, f := range d.filters {
		root, rest, _ := strings.Cut(f.key, ".")
		words, key, ok := answerWords([]string{root, rest})
		if !ok {
			continue
		}
		var given []any
		switch f.op {
		case rules.OpEq, rules.OpNe:
			given = []any{f.expected}
		case rules.OpIn, rules.OpNotIn:
			given, _ = f.expected.([]any)
		}
		for _, g := range given {
			if word, isText := g.(string); isText && !slices.Contains(words, word) {
				what := fmt.Sprintf("rule %d when: condition on %q (%s)", f.rule, f.key, f.op)
				l.errf(f.pos, f.at.st.ID, "%s", statusWordText(what, key, word, words))
			}
		}
	}
}

// statusWordText says that what compares key.status with word, which its
// exitCodes: words never give.
func statusWordText(what, key, word string, words []string) string {
	msg := fmt.Sprintf("%s compares %s.status with %q, which its exitCodes: (and exitBits:) never give (its words: %s): %s.status is one of them, or absent under a code not declared, so the comparison is the same on every run",
		what, key, word, strings.Join(words, ", "), key)
	if near := suggest.Nearest(word, words); near != "" {
		return msg + fmt.Sprintf("; did you mean %q (or is that exitCodes: word the one misspelt)?", near)
	}
	return msg + fmt.Sprintf("; compare with one of its words, or declare the code that gives %q", word)
}
