package jsonv

import "testing"

func TestMarshalLeavesHTMLAsItIs(t *testing.T) {
	got, err := Marshal(map[string]any{"a<b": "x & y > z", "n": 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a<b":"x & y > z","n":1}`; string(got) != want {
		t.Fatalf("Marshal = %s, want %s", got, want)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Fatal("a func marshalled")
	}
}
