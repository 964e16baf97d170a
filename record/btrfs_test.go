package record

import "testing"

// TestBtrfsDeviceMissingReadsEachFormAndNoHealthyLine: each form btrfs
// prints a missing device in is found, and a healthy filesystem's lines
// (Device missing: 0.00B, a device with its path) and a log line quoting
// one are not.
func TestBtrfsDeviceMissingReadsEachFormAndNoHealthyLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ out, want string }{
		{"[/dev/sda].write_io_errs    0\n[devid:2].write_io_errs    0\n", "[devid:2].write_io_errs    0"},
		{" 2    devid:2            0           0\n", "2    devid:2            0           0"},
		{"  \"device\": \"devid:2\",\n", "\"device\": \"devid:2\","},
		{"    Device missing:\t\t 300.00MiB\n", "Device missing:\t\t 300.00MiB"},
		{"    Device missing:\t\t         314572800\n", "Device missing:\t\t         314572800"},
		{"\tdevid    2 size 0 used 0 path  MISSING\n", "devid    2 size 0 used 0 path  MISSING"},
		{"\t*** Some devices missing\n", "*** Some devices missing"},
		{"/dev/loop0, ID: 1\n   Unallocated:            76.00MiB\n\nmissing, ID: 2\n", "missing, ID: 2"},
		{" 1 /dev/loop0 128.00MiB  32.00MiB\n 2 missing    128.00MiB  32.00MiB        - 32.00MiB\n", "2 missing    128.00MiB  32.00MiB        - 32.00MiB"},
		{"  3 missing files\n", ""},
		{"    Device missing:\t\t     0.00B\n    Device missing:\t\t                 0\n", ""},
		{"[/dev/loop0].write_io_errs    0\n", ""},
		{"\tdevid    1 size 300.00MiB used 200.00MiB path /dev/loop0\n", ""},
		{"Dec  7 19:22:53 host kernel: [devid:2].write_io_errs 0\n", ""},
	} {
		if got := BtrfsDeviceMissing(tc.out); got != tc.want {
			t.Errorf("BtrfsDeviceMissing(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}
