package ident

import "testing"

func TestProblem(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want string
	}{
		{"disk-check_2.a", ""},
		{"é", ""},
		{"a/b", "holds a reserved character ('~' and '/' are kept for runtime paths): use letters, digits, '-', '_', '.'"},
		{"a~b", "holds a reserved character ('~' and '/' are kept for runtime paths): use letters, digits, '-', '_', '.'"},
		{"a b", `holds ' ': an id may hold only letters, digits, '-', '_', '.'`},
		{"a#1", `holds '#': an id may hold only letters, digits, '-', '_', '.'`},
	} {
		if got := Problem(tc.id); got != tc.want {
			t.Errorf("Problem(%q) = %q; want %q", tc.id, got, tc.want)
		}
	}
}

func TestIsName(t *testing.T) {
	for s, want := range map[string]bool{"item": true, "_x1": true, "vol2": true, "": false, "2x": false, "a-b": false, "a.b": false} {
		if got := IsName(s); got != want {
			t.Errorf("IsName(%q) = %v; want %v", s, got, want)
		}
	}
}
