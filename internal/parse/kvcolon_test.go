package parse

import (
	"reflect"
	"strings"
	"testing"
)

// TestKVColonInsideAValueIsAProblem: kv's default separator is the first
// "=" or ":", so /etc/resolv.conf's `nameserver 2001:4860:4860::8888` was
// read as the key "nameserver 2001" with the value "4860:4860::8888", no
// problem said, and a chart asking whether a nameserver is configured
// said none, Consistent. A ":" taken by default, with a key that holds a
// space and a value glued to it (an IPv6 address, host:port, a URL), is
// a problem now, naming the key it would have made and what to write;
// `key: value`, `key:value` and tab-separated /proc lines are read as
// before.
func TestKVColonInsideAValueIsAProblem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     map[string]any
		problems int
		first    string
	}{
		{"resolv.conf v6", "nameserver 2001:4860:4860::8888\n", map[string]any{}, 1,
			`line 1: the first ":" is inside a value (it would make the key "nameserver 2001", which holds a space, and the value "4860:4860::8888"): give the separator (sep: " ") or read the lines (parse: lines)`},
		{"host and port", "server 10.0.0.1:53\nmode: fast\n", map[string]any{"mode": "fast"}, 1, `"server 10.0.0.1"`},
		{"url", "proxy http://10.0.0.1:3128\n", map[string]any{}, 1, `"proxy http"`},
		{"spaced", "Model name:   Xeon\nTime: 10:30:00\n", map[string]any{"Model name": "Xeon", "Time": "10:30:00"}, 0, ""},
		{"tab", "Name:\tbash\nCpus_allowed_list:\t0-1\n", map[string]any{"Name": "bash", "Cpus_allowed_list": "0-1"}, 0, ""},
		{"glued no space in key", "a:1\nb:2\n", map[string]any{"a": 1, "b": 2}, 0, ""},
		{"equals first", "url = http://h:80\n", map[string]any{"url": "http://h:80"}, 0, ""},
		{"empty value", "Flags:\n", map[string]any{"Flags": ""}, 0, ""},
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
	res, err := Parse("nameserver 2001:db8::1\n", Spec{Mode: "kv", Options: map[string]any{"sep": " "}})
	if err != nil || res.Problems != 0 || !reflect.DeepEqual(res.Value, map[string]any{"nameserver": "2001:db8::1"}) {
		t.Errorf("sep: \" \": %v %#v %d", err, res.Value, res.Problems)
	}
}
