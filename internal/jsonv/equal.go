package jsonv

// Equal reports whether a and b are the same JSON value: numbers by value
// whatever their Go type (3, 3.0 and json.Number("3") are one number),
// lists element by element, objects key by key. It is how a plugin
// argument's enum is matched, where a chart's 3 and a plugin's declared
// 3.0 must agree.
//
//	Equal(3, 3.0)                                true
//	Equal([]any{"a", 1}, []any{"a", 1.0})        true
//	Equal("3", 3)                                false
func Equal(a, b any) bool {
	ka, kb := Of(a), Of(b)
	if ka != kb || ka == Invalid {
		return false
	}
	switch ka {
	case Null:
		return true
	case Number:
		x, _ := Float(a)
		y, _ := Float(b)
		return x == y
	case Bool:
		x, _ := a.(bool)
		y, _ := b.(bool)
		return x == y
	case String:
		x, _ := a.(string)
		y, _ := b.(string)
		return x == y
	case List:
		x, _ := a.([]any)
		y, _ := b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case Object:
		x, _ := a.(map[string]any)
		y, _ := b.(map[string]any)
		if len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !Equal(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}
