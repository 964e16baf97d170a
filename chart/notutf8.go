package chart

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// NotUTF8 is the load error of a file runbook reads as its own — a chart,
// a chart test, an --inputs file — that is not UTF-8, at the first byte no
// UTF-8 character holds; nil for a UTF-8 file. The YAML and JSON readers
// read such a byte as U+FFFD in silence: a chart saved as Windows-1252
// (Notepad's "ANSI") held `c.stdout[0] == "Caf\uFFFD"` where its author
// wrote "Café", a rule no command's UTF-8 "Café" ever matched, and
// `printf 'Café'` ran as `printf 'Caf\uFFFD'`
// (TestChartThatIsNotUTF8IsRefused). The one home of that refusal.
func NotUTF8(file string, data []byte) *LoadError {
	if utf8.Valid(data) {
		return nil
	}
	at := 0
	for at < len(data) {
		r, n := utf8.DecodeRune(data[at:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		at += n
	}
	start := bytes.LastIndexByte(data[:at], '\n') + 1
	line := bytes.Count(data[:start], []byte{'\n'}) + 1
	col := utf8.RuneCount(data[start:at]) + 1
	return &LoadError{Pos: Pos{File: file, Line: line, Col: col}, Msg: fmt.Sprintf("the file is not UTF-8: byte 0x%02x here is no part of a UTF-8 character, and read as one (U+FFFD) a word such as \"Café\" would be another text, which no command's output matches; save the file as UTF-8 (iconv -f WINDOWS-1252 -t UTF-8, or the encoding it was saved in: Notepad's \"ANSI\")", data[at])}
}
