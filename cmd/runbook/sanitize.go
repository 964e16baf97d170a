package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// clean makes outside text — anything a command printed, a chart or a
// record holds — safe to print on a terminal as one line. It is the one
// sanitizer of the text and markdown renderers: viewOf passes every string
// of a resultView through it, and renderMarkdown the record's own fields.
// It never touches JSON output (encoding/json escapes controls already).
//
//	\t \n \r                    shown as \t \n \r   (a cell or line cannot forge another)
//	other C0 controls, DEL      shown as \xNN       (\x1b: no escape sequence reaches the terminal)
//	C1 controls U+0080–U+009F   shown as \u0085 …   (U+009B is a one-rune CSI)
//	U+2028, U+2029, bidi        shown as \u202e …   (no line break, no reordering of what follows)
//	  controls U+202A–U+202E,
//	  U+2066–U+2069, U+200E/F
//	a byte that is not UTF-8    shown as \xNN
//	anything else               as it is
//
// A backslash is left as it is, so `\x1b` in the output may have been
// written as those four characters: clean keeps text readable, it does not
// make it reversible.
func clean(s string) string {
	if !needsClean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// cleanLines cleans each line of a block of text (a rendered table) and
// keeps its line breaks.
func cleanLines(s string) string {
	if !needsClean(strings.ReplaceAll(s, "\n", "")) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = clean(l)
	}
	return strings.Join(lines, "\n")
}

// needsClean reports whether clean would change s.
func needsClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return true
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unsafeRune(r) {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune is a non-ASCII rune a terminal acts on rather than shows: C1
// controls, line and paragraph separators, and bidi controls.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f,
		r == 0x2028, r == 0x2029,
		r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e,
		r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
