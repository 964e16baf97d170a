// Package ident is the one home of the two naming rules a chart's words
// obey: what a stage id (or a chart's name, its root path) may hold, and
// what a name an expression reads (a foreach `as`) may be. flow's
// structural checks and the YAML loader's chart-name check both ask here,
// so they can never disagree. It owns no messages about where a name was
// written; callers add that.
package ident

import (
	"fmt"
	"strings"
	"unicode"
)

// Problem says what is wrong with a non-empty id, "" when nothing is: ids
// hold letters, digits, '-', '_' and '.'; '~' and '/' are named apart,
// because runtime paths (`parent/child~branch#2`) are built from them.
func Problem(id string) string {
	if strings.ContainsAny(id, "~/") {
		return "holds a reserved character ('~' and '/' are kept for runtime paths): use letters, digits, '-', '_', '.'"
	}
	for _, r := range id {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.') {
			return fmt.Sprintf("holds %q: an id may hold only letters, digits, '-', '_', '.'", r)
		}
	}
	return ""
}

// IsName reports a name an expression can read: letters, digits and '_',
// not starting with a digit, and not empty.
func IsName(s string) bool {
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}
