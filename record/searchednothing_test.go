package record

import "testing"

// TestSearchedNothingInOutputReadsACountOfZero: aide's `Number of
// entries:` is read on stdout only when its count is 0; the stderr rules
// (pgrep's, journalctl's, sha256sum's) are not read on stdout, which is
// the data a chart reads.
func TestSearchedNothingInOutputReadsACountOfZero(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ stdout, want string }{
		{"AIDE found NO differences between database and filesystem. Looks okay!!\n\nNumber of entries:\t0\n", "Number of entries:\t0"},
		{"Number of entries:\t6\n", ""},
		{"  Total number of entries:\t10\n", ""},
		{"Number of entries:\t0 (of 3)\n", ""},
		{"Dec 07 host app: no journal files were found\n", ""},
	} {
		if got := SearchedNothingInOutput(tc.stdout); got != tc.want {
			t.Errorf("SearchedNothingInOutput(%q) = %q, want %q", tc.stdout, got, tc.want)
		}
	}
	if got := SearchedNothing("Number of entries: 0\n", true); got != "Number of entries: 0" {
		t.Errorf("aide's report on stderr (report_url=stderr): %q", got)
	}
}
