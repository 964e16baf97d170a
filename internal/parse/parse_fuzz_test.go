package parse

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// fuzzSpecs are the specs each fuzz target parses with.
var fuzzSpecs = map[string]Spec{
	"kv":      {Mode: "kv"},
	"columns": {Mode: "columns", Options: map[string]any{"last": "rest"}},
	"csv":     {Mode: "csv"},
	"tsv":     {Mode: "tsv"},
	"regex":   {Mode: "regex", Options: map[string]any{"pattern": `^(?P<k>\w+)=(?P<v>.*)$`}},
	"nagios":  {Mode: "nagios"},
	"jsonl":   {Mode: "jsonl"},
	"ldif":    {Mode: "ldif"},
}

// fuzzLines checks, for any text: no panic, a JSON value, and the rule —
// every non-blank line contributes to the value or is counted as a problem
// (for csv and tsv, whose records may span lines: every record).
func fuzzLines(f *testing.F, mode string, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	spec := fuzzSpecs[mode]
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Parse(text, spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(r.Value); err != nil {
			t.Fatalf("value is not JSON: %v", err)
		}
		if (r.Problems == 0) != (r.FirstProblem == "") {
			t.Fatalf("Problems %d, FirstProblem %q", r.Problems, r.FirstProblem)
		}
		nonBlank, comments := 0, 0
		for _, s := range lines(text) {
			// A line of tabs is a tsv record (a row of empty fields), not a blank line.
			if (!blank(s) || mode == "tsv" && strings.Contains(s, "\t")) && !(mode == "nagios" && strings.TrimSpace(s) == "|") {
				nonBlank++
				if strings.HasPrefix(strings.TrimSpace(s), "#") {
					comments++
				}
			}
		}
		switch mode {
		case "kv":
			if n := len(r.Value.(map[string]any)) + r.Problems + comments; n != nonBlank {
				t.Fatalf("%d keys + %d problems + %d comments, %d non-blank lines", n-r.Problems-comments, r.Problems, comments, nonBlank)
			}
		case "regex", "jsonl":
			if n := len(r.Value.([]any)) + r.Problems; n != nonBlank {
				t.Fatalf("%d values + %d problems, %d non-blank lines", len(r.Value.([]any)), r.Problems, nonBlank)
			}
		case "columns":
			// the header line, each row, each repeated header name (counted on the header line)
			if n := len(r.Value.([]any)) + r.Problems; nonBlank > 0 && n < nonBlank-1 {
				t.Fatalf("%d rows + %d problems, %d non-blank lines besides the header", len(r.Value.([]any)), r.Problems, nonBlank-1)
			}
		case "csv", "tsv":
			if n := len(r.Value.([]any)) + r.Problems; n > nonBlank {
				t.Fatalf("%d records + %d problems, only %d non-blank lines", len(r.Value.([]any)), r.Problems, nonBlank)
			}
		case "ldif":
			// entries only: each its dn (a text) and attributes, each a
			// list of texts; a text with a line that is no comment and
			// no blank reads an entry or a problem, or is one of the
			// lines left out by name (version:, ldapsearch's search:)
			es := r.Value.([]any)
			for _, e := range es {
				m := e.(map[string]any)
				if _, ok := m["dn"].(string); !ok {
					t.Fatalf("an entry with no dn text: %v", m)
				}
				for k, v := range m {
					if k == "dn" {
						continue
					}
					for _, x := range v.([]any) {
						if _, ok := x.(string); !ok {
							t.Fatalf("attribute %s holds %T", k, x)
						}
					}
				}
			}
			if len(es)+r.Problems == 0 && nonBlank > comments && !strings.Contains(strings.ToLower(text), "version") && !strings.Contains(strings.ToLower(text), "search") {
				for _, s := range lines(text) {
					if !blank(s) && !strings.HasPrefix(s, "#") && !strings.HasPrefix(s, " ") {
						t.Fatalf("line %q read as nothing", s)
					}
				}
			}
		case "nagios":
			v := r.Value.(map[string]any)
			n := len(v["text"].([]any)) + len(v["perfdata"].([]any)) + r.Problems
			if _, ok := v["status"]; ok {
				n++
			}
			if nonBlank > 0 && n == 0 {
				t.Fatalf("%d non-blank lines and nothing read or counted", nonBlank)
			}
			// Every item read is written back (result.perfdata) as the
			// same item: one rule of the format, read and written.
			for _, it := range v["perfdata"].([]any) {
				txt, err := PerfItemText(it, "")
				if l, _ := it.(map[string]any)["label"].(string); err != nil && strings.ContainsAny(l, "\r\n|") {
					continue // a line end or a | the check's line cannot hold: refused on purpose
				}
				if err != nil {
					t.Fatalf("item %v read but not written: %v", it, err)
				}
				back, err := Parse("OK | "+txt, spec)
				if err != nil || back.Problems > 0 {
					t.Fatalf("item %v written %q, which reads with a problem: %v %s", it, txt, err, back.FirstProblem)
				}
				got := back.Value.(map[string]any)["perfdata"].([]any)
				if len(got) != 1 || !jsonv.Equal(got[0], it) { // -0 is 0
					a, _ := json.Marshal(it)
					b, _ := json.Marshal(got)
					t.Fatalf("item %s written %q reads back as %s", a, txt, b)
				}
			}
		}
	})
}

func FuzzKV(f *testing.F) {
	fuzzLines(f, "kv", "a=1\nb: 2\n", "nope\n=1\na=1\na=2", "# c\n", "")
}

func FuzzColumns(f *testing.F) {
	fuzzLines(f, "columns", "Filesystem Used Mounted on\n/dev/a 1 /\nx 2 /mnt/my disk\n", "a a\n1\n1 2 3\n", "")
}

func FuzzCSV(f *testing.F) {
	fuzzLines(f, "csv", "a,b\n\"x,y\",1\n1\n", "a,b\nx\"y,1\n\"open\n", "")
}

func FuzzTSV(f *testing.F) {
	fuzzLines(f, "tsv", "a\tb\n1\t2\n", "a\n\"\n", "")
}

func FuzzRegex(f *testing.F) {
	fuzzLines(f, "regex", "a=1\nnope\n", "\n\n", "")
}

func FuzzNagios(f *testing.F) {
	fuzzLines(f, "nagios", "OK | '/mnt/my disk'=100B;;;0;1000 time=0.002s;1;2;0;10\nlong | load1=0.5;5:;10:\n'it''s'=1;@~:5\n",
		"X | bad 'open=1 =1 a=1;;;;;;\n", "| a=U\n", "")
}

func FuzzLDIF(f *testing.F) {
	fuzzLines(f, "ldif", "version: 1\n\ndn: a=1\nx:: w5g=\nm: long\n er\n\n# c\nsearch: 2\nresult: 0 Success\n",
		" x\ndn:: !!\nuid: a\n\nnope\ny:< file:///a\n", "dn: a=1\ndn: a=2\nb:: /9j/\n", "")
}

func FuzzJSONL(f *testing.F) {
	fuzzLines(f, "jsonl", "{\"a\":1}\n[\n1 2\n", "1e999\n", "")
}

// FuzzNulRecords: under records: nul, for any text, no panic, a JSON
// value, and every non-blank record read (a pattern that takes any
// record), or the one problem of a text with no NUL at all.
func FuzzNulRecords(f *testing.F) {
	for _, s := range []string{"a\x00b\nc\x00", "a\nb\n", "\x00\x00", "x\x00\n", ""} {
		f.Add(s)
	}
	spec := Spec{Mode: "regex", Options: map[string]any{"pattern": `(?s)^(?P<r>.*)$`, "records": "nul"}}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Parse(text, spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(r.Value); err != nil {
			t.Fatalf("value is not JSON: %v", err)
		}
		rec := recorder{nul: true}
		nonBlank := 0
		for _, s := range rec.records(strings.TrimPrefix(text, "\ufeff")) {
			if !blank(s) {
				nonBlank++
			}
		}
		if got := len(r.Value.([]any)) + r.Problems; got != nonBlank && !(nonBlank == 0 && rec.n == 1 && r.Problems == 1) {
			t.Fatalf("%d records read + %d problems, %d non-blank records", len(r.Value.([]any)), r.Problems, nonBlank)
		}
	})
}
