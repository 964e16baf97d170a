package parse

import (
	"reflect"
	"strings"
	"testing"
)

// TestKVColonRecordIsAProblem: /proc/PID/cgroup is colon-separated
// records, hierarchy-ID:controllers:path, and on cgroup v2 its line is
// `0::/system.slice/nginx.service`. kv's default separator, the first
// ":", made it the key "0" and the value ":/system.slice/nginx.service",
// no problem said, and a check that a process is not left in the root
// cgroup (`cg.content["0"] == "/"`) read ":/" as confined, OK,
// Consistent (testdata/wave-cgroup/confined). A default ":" followed by
// a second one, "::", is no `key: value` separator: a problem, naming
// what it would have made and what to write. `key: ::1` (a space, then
// an IPv6 address) is read as before.
func TestKVColonRecordIsAProblem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     map[string]any
		problems int
		first    string
	}{
		{"cgroup v2", "0::/system.slice/nginx.service\n", map[string]any{}, 1,
			`line 1: the first ":" is one of two together, "::", so the line is no key: value (it would make the key "0" and the value ":/system.slice/nginx.service"): a line of fields split by ":" (/proc/PID/cgroup's hierarchy-ID:controllers:path) is read with a pattern (parse: {as: regex, pattern: '^(?P<id>\d+):(?P<controllers>[^:]*):(?P<path>.*)$'})`},
		{"cgroup root", "0::/\n", map[string]any{}, 1, `the value ":/"`},
		{"ipv6 after a space", "listen: ::1\n", map[string]any{"listen": "::1"}, 0, ""},
		{"ipv6 after a tab", "addr:\t::\n", map[string]any{"addr": "::"}, 0, ""},
		{"time", "Time: 10:30:00\n", map[string]any{"Time": "10:30:00"}, 0, ""},
		{"equals then colons", "bind=::1\n", map[string]any{"bind": "::1"}, 0, ""},
		{"a key with a space says so first", "listenaddress [::]:22\n", map[string]any{}, 1, `which holds a space`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := Parse(tc.in, Spec{Mode: "kv"})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Value, tc.want) {
				t.Errorf("value %#v, want %#v", res.Value, tc.want)
			}
			if res.Problems != tc.problems || !strings.Contains(res.FirstProblem, tc.first) {
				t.Errorf("%d problems, first %q; want %d and %q", res.Problems, res.FirstProblem, tc.problems, tc.first)
			}
		})
	}
	res, err := Parse("0::/\n", Spec{Mode: "kv", Options: map[string]any{"sep": "::"}})
	if err != nil || res.Problems != 0 || !reflect.DeepEqual(res.Value, map[string]any{"0": "/"}) {
		t.Errorf("sep: \"::\": %v %#v %d", err, res.Value, res.Problems)
	}
}
