package rules

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// TestNumbersAgreeWithJSONV: every value jsonv counts as a Number the
// comparison classes as a number, and every JSON-shaped value it does not,
// the comparison does not either (see classOf for why the two stay apart).
func TestNumbersAgreeWithJSONV(t *testing.T) {
	t.Parallel()
	type port int
	for _, v := range []any{
		nil, true, "3", []any{1}, map[string]any{"a": 1},
		int(1), int8(1), int16(1), int32(1), int64(1),
		uint(1), uint8(1), uint16(1), uint32(1), uint64(math.MaxUint64), uintptr(1),
		float32(1), float64(1), math.NaN(), json.Number("2.5"), port(80), time.Second,
	} {
		if got, want := classOf(v) == classNumber, jsonv.Of(v) == jsonv.Number; got != want {
			t.Errorf("%#v: rules says number=%v, jsonv says %v", v, got, want)
		}
	}
}
