package jsonv

import "unicode/utf8"

// AppendString appends s as a JSON string, escaped as encoding/json
// escapes it: quotes, backslashes and control characters (\b \f \n \r \t
// by name, the others as \u00XX), invalid UTF-8 as \ufffd, U+2028 and
// U+2029 as escapes, and with html the characters < > & as \u003c
// \u003e \u0026 (json.Marshal's default; a reader of text wants them as
// they are). It is the one home of that spelling: the record's writer
// must give json.MarshalIndent's bytes, the narrative jsonv.Marshal's.
func AppendString(b []byte, s string, html bool) []byte {
	b = append(b, '"')
	mask := asIs
	if html {
		mask = asIsHTML
	}
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c]&mask != 0 {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// plain says, for each byte, whether a JSON string holds it as it is
// (asIs) and whether so too with HTML escaping (asIsHTML): one load a
// byte, where the test of each special character was a branch each. A
// byte from 0x80 begins or continues UTF-8, which is read as a rune.
var plain = func() (t [256]uint8) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		if c == '"' || c == '\\' {
			continue
		}
		t[c] = asIs
		if c != '<' && c != '>' && c != '&' {
			t[c] |= asIsHTML
		}
	}
	return t
}()

const (
	asIs uint8 = 1 << iota
	asIsHTML
)
