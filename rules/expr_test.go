package rules

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		{"empty", "", 1, 1, "unexpected token EOF"},
		{"dangling operator", "a <", 1, 3, "unexpected token EOF"},
		{"second line", "1 +\n  (", 2, 3, "unexpected token EOF"},
		{"unknown function", "x > 1 && exec(\"ls\")", 1, 10, "unknown function exec"},
		{"host package", `os.Getenv("HOME")`, 0, 0, ""}, // a method call on a missing value: a runtime error, below
		{"unknown function in closure", "all(items, {system(.x)})", 1, 13, "unknown function system"},
		{"too many nodes", strings.Repeat("1 + ", 40) + "1", 1, 0, "exceeds maximum allowed nodes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Compile(tc.src, WithMaxNodes(50))
			if tc.msg == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("error = %v (%T), want *CompileError", err, err)
			}
			if ce.Src != tc.src || !strings.Contains(ce.Msg, tc.msg) {
				t.Fatalf("CompileError = %+v, want msg %q", ce, tc.msg)
			}
			if ce.Line != tc.line || (tc.col != 0 && ce.Column != tc.col) {
				t.Fatalf("at %d:%d, want %d:%d", ce.Line, ce.Column, tc.line, tc.col)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("Error() = %q", err.Error())
			}
		})
	}
}

func TestExprPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src   string
		paths []string
		roots []string
	}{
		{"volume.replicas < 1 && len(items) > 2", []string{"volume.replicas", "items"}, []string{"volume", "items"}},
		{"all(items, {.x > 1})", []string{"items"}, []string{"items"}},
		{"all(items, #.x > threshold)", []string{"items", "threshold"}, []string{"items", "threshold"}},
		{"items | filter(.x > 1) | map(.y)", []string{"items"}, []string{"items"}},
		{"reduce(items, #acc + #, 0)", []string{"items"}, []string{"items"}},
		{"let x = a.b; x + y + x.c", []string{"a.b", "y"}, []string{"a", "y"}},
		{"a.b.c + a.b.c + a", []string{"a.b.c", "a"}, []string{"a"}},
		{`x["y"] + x["y-z"]`, []string{"x.y", `x["y-z"]`}, []string{"x"}},
		{"items[0].name", []string{"items[0].name"}, []string{"items"}},
		{"a[b.c].d", []string{"a", "b.c"}, []string{"a", "b"}},
		{"a.b[i].c", []string{"a.b", "i"}, []string{"a", "i"}},
		{"items[-1]", []string{"items"}, []string{"items"}},
		{"a?.b.c", []string{"a.b.c"}, []string{"a"}},
		{`$env.a.b > 1 && $env["x-y"] == 2`, []string{"a.b", `["x-y"]`}, []string{"a", "x-y"}},
		{"now().Year() > 2000", nil, nil},
		{"len([1, 2, q]) > 0 ? m : {k: n}", []string{"q", "m", "n"}, []string{"q", "m", "n"}},
		{"true", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			e, err := Compile(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Paths(); !slices.Equal(got, tc.paths) {
				t.Errorf("Paths() = %q, want %q", got, tc.paths)
			}
			if got := e.Roots(); !slices.Equal(got, tc.roots) {
				t.Errorf("Roots() = %q, want %q", got, tc.roots)
			}
		})
	}
}

func TestExprEval(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"volume": map[string]any{"replicas": 2, "name": "v0"},
		"items":  []any{map[string]any{"x": 1}, map[string]any{"x": 3}, map[string]any{"x": 5}},
		"used":   95,
		"state":  "degraded",
		"x-y":    7,
	}
	tests := []struct {
		name    string
		src     string
		matched bool
		result  any
		inputs  Inputs
		err     string
	}{
		{"match", "volume.replicas < 3 && len(items) > 2", true, true,
			Inputs{{"volume.replicas", 2}, {"items", env["items"]}}, ""},
		{"no match", "volume.replicas < 1", false, false, Inputs{{"volume.replicas", 2}}, ""},
		{"closure", "all(items, {.x > 0})", true, true, Inputs{{"items", env["items"]}}, ""},
		{"string ops", `state startsWith "deg" and used > 90`, true, true, Inputs{{"state", "degraded"}, {"used", 95}}, ""},
		{"missing member is nil", "volume.missing == nil", true, true, Inputs{{"volume.missing", nil}}, ""},
		{"missing root", "nope == nil", true, true, Inputs{{"nope", nil}}, ""},
		{"dashed key", `$env["x-y"] == 7`, true, true, Inputs{{`["x-y"]`, 7}}, ""},
		{"runtime error", "nope.deeper > 1", false, nil, Inputs{{"nope.deeper", nil}}, `cannot read the member "deeper" of null: the value before it is null (a member its object lacks, or a key that holds null); where it may be absent, read on with ?.deeper and give a default with ?? (1:6)`},
		{"type error at run", "state > 1", false, nil, Inputs{{"state", "degraded"}}, "a number cannot be ordered with a text"},
		{"non-bool", "volume.name", false, "v0", Inputs{{"volume.name", "v0"}}, `the rule must be true or false; it gave a string ("v0")`},
		{"null result", "nope", false, nil, Inputs{{"nope", nil}}, "the rule must be true or false; it gave null"},
		{"memory budget", "len(map(1..100000000, #)) > 0", false, nil, nil, "memory budget exceeded"},
		{"host function via value", `os.Getenv("HOME") != ""`, false, nil, Inputs{{"os", nil}}, `cannot read the member "Getenv" of null`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := Compile(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			out := e.Eval(env)
			if out.Matched != tc.matched || !Equal(out.Result, tc.result) {
				t.Fatalf("matched=%v result=%#v err=%q; want %v %#v", out.Matched, out.Result, out.Err, tc.matched, tc.result)
			}
			if out.Expr != tc.src {
				t.Fatalf("Expr = %q", out.Expr)
			}
			if tc.err == "" && out.Err != "" || !strings.Contains(out.Err, tc.err) {
				t.Fatalf("Err = %q, want %q", out.Err, tc.err)
			}
			if len(out.Inputs) != len(tc.inputs) {
				t.Fatalf("inputs = %v, want %v", out.Inputs, tc.inputs)
			}
			for i := range tc.inputs {
				if out.Inputs[i].Path != tc.inputs[i].Path || !Equal(out.Inputs[i].Value, tc.inputs[i].Value) {
					t.Fatalf("inputs = %v, want %v", out.Inputs, tc.inputs)
				}
			}
		})
	}
}

func TestExprReadsEachRootOnce(t *testing.T) {
	t.Parallel()
	env := newCountEnv(map[string]any{
		"volume": map[string]any{"replicas": 2, "size": 10},
		"items":  []any{1, 2, 3},
		"unused": 1,
	})
	e := MustCompile("volume.replicas < 3 && volume.size > 1 && len(items) > 2 && all(items, # > 0) && volume.replicas > 0")
	out := e.Eval(env)
	if !out.Matched {
		t.Fatalf("%+v", out)
	}
	want := map[string]int{"volume": 1, "items": 1}
	if len(env.gets) != len(want) || env.gets["volume"] != 1 || env.gets["items"] != 1 {
		t.Fatalf("reads = %v, want %v", env.gets, want)
	}
}

func TestExprValue(t *testing.T) {
	t.Parallel()
	e := MustCompile(`{"n": len(items), "first": items[0]}`)
	v, in, err := e.Value(mapEnv{"items": []any{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if !Equal(v, map[string]any{"n": 2, "first": "a"}) {
		t.Fatalf("value = %#v", v)
	}
	if len(in) != 2 || in[0].Path != "items" || in[1].Path != "items[0]" || in[1].Value != "a" {
		t.Fatalf("inputs = %v", in)
	}
	if e.String() != `{"n": len(items), "first": items[0]}` {
		t.Fatalf("String() = %q", e.String())
	}
	// $env as a value is not recycled under the caller.
	whole := MustCompile(`$env`)
	v, _, err = whole.Value(mapEnv{"a": 1})
	if err != nil {
		t.Fatal(err)
	}
	MustCompile("a + b").Value(mapEnv{"a": 1, "b": 2})
	if m, ok := v.(map[string]any); !ok || len(m) != 0 {
		t.Fatalf("$env value = %#v (a bare $env sees only named keys)", v)
	}
}

func TestExprNeverPanics(t *testing.T) {
	t.Parallel()
	e := MustCompile("a > 1")
	out := e.Eval(panicEnv{})
	if out.Matched || !strings.Contains(out.Err, "boom") {
		t.Fatalf("out = %+v", out)
	}
	out = e.Eval(nil)
	if out.Matched || out.Err == "" {
		t.Fatalf("nil env: %+v", out)
	}
}

func TestExprConcurrent(t *testing.T) {
	t.Parallel()
	e := MustCompile("n * 2 == m")
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			for j := range 200 {
				n := i*1000 + j
				out := e.Eval(mapEnv{"n": n, "m": n * 2})
				if !out.Matched || out.Inputs[0].Value != n {
					t.Errorf("n=%d: %+v", n, out)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestMustCompilePanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	MustCompile("a <")
}

func TestKeyAndLiteral(t *testing.T) {
	t.Parallel()
	env := mapEnv{"volume": map[string]any{"replicas": 2}}
	v, in, err := Key("volume.replicas").Value(env)
	if err != nil || v != 2 || len(in) != 1 || in[0].Path != "volume.replicas" || in[0].Value != 2 {
		t.Fatalf("Key: %v %v %v", v, in, err)
	}
	_, in, err = Key("volume.nope").Value(env)
	if !errors.Is(err, ErrNotPresent) || len(in) != 1 || in[0].Value != nil {
		t.Fatalf("missing Key: %v %v", in, err)
	}
	if _, _, err := Key("a..b").Value(env); err == nil || errors.Is(err, ErrNotPresent) {
		t.Fatalf("bad path: %v", err)
	}
	if Key("volume.replicas").String() != "volume.replicas" {
		t.Fatal("Key String")
	}
	v, in, err = Literal([]any{"a", 1}).Value(env)
	if err != nil || in != nil || !Equal(v, []any{"a", 1}) {
		t.Fatalf("Literal: %v %v %v", v, in, err)
	}
	if s := Literal("at-risk").String(); s != `"at-risk"` {
		t.Fatalf("Literal String = %s", s)
	}
}

func TestInputsJSON(t *testing.T) {
	t.Parallel()
	in := Inputs{{"z", 1}, {"a.b", "x"}, {"m", map[string]any{"k": []any{true}}}, {"n", nil}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"z":1,"a.b":"x","m":{"k":[true]},"n":null}`
	if string(b) != want {
		t.Fatalf("Marshal = %s, want %s", b, want)
	}
	var back Inputs
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 4 || back[0].Path != "z" || back[1].Path != "a.b" || back[2].Path != "m" || back[3].Path != "n" {
		t.Fatalf("order lost: %v", back)
	}
	for i := range in {
		if !Equal(back[i].Value, in[i].Value) {
			t.Fatalf("value %d: %#v != %#v", i, back[i].Value, in[i].Value)
		}
	}
	// Inside an Outcome: omitted when empty, an object otherwise.
	o, _ := json.Marshal(Outcome{Matched: true})
	if strings.Contains(string(o), "inputs") {
		t.Fatalf("empty inputs marshalled: %s", o)
	}
	o, _ = json.Marshal(Outcome{Expr: "a > 1", Result: false, Inputs: Inputs{{"a", 0}}})
	if string(o) != `{"matched":false,"expr":"a \u003e 1","result":false,"inputs":{"a":0}}` {
		t.Fatalf("Outcome = %s", o)
	}
	if err := json.Unmarshal([]byte(`[1]`), &back); err == nil {
		t.Fatal("array accepted")
	}
	if err := json.Unmarshal([]byte(`null`), &back); err != nil || back != nil {
		t.Fatalf("null: %v %v", back, err)
	}
}
