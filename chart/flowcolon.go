package chart

import (
	"fmt"
	"strconv"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
)

// checkFlowColons refuses a plain value with a ":" in it, written with no
// space after the colon, inside a [...] list that is itself inside a
// {...} map: the YAML parser splits it there into a map of one key, where
// YAML reads one text (a colon is a mapping's only when a space follows
// it). `exec: {command: [curl, -s, http://127.0.0.1:8080/health]}`, the
// first line of an HTTP check, was refused with "exec command argument 3
// must be text, not a map", which names a map nobody wrote, and a
// plugin's `args: {urls: [http://a:8080, http://b:8080]}` reached the
// plugin as two maps. The same list outside a {...} map is read as
// written, and so is a quoted value; a quoted key ("a":1) is a map as
// YAML says.
//
//	exec: {command: [curl, http://h:80]}   error: … quote it: "http://h:80"
//	exec: {command: [curl, "http://h:80"]} the text http://h:80
func (l *loader) checkFlowColons(tks token.Tokens) bool {
	return l.fileAll(flowColons(l.file, tks))
}

// fileAll files each of errs, a refusal of the chart's tokens (flowColons,
// leadingZeros), and says whether there were none.
func (l *loader) fileAll(errs LoadErrors) bool {
	for _, e := range errs {
		l.errf(e.Pos, "", "%s", e.Msg)
	}
	return len(errs) == 0
}

// FlowColons is the same refusal for any YAML file runbook reads besides
// a chart (a chart test file), one LoadError a value, at the value.
func FlowColons(file string, src []byte) LoadErrors {
	return flowColons(file, lexer.Tokenize(string(src)))
}

// flowColons finds each plain value the parser would split at a colon
// (checkFlowColons).
func flowColons(file string, tks token.Tokens) LoadErrors {
	var errs LoadErrors
	var open []token.Type // the flow collections open at each token
	inMap := 0            // how many of them are {...} maps
	for i, tk := range tks {
		if tk == nil || tk.Position == nil {
			continue
		}
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			open = append(open, tk.Type)
			if tk.Type == token.MappingStartType {
				inMap++
			}
		case token.SequenceEndType, token.MappingEndType:
			if n := len(open); n > 0 {
				if open[n-1] == token.MappingStartType {
					inMap--
				}
				open = open[:n-1]
			}
		case token.MappingValueType:
			if len(open) == 0 || open[len(open)-1] != token.SequenceStartType || inMap == 0 || i == 0 || i+1 >= len(tks) {
				continue
			}
			if e := leadingColon(file, tks[i-1], tk, tks[i+1]); e != nil {
				errs = append(errs, e)
				continue
			}
			key, val := tks[i-1], tks[i+1]
			if key == nil || val == nil || key.Position == nil || val.Position == nil || !plainScalar(key) || !plainScalar(val) {
				continue
			}
			if val.Position.Line != tk.Position.Line || val.Position.Column != tk.Position.Column+1 {
				continue // "a: 1" is the map YAML says it is
			}
			text := key.Value + ":" + val.Value
			errs = append(errs, &LoadError{
				Pos: Pos{File: file, Line: max(key.Position.Line, 1), Col: max(key.Position.Column, 1)},
				Msg: fmt.Sprintf("the YAML parser reads %s inside this [...] list as a map (%s: %s), not the text written: inside a {...} map it splits a plain value at a \":\"; quote it: %s", text, strconv.Quote(key.Value), val.Value, strconv.Quote(text)),
			})
		}
	}
	return errs
}

// leadingColon is the refusal of a plain value that begins with ":" (an
// IPv6 address, ::1, ::ffff:10.0.0.1) inside a [...] list within a {...}
// map: the parser takes that colon for a map's, with no key before it, and
// said only "found an invalid key for this map" (TestIPv6InAFlowListSaysQuoteIt).
// nil when the ":" follows a key, or the value is not glued to it.
func leadingColon(file string, before, colon, val *token.Token) *LoadError {
	if before == nil || val == nil || val.Position == nil || !plainScalar(val) {
		return nil
	}
	if before.Type != token.CollectEntryType && before.Type != token.SequenceStartType {
		return nil // a key before the colon: flowColons' case
	}
	if val.Position.Line != colon.Position.Line || val.Position.Column != colon.Position.Column+1 {
		return nil
	}
	text := ":" + val.Value
	return &LoadError{
		Pos: Pos{File: file, Line: max(colon.Position.Line, 1), Col: max(colon.Position.Column, 1)},
		Msg: fmt.Sprintf("the YAML parser cannot read %s inside this [...] list as the text written: inside a {...} map it takes the \":\" it begins with for a map's; quote it: %s", text, strconv.Quote(text)),
	}
}

// plainScalar reports whether a token is a scalar written without quotes.
func plainScalar(tk *token.Token) bool {
	switch tk.Type {
	case token.StringType, token.IntegerType, token.FloatType, token.BoolType, token.NullType,
		token.BinaryIntegerType, token.OctetIntegerType, token.HexIntegerType, token.InfinityType, token.NanType:
		return true
	}
	return false
}
