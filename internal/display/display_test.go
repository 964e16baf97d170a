package display

import "testing"

func TestWidth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"df", 2},
		{"caf\u00e9", 4},      // é precomposed: 2 bytes, 1 column
		{"cafe\u0301", 4},     // e and a combining acute: 1 column
		{"//nas/共有 フォルダ", 19}, // wide runes: 2 columns each
		{"Ａ", 2},              // fullwidth
		{"a\u200db", 2},       // zero-width joiner
	} {
		if got := Width(tc.s); got != tc.want {
			t.Errorf("Width(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}
