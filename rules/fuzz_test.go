package rules

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
)

// fuzzValue turns fuzz bytes into a value: JSON when they parse (numbers as
// json.Number or float64 by the first byte), the text itself otherwise.
func fuzzValue(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	if len(b) > 0 && b[0]%2 == 0 {
		dec.UseNumber()
	}
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(b)
	}
	return v
}

func FuzzFilterEval(f *testing.F) {
	f.Add(uint8(0), []byte(`95`), []byte(`95`), "used")
	f.Add(uint8(2), []byte(`90`), []byte(`"x"`), "a.b")
	f.Add(uint8(6), []byte(`[1,"a",null]`), []byte(`1.0`), "items[0]")
	f.Add(uint8(8), []byte(`"ab"`), []byte(`["ab",2]`), "k")
	f.Add(uint8(11), []byte(`"^a(b|c)*$"`), []byte(`"abcb"`), "k")
	f.Add(uint8(12), []byte(`false`), []byte(`null`), "k.x")
	f.Add(uint8(3), []byte(`18446744073709551615`), []byte(`1e300`), "k")
	ops := Ops()
	f.Fuzz(func(t *testing.T, opByte uint8, expected, actual []byte, path string) {
		op := ops[int(opByte)%len(ops)]
		if opByte >= 200 {
			op = Op(path) // an unknown operator now and then
		}
		exp, act := fuzzValue(expected), fuzzValue(actual)
		env := mapEnv{"k": act, "a": map[string]any{"b": act}, "items": []any{act}, "used": act}

		// The comparison law is total and symmetric.
		if Equal(exp, act) != Equal(act, exp) {
			t.Fatalf("Equal not symmetric on %#v, %#v", exp, act)
		}
		c1, err1 := Compare(exp, act)
		c2, err2 := Compare(act, exp)
		if (err1 == nil) != (err2 == nil) || (err1 == nil && c1 != -c2) {
			t.Fatalf("Compare not antisymmetric on %#v, %#v: %d %v / %d %v", exp, act, c1, err1, c2, err2)
		}
		if err1 == nil && (c1 == 0) != Equal(exp, act) {
			t.Fatalf("Compare = 0 but Equal = %v on %#v, %#v", Equal(exp, act), exp, act)
		}

		flt, err := NewFilter(Where(path, op, exp), Where("k", OpExists, true))
		if err != nil {
			return
		}
		_ = flt.String()
		out := flt.Eval(env)
		if out.Err != "" {
			t.Fatalf("Eval error %q", out.Err)
		}
		if len(out.Conditions) != 2 || out.Matched != (out.Conditions[0].Pass && out.Conditions[1].Pass) {
			t.Fatalf("Matched %v disagrees with conditions %+v", out.Matched, out.Conditions)
		}
		if !out.Conditions[0].Present && out.Conditions[0].Pass && op != OpExists {
			t.Fatalf("a missing key passed %s", op)
		}
		// Pass keeps Eval's marks, whichever way it reaches them.
		bits, matched, ok := flt.Pass(env)
		if !ok || bits != PassBits(out) || matched != out.Matched {
			t.Fatalf("Pass = %b, %v, %v; Eval's marks are %b, %v (%s on %#v)", bits, matched, ok, PassBits(out), out.Matched, flt, act)
		}
	})
}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"volume.replicas < 1 && len(items) > 2",
		"all(items, {.x > 1})",
		"let x = a.b; x + y",
		`$env["x-y"] == 2`,
		"items | filter(.x > 1) | map(.y)",
		`state matches "^de" ? "a" : "b"`,
		"a[b.c].d",
		"1 +",
		`sortBy(items, .y, "desc")`,
		"sort(map(items, .x))",
		`count(items, .z == 1 || #?.w == 2 || (.v ?? 0) > 1)`,
		`volume.name == "x" && volume.nope > 1 || a.b ? volume.replicas : $env.a.b`,
		`first(items)?.X ?? volume?.Name ?? (last(items) ?? {}).Y`,
		`a[state]?.b == nil || count(items, (#?.X ?? 0) > 1) > 0`,
	} {
		f.Add(s)
	}
	env := mapEnv{
		"volume": map[string]any{"replicas": 2, "name": "v0"},
		"items":  []any{map[string]any{"x": 1, "y": "a"}, map[string]any{"x": 3}},
		"state":  "degraded",
		"a":      map[string]any{"b": 1},
		"y":      2.5,
		"n":      json.Number("7"),
	}
	f.Fuzz(func(t *testing.T, src string) {
		// The collector, without Compile's safety net: a panic here is ours.
		if tree, err := parser.ParseWithConfig(src, conf.CreateNew()); err == nil {
			c := collector{src: src}
			c.walk(tree.Node)
		}
		e, err := Compile(src, WithMemoryBudget(100_000))
		if err != nil {
			if _, ok := err.(*CompileError); !ok {
				t.Fatalf("error is %T, want *CompileError", err)
			}
			return
		}
		out := e.Eval(env)
		if out.Matched && out.Err != "" {
			t.Fatal("matched with an error")
		}
		if len(out.Inputs) != len(e.Paths()) {
			t.Fatalf("inputs %v for paths %v", out.Inputs, e.Paths())
		}
		// Every evidence path reads back with Resolve, to the same root.
		for i, p := range e.Paths() {
			segs, err := parsePath(p)
			if err != nil {
				t.Fatalf("path %q does not parse: %v", p, err)
			}
			if !slices.Contains(e.Roots(), segs[0]) {
				t.Fatalf("path %q has root %q, not among %q", p, segs[0], e.Roots())
			}
			if !slices.Equal(segs, e.paths[i].segs) {
				t.Fatalf("path %q parses to %q, compiled as %q", p, segs, e.paths[i].segs)
			}
		}
		_, _ = json.Marshal(out.Inputs)
	})
}
