package rules

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// MarshalJSON writes the inputs as one JSON object whose keys keep their
// order: {"volume.replicas": 2, "items": [...]}. Empty inputs are {}.
func (in Inputs) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, x := range in {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(x.Path)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(x.Value)
		if err != nil {
			return nil, fmt.Errorf("input %q: %w", x.Path, err)
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads a JSON object back into inputs in document order.
// Numbers are settled as the run's log settles them (jsonv.Settle: a whole
// number that fits is an int, exactly), never as float64s: an interface
// counter past 2^53 read back as a float64 was shown one off by runbook
// explain, two counters one apart equal beside a ✗ that said they were not
// (TestInputsReadBackKeepWideIntegers). null leaves nil inputs.
func (in *Inputs) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("inputs: %w", err)
	}
	if tok == nil {
		*in = nil
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("inputs: want a JSON object, got %v", tok)
	}
	out := Inputs{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("inputs: %w", err)
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("inputs: want a key, got %v", tok)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("inputs: %q: %w", key, err)
		}
		out = append(out, Input{Path: key, Value: jsonv.Settle(v)})
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("inputs: %w", err)
	}
	*in = out
	return nil
}
