package rules

import "testing"

func BenchmarkFilterEval(b *testing.B) {
	env := mapEnv{"used": 95, "state": "degraded", "volume": map[string]any{"replicas": 2}}
	b.Run("1-condition", func(b *testing.B) {
		f := MustFilter(Where("used", OpGt, 90))
		b.ReportAllocs()
		for b.Loop() {
			f.Eval(env)
		}
	})
	b.Run("2-conditions", func(b *testing.B) {
		f := MustFilter(Where("used", OpGt, 90), Where("state", OpEq, "degraded"))
		b.ReportAllocs()
		for b.Loop() {
			f.Eval(env)
		}
	})
	b.Run("dotted-path", func(b *testing.B) {
		f := MustFilter(Where("volume.replicas", OpLt, 1))
		b.ReportAllocs()
		for b.Loop() {
			f.Eval(env)
		}
	})
}

func BenchmarkExprEval(b *testing.B) {
	env := mapEnv{"used": 95, "state": "degraded", "volume": map[string]any{"replicas": 2},
		"items": []any{1, 2, 3}}
	b.Run("member", func(b *testing.B) {
		e := MustCompile("volume.replicas < 1")
		b.ReportAllocs()
		for b.Loop() {
			e.Eval(env)
		}
	})
	b.Run("and-len", func(b *testing.B) {
		e := MustCompile(`used > 90 && state == "degraded" && len(items) > 2`)
		b.ReportAllocs()
		for b.Loop() {
			e.Eval(env)
		}
	})
}

func BenchmarkEqual(b *testing.B) {
	b.Run("int", func(b *testing.B) {
		b.ReportAllocs()
		var x, y any = 5, 5
		for b.Loop() {
			Equal(x, y)
		}
	})
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		x := map[string]any{"a": 1, "b": "x", "c": []any{1.0, 2}}
		y := map[string]any{"a": 1.0, "b": "x", "c": []any{1, 2}}
		for b.Loop() {
			Equal(x, y)
		}
	})
}
