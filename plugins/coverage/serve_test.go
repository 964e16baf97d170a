package coverage

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// same reports whether a and b are one value, not merely equal ones.
func same(a, b any) bool {
	ra, rb := reflect.ValueOf(a), reflect.ValueOf(b)
	if ra.Kind() != rb.Kind() {
		return false
	}
	switch ra.Kind() {
	case reflect.Map, reflect.Slice:
		return ra.UnsafePointer() == rb.UnsafePointer()
	}
	return reflect.DeepEqual(a, b)
}

// deepCopy copies a JSON-shaped value through JSON, to check inputs are
// never edited.
func deepCopy(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return j(t, string(b))
}

func TestServe(t *testing.T) {
	t.Parallel()
	partly := `"period":{` + queriedDay + `,` + heldHalf + `}`
	tests := []struct {
		name string
		in   string
		want string // "" when the value must come back as itself
	}{
		{name: "ordinary object", in: `{"rows":[{"short":"x","kind":"y"}]}`},
		{name: "a list", in: `[{"af_absent":true,"checked":[{"what":"a","short":"s"}]}]`},
		{name: "JSON text", in: `"{\"af_absent\":true}"`},
		{name: "a number", in: `1.5`},
		{name: "null", in: `null`},
		{name: "absence nested in a domain object is not stripped", in: `{"found":{"af_absent":true,"checked":[{"what":"a","short":"s"}]}}`},
		{name: "af_absent with empty checked is not stripped", in: `{"af_absent":true,"checked":[],"not_checked":[{"what":"a","short":"s"}]}`},
		{name: "absence with nothing to strip", in: `{"af_absent":true,"checked":["a",{"what":"b","why":"c"}],"note":"n"}`},
		{name: "covered period adds nothing", in: `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,` + heldAll + `}}`},
		{name: "malformed period adds nothing", in: `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `}}`},
		{
			name: "short and kind stripped from an absence's lists",
			in:   `{"af_absent":true,"checked":[{"what":"a","short":"s","kind":"k"},"b"],"not_checked":[{"what":"c","kind":"k","why":"w"}],"cannot_cover":[{"what":"d","short":null}],"extra":{"short":"kept"}}`,
			want: `{"af_absent":true,"checked":[{"what":"a"},"b"],"not_checked":[{"what":"c","why":"w"}],"cannot_cover":[{"what":"d"}],"extra":{"short":"kept"}}`,
		},
		{
			name: "short and kind stripped at depth 3",
			in: `{"af_coverage":{"checked":[{"what":"l1","short":"1"}]},"result":{"af_coverage":{"in_progress":[{"what":"l2","kind":"job","count":2}]},` +
				`"result":{"af_absent":true,"checked":[{"what":"l3","short":"3","kind":"k"}],"data":{"short":"domain"}}}}`,
			want: `{"af_coverage":{"checked":[{"what":"l1"}]},"result":{"af_coverage":{"in_progress":[{"what":"l2","count":2}]},` +
				`"result":{"af_absent":true,"checked":[{"what":"l3"}],"data":{"short":"domain"}}}}`,
		},
		{
			name: "partly-held period: verdict and clause",
			in:   `{"af_absent":true,"checked":["a"],` + partly + `,"note":"From the pager."}`,
			want: `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,` + heldHalf + `,"verdict":"partly-held"},"note":"From the pager. ` + Clause(PartlyHeld) + `"}`,
		},
		{
			name: "not-held period on a ledger with no note",
			in:   `{"af_coverage":{"period":{` + queriedDay + `,"held":{"from":"2024-01-01T00:00:00Z","to":"2024-02-01T00:00:00Z"}}},"result":[1]}`,
			want: `{"af_coverage":{"period":{` + queriedDay + `,"held":{"from":"2024-01-01T00:00:00Z","to":"2024-02-01T00:00:00Z"},"verdict":"not-held"},"note":"` + Clause(NotHeld) + `"},"result":[1]}`,
		},
		{
			name: "unknown held with a null note",
			in:   `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,"held":"unknown"},"note":null}`,
			want: `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,"held":"unknown","verdict":"unknown"},"note":"` + Clause(Unknown) + `"}`,
		},
		{
			name: "a note that is not a string gets no clause",
			in:   `{"af_absent":true,"checked":["a"],` + partly + `,"note":["x"]}`,
			want: `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,` + heldHalf + `,"verdict":"partly-held"},"note":["x"]}`,
		},
		{
			name: "an empty note keeps its place",
			in:   `{"af_absent":true,"checked":["a"],` + partly + `,"note":""}`,
			want: `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,` + heldHalf + `,"verdict":"partly-held"},"note":" ` + Clause(PartlyHeld) + `"}`,
		},
		{
			name: "both levels of a bounded absence are served",
			in:   `{"af_coverage":{"period":{` + queriedDay + `,"held":"unknown"}},"result":{"af_absent":true,"checked":["a"],` + partly + `}}`,
			want: `{"af_coverage":{"period":{` + queriedDay + `,"held":"unknown","verdict":"unknown"},"note":"` + Clause(Unknown) + `"},` +
				`"result":{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,` + heldHalf + `,"verdict":"partly-held"},"note":"` + Clause(PartlyHeld) + `"}}`,
		},
		{
			name: "a stale verdict word is replaced, with its clause",
			in:   `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,` + heldHalf + `,"verdict":"not-held"},"note":"n ` + Clause(NotHeld) + `"}`,
			want: `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,` + heldHalf + `,"verdict":"partly-held"},"note":"n ` + Clause(PartlyHeld) + `"}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := j(t, tc.in)
			before := deepCopy(t, in)
			got, changed := Serve(in)
			if !reflect.DeepEqual(in, before) {
				t.Fatalf("Serve edited its input: %s", show(in))
			}
			if tc.want == "" {
				if changed || !same(got, in) {
					t.Fatalf("want the same value back, got changed=%v %s", changed, show(got))
				}
				return
			}
			if !changed {
				t.Fatal("changed = false for a changed value")
			}
			if want := j(t, tc.want); !reflect.DeepEqual(got, want) {
				t.Fatalf("got  %s\nwant %s", show(got), show(want))
			}
			again, changed := Serve(got)
			if changed || !same(again, got) {
				t.Fatalf("serving a served value changed it: %s", show(again))
			}
			back, _ := Unserve(got)
			stripped, _ := strip(in)
			wantBack, _ := Unserve(stripped)
			if !reflect.DeepEqual(nullNotesOmitted(back), nullNotesOmitted(wantBack)) {
				t.Fatalf("Unserve(Serve(x)) = %s\nwant %s", show(back), show(wantBack))
			}
		})
	}
}

func TestServeCopiesOnlyThePath(t *testing.T) {
	t.Parallel()
	in := j(t, `{"af_coverage":{"checked":[{"what":"a","short":"s"}],"not_checked":["b"]},"result":{"rows":[1,2]},"other":{"x":1}}`).(map[string]any)
	got, changed := Serve(in)
	out := got.(map[string]any)
	if !changed || same(out, in) {
		t.Fatal("want a copy")
	}
	if !same(out["result"], in["result"]) || !same(out["other"], in["other"]) {
		t.Fatal("untouched parts were copied")
	}
	inCov, outCov := in["af_coverage"].(map[string]any), out["af_coverage"].(map[string]any)
	if !same(inCov["not_checked"], outCov["not_checked"]) {
		t.Fatal("an untouched list was copied")
	}
	if reading, _ := Read(in, nil); reading.Declared[0].Checked[0].Short != "s" {
		t.Fatal("short did not stay on the record")
	}
}

func TestServeSelfReference(t *testing.T) {
	t.Parallel()
	t.Run("result is itself", func(t *testing.T) {
		t.Parallel()
		m := map[string]any{"af_coverage": map[string]any{"checked": []any{map[string]any{"what": "a", "short": "s"}}}}
		m["result"] = m
		got, changed := Serve(m)
		if !changed {
			t.Fatal("short was not stripped")
		}
		out := got.(map[string]any)
		if !same(out["result"], m) {
			t.Fatal("the holder met twice was not served as found")
		}
		if _, changed := Unserve(m); changed {
			t.Fatal("Unserve changed a value with nothing served")
		}
		Read(m, nil)
	})
	t.Run("a cycle two deep", func(t *testing.T) {
		t.Parallel()
		a := map[string]any{"af_coverage": map[string]any{}}
		b := map[string]any{"af_coverage": map[string]any{"note": "b"}, "result": a}
		a["result"] = b
		if got, changed := Serve(a); changed || !same(got, a) {
			t.Fatal("an unchanged cycle came back changed")
		}
	})
	t.Run("af_coverage is the holder", func(t *testing.T) {
		t.Parallel()
		m := map[string]any{"checked": []any{map[string]any{"what": "a", "kind": "k"}}}
		m["af_coverage"] = m
		m["result"] = m
		Serve(m)
		Unserve(m)
		Read(m, nil)
	})
}

func TestServeSharedValueServedAlike(t *testing.T) {
	t.Parallel()
	cov := map[string]any{"checked": []any{map[string]any{"what": "a", "short": "s"}}}
	inner := map[string]any{"af_coverage": cov}
	outer := map[string]any{"af_coverage": cov, "result": inner}
	got, _ := Serve(outer)
	again, changed := Serve(got)
	if changed || !same(again, got) {
		t.Fatalf("a shared declaration was served differently in its two places: %s", show(again))
	}
}

func TestUnserve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string // "" for the same value back
	}{
		{name: "ordinary", in: `{"period":{"verdict":"partly-held"},"note":"x"}`},
		{name: "nothing served", in: `{"af_absent":true,"checked":["a"],"period":{` + queriedDay + `,"held":"unknown"},"note":"n"}`},
		{
			name: "clause was the whole note",
			in:   `{"af_absent":true,"checked":["a"],"period":{"verdict":"not-held"},"note":"` + Clause(NotHeld) + `"}`,
			want: `{"af_absent":true,"checked":["a"],"period":{}}`,
		},
		{
			name: "a note that does not end with the clause keeps its words",
			in:   `{"af_coverage":{"period":{"verdict":"unknown"},"note":"the author's own"}}`,
			want: `{"af_coverage":{"period":{},"note":"the author's own"}}`,
		},
		{
			name: "a word Serve never writes removes no clause",
			in:   `{"af_coverage":{"period":{"verdict":"covered"},"note":"` + Clause(NotHeld) + `"}}`,
			want: `{"af_coverage":{"period":{},"note":"` + Clause(NotHeld) + `"}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := j(t, tc.in)
			before := deepCopy(t, in)
			got, changed := Unserve(in)
			if !reflect.DeepEqual(in, before) {
				t.Fatal("Unserve edited its input")
			}
			if tc.want == "" {
				if changed || !same(got, in) {
					t.Fatalf("want the same value back, got %s", show(got))
				}
				return
			}
			if want := j(t, tc.want); !changed || !reflect.DeepEqual(got, want) {
				t.Fatalf("got  %s (changed=%v)\nwant %s", show(got), changed, show(want))
			}
		})
	}
}

func TestServedNoteReadsWell(t *testing.T) {
	t.Parallel()
	for _, v := range []Verdict{NotHeld, PartlyHeld, Unknown} {
		c := Clause(v)
		if !strings.HasPrefix(c, "Period: ") || !strings.HasSuffix(c, ".") {
			t.Errorf("clause %q should open with \"Period: \" and end with a full stop", c)
		}
	}
}

// nullNotesOmitted drops a null note from every declaration, the one
// difference the Serve/Unserve law allows.
func nullNotesOmitted(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	return nullNotes(m, map[uintptr]bool{})
}

func nullNotes(m map[string]any, seen map[uintptr]bool) any {
	key := reflect.ValueOf(m).Pointer()
	if seen[key] {
		return m
	}
	seen[key] = true
	drop := func(d map[string]any) map[string]any {
		if n, ok := d["note"]; ok && n == nil {
			d = copyMap(d)
			delete(d, "note")
		}
		return d
	}
	switch shapeOf(m) {
	case absence:
		return drop(m)
	case ledger:
		out := copyMap(m)
		out[keyCoverage] = drop(m[keyCoverage].(map[string]any))
		if r, ok := m[keyResult].(map[string]any); ok {
			out[keyResult] = nullNotes(r, seen)
		}
		return out
	}
	return m
}
