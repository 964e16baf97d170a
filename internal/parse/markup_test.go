package parse

import (
	"strings"
	"testing"
)

// TestWebPageIsNoTable: HAProxy's stats page, fetched by `curl -s
// 'http://lb:8404/stats;csv'` with a wrong password, is its 401 page, and
// curl without -f exits 0 over it. csv read the page as a one-column
// table whose header was `<html><body><h1>401 Unauthorized</h1>` and
// whose rows were its other lines, with no problem: a chart counting the
// servers whose status is DOWN found none and said `OK haproxy: ok`,
// Consistent, with six servers DOWN (testdata/wave-haproxy/page). A web
// page is no table in any mode that reads rows or keys: every line of it
// is a problem, and it gives no row.
func TestWebPageIsNoTable(t *testing.T) {
	t.Parallel()
	pages := map[string]string{
		"haproxy 401": "<html><body><h1>401 Unauthorized</h1>\nYou need a valid user and password to access this content.\n</body></html>\n",
		"haproxy 503": "<html><body><h1>503 Service Unavailable</h1>\nNo server is available to handle this request.\n</body></html>\n",
		"doctype":     "\n  <!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">\n<html lang=\"en\">\n<head><title>404 Not Found</title></head>\n</html>\n",
		"nginx crlf":  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n",
		"xml":         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code></Error>\n",
	}
	for name, page := range pages {
		for _, mode := range []string{"csv", "tsv", "columns", "kv"} {
			r, err := Parse(page, Spec{Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, l := range lines(page) {
				if !blank(l) {
					n++
				}
			}
			empty := false
			switch v := r.Value.(type) {
			case []any:
				empty = len(v) == 0
			case map[string]any:
				empty = len(v) == 0
			}
			if !empty || r.Problems != n || !strings.Contains(r.FirstProblem, "a web page") {
				t.Errorf("%s under %s: got %#v, %d problems (%s); want no row and each of its %d lines a problem saying it is a web page", name, mode, r.Value, r.Problems, r.FirstProblem, n)
			}
		}
	}
	// A table whose values hold markup is still a table.
	r, err := Parse("name,body\nwelcome,<html><body>hi</body></html>\n", Spec{Mode: "csv"})
	if err != nil {
		t.Fatal(err)
	}
	if l, _ := r.Value.([]any); len(l) != 1 || r.Problems != 0 {
		t.Errorf("a value holding markup: got %#v, %d problems (%s); want its one row", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestColumnsHeaderOpenedByACommentMarkSaysSo: HAProxy's `show servers
// state` heads its rows with `# be_id be_name …`, and the lone "#" was
// read as a column: every row was a problem saying only "25 fields, the
// table has 26 columns", with nothing on what to write. It says the "#"
// names no column now, and how to name them.
func TestColumnsHeaderOpenedByACommentMarkSaysSo(t *testing.T) {
	t.Parallel()
	out := "# be_id be_name srv_id srv_name srv_op_state\n4 app 1 app1 2\n4 app 3 app3 0\n"
	r, err := Parse(out, Spec{Mode: "columns"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Problems != 2 || !strings.Contains(r.FirstProblem, `the header opens with "#"`) || !strings.Contains(r.FirstProblem, "names: [") {
		t.Errorf("got %d problems (%s); want each row a problem saying the header's # names no column", r.Problems, r.FirstProblem)
	}
	// Named, with the header read past, the rows are read.
	r, err = Parse(out, Spec{Mode: "columns", Options: map[string]any{"header": true, "names": []any{"be_id", "be_name", "srv_id", "srv_name", "srv_op_state"}}})
	if err != nil {
		t.Fatal(err)
	}
	if l, _ := r.Value.([]any); len(l) != 2 || r.Problems != 0 {
		t.Errorf("named: got %#v (%d problems: %s); want the two rows", r.Value, r.Problems, r.FirstProblem)
	}
}
