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
func (l *loader) checkStatusWords(spec *Spec) {
	w := &verdictWords{complete: true, seen: map[*Spec]bool{}, writers: map[string]int{}, answers: map[string][]string{}}
	w.chart(spec)
	if w.unloaded {
		return // a chart not loaded may write any key
	}
	for _, c := range l.s.compiled {
		for _, cmp := range c.x.Comparisons() {
			if len(cmp.Path) != 2 || cmp.Path[1] != "status" {
				continue
			}
			key := cmp.Path[0]
			words, ok := w.answers[key]
			if !ok || w.writers[key] != 1 {
				continue
			}
			words = slices.Compact(slices.Sorted(slices.Values(words)))
			for _, word := range cmp.Words {
				if slices.Contains(words, word) {
					continue
				}
				msg := fmt.Sprintf("%s: expression %q compares %s.status with %q, which its exitCodes: never give (its words: %s): %s.status is one of them, or absent under a code not declared, so the comparison is the same on every run",
					c.what, c.x.String(), key, word, strings.Join(words, ", "), key)
				if near := suggest.Nearest(word, words); near != "" {
					msg += fmt.Sprintf("; did you mean %q (or is that exitCodes: word the one misspelt)?", near)
				} else {
					msg += fmt.Sprintf("; compare with one of its words, or declare the code that gives %q", word)
				}
				c.l.errf(c.l.exprPos(c.e, &rules.CompileError{Line: cmp.Line, Column: cmp.Column}), c.stage, "%s", msg)
			}
		}
	}
}
