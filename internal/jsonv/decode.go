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
// float64 prints, else a float64), anything after the value an error
// (ErrTrailing), and so are an object that names one key twice
// (*DuplicateKeyError) and a string escaping half a UTF-16 pair
// (*SurrogateError): encoding/json would keep one value, or read U+FFFD,
// in silence. It is the one reader of JSON text from outside — a
// command's `parse: json`, an input given as JSON (--input, --inputs, an
// MCP tool's arguments) — so that one value read two ways is one value:
// before, a tool call's 100000000 was a float64, and string(id) said
// "1e+08" where `runbook exec --input id=100000000` said "100000000".
//
//	Unmarshal([]byte(`{"id": 100000000}`))   map[id:100000000 (int)], nil
//	Unmarshal([]byte(`1 2`))                 nil, ErrTrailing
//	Unmarshal([]byte(`{"a": 1, "a": 2}`))    nil, *DuplicateKeyError
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
	if err := sound(data); err != nil {
		return nil, err
	}
	return settleNumbers(v), nil
}

// sound says whether data, one JSON value encoding/json reads, means one
// thing: no object names a key twice (*DuplicateKeyError), no string
// escapes half a UTF-16 pair (*SurrogateError). Unmarshal and DecodePlain,
// the two readers of JSON from outside, both ask it.
func sound(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber() // 1e999 is a number here, not a float64 that overflows
	if err := uniqueKeys(d, data); err != nil {
		return err
	}
	return loneSurrogate(data)
}

// loneSurrogate says where a string of data's first JSON value escapes
// half of a UTF-16 pair with no other half ("\ud83d", an emoji cut by a
// writer that slices UTF-16): no text holds it, encoding/json reads it as
// U+FFFD, and two different strings ("\ud83d", "\udfff") would read as
// one. data is one valid JSON value (Unmarshal checked it); the scan
// stops at its end.
func loneSurrogate(data []byte) error {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if !inString {
			switch c {
			case '"':
				inString = true
			case '[', '{':
				depth++
			case ']', '}':
				if depth--; depth == 0 {
					return nil
				}
			}
			continue
		}
		switch {
		case c == '"':
			if inString = false; depth == 0 {
				return nil
			}
		case c == '\\' && i+5 < len(data) && data[i+1] == 'u':
			r := hex4(data[i+2:])
			switch {
			case r >= 0xd800 && r < 0xdc00:
				if i+11 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
					if lo := hex4(data[i+8:]); lo >= 0xdc00 && lo < 0xe000 {
						i += 11
						continue
					}
				}
				return &SurrogateError{Escape: string(data[i : i+6]), Offset: i}
			case r >= 0xdc00 && r < 0xe000:
				return &SurrogateError{Escape: string(data[i : i+6]), Offset: i}
			}
			i += 5
		case c == '\\':
			i++ // the escaped character, a quote or a backslash among them
		}
	}
	return nil
}

// hex4 is the \u escape's four hex digits at b's start (valid JSON has them).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		}
	}
	return r
}

// SurrogateError is a string that escapes half of a UTF-16 pair alone.
type SurrogateError struct {
	Escape string // "\ud83d"
	Offset int    // the byte its backslash is at
}

func (e *SurrogateError) Error() string {
	return fmt.Sprintf("a string escapes %s at byte %d, half of a UTF-16 pair with no other half, which no text holds: it would read as U+FFFD, and two different strings as one", e.Escape, e.Offset)
}

// ErrTrailing is Unmarshal's error for text after the one JSON value.
var ErrTrailing = errors.New("text follows the value")

// DuplicateKeyError is an object that names one key twice with two
// different values, {"status":"ok","status":"failed"}. RFC 8259 leaves
// what it means to the reader: encoding/json keeps the last, others the
// first, so which value the writer meant is not known, and Unmarshal
// refuses it rather than drop one in silence. A key named twice with the
// same value, as written ({"flags":["UP"],"flags":["UP"]}, whitespace
// aside), means one thing whichever is kept, and is read.
type DuplicateKeyError struct {
	Key    string
	Offset int64 // the byte just past its second naming
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("an object names the key %q twice with two different values (the second naming ends at byte %d): which was meant is not known", e.Key, e.Offset)
}

// uniqueKeys reads d's first JSON value (data is d's input) token by token
// and says the first key an object names twice with values written
// differently (*DuplicateKeyError). d is left just past the value.
func uniqueKeys(d *json.Decoder, data []byte) error {
	type frame struct {
		values  map[string][]byte // each key's value as written; nil in a list
		wantKey bool
		key     string
		from    int64 // just past the key's naming
	}
	var stack []frame
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		if n := len(stack); n > 0 && stack[n-1].values != nil && stack[n-1].wantKey {
			if k, ok := tok.(string); ok {
				top := &stack[n-1]
				top.key, top.from, top.wantKey = k, d.InputOffset(), false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{values: map[string][]byte{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: the object around it keeps it, and wants a key next.
		if len(stack) == 0 {
			return nil
		}
		if top := &stack[len(stack)-1]; top.values != nil {
			v := bytes.TrimLeft(data[top.from:d.InputOffset()], " \t\r\n:")
			if first, named := top.values[top.key]; named && !sameText(first, v) {
				return &DuplicateKeyError{Key: top.key, Offset: top.from}
			}
			top.values[top.key], top.wantKey = v, true
		}
	}
}

// sameText says whether two JSON values are written alike, whitespace
// aside: what a reader keeps of either is the same.
func sameText(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}
