package chart

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
)

// checkLeadingZeros refuses a plain whole number written with a leading
// zero (0443, 0755, -010): the YAML parser reads it as YAML 1.1's octal,
// where YAML 1.2 and a person read it as decimal, so `port: 0443` in a
// chart's default, vars, set: or an --inputs file was the number 291 and a
// TCP check connected to port 291, while `--input port=0443` gave 443
// (TestYAMLLeadingZeroNumberIsRefused). The number is refused, never
// guessed: 0o443 is the octal number (291), 443 the decimal one, and a
// quoted '0443' the text. A leading zero followed by an 8 or a 9 (08080)
// is no octal, and the parser already keeps it as the text written; 00
// to 07 are one number read either way.
//
//	port: 0443     error: … write 443 for the number 443, 0o443 for the octal number 291, or '0443' for the text
//	port: 0o443    the number 291
//	mode: '0644'   the text 0644
func (l *loader) checkLeadingZeros(tks token.Tokens) bool {
	return l.fileAll(leadingZeros(l.file, tks))
}

// LeadingZeros is the same refusal for any YAML file runbook reads
// besides a chart (an --inputs file, a chart test file), one LoadError a
// number, at the number.
func LeadingZeros(file string, src []byte) LoadErrors {
	return leadingZeros(file, lexer.Tokenize(string(src)))
}

// leadingZeros finds each plain number the parser reads as octal without
// a 0o (checkLeadingZeros).
func leadingZeros(file string, tks token.Tokens) LoadErrors {
	var errs LoadErrors
	for _, tk := range tks {
		if tk == nil || tk.Position == nil || tk.Type != token.OctetIntegerType {
			continue
		}
		text := tk.Value
		digits := strings.TrimLeft(text, "+-")
		dec := strings.TrimLeft(digits, "0")
		if !strings.HasPrefix(digits, "0") || strings.HasPrefix(digits, "0o") || len(dec) < 2 {
			continue // 0o443 says octal; 00 and 07 are one number either way
		}
		sign := text[:len(text)-len(digits)]
		oct, err := strconv.ParseInt(dec, 8, 64)
		if err != nil {
			continue // the parser did not read it as octal either
		}
		if sign == "-" {
			oct = -oct
		}
		if sign == "+" {
			sign = ""
		}
		errs = append(errs, &LoadError{
			Pos: Pos{File: file, Line: max(tk.Position.Line, 1), Col: max(tk.Position.Column, 1)},
			Msg: fmt.Sprintf("the YAML parser reads %s, a number with a leading zero, as an octal number (%d), where a person and YAML 1.2 read it as %s%s; write %s%s for the number %s%s, %s0o%s for the octal number %d, or '%s' (quoted) for the text",
				text, oct, sign, dec, sign, dec, sign, dec, sign, dec, oct, text),
		})
	}
	return errs
}
