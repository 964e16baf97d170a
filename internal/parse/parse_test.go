package parse

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	type m = map[string]any
	type l = []any
	tests := []struct {
		name     string
		mode     string
		opts     map[string]any
		in       string
		want     any
		problems int
		first    string // a substring of FirstProblem
	}{
		{"text", "text", nil, "a\nb\n", "a\nb\n", 0, ""},
		{"lines", "lines", nil, "a\nb\n", l{"a", "b"}, 0, ""},
		// CRLF line ends were kept as "ok\r", which no rule over "ok" matched.
		{"lines CRLF issue-bytes", "lines", nil, "ok\r\nfailed\r\n\r\n", l{"ok", "failed"}, 0, ""},
		{"json", "json", nil, `{"a": [1, 1.5]}`, m{"a": l{1, 1.5}}, 0, ""},
		// a whole number keeps its digits; a fraction is the float64 its
		// writer printed (%.17g), or its digits where no float64 prints
		// them (jsonv.Decoded)
		{"json numbers", "json", nil, `[9007199254740993, 12345678901234567890, 0.10000000000000001, 3.14159265358979323846]`,
			l{9007199254740993, json.Number("12345678901234567890"), 0.1, json.Number("3.14159265358979323846")}, 0, ""},
		{"json blank", "json", nil, " \n", nil, 1, `line 1: no JSON value: the text is blank: " \n"`},
		{"json bad", "json", nil, "{x", "{x", 1, "not JSON"},
		{"jsonl", "jsonl", nil, "{\"a\":1}\n\n2\n[", l{m{"a": 1}, 2}, 1, `line 4`},
		{"jsonl trailing", "jsonl", nil, "1 2\n", l{}, 1, "text follows"},
		{"kv meminfo", "kv", nil, "MemTotal:       16318412 kB\nHugePages_Total:       0\n", m{"MemTotal": "16318412 kB", "HugePages_Total": 0}, 0, ""},
		{"kv os-release", "kv", m{"trim": `"`}, "# c\nNAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\n", m{"NAME": "Ubuntu", "VERSION_ID": 24.04}, 0, ""},
		{"kv numbers false", "kv", m{"numbers": false}, "a=1\n", m{"a": "1"}, 0, ""},
		{"kv sep", "kv", m{"sep": " -> "}, "a -> b=c\n", m{"a": "b=c"}, 0, ""},
		{"kv trim false", "kv", m{"trim": false}, "a = 1\n", m{"a ": " 1"}, 0, ""},
		{"kv problems", "kv", nil, "a=1\nnope\n=2\na=3\n", m{"a": 1}, 3, `line 2: no separator: "nope"`},
		{"kv not numbers", "kv", nil, "a=0755\nb=+1\nc=1e+999\n", m{"a": "0755", "b": "+1", "c": json.Number("1e+999")}, 0, ""},
		{"columns df", "columns", m{"last": "rest"},
			"Filesystem 1024-blocks Used Available Capacity Mounted on\n/dev/sda1 100 50 50 50% /\nfs 1 2 3 4% /mnt/my disk\n/dev/b 1 1 0 100% /boot\n",
			l{m{"Filesystem": "/dev/sda1", "1024-blocks": 100, "Used": 50, "Available": 50, "Capacity": "50%", "Mounted on": "/"},
				m{"Filesystem": "fs", "1024-blocks": 1, "Used": 2, "Available": 3, "Capacity": "4%", "Mounted on": "/mnt/my disk"},
				m{"Filesystem": "/dev/b", "1024-blocks": 1, "Used": 1, "Available": 0, "Capacity": "100%", "Mounted on": "/boot"}}, 0, ""},
		{"columns too few, too many", "columns", nil, "a b\n1 2\n3\n4 5 6\n", l{m{"a": 1, "b": 2}}, 2, "line 3: 1 field, the table has 2 columns"},
		{"columns too many hints rest", "columns", nil, "a b\n4 5 6\n", l{}, 1, "last: rest"},
		{"columns no header", "columns", m{"header": false, "names": []any{"x", "y"}}, "1 2\n", l{m{"x": 1, "y": 2}}, 0, ""},
		{"columns names over header", "columns", m{"header": true, "names": []string{"x", "y"}}, "A B\n1 2\n", l{m{"x": 1, "y": 2}}, 0, ""},
		{"columns skip", "columns", m{"skip": 1}, "junk line here\na b\n1 2\n", l{m{"a": 1, "b": 2}}, 0, ""},
		{"columns repeated header", "columns", nil, "a a\n1 2\n", l{m{"a": 1, "a_2": 2}}, 1, "twice"},
		{"columns empty", "columns", nil, "", l{}, 1, "no header row"},
		{"csv", "csv", nil, "name,n\n\"a, b\",1\n\"say \"\"hi\"\"\",2\n", l{m{"name": "a, b", "n": 1}, m{"name": `say "hi"`, "n": 2}}, 0, ""},
		{"csv multiline", "csv", nil, "a,b\n\"x\ny\",1\n", l{m{"a": "x\ny", "b": 1}}, 0, ""},
		{"csv wrong count", "csv", nil, "a,b\n1\n1,2\n", l{m{"a": 1, "b": 2}}, 1, "line 2: 1 field, the header has 2"},
		{"csv bad quote", "csv", nil, "a,b\nx\"y,1\n1,2\n", l{m{"a": 1, "b": 2}}, 1, "line 2"},
		{"csv no header", "csv", m{"header": false, "names": []any{"p", "q"}, "numbers": false}, "1,2\n", l{m{"p": "1", "q": "2"}}, 0, ""},
		{"tsv", "tsv", nil, "a\tb\n1\tx y\n", l{m{"a": 1, "b": "x y"}}, 0, ""},
		{"regex", "regex", m{"pattern": `^(?P<k>\w+)=(?P<v>\S+)(?: (?P<opt>\w+))?$`}, "a=1\nb=x y\nnope\n", l{m{"k": "a", "v": 1}, m{"k": "b", "v": "x", "opt": "y"}}, 1, `line 3: the pattern does not match: "nope"`},
		{"nagios api examples", "nagios", nil,
			"DISK OK - free space | '/mnt/my disk'=100B;;;0;1000 time=0.002s;1;2;0;10\nlong one\nlong two | load1=0.5;5:;10:\n'it''s'=1c;@~:5;10:20;;\n",
			m{"status": "DISK OK - free space", "text": l{"long one", "long two"}, "perfdata": l{
				m{"label": "/mnt/my disk", "value": 100, "uom": "B", "min": 0, "max": 1000},
				m{"label": "time", "value": 0.002, "uom": "s", "warn": 1, "crit": 2, "min": 0, "max": 10},
				m{"label": "load1", "value": 0.5, "warn": "5:", "crit": "10:"},
				m{"label": "it's", "value": 1, "uom": "c", "warn": "@~:5", "crit": "10:20"},
			}}, 0, ""},
		{"nagios no perfdata", "nagios", nil, "OK\n", m{"status": "OK", "text": l{}, "perfdata": l{}}, 0, ""},
		{"nagios U and loose numbers", "nagios", nil, "| a=U b=.5;;;;5.\n", m{"text": l{}, "perfdata": l{m{"label": "a", "value": "U"}, m{"label": "b", "value": 0.5, "max": 5.0}}}, 0, ""},
		{"nagios malformed", "nagios", nil, "X | ok=1 bad x=abc y=1;w z=1;;;;;; =1 'q'1 'open=1\n",
			m{"status": "X", "text": l{}, "perfdata": l{m{"label": "ok", "value": 1}}}, 1, "perfdata item has no '='"}, // 7 bad items, 1 line
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := Parse(tc.in, Spec{Mode: tc.mode, Options: tc.opts})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(r.Value, tc.want) {
				t.Errorf("value\n got %#v\nwant %#v", r.Value, tc.want)
			}
			if r.Problems != tc.problems || !strings.Contains(r.FirstProblem, tc.first) || (tc.problems == 0) != (r.FirstProblem == "") {
				t.Errorf("problems %d %q, want %d containing %q", r.Problems, r.FirstProblem, tc.problems, tc.first)
			}
			if _, err := json.Marshal(r.Value); err != nil {
				t.Errorf("value is not JSON: %v", err)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		spec Spec
		want string // a substring of the error; "" for none
	}{
		{"kv", Spec{Mode: "kv"}, ""},
		{"as tolerated", Spec{Mode: "kv", Options: map[string]any{"as": "kv"}}, ""},
		{"unknown mode lists modes", Spec{Mode: "jsonn"}, `columns, csv, json, jsonl, kv, ldif, lines, nagios, regex, text, tsv (did you mean "json"?)`},
		{"unknown option", Spec{Mode: "kv", Options: map[string]any{"seps": "="}}, `no option "seps"; its options are sep, trim, numbers, records (did you mean "sep"?)`},
		{"no options", Spec{Mode: "nagios", Options: map[string]any{"x": 1}}, "takes no options"},
		{"missing pattern", Spec{Mode: "regex"}, "needs pattern"},
		{"bad regex", Spec{Mode: "regex", Options: map[string]any{"pattern": "(?P<a>x"}}, "is not RE2"},
		{"no named group", Spec{Mode: "regex", Options: map[string]any{"pattern": "(x)"}}, "no named group"},
		{"header false no names", Spec{Mode: "csv", Options: map[string]any{"header": false}}, "needs names"},
		{"names not strings", Spec{Mode: "columns", Options: map[string]any{"names": []any{1}}}, "want a string"},
		{"names twice", Spec{Mode: "columns", Options: map[string]any{"names": []any{"a", "a"}}}, "twice"},
		// Names with the header left unsaid read past a first line as the
		// header: output with none lost its first row, with nothing to say
		// so (cmd/runbook TestNamedColumnsWithTheHeaderUnsaidAreRefused).
		{"names, header unsaid", Spec{Mode: "columns", Options: map[string]any{"names": []any{"a", "b"}}}, "say whether the output's first line is a header"},
		{"csv names, header unsaid", Spec{Mode: "csv", Options: map[string]any{"names": []any{"a", "b"}}}, "header: true reads it past, header: false reads every line as a row"},
		{"bad skip", Spec{Mode: "columns", Options: map[string]any{"skip": -1}}, "skip"},
		{"skip uint64", Spec{Mode: "columns", Options: map[string]any{"skip": uint64(2)}}, ""},
		{"bad last", Spec{Mode: "columns", Options: map[string]any{"last": "all"}}, "want rest or split"},
		{"bad numbers", Spec{Mode: "tsv", Options: map[string]any{"numbers": "no"}}, "want true or false"},
		{"bad trim", Spec{Mode: "kv", Options: map[string]any{"trim": 3}}, "trim"},
		{"empty sep", Spec{Mode: "kv", Options: map[string]any{"sep": ""}}, "sep is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Check(tc.spec)
			if tc.want == "" {
				if err != nil {
					t.Errorf("Check: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check: %v, want one containing %q", err, tc.want)
			}
			if _, perr := Parse("x", tc.spec); perr == nil {
				t.Errorf("Parse accepted what Check refused")
			}
		})
	}
}

// TestUnnamedFirstColumnIsAProblem: free's table has a first column the
// header does not name (Mem:, Swap:). Under last: rest — the hint a row
// with a field too many gives — every value was keyed one column to the
// left ("total": "Mem:", "used": the total) with no problem counted, so a
// chart read the total as the memory used and stood Consistent. A row
// whose first field ends before the header's first name begins is now a
// problem, said as such, with or without last: rest; names given in the
// chart key the columns as before, and right-aligned tables (vmstat, ps)
// read as they did.
func TestUnnamedFirstColumnIsAProblem(t *testing.T) {
	t.Parallel()
	free := "               total        used        free      shared  buff/cache   available\n" +
		"Mem:     25324961792   614748160 20762050560     9990144  4353548288 24710213632\n" +
		"Swap:              0           0           0\n"
	// Under last: rest the header is a problem too: its last column would
	// be "shared  buff/cache   available" (TestMergedHeaderSpanningColumnsIsAProblem).
	for _, tc := range []struct {
		opts     map[string]any
		problems int
		first    string
	}{
		{nil, 2, `line 2: its first field "Mem:" lies left of the header's first column "total"`},
		{map[string]any{"last": "rest"}, 3, `line 1: the header's last column would be named "shared  buff/cache   available"`},
	} {
		r, err := Parse(free, Spec{Mode: "columns", Options: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := r.Value.([]any); !ok || len(got) != 0 || r.Problems != tc.problems || !strings.Contains(r.FirstProblem, tc.first) {
			t.Errorf("free, %v: %v, %d problems, %q", tc.opts, r.Value, r.Problems, r.FirstProblem)
		}
	}
	named := map[string]any{"header": true, "names": []any{"kind", "total", "used", "free", "shared", "cache", "available"}}
	if r, _ := Parse(free, Spec{Mode: "columns", Options: named}); r.Problems != 1 || len(r.Value.([]any)) != 1 || r.Value.([]any)[0].(map[string]any)["used"] != 614748160 {
		t.Errorf("free with names: %v, %d problems %q", r.Value, r.Problems, r.FirstProblem)
	}
	for _, table := range []string{
		"procs -----------memory----------\n r  b   swpd   free\n 1  0      0 21942852\n11  0      0 21942852\n",
		"    PID TTY          TIME CMD\n      1 ?        00:00:01 init\n  12345 pts/0    00:00:00 bash\n",
	} {
		opts := map[string]any{"last": "rest"}
		if strings.HasPrefix(table, "procs") {
			opts["skip"] = 1
		}
		if r, _ := Parse(table, Spec{Mode: "columns", Options: opts}); r.Problems != 0 || len(r.Value.([]any)) != 2 {
			t.Errorf("%q: %v, %d problems %q", table, r.Value, r.Problems, r.FirstProblem)
		}
	}
}

// TestMergedHeaderSpanningColumnsIsAProblem: under last: rest, a header
// whose last column would take a name with a run of spaces inside it
// (ss -tln: "Address:Port  Peer Address:PortProcess") has names with
// spaces that spaces cannot tell apart; the header line is a problem, so
// the standing cannot be Consistent over keys like "Local" for "Local
// Address:Port". Before, the rows came back keyed so with no problem. A
// last name with one space (df's "Mounted on") is as it was.
func TestMergedHeaderSpanningColumnsIsAProblem(t *testing.T) {
	t.Parallel()
	ss := "State  Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess\n" +
		"LISTEN 0      4096       127.0.0.1:34573      0.0.0.0:*          \n" +
		"LISTEN 0      128          0.0.0.0:2024       0.0.0.0:*          \n"
	r, err := Parse(ss, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Problems != 1 || !strings.Contains(r.FirstProblem, `line 1: the header's last column would be named "Address:Port  Peer Address:PortProcess"`) {
		t.Errorf("ss: %d problems, %q", r.Problems, r.FirstProblem)
	}
	df := "Filesystem 1024-blocks Used Available Capacity Mounted on\n/dev/sda1 100 50 50 50% /\n"
	if r, _ := Parse(df, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}}); r.Problems != 0 {
		t.Errorf("df: %d problems, %q", r.Problems, r.FirstProblem)
	}
}

// TestByteOrderMarkIsNotContent: a UTF-8 byte order mark at the start of
// a text (PowerShell's Out-File, Excel's "CSV UTF-8") is read past by
// every mode but text. Before, JSON with one was not JSON (the stage's
// output unread, the run Not sure), and a CSV's first column was named
// "\ufeffName", so row.Name was missing. A mark anywhere else is content,
// and text keeps the bytes as they are.
func TestByteOrderMarkIsNotContent(t *testing.T) {
	t.Parallel()
	const bom = "\ufeff"
	for _, tc := range []struct {
		name, text string
		spec       Spec
		want       string // the value as JSON
		problems   int
	}{
		{"json", bom + `{"status":"ok"}`, Spec{Mode: "json"}, `{"status":"ok"}`, 0},
		{"jsonl", bom + "{\"a\":1}\n{\"a\":2}\n", Spec{Mode: "jsonl"}, `[{"a":1},{"a":2}]`, 0},
		{"csv", bom + "Name,Size\nweb,10\n", Spec{Mode: "csv", Options: map[string]any{"numbers": true}}, `[{"Name":"web","Size":10}]`, 0},
		{"lines", bom + "first\nsecond\n", Spec{Mode: "lines"}, `["first","second"]`, 0},
		{"text keeps it", bom + "first\n", Spec{Mode: "text"}, `"` + bom + `first\n"`, 0},
		{"json, a mark inside", `{"s":1}` + bom, Spec{Mode: "json"}, `"{\"s\":1}` + bom + `"`, 1},
	} {
		res, err := Parse(tc.text, tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, _ := json.Marshal(res.Value)
		var want any
		if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
			t.Fatalf("%s: want %s: %v", tc.name, tc.want, err)
		}
		wantJSON, _ := json.Marshal(want)
		if string(got) != string(wantJSON) || res.Problems != tc.problems {
			t.Errorf("%s: got %s with %d problems (%s), want %s with %d", tc.name, got, res.Problems, res.FirstProblem, wantJSON, tc.problems)
		}
	}
}
