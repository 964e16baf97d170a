package parse

import (
	"strings"
	"testing"
)

// TestRegexNumberCutShortIsAProblem: the node exporter prints a float of a
// million or more with an exponent (Go's shortest %g: 1.2e+06), and a
// pattern searched, not matched whole, stopped inside it: (?P<v>[0-9.]+)
// read 1.2 of 1.2e+06, and v > 1000 called a queue of 1.2 million ok,
// Consistent. A group that ends the match where the line's number goes on
// to its exponent, or begins it where the digits are an exponent's, is a
// problem line now; a group followed by other text, a version's third
// part or a hexadecimal id is not.
func TestRegexNumberCutShortIsAProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, line string
		cut           bool
	}{
		{`\} (?P<v>[0-9.]+)`, `queue_depth{q="a"} 1.2e+06`, true},
		{`\} (?P<v>\d+)`, `node_filesystem_avail_bytes{mountpoint="/"} 5.2892250112e+10`, true},
		{`(?P<v>\d+)$`, `backup_last_success_timestamp_seconds 1.7653e+09`, true},
		{`\} (?P<v>\S+)`, `queue_depth{q="a"} 1.2e+06`, false},
		{`\} (?P<v>[-+0-9.eE]+)$`, `queue_depth{q="a"} 1.2e+06`, false},
		{`\} (?P<v>\d+)`, `queue_depth{q="a"} 12 1712345678000`, false},
		{`^v(?P<major>\d+)\.(?P<minor>\d+)`, `v1.2.3`, false},
		{`^id (?P<n>\d+)`, `id 1e5f3a`, false},
		{`(?P<mant>[0-9.]+)e(?P<exp>[+-]\d+)`, `x 1.2e+06`, false},
	} {
		r, err := Parse(tc.line+"\n", Spec{Mode: "regex", Options: map[string]any{"pattern": tc.pattern}})
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got := r.Problems == 1 && strings.Contains(r.FirstProblem, "the match stopped inside it"); got != tc.cut {
			t.Errorf("%s over %q: cut %v (problems %d %q, value %v), want %v", tc.pattern, tc.line, got, r.Problems, r.FirstProblem, r.Value, tc.cut)
		}
	}
	r, _ := Parse("queue_depth 1.2e+06\n", Spec{Mode: "regex", Options: map[string]any{"pattern": `(?P<v>[0-9.]+)`}})
	if want := `line 1: the group "v" read "1.2" of the number 1.2e+06`; !strings.HasPrefix(r.FirstProblem, want) {
		t.Errorf("problem %q, want it to begin %q", r.FirstProblem, want)
	}
}

// TestRegexNumberCutAtADecimalCommaIsAProblem: uptime on a host whose
// LC_NUMERIC is de_DE (reached by ssh with no AcceptEnv, or in a
// container) prints "load average: 4,54, 3,62, 2,34", and
// `load average: (?P<l1>[0-9.]+)` read 4, so `l1 > 4` called a load of
// 4.54 under the limit, Consistent. A group whose digits end the match
// where a comma and digits go on is a problem, naming the whole; a
// match that goes on past the comma, or a comma and a space after it
// (C's "4.54, 3.62"), is read as before.
func TestRegexNumberCutAtADecimalCommaIsAProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, line string
		cut           bool
	}{
		{`load average: (?P<l1>[0-9.]+)`, ` 10:00:01 up 3 days,  2:01,  1 user,  load average: 4,54, 3,62, 2,34`, true},
		{`^(?P<used>[0-9.]+)G`, `1.234,5`, false}, // the match goes on: no G, no match
		{`Used: (?P<used>[0-9.]+)`, `Used: 1.234,5 MiB`, true},
		{`load average: (?P<l1>[0-9.]+)`, ` 10:00:01 up 3 days,  2:01,  1 user,  load average: 4.54, 3.62, 2.34`, false},
		{`^(?P<a>\d+),(?P<b>\d+)$`, `10,20`, false},
		{`(?P<v>[0-9.,]+)`, `4,54`, false},
	} {
		r, err := Parse(tc.line+"\n", Spec{Mode: "regex", Options: map[string]any{"pattern": tc.pattern}})
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got := r.Problems == 1 && strings.Contains(r.FirstProblem, "stopped at a comma with digits after it"); got != tc.cut {
			t.Errorf("%s over %q: cut %v (problems %d %q, value %v), want %v", tc.pattern, tc.line, got, r.Problems, r.FirstProblem, r.Value, tc.cut)
		}
	}
	r, _ := Parse("load average: 4,54, 3,62\n", Spec{Mode: "regex", Options: map[string]any{"pattern": `average: (?P<l1>[0-9.]+)`}})
	if want := `line 1: the group "l1" read "4" of 4,54: the match stopped at a comma`; !strings.HasPrefix(r.FirstProblem, want) {
		t.Errorf("problem %q, want it to begin %q", r.FirstProblem, want)
	}
}

// TestRegexNumberCutAtAThousandsCommaGivesBothReadings: rsync --stats
// groups its counts by commas under C too ("Number of deleted files:
// 1,500 (reg: 1,500)"), and `files: (?P<deleted>[0-9]+)` read 1; the
// problem said only a decimal comma, and told to read the whole with
// float(replace(x, ",", ".")), which makes 1.5 of fifteen hundred. A
// comma followed by three digits is either, and the problem says both.
func TestRegexNumberCutAtAThousandsCommaGivesBothReadings(t *testing.T) {
	t.Parallel()
	r, _ := Parse("Number of deleted files: 1,500 (reg: 1,500)\n", Spec{Mode: "regex", Options: map[string]any{"pattern": `deleted files: (?P<deleted>[0-9]+)`}})
	for _, want := range []string{
		`line 1: the group "deleted" read "1" of 1,500: the match stopped at a comma with three digits after it`,
		`float(replace(x, ",", "")) for thousands, float(replace(x, ",", ".")) for a decimal comma`,
		`rsync --no-h`,
	} {
		if !strings.Contains(r.FirstProblem, want) {
			t.Errorf("problem %q, want it to say %q", r.FirstProblem, want)
		}
	}
	// a big count's groups, 12,345,678, are read alike
	r, _ = Parse("Total file size: 12,345,678 bytes\n", Spec{Mode: "regex", Options: map[string]any{"pattern": `size: (?P<size>[0-9]+)`}})
	if !strings.Contains(r.FirstProblem, "for thousands") {
		t.Errorf("problem %q, want both readings", r.FirstProblem)
	}
}

// TestRegexNumberWithoutItsUnitIsAProblem: btrfs filesystem usage prints
// sizes for people, its unit picked by the size (169.00MiB, 1.50GiB), and
// `Free \(estimated\):\s+(?P<free>[0-9.]+)` read 169 of 169.00MiB, so
// `free < 1` (GiB) said a filesystem with 169 MiB free was ok,
// Consistent (testdata/wave-btrfs/free-human). A group that ends the
// match at a size's unit written against its digits is a problem now; a
// unit the pattern reads itself, or one apart from the digits, is not.
func TestRegexNumberWithoutItsUnitIsAProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, line string
		cut           bool
	}{
		{`Free \(estimated\):\s+(?P<free>[0-9.]+)`, "    Free (estimated):\t\t 169.00MiB\t(min: 169.00MiB)", true},
		{`^(?P<fs>\S+)\s+(?P<size>[0-9.]+)`, "/dev/vda        252G   23G  218G  10% /", true},
		{`^Mem:\s+(?P<total>[0-9.]+)`, "Mem:            23Gi       1.0Gi        20Gi", true},
		{`used=(?P<used>[0-9.]+)`, "Data, RAID1: total=64.00MiB, used=0.00B", true},
		{`Free \(estimated\):\s+(?P<free>[0-9]+)`, "    Free (estimated):\t\t         230686720\t(min: 230686720)", false},
		{`(?P<used>[0-9.]+)(?P<unit>[A-Za-z]*)`, "169.00MiB", false},
		{`^(?P<used>[0-9.]+)MiB`, "169.00MiB", false},
		{`^MemTotal:\s+(?P<kb>\d+)`, "MemTotal:       24683748 kB", false},
		{`time=(?P<ms>[0-9.]+)`, "64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.045ms", false},
		{`^(?P<n>\d+)`, "12 Kb", false},
	} {
		r, err := Parse(tc.line+"\n", Spec{Mode: "regex", Options: map[string]any{"pattern": tc.pattern}})
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got := r.Problems == 1 && strings.Contains(r.FirstProblem, "the match stopped at its unit"); got != tc.cut {
			t.Errorf("%s over %q: cut %v (problems %d %q, value %v), want %v", tc.pattern, tc.line, got, r.Problems, r.FirstProblem, r.Value, tc.cut)
		}
	}
	r, _ := Parse("    Free (estimated):\t\t 169.00MiB\t(min: 169.00MiB)\n", Spec{Mode: "regex", Options: map[string]any{"pattern": `Free \(estimated\):\s+(?P<free>[0-9.]+)`}})
	if want := `line 1: the group "free" read "169.00" of the size 169.00MiB: the match stopped at its unit`; !strings.HasPrefix(r.FirstProblem, want) {
		t.Errorf("problem %q, want it to begin %q", r.FirstProblem, want)
	}
}
