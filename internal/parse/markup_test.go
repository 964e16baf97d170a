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
