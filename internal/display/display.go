// Package display says how wide text is on a terminal, in columns: the
// one rule both the text output (its tables and wrapping) and the columns
// parse mode (where a tool aligned a value) read text by.
//
//	rune                                   columns
//	East Asian wide or fullwidth (共, Ａ)   2
//	combining mark, zero-width (joiner)    0
//	any other                              1
//
// Bytes are not columns: "é" is 2 bytes and 1 column, "共" 3 bytes and 2.
// A tool that pads a table does so by columns (GNU df, ps), so a reader
// that measures it in bytes places a value right of where it was printed.
package display

import (
	"unicode"

	"golang.org/x/text/width"
)

// Width is how many terminal columns s takes.
//
//	Width("caf\u00e9")  4
//	Width("共有")        4
func Width(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == '\u200d' || r == '\u200b':
		case wide(r):
			n += 2
		default:
			n++
		}
	}
	return n
}

// wide: the rune is East Asian wide or fullwidth.
func wide(r rune) bool {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return true
	}
	return false
}
