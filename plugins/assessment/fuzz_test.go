package assessment

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzFromRecord feeds the record reader arbitrary JSON: it never panics,
// and whatever it accepts encodes and reads back equal. The committed seed
// corpus is under testdata/fuzz/FuzzFromRecord; the fold's golden cases are
// added as seeds too.
func FuzzFromRecord(f *testing.F) {
	for _, tc := range assessCases {
		b, err := json.Marshal(Assess(tc.summary))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return
		}
		// The json.Number form must not panic either.
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var n any
		if dec.Decode(&n) == nil {
			FromRecord(n)
		}

		a, ok := FromRecord(v)
		if !ok {
			if !reflect.DeepEqual(a, Assessment{}) {
				t.Fatalf("refused, but returned %+v", a)
			}
			return
		}
		if !a.Standing.Valid() || !strings.HasPrefix(a.Line, a.Standing.Opening()) {
			t.Fatalf("accepted a record outside the vocabulary: %+v", a)
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("accepted a record that does not encode: %v", err)
		}
		var again any
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatal(err)
		}
		back, ok := FromRecord(again)
		if !ok {
			t.Fatalf("re-read refused %s", b)
		}
		if !reflect.DeepEqual(back, a) {
			t.Fatalf("re-read differs:\n got %+v\nwant %+v", back, a)
		}
	})
}
