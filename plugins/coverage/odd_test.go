package coverage

import (
	"math"
	"testing"
)

// Values a Go stage might hand over that JSON never produces: none may
// panic any of the three walkers.
func TestOddGoValuesNeverPanic(t *testing.T) {
	t.Parallel()
	var nilMap map[string]any
	values := []any{
		nil, nilMap, []any(nil), math.NaN(), make(chan int), func() {},
		map[string]any{"af_coverage": nilMap, "result": nilMap},
		map[string]any{"af_coverage": map[string]any{"period": nilMap, "in_progress": []any{map[string]any{"what": "x", "count": math.Inf(1)}}}},
		map[string]any{"af_coverage": map[string]any{"in_progress": []any{map[string]any{"what": "x", "count": uint64(math.MaxUint64)}}}},
		map[string]any{"af_coverage": map[string]any{"in_progress": []string{"a", ""}}},
		map[string]any{"af_absent": true, "checked": []string{"a"}, "period": map[string]any{"queried": nilMap, "held": []any{}}},
		map[string]any{"af_absent": true, "checked": []any{map[string]any{"what": "a", "short": 3}}},
		map[string]any{"af_absent": true, "checked": []any{"a"}, "note": make(chan int), "period": map[string]any{"verdict": func() {}}},
		map[string]any{"af_coverage": map[string]any{"period": map[string]any{"verdict": 7}, "note": "x"}},
	}
	for _, v := range values {
		Read(v, func(Warning) {})
		Serve(v)
		Unserve(v)
		strip(v)
	}
}

func TestReadAndServeCostNothingForOrdinaryData(t *testing.T) {
	v := map[string]any{"rows": []any{1.0, 2.0}, "note": "x"}
	if n := testing.AllocsPerRun(100, func() { Read(v, nil) }); n != 0 {
		t.Errorf("Read allocated %v times for ordinary data", n)
	}
	if n := testing.AllocsPerRun(100, func() { Serve(v) }); n != 0 {
		t.Errorf("Serve allocated %v times for ordinary data", n)
	}
}
