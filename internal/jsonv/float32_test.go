package jsonv

import (
	"encoding/json"
	"testing"
)

// TestFloat32IsTheNumberItIsWrittenAs: a Go stage that set a float32
// (a load average, a temperature read with ParseFloat(s, 32)) had its
// value written as 0.7 on every record, but judged as the binary value
// widened, 0.699999988079071: Equal(float32(0.7), 0.7) was false and
// 0.7 ordered above it. A number is judged as it is written.
func TestFloat32IsTheNumberItIsWrittenAs(t *testing.T) {
	type ratio float32
	for _, v := range []any{float32(0.7), ratio(0.7), new(float32(0.7))} {
		text, err := json.Marshal(v)
		if err != nil || string(text) != "0.7" {
			t.Fatalf("%T is written as %s (%v), want 0.7", v, text, err)
		}
		if !EqualGo(v, 0.7) || !EqualGo(0.7, v) {
			t.Errorf("EqualGo(%T 0.7, 0.7) = false: the value written as 0.7 is not 0.7", v)
		}
		a, _ := ExactNumber(v)
		if c, ok := CompareExact(a, ExactFloat(0.7)); !ok || c != 0 {
			t.Errorf("CompareExact(%T 0.7, 0.7) = %d, want 0", v, c)
		}
	}
	for _, v := range []any{float32(0.7), ratio(0.7)} {
		if f, ok := Float(v); !ok || f != 0.7 {
			t.Errorf("Float(%T 0.7) = %v, want 0.7", v, f)
		}
	}
	if !Equal([]any{float32(0.1)}, []any{0.1}) {
		t.Error("Equal([float32 0.1], [0.1]) = false")
	}
	if EqualGo(float32(0.7), 0.699999988079071) {
		t.Error("float32(0.7) equals the binary value it is not written as")
	}
}
