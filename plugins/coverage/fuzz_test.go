package coverage

import (
	"encoding/json"
	"reflect"
	"testing"
)

func decode(data []byte) (any, bool) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, false
	}
	return v, true
}

// FuzzRead: Read never panics or edits its input, agrees with shapeOf, and
// a reading survives JSON unchanged.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"af_absent":true,"checked":["a"],"period":{"queried":{"from":"2024-05-01T00:00:00Z","to":"2024-05-02T00:00:00Z"},"held":"unknown"}}`))
	f.Add([]byte(`{"af_coverage":{"in_progress":[{"what":"x","count":2}]},"result":{"af_absent":true,"checked":[{"what":"a","short":"s"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, ok := decode(data)
		if !ok {
			return
		}
		before, _ := decode(data)
		reading, ok := Read(v, func(w Warning) {
			if w.Part == "" || w.Problem == "" {
				t.Fatalf("empty warning %+v", w)
			}
		})
		if !reflect.DeepEqual(v, before) {
			t.Fatal("Read edited its input")
		}
		m, isMap := v.(map[string]any)
		if ok != (isMap && shapeOf(m) != ordinary) {
			t.Fatalf("Read says %v, shapeOf disagrees", ok)
		}
		if !ok {
			if !reflect.DeepEqual(reading, Reading{}) {
				t.Fatalf("not recognized, yet read %s", show(reading))
			}
			return
		}
		n := len(reading.Declared)
		if n == 0 || n > 2 {
			t.Fatalf("%d declarations", n)
		}
		wantStatus := ""
		if reading.Declared[n-1].Kind == KindAbsence {
			wantStatus = StatusAbsent
		}
		if reading.Status != wantStatus {
			t.Fatalf("status %q, want %q", reading.Status, wantStatus)
		}
		for _, d := range reading.Declared {
			if d.Period != nil && d.Period.Verdict != PeriodVerdict(*d.Period) {
				t.Fatalf("period verdict %q is not the rule's", d.Period.Verdict)
			}
			if d.Kind == KindAbsence && len(d.Checked) == 0 {
				t.Fatal("an absence with nothing checked")
			}
		}
		b, err := json.Marshal(reading)
		if err != nil {
			t.Fatal(err)
		}
		var back Reading
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("reading does not read back: %v\n%s", err, b)
		}
		if !reflect.DeepEqual(back, reading) {
			t.Fatalf("reading changed over JSON:\n%s\n%s", show(reading), show(back))
		}
	})
}

// FuzzServe: Serve never panics or edits its input; it returns the input
// itself when nothing changed; serving twice is serving once; recognition
// survives serving; and the Unserve law holds:
//
//	Unserve(Serve(x)) == Unserve(strip(x)), null notes counting as omitted.
func FuzzServe(f *testing.F) {
	f.Add([]byte(`{"af_absent":true,"checked":[{"what":"a","short":"s"}],"period":{"queried":{"from":"2024-05-01T00:00:00Z","to":"2024-05-02T00:00:00Z"},"held":"unknown"},"note":"n"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, ok := decode(data)
		if !ok {
			return
		}
		before, _ := decode(data)
		served, changed := Serve(v)
		if !reflect.DeepEqual(v, before) {
			t.Fatal("Serve edited its input")
		}
		if !changed && !same(served, v) {
			t.Fatal("unchanged, yet not the same value")
		}
		if changed && reflect.DeepEqual(served, v) {
			t.Fatal("changed, yet equal")
		}
		again, changedAgain := Serve(served)
		if changedAgain || !same(again, served) {
			t.Fatalf("serving twice changed it:\n%s\n%s", show(served), show(again))
		}
		r1, ok1 := Read(v, nil)
		r2, ok2 := Read(served, nil)
		if ok1 != ok2 || r1.Status != r2.Status || len(r1.Declared) != len(r2.Declared) {
			t.Fatalf("serving changed what is declared: %s vs %s", show(r1), show(r2))
		}
		back, _ := Unserve(served)
		stripped, _ := strip(v)
		want, _ := Unserve(stripped)
		if !reflect.DeepEqual(nullNotesOmitted(back), nullNotesOmitted(want)) {
			t.Fatalf("Unserve(Serve(x)) = %s\nwant %s", show(back), show(want))
		}
		if u, ch := Unserve(v); !ch && !same(u, v) {
			t.Fatal("Unserve: unchanged, yet not the same value")
		}
	})
}
