package chart

import (
	"slices"
	"strings"
)

// pinnedLocale are the locale variables that outrank the LC_NUMERIC=C,
// LC_TIME=C and LC_MESSAGES=C runbook gives a command whose runner's
// locale is not C (docs/PARSE.md, Locale).
var pinnedLocale = []string{"LC_ALL", "LC_NUMERIC", "LC_TIME", "LC_MESSAGES"}

// InheritedLocale is the variables of pinnedLocale the stage names in
// inheritEnv:, in its order: each passes the runner's own value on, over
// the pinned C, so a runner under LC_ALL=de_DE.UTF-8 gives the command
// `printf "%'d" 1234567` saying 1.234.567, which a parse reads as 1.234.
func (e *ExecSpec) InheritedLocale() []string {
	if e == nil {
		return nil
	}
	var out []string
	for _, n := range e.InheritEnv {
		if slices.Contains(pinnedLocale, n) {
			out = append(out, n)
		}
	}
	return out
}

// InheritedLocaleNote is plan's note for a stage whose inheritEnv: names
// a variable of pinnedLocale ("" for none).
func (e *ExecSpec) InheritedLocaleNote() string {
	names := e.InheritedLocale()
	if len(names) == 0 {
		return ""
	}
	return "inheritEnv: names " + strings.Join(names, ", ") + ", which outranks the LC_NUMERIC=C, LC_TIME=C and LC_MESSAGES=C runbook gives a command when the runner's locale is not C: under a runner's de_DE.UTF-8 the command writes 1.234.567 and 4,54, which a chart reads as other numbers, Dez for Dec, and Durchschn.: for Average: and its errors in German, which the run does not read as errors; the runner's LC_ALL reaches the command without it, as LANG (its characters, not its numbers nor words); drop it, or pin the stage's locale with env: {LC_ALL: C.UTF-8}"
}
