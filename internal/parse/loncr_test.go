package parse

import (
	"strings"
	"testing"
)

// TestLoneCarriageReturnIsAProblem: sshd settings saved with lines ended
// by \r alone (a classic Mac editor, Excel for Mac's "Text (Macintosh)")
// were one line under parse: lines, "PermitRootLogin
// no\rPasswordAuthentication yes", and `"PasswordAuthentication yes" in
// c.stdout` said pass, Consistent, over a server taking passwords. A text
// that is one line but for a final \n and holds a carriage return with
// more after it is a problem in lines, kv, columns and regex, counted once
// however many modes' words it meets; a \r\n, a \r at a line's end
// ("\r\r\n"), a log of \n lines one of which a progress meter redrew,
// records: nul and text are read as before.
func TestLoneCarriageReturnIsAProblem(t *testing.T) {
	t.Parallel()
	const mac = "PermitRootLogin no\rPasswordAuthentication yes\r"
	for _, tc := range []struct {
		name     string
		text     string
		spec     Spec
		problems int
	}{
		{"lines", mac, Spec{Mode: "lines"}, 1},
		{"kv", mac, Spec{Mode: "kv", Options: map[string]any{"sep": " "}}, 1},
		{"regex", mac, Spec{Mode: "regex", Options: map[string]any{"pattern": `^(?P<k>\S+) (?P<v>.*)$`}}, 1},
		{"columns", "NAME STATE\rweb ok\rdb failed\r", Spec{Mode: "columns"}, 1},
		{"one line of progress", "10%\r55%\r100%\n", Spec{Mode: "lines"}, 1},
		{"a log's progress", "starting\n10%\r55%\r100%\ndone\n", Spec{Mode: "lines"}, 0},
		{"crlf", "a b\r\nc d\r\n", Spec{Mode: "lines"}, 0},
		{"cr at the end", "a b\r\r\nc d\r\r\n", Spec{Mode: "lines"}, 0},
		{"utf-16le line ends", "a\x00=\x001\x00\r\x00\n\x00b\x00=\x002\x00\r\x00\n\x00", Spec{Mode: "lines"}, 0},
		{"text", mac, Spec{Mode: "text"}, 0},
		{"records nul", "a\rb\x00c\x00", Spec{Mode: "lines", Options: map[string]any{"records": "nul"}}, 0},
	} {
		r, err := Parse(tc.text, tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Problems != tc.problems {
			t.Errorf("%s: %d problems (first %q), want %d; value %#v", tc.name, r.Problems, r.FirstProblem, tc.problems, r.Value)
		}
		if tc.problems > 0 && !strings.Contains(r.FirstProblem, `ends no \r\n`) {
			t.Errorf("%s: first problem %q does not say the carriage return", tc.name, r.FirstProblem)
		}
	}
}
