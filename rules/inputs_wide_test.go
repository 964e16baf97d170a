package rules

import (
	"encoding/json"
	"testing"
)

// TestInputsReadBackKeepWideIntegers: an expression rule's evidence read
// back from a record (runbook explain) held its values as float64s, so two
// interface counters one apart past 2^53 (ip -j -s link's rx bytes,
// 9007199254740993 and 9007199254740992) were shown equal beside a ✗ that
// said they were not, and 18446744073709551615 was shown as
// 18446744073709552000. The evidence must read back as the run held it.
func TestInputsReadBackKeepWideIntegers(t *testing.T) {
	t.Parallel()
	text := `{"a2":9007199254740993,"b2":9007199254740992,"after":18446744073709551615,"load":0.7,"n":3,"s":"x","l":[9007199254740993]}`
	var in Inputs
	if err := json.Unmarshal([]byte(text), &in); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != text {
		t.Errorf("inputs read back and written again:\n got %s\nwant %s", got, text)
	}
	if v, ok := in[0].Value.(int); !ok || v != 9007199254740993 {
		t.Errorf("a2 read back as %T %v, want the int 9007199254740993", in[0].Value, in[0].Value)
	}
	if v, ok := in[4].Value.(int); !ok || v != 3 {
		t.Errorf("n read back as %T %v, want the int 3, as the run's log holds it", in[4].Value, in[4].Value)
	}
}
