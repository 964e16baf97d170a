package parse

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// parseJSON is `json`: the one JSON value of the text (jsonv.Unmarshal,
// as the exec stage reads it). Text that is not one JSON value is one
// problem, and the value is the text as it is; a blank text, no value at
// all, is one problem too, and the value is null.
func parseJSON(text string, r *recorder) any {
	if blank(text) {
		// No value is not the value null: a command that printed nothing
		// (curl -s of an empty 503) must not read as JSON's "nothing". The
		// value is null (a foreach over it says its items were null), and
		// the problem says no JSON value was read.
		r.problem(1, text, "no JSON value: the text is blank")
		return nil
	}
	v, err := decodeOne(text)
	if err != nil {
		if n := jsonValues(text); errors.Is(err, jsonv.ErrTrailing) && n > 1 {
			r.problem(1, firstLine(text), fmt.Sprintf("not one JSON value: the text is %d JSON values one after another, no list around them (as go list -json and docker inspect -f '{{json .}}' over several print them); make them one list, … | jq -s ., or use jsonl where each is on a line of its own", n))
			return text
		}
		r.problem(1, firstLine(text), "not JSON ("+err.Error()+")")
		return text
	}
	return v
}

// jsonValues is how many JSON values text holds one after another, with
// nothing but blanks between them; 0 when any of it is not JSON.
func jsonValues(text string) int {
	d := json.NewDecoder(strings.NewReader(text))
	n := 0
	for {
		var v json.RawMessage
		if err := d.Decode(&v); err == io.EOF {
			return n
		} else if err != nil {
			return 0
		}
		n++
	}
}

// parseJSONL is `jsonl`: a list, one JSON value per non-blank line.
func parseJSONL(text string, r *recorder) any {
	out := []any{}
	for i, s := range lines(text) {
		if blank(s) {
			continue
		}
		v, err := decodeOne(s)
		if err != nil {
			r.problem(i+1, s, "not one JSON value ("+err.Error()+")")
			continue
		}
		out = append(out, v)
	}
	return out
}

// decodeOne decodes text that holds exactly one JSON value, as
// jsonv.Unmarshal reads one: numbers settled by jsonv.Decoded (an int, the
// digits of a whole number no float64 prints, else a float64:
// before, every number was a float64, and 9007199254740993 read as …992
// in a verdict row the standing called Consistent), nesting bounded by
// jsonv.MaxDepth, and anything after the value an error.
func decodeOne(text string) (any, error) {
	return jsonv.Unmarshal([]byte(text))
}

func firstLine(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
