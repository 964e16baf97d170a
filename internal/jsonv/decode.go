package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxDepth is how deep a JSON value from outside (a command's stdout with
// `parse: json`) may nest: 512 lists and objects within each other.
// encoding/json stops at 10,000 itself, but a value just under that
// decodes, and then the record that holds it, a few levels deeper, cannot
// be written (`--format json` and `--record` failed on a 9,999-deep
// `[[[…]]]`). 512 is far past any real document and leaves the record
// room.
const MaxDepth = 512

// DepthError is a JSON value that nests past MaxDepth.
type DepthError struct {
	Offset int // the byte where it passed MaxDepth
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("the JSON nests more than %d lists and objects deep (at byte %d)", MaxDepth, e.Offset)
}

// Decode decodes the first JSON value of data, as json.Decoder.Decode
// does (what follows it is not read), refusing one that nests past
// MaxDepth with a *DepthError before decoding it. Its numbers are
// json.Number, their digits as the text spells them, for the caller to
// settle (a float64 cannot hold every one: 9007199254740993 would read as
// …992). Its cost is linear in data.
//
//	Decode([]byte(`{"a": [1, 2]}`))          map[a:[json.Number(1) json.Number(2)]], nil
//	Decode(bytes.Repeat([]byte("["), 600))    nil, *DepthError
func Decode(data []byte) (any, error) {
	if off, ok := firstValueWithin(data, MaxDepth); !ok {
		return nil, &DepthError{Offset: off}
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// firstValueWithin scans the first JSON value of data (strings skipped)
// and reports whether it nests at most max deep; if not, the offset where
// it passed. Malformed text is left to the decoder.
func firstValueWithin(data []byte, max int) (int, bool) {
	depth, inString, escaped := 0, false, false
	for i, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if depth == 0 {
					return 0, true
				}
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			if depth > max {
				return i, false
			}
		case c == ']' || c == '}':
			depth--
			if depth <= 0 {
				return 0, true
			}
		}
	}
	return 0, true
}

// Unmarshal reads data that holds exactly one JSON value as this module
// holds JSON values: nesting bounded as Decode bounds it, every number
// settled by Decoded (an int when whole, the digits of a whole number no
// float64 prints, else a float64), and anything after the value an error
// (ErrTrailing). It is the one reader of JSON text from outside — a
// command's `parse: json`, an input given as JSON (--input, --inputs, an
// MCP tool's arguments) — so that one value read two ways is one value:
// before, a tool call's 100000000 was a float64, and string(id) said
// "1e+08" where `runbook exec --input id=100000000` said "100000000".
//
//	Unmarshal([]byte(`{"id": 100000000}`))   map[id:100000000 (int)], nil
//	Unmarshal([]byte(`1 2`))                 nil, ErrTrailing
func Unmarshal(data []byte) (any, error) {
	v, err := Decode(data)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(data))
	var skip json.RawMessage
	if err := d.Decode(&skip); err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, ErrTrailing
	}
	return settleNumbers(v), nil
}

// ErrTrailing is Unmarshal's error for text after the one JSON value.
var ErrTrailing = errors.New("text follows the value")
