package parse

import (
	"reflect"
	"strings"
	"testing"
)

// TestNulRecordsKeepANameWithANewline: find -printf '%m %p\n' over a file
// named with a newline made two lines, the second a row of its own
// naming a file the walk never met (/etc/shadow, mode 666). Under
// records: nul each record is one row, its newline kept in its name.
func TestNulRecordsKeepANameWithANewline(t *testing.T) {
	crafted := "644 /tmp/x\n666 /etc/shadow"
	byLine, err := Parse("644 /etc/passwd\n"+crafted+"\n", Spec{Mode: "columns", Options: map[string]any{"names": []any{"mode", "path"}, "header": false, "last": "rest"}})
	if err != nil {
		t.Fatal(err)
	}
	if rows := byLine.Value.([]any); len(rows) != 3 || rows[2].(map[string]any)["path"] != "/etc/shadow" {
		t.Fatalf("lines: the crafted name is no longer read as a row of its own: %v", rows)
	}
	for _, tc := range []struct {
		name string
		spec Spec
		text string
		want any
	}{
		{"columns", Spec{Mode: "columns", Options: map[string]any{"names": []any{"mode", "path"}, "header": false, "numbers": false, "last": "rest", "records": "nul"}},
			"644 /etc/passwd\x00" + crafted + "\x00",
			[]any{map[string]any{"mode": "644", "path": "/etc/passwd"}, map[string]any{"mode": "644", "path": "/tmp/x\n666 /etc/shadow"}}},
		{"lines", Spec{Mode: "lines", Options: map[string]any{"records": "nul"}},
			"/etc/passwd\x00/tmp/x\ny\x00\x00/tmp/z\r\x00\n",
			[]any{"/etc/passwd", "/tmp/x\ny", "", "/tmp/z\r"}},
		{"cmdline", Spec{Mode: "lines", Options: map[string]any{"records": "nul"}},
			"/usr/sbin/sshd\x00-D\x00-o\x00PermitRootLogin no\x00",
			[]any{"/usr/sbin/sshd", "-D", "-o", "PermitRootLogin no"}},
		{"environ", Spec{Mode: "kv", Options: map[string]any{"sep": "=", "trim": false, "records": "nul"}},
			"PATH=/usr/bin\x00MOTD=two\nlines\x00",
			map[string]any{"PATH": "/usr/bin", "MOTD": "two\nlines"}},
		{"regex", Spec{Mode: "regex", Options: map[string]any{"pattern": `(?s)^(?P<status>..) (?P<path>.*)$`, "records": "nul"}},
			" M a\nb.txt\x00?? c.txt\x00",
			[]any{map[string]any{"status": " M", "path": "a\nb.txt"}, map[string]any{"status": "??", "path": "c.txt"}}},
		{"nothing", Spec{Mode: "lines", Options: map[string]any{"records": "nul"}}, "", []any{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse(tc.text, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if r.Problems != 0 || !reflect.DeepEqual(r.Value, tc.want) {
				t.Fatalf("got %#v (%d problems: %s), want %#v", r.Value, r.Problems, r.FirstProblem, tc.want)
			}
		})
	}
}

// TestNulRecordsOverLinesIsAProblem: a tool that printed lines (find
// without -print0) under records: nul is no record read as one name.
func TestNulRecordsOverLinesIsAProblem(t *testing.T) {
	for _, mode := range []string{"lines", "columns", "regex", "kv"} {
		opts := map[string]any{"records": "nul"}
		if mode == "regex" {
			opts["pattern"] = `(?P<p>.*)`
		}
		r, err := Parse("/etc/passwd\n/etc/shadow\n", Spec{Mode: mode, Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		if r.Problems != 1 || !strings.Contains(r.FirstProblem, "record 1: records: nul reads records each ended by a NUL byte, and the text holds none") {
			t.Errorf("%s: %d problems, %q; want the text's missing NULs said", mode, r.Problems, r.FirstProblem)
		}
	}
	if err := Check(Spec{Mode: "lines", Options: map[string]any{"records": "zero"}}); err == nil || !strings.Contains(err.Error(), "want nul") {
		t.Errorf("records: zero: %v", err)
	}
	if err := Check(Spec{Mode: "csv", Options: map[string]any{"records": "nul"}}); err == nil {
		t.Error("csv takes no records option")
	}
}

// TestNulRecordsCountRecords: a problem under records: nul is counted as
// a record, in the ledger, a run's warning and parse()'s error alike
// (Counted), not as a line.
func TestNulRecordsCountRecords(t *testing.T) {
	r, err := Parse("a\nb\n", Spec{Mode: "lines", Options: map[string]any{"records": "nul"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := Counted(r.Problems, r.Unit); got != "1 record" {
		t.Errorf("counted %q, want 1 record", got)
	}
	r, _ = Parse("a=1\nb\nc\n", Spec{Mode: "kv"})
	if got := Counted(r.Problems, r.Unit); got != "2 lines" {
		t.Errorf("counted %q, want 2 lines", got)
	}
}

// TestRecordsInAnotherCaseSaysWhatWasGiven: `records: NUL`, the byte's
// name as a person writes it, was refused as `option records is a string,
// want nul`, and it is a string; the error quotes what was given.
func TestRecordsInAnotherCaseSaysWhatWasGiven(t *testing.T) {
	t.Parallel()
	err := Check(Spec{Mode: "lines", Options: map[string]any{"records": "NUL"}})
	if err == nil || !strings.Contains(err.Error(), `option records is "NUL", want nul`) {
		t.Errorf("records: NUL: %v", err)
	}
	err = Check(Spec{Mode: "lines", Options: map[string]any{"records": 0}})
	if err == nil || !strings.Contains(err.Error(), "option records is a number, want nul") {
		t.Errorf("records: 0: %v", err)
	}
}

// TestRegexSkipPassesOverAHeader: /proc/PID/limits begins with a header
// the pattern is not for, which was a problem on every run (wave-cgroup;
// read with tail -n +2 instead); skip: 1 passes over it, and a line past
// it the pattern does not match is a problem still.
func TestRegexSkipPassesOverAHeader(t *testing.T) {
	limits := "Limit                     Soft Limit           Hard Limit           Units     \n" +
		"Max open files            1024                 524288               files     \n" +
		"Max processes             63474                63474                processes \n"
	spec := Spec{Mode: "regex", Options: map[string]any{"pattern": `^(?P<limit>\S.*?\S)\s{2,}(?P<soft>\S+)\s+(?P<hard>\S+)`, "skip": 1}}
	r, err := Parse(limits, spec)
	if err != nil {
		t.Fatal(err)
	}
	if rows := r.Value.([]any); r.Problems != 0 || len(rows) != 2 || rows[0].(map[string]any)["soft"] != 1024 {
		t.Fatalf("got %v, %d problems (%s); want two limits, no problem", r.Value, r.Problems, r.FirstProblem)
	}
	r, _ = Parse(limits+"garbage\n", spec)
	if r.Problems != 1 || !strings.Contains(r.FirstProblem, "line 4") {
		t.Fatalf("a line past the header the pattern does not match: %d problems, %q", r.Problems, r.FirstProblem)
	}
}

// TestNulRecordNewlineIsReadWhole: under records: nul a record is a name,
// and a name may hold a newline. git status -z over an untracked file
// named "build.log", newline, "key.pem" is `?? build.log\nkey.pem\0`, and
// `^(?P<xy>..) (?P<path>.+)` read it as the file build.log, no problem
// counted: RE2's . stops at a newline, and a match that leaves text
// unread is no problem. Under records: nul . spans a newline now, so the
// pattern reads the name whole; a match that still leaves a newline of the
// record outside it (\S+ stops at one; an unanchored pattern may begin
// past one) is a problem, never the part on one side read as the name.
func TestNulRecordNewlineIsReadWhole(t *testing.T) {
	const status = "?? build.log\nkey.pem\x00 M a.txt\x00"
	for _, tc := range []struct {
		pattern  string
		want     any
		problems int
	}{
		{`^(?P<xy>..) (?P<path>.+)`, []any{map[string]any{"xy": "??", "path": "build.log\nkey.pem"}, map[string]any{"xy": " M", "path": "a.txt"}}, 0},
		{`^(?P<xy>..) (?P<path>.+)$`, []any{map[string]any{"xy": "??", "path": "build.log\nkey.pem"}, map[string]any{"xy": " M", "path": "a.txt"}}, 0},
		{`^(?P<xy>..) (?P<path>\S+)`, []any{map[string]any{"xy": " M", "path": "a.txt"}}, 1},
		{`(?P<path>[\w.]+\.pem)`, []any{}, 2},
	} {
		r, err := Parse(status, Spec{Mode: "regex", Options: map[string]any{"pattern": tc.pattern, "records": "nul"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Problems != tc.problems || !reflect.DeepEqual(r.Value, tc.want) {
			t.Errorf("%s: got %#v (%d problems: %s), want %#v and %d", tc.pattern, r.Value, r.Problems, r.FirstProblem, tc.want, tc.problems)
		}
	}
	// By lines, a newline ends a record: . is RE2's own.
	r, err := Parse("a\nb\n", Spec{Mode: "regex", Options: map[string]any{"pattern": `^(?P<v>.+)$`}})
	if err != nil || r.Problems != 0 || !reflect.DeepEqual(r.Value, []any{map[string]any{"v": "a"}, map[string]any{"v": "b"}}) {
		t.Errorf("lines: %#v, %v", r.Value, err)
	}
}
