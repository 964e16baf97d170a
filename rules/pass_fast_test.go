package rules

import (
	"encoding/json"
	"math"
	"testing"
)

// Pass answers an int, float or string operand directly; its marks must
// be the operator table's for every actual value, those it answers and
// those it hands on (other kinds, NaN, integers past 2^53).
func TestPassKeepsTheOperatorTablesMarks(t *testing.T) {
	operands := []any{0, 90, -3, 1 << 60, (1 << 53) + 1, 90.0, 90.5, math.Copysign(0, -1), math.Inf(1), "degraded", "", 1e300}
	actuals := []any{nil, 0, 90, 91, 89, -3, 1 << 60, (1 << 53) + 1, 1 << 53, 90.0, 90.5, 89.99, math.Copysign(0, -1), math.NaN(), math.Inf(-1), math.Inf(1),
		"degraded", "Degraded", "90", "", true, json.Number("90"), json.Number("90.0"), int64(90), []any{90}, map[string]any{"a": 1}, 1e300}
	for _, op := range []Op{OpEq, OpNe, OpGt, OpGte, OpLt, OpLte} {
		for _, exp := range operands {
			f, err := NewFilter(Where("k", op, exp))
			if err != nil {
				continue
			}
			for _, act := range actuals {
				env := mapEnv{"k": act}
				bits, matched, ok := f.Pass(env)
				out := f.Eval(env)
				if !ok || bits != PassBits(out) || matched != out.Matched {
					t.Errorf("k %s %#v on %#v: Pass = %b %v; Eval = %b %v (%s)", op, exp, act, bits, matched, PassBits(out), out.Matched, out.Conditions[0].Reason)
				}
			}
		}
	}
}
