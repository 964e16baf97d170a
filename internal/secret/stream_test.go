package secret

import "testing"

func TestMaskStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		raw     string
		secrets []string
		keep    int
		want    string
	}{
		{"none", "abc", nil, 3, "abc"},
		{"longest wins", "xabcdx", []string{"ab", "abcd"}, 6, "x***x"},
		{"adjacent", "pwpw", []string{"pw"}, 4, "******"},
		{"cut before the secret", "abcsecret", []string{"secret"}, 3, "abc"},
		{"cut inside the secret", "abcsecret", []string{"secret"}, 5, "abc***"},
		{"secret cut by the capture is kept as bytes", "abcsec", []string{"secret"}, 6, "abcsec"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := string(MaskStream([]byte(tc.raw), tc.secrets, 0, tc.keep)); got != tc.want {
				t.Errorf("MaskStream = %q, want %q", got, tc.want)
			}
		})
	}
}
