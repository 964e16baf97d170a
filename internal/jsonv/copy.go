package jsonv

// Copy is v with every list ([]any) and object (map[string]any) in it
// copied, so that whoever holds the copy can change it, or keep it, without
// reaching the original. Other values are returned as they are: they are
// immutable (numbers, text, time) or not JSON values (a typed slice a Go
// caller nested in a list is not copied).
//
// A run's inputs are copied when the run starts (runbook's convertInput):
// a compiled chart's list default, and a caller's input map, were the very
// maps the run's state and record held, so a caller that edited a result's
// record (res.Record.State["hosts"]) edited the default every later run of
// the chart started from, and a caller that reused its input map after a
// run changed what that run's saved record said it was given.
//
//	Copy([]any{map[string]any{"n": 1}})   a new list holding a new object
//	Copy("x")                             "x"
func Copy(v any) any {
	switch x := v.(type) {
	case []any:
		if x == nil {
			return x
		}
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = Copy(e)
		}
		return c
	case map[string]any:
		if x == nil {
			return x
		}
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = Copy(e)
		}
		return c
	}
	return v
}
