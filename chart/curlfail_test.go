package chart

import "testing"

// TestCurlExitAnswerWithoutFailIsNoted: curl without -f exits 0 on any
// HTTP status, so a chart whose exitCodes make 0 an answer ({0: up, 7:
// refused, 28: timeout}) called a 500 up, Consistent, Nagios OK. The
// loader notes a curl command whose exit 0 is a declared answer and that
// has no -f, --fail or --fail-with-body; one with it, or one whose exit 0
// is no answer (its output is judged), is not.
func TestCurlExitAnswerWithoutFailIsNoted(t *testing.T) {
	up := map[int]string{0: "up", 7: "refused"}
	for _, tc := range []struct {
		cmd   []string
		codes map[int]string
		want  bool
	}{
		{[]string{"curl", "-s", "-o", "/dev/null", "http://h/"}, up, true},
		{[]string{"/usr/bin/curl", "-sS", "-m", "5", "http://h/"}, up, true},
		{[]string{"curl", "-s", "--fail-early", "http://h/"}, up, true},
		{[]string{"curl", "-o", "-f", "http://h/"}, up, true}, // -f is -o's file
		{[]string{"curl", "-so/dev/null", "-f", "http://h/"}, up, false},
		{[]string{"curl", "-sf", "http://h/"}, up, false},
		{[]string{"curl", "-fsS", "-o", "/dev/null", "http://h/"}, up, false},
		{[]string{"curl", "-s", "--fail", "http://h/"}, up, false},
		{[]string{"curl", "-s", "--fail-with-body", "http://h/"}, up, false},
		{[]string{"curl", "-s", "-w", "%{http_code}", "http://h/"}, nil, false},
		{[]string{"curl", "-s", "http://h/"}, map[int]string{7: "refused"}, false},
		{[]string{"wget", "-q", "http://h/"}, up, false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, ExitCodes: tc.codes}).CurlExitWithoutFail() != ""; got != tc.want {
			t.Errorf("%q %v: noted %v, want %v", tc.cmd, tc.codes, got, tc.want)
		}
	}
}

// TestCurlManyURLsLastExitIsNoted: curl given more than one URL exits with
// its last transfer's code, so a first URL refused (its -w code 000) and a
// last one answered exit 0, and a chart reading the codes with int() said
// the refused one was ok, Consistent. The loader notes a curl command with
// more than one URL and no --fail-early.
func TestCurlManyURLsLastExitIsNoted(t *testing.T) {
	for _, tc := range []struct {
		cmd  []string
		want bool
	}{
		{[]string{"curl", "-s", "-o", "/dev/null", "-o", "/dev/null", "-w", "%{http_code}\n", "http://a/", "http://b/"}, true},
		{[]string{"curl", "-s", "http://a/", "--url", "https://b/"}, true},
		{[]string{"curl", "-s", "${first}", "${second}"}, true},
		{[]string{"curl", "-s", "--fail-early", "http://a/", "http://b/"}, false},
		{[]string{"curl", "-s", "--referer", "http://r/", "http://a/"}, false},
		{[]string{"curl", "-s", "-H", "Origin: http://o/", "-x", "http://proxy:3128", "http://a/"}, false},
		{[]string{"curl", "-s", "-w", "%{url}", "${url}"}, false},
		{[]string{"wget", "http://a/", "http://b/"}, false},
	} {
		if got := (&ExecSpec{Command: tc.cmd}).CurlManyURLs() != ""; got != tc.want {
			t.Errorf("%q: noted %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

// TestCurlPipedWithoutFailIsNoted: a node exporter answering 500 (`An
// error has occurred while serving metrics`) to `curl -s "$url" | grep -c
// '^backup_failures_total{.*} [1-9]'` under {0: failing, 1: clean} exited
// 0 (curl) and 1 (grep over the error page), so the run read "clean",
// Consistent, Nagios OK. The loader notes a shell: script that pipes the
// output of a curl without -f, --fail or --fail-with-body into another
// command; one with it, or one that pipes nothing from curl, is not.
func TestCurlPipedWithoutFailIsNoted(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   bool
	}{
		{`curl -s "$url" | grep -c '^backup_failures_total{.*} [1-9]'`, true},
		{`curl -sS -m 5 http://localhost:9100/metrics | grep '^node_filesystem_avail_bytes' | sort`, true},
		{`/usr/bin/curl -s -o - "$url" |& awk '{s+=$2} END {print s+0}'`, true},
		{`set -e; curl -s -H 'Accept: text/plain' "$url" | grep -c x || true`, true},
		{`curl -o -f "$url" | grep x`, true}, // -f is -o's file
		{`curl -sf "$url" | grep -c x`, false},
		{`curl -fsS "$url" | grep -c x`, false},
		{`curl -s --fail "$url" | grep -c x`, false},
		{`curl -s --fail-with-body "$url" | grep -c x`, false},
		{`curl -s -o /tmp/m "$url"; grep -c x /tmp/m`, false},
		{`grep x f | curl -s -d @- "$url"`, false}, // curl's output is the script's
		{`wget -qO- "$url" | grep -c x`, false},
	} {
		if got := (&ExecSpec{Shell: tc.script}).CurlPipedWithoutFail() != ""; got != tc.want {
			t.Errorf("%q: noted %v, want %v", tc.script, got, tc.want)
		}
	}
}

// TestCurlExitAnswerInAShellScriptIsNoted: `shell: 'curl -s -o /dev/null
// "$url"'` under {0: up, 7: down} said up, Consistent, Nagios OK, over
// a 500, with no note: the note read the argv form alone. A script whose
// last command is curl answers with curl's exit as the argv does.
func TestCurlExitAnswerInAShellScriptIsNoted(t *testing.T) {
	up := map[int]string{0: "up", 7: "down"}
	for _, tc := range []struct {
		script string
		want   bool
	}{
		{`curl -s -o /dev/null "$url"`, true},
		{`set -e; curl -sS -m 5 -o /dev/null "$url"`, true},
		{`curl -sf -o /dev/null "$url"`, false},
		{`curl -s --fail -o /dev/null "$url"`, false},
		{`curl -s -o /dev/null "$url"; echo done`, false},
		{`! curl -s "$url"`, false},
	} {
		if got := (&ExecSpec{Shell: tc.script, ExitCodes: up}).CurlExitWithoutFail() != ""; got != tc.want {
			t.Errorf("%q: noted %v, want %v", tc.script, got, tc.want)
		}
	}
}

// TestCurlBodyReadWithoutFailIsNoted: `curl -s 'http://lb:8404/stats;csv'`
// with a wrong password printed HAProxy's 401 page and exited 0, and the
// stage read the page as its data (testdata/wave-haproxy/page). csv,
// tsv, columns and kv now find no row in a web page, but lines, text and
// regex read one as they read any text, and json reads an error body
// that is JSON (a 503's {"error": …}) as the answer: a curl whose body is
// the stage's output, without -f, is noted. One that prints the status
// (-w), writes the body to a file (-o), or fails on an HTTP error is not.
func TestCurlBodyReadWithoutFailIsNoted(t *testing.T) {
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"curl", "-s", "-K", "-", "${url}"}}, true},
		{ExecSpec{Command: []string{"/usr/bin/curl", "-sS", "-m", "5", "http://127.0.0.1:8404/stats;csv"}}, true},
		{ExecSpec{Shell: `curl -s "$url"`}, true},
		{ExecSpec{Command: []string{"curl", "-sf", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-s", "--fail", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-s", "--write-out", "%{http_code}", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-s", "-o", "/tmp/page", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-sI", "${url}"}}, false},                                    // the head holds the status
		{ExecSpec{Command: []string{"curl", "-s", "${url}"}, ExitCodes: map[int]string{0: "up"}}, false}, // CurlExitWithoutFail says it
		{ExecSpec{Shell: `curl -s "$url" | grep -c x`}, false},                                           // CurlPipedWithoutFail says it
		{ExecSpec{Command: []string{"wget", "-qO-", "${url}"}}, false},
	} {
		if got := tc.e.CurlBodyReadWithoutFail() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}

// TestCurlStatusUnreadIsNoted: `curl -s -o /dev/null -x PROXY URL`, its
// exit read by a rule (`p.exitCode != 0` → down), said up, Consistent,
// over Squid's 403 page for a site its ACL denies and its 503 for an
// origin that refused the connection: curl exits 0 on both, and with the
// body sent away and no status printed nothing else was judged
// (testdata/wave-proxy/squid-up). Such a curl is noted; one with -f, one
// that prints the status (-w, -I), one whose body is its output (said by
// CurlBodyReadWithoutFail) and one whose exit is declared (said by
// CurlExitWithoutFail) are not.
func TestCurlStatusUnreadIsNoted(t *testing.T) {
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"curl", "-s", "-o", "/dev/null", "-m", "5", "-x", "${proxy}", "${url}"}}, true},
		{ExecSpec{Command: []string{"curl", "-so", "/dev/null", "${url}"}}, true},
		{ExecSpec{Command: []string{"curl", "--silent", "--output", "/dev/null", "${url}"}}, true},
		{ExecSpec{Shell: `curl -s -o /dev/null -x "$PROXY" "$URL"`}, true},
		{ExecSpec{Command: []string{"curl", "-sf", "-o", "/dev/null", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-sI", "-o", "/dev/null", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-s", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-s", "-o", "/dev/null", "${url}"}, ExitCodes: map[int]string{0: "up"}}, false},
		{ExecSpec{Command: []string{"curl", "-s", "-x", "-o", "${url}"}}, false}, // -o is -x's argument
		{ExecSpec{Command: []string{"wget", "-q", "-O", "/dev/null", "${url}"}}, false},
	} {
		if got := tc.e.CurlStatusUnread() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}

// TestCurlHeadersDumpedToStdoutPrintTheStatus: `curl -s -D - -o
// /dev/null URL` prints the response's headers on stdout, its status
// line first, and a chart judging `HTTP/1.0 200` there was noted as
// printing no status, its only answer curl's exit code (a wrong note,
// testdata/wave-falsealarm2/http-health). Headers dumped to a file
// print none.
func TestCurlHeadersDumpedToStdoutPrintTheStatus(t *testing.T) {
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"curl", "-s", "-D", "-", "-o", "/dev/null", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-sD", "-", "-o", "/dev/null", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "-sD-", "-o", "/dev/null", "${url}"}}, false},
		{ExecSpec{Command: []string{"curl", "--dump-header", "/dev/stdout", "-o", "/dev/null", "${url}"}}, false},
		{ExecSpec{Shell: `curl -s -D - -o /dev/null "$URL"`}, false},
		{ExecSpec{Command: []string{"curl", "-s", "-D", "/tmp/h.txt", "-o", "/dev/null", "${url}"}}, true},
		{ExecSpec{Command: []string{"curl", "-s", "-i", "-o", "/dev/null", "${url}"}}, true}, // -i's headers go to -o's file
	} {
		if got := tc.e.CurlStatusUnread() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}
