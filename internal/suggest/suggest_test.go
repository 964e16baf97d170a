package suggest

import "testing"

func TestNearest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		word  string
		known []string
		want  string
	}{
		{"maxBranch", []string{"items", "as", "maxBranches", "into", "stages"}, "maxBranches"},
		{"MAXBRANCHES", []string{"items", "as", "maxBranches", "into", "stages"}, "maxBranches"},
		{"exce", []string{"id", "name", "exec", "set"}, "exec"},
		{"xx", []string{"as", "id"}, ""},
		{"ad", []string{"as", "id"}, "as"},
		{"zzzzzz", []string{"id", "name", "exec", "set"}, ""},
		{"", []string{"a"}, "a"},
	}
	for _, tc := range tests {
		if got := Nearest(tc.word, tc.known); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
