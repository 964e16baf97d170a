package chart

import (
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// curlShortArgs are curl's one-letter options that take an argument
// (curl 7.88): in a group such as -so FILE the letters after one are not
// options, and the word after the group is its argument.
const curlShortArgs = "AbcCdDeEFHKmoPQrtTuUwxXyYz"

// CurlExitWithoutFail is the note for an exec whose command is curl, whose
// exit 0 the chart declares an answer (exitCodes: {0: up, …}), and which
// has no -f, --fail or --fail-with-body ("" otherwise): curl without them
// exits 0 on every HTTP status it receives, a 500 or a 404 as much as a
// 200, so the word for 0 is said of a server error. A chart that judges the
// status curl prints (-w '%{http_code}') and declares no answer for 0 is
// not noted.
//
//	[curl, -s, -o, /dev/null, URL] with {0: up, 7: refused}   noted
//	shell: 'curl -s -o /dev/null "$url"' with {0: up}          noted
//	[curl, -sf, URL] with {0: up, 22: http-error}             not noted
func (e *ExecSpec) CurlExitWithoutFail() string {
	if e == nil {
		return ""
	}
	argv := e.Command
	if e.Shell != "" {
		argv = lastCurlOfScript(e.Shell)
	}
	if len(argv) == 0 || filepath.Base(argv[0]) != "curl" {
		return ""
	}
	if _, ok := e.ExitCodes[0]; !ok {
		return ""
	}
	if curlFails(argv[1:]) {
		return ""
	}
	return "its answer is curl's exit code, and curl without -f (--fail) exits 0 on every HTTP status, a 500 or a 404 as much as a 200, so exitCodes' word for 0 (\"" + e.ExitCodes[0] + "\") would be said of a server error; add -f (exit 22 on a status of 400 or more: declare 22 if it is an answer), or judge the status curl prints (-w '%{http_code}')"
}

// lastCurlOfScript is the words of a shell: script's last statement when
// it is a curl command, whose exit is then the script's (`curl -s -o
// /dev/null "$url"` under {0: up, 7: down} said up over a 500 as the argv
// form did); nil otherwise. A word that is not plain text is "".
func lastCurlOfScript(script string) []string {
	f, err := parseBash(script)
	if err != nil || len(f.Stmts) == 0 {
		return nil
	}
	st := f.Stmts[len(f.Stmts)-1]
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || len(c.Args) == 0 || filepath.Base(c.Args[0].Lit()) != "curl" {
		return nil
	}
	words := make([]string, len(c.Args))
	for i, w := range c.Args {
		words[i] = w.Lit()
	}
	return words
}

// curlFails says whether curl's arguments hold -f, --fail or
// --fail-with-body, with which curl exits 22 on an HTTP status of 400 or
// more instead of 0: the one reading of curl's options both notes below
// (CurlExitWithoutFail, CurlPipedWithoutFail) make. A letter after one that
// takes an argument (-o, -w) is that argument, not an option.
func curlFails(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--fail" || a == "--fail-with-body":
			return true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j, c := range a[1:] {
				if c == 'f' {
					return true
				}
				if strings.ContainsRune(curlShortArgs, c) {
					if j == len(a)-2 {
						i++ // its argument is the next word
					} // else the rest of this one (-o/dev/null)
					break
				}
			}
		}
	}
	return false
}

// CurlPipedWithoutFail is the note for a shell: script that pipes curl's
// output into another command when that curl has no -f, --fail or
// --fail-with-body ("" otherwise): curl then exits 0 on every HTTP status
// and prints the server's error page as its output, so under pipefail
// nothing fails and the command after the | reads the page as the data. An
// exporter's 500 (`An error has occurred while serving metrics`) piped into
// `grep -c '^backup_failures_total{.*} [1-9]'` under {0: failing, 1: clean}
// read clean, Consistent, Nagios OK. A word that is not plain text (a
// variable, a substitution) is read as no option.
//
//	curl -s "$url" | grep -c X     noted
//	curl -sf "$url" | grep -c X    not noted
//	curl -s -o f "$url"; grep X f  not noted (no pipe: a chart judging f judges a file)
func (e *ExecSpec) CurlPipedWithoutFail() string {
	if !e.shellAny(func(node syntax.Node) bool {
		b := pipe(node)
		if b == nil {
			return false
		}
		// the left side's last command writes into the pipe
		left := b.X
		for x := pipe(left.Cmd); x != nil; x = pipe(left.Cmd) {
			left = x.Y
		}
		c, ok := left.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || filepath.Base(c.Args[0].Lit()) != "curl" {
			return false
		}
		args := make([]string, 0, len(c.Args)-1)
		for _, w := range c.Args[1:] {
			args = append(args, w.Lit())
		}
		return !curlFails(args)
	}) {
		return ""
	}
	return "its script pipes curl's output into another command, and curl without -f (--fail) exits 0 on every HTTP status and prints the server's error page (an exporter's 500) as its output: under pipefail nothing fails, and the command after the | reads that page as the data (grep -c finding no failing series, 0); add -f, whose exit 22 on a status of 400 or more fails the pipeline"
}

// curlLongArgs are curl's long options whose argument may hold a URL (a
// referer, a proxy), so the word after one is not a URL curl fetches.
var curlLongArgs = map[string]bool{
	"--referer": true, "--proxy": true, "--preproxy": true, "--header": true, "--proxy-header": true,
	"--output": true, "--write-out": true, "--dump-header": true, "--config": true, "--data": true,
	"--data-raw": true, "--data-binary": true, "--data-urlencode": true, "--form": true, "--upload-file": true,
	"--resolve": true, "--connect-to": true, "--request": true, "--user-agent": true, "--cookie": true,
}

// CurlManyURLs is the note for an exec whose command is curl given more
// than one URL without --fail-early ("" otherwise): curl then exits with
// its last transfer's code, so a first URL refused or timed out (its
// -w '%{http_code}' 000) beside a last one answered exits 0, and the run
// reads every transfer as done. A URL is a word that is no option nor an
// option's argument and holds :// or is a template (${url}), or the word
// after --url.
//
//	[curl, -s, -w, "%{http_code}\n", URL1, URL2]                noted
//	[curl, -s, --fail-early, URL1, URL2]                          not noted
func (e *ExecSpec) CurlManyURLs() string {
	if !e.commandIs("curl") {
		return ""
	}
	urls := 0
	for i := 1; i < len(e.Command); i++ {
		a := e.Command[i]
		switch {
		case a == "--fail-early":
			return ""
		case a == "--url":
			urls++
			i++
		case curlLongArgs[a]:
			i++
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if j := strings.IndexAny(a[1:], curlShortArgs); j == len(a)-2 {
				i++
			}
		case strings.Contains(a, "://") || strings.HasPrefix(a, "${"):
			urls++
		}
	}
	if urls < 2 {
		return ""
	}
	return "it gives curl more than one URL, and curl then exits with its last transfer's code: a URL before it refused or timed out (its -w '%{http_code}' 000) leaves the exit 0, and the run reads it as done; run one curl per URL (a foreach), or add --fail-early"
}

// CurlBodyReadWithoutFail is the note for an exec whose command is curl,
// or whose shell: script's last statement is (its output is then the
// stage's), that prints the body on stdout without -f, --fail or
// --fail-with-body and without -w, -o or -I ("" otherwise): curl then
// exits 0 on every HTTP status and the server's error page is the
// stage's output. HAProxy's stats page (`;csv`) asked with a wrong
// password is its 401 page; a parse mode that reads rows finds none in a
// web page now, but lines, text and regex read it as any text, and json
// reads an error body that is JSON as the answer. A curl whose exit the
// chart declares an answer (CurlExitWithoutFail) or that pipes its body
// on (CurlPipedWithoutFail) is said by those.
//
//	[curl, -s, "${url}"]                                   noted
//	shell: curl -s "$url"                                  noted
//	[curl, -sf, "${url}"]                                  not noted
//	[curl, -s, -o, /dev/null, -w, "%{http_code}", URL]     not noted
func (e *ExecSpec) CurlBodyReadWithoutFail() string {
	if e == nil || len(e.ExitCodes) > 0 {
		return ""
	}
	argv := e.Command
	if e.Shell != "" {
		argv = lastCurlOfScript(e.Shell)
	}
	if len(argv) == 0 || filepath.Base(argv[0]) != "curl" || curlFails(argv[1:]) || curlBodyElsewhere(argv[1:]) {
		return ""
	}
	return "its output is the body curl printed, and curl without -f (--fail) exits 0 on every HTTP status and prints the server's error page as the body (a 401 for credentials refused, a 404, a 503), which the stage then reads as its data; add -f, whose exit 22 on a status of 400 or more fails the stage, or print the status with -w '%{http_code}' and judge it"
}

// CurlStatusUnread is the note for an exec whose command is curl, or
// whose shell: script's last statement is, that sends the body away (-o,
// -O), prints no status (no -w, no -I), has no -f, --fail or
// --fail-with-body, and declares no exitCodes: ("" otherwise). Its only
// answer is then its exit code, and curl without -f exits 0 on every
// HTTP status: `curl -s -o /dev/null -x PROXY URL` judged by a rule
// `p.exitCode != 0` said up, Consistent, over Squid's 403 page for a
// site its ACL denies and its 503 for an origin that refused it
// (testdata/wave-proxy/squid-up). A curl whose exit the chart declares
// (CurlExitWithoutFail) is said by that note.
//
//	[curl, -s, -o, /dev/null, -x, PROXY, URL]              noted
//	shell: curl -s -o /dev/null "$url"                     noted
//	[curl, -sf, -o, /dev/null, URL]                        not noted
//	[curl, -s, -o, /dev/null, -w, "%{http_code}", URL]     not noted
func (e *ExecSpec) CurlStatusUnread() string {
	if e == nil || len(e.ExitCodes) > 0 {
		return ""
	}
	argv := e.Command
	if e.Shell != "" {
		argv = lastCurlOfScript(e.Shell)
	}
	if len(argv) == 0 || filepath.Base(argv[0]) != "curl" || curlFails(argv[1:]) || curlPrintsStatus(argv[1:]) || !curlBodyElsewhere(argv[1:]) {
		return ""
	}
	return "it sends the body curl got away (-o) and prints no status (no -w), so its only answer is curl's exit code, and curl without -f (--fail) exits 0 on every HTTP status, a proxy's 403 or 503 page as much as a 200: a rule over its exitCode or ok says the service answered of an error page; add -f (exit 22 on a status of 400 or more), or print the status with -w '%{http_code}' and judge it"
}

// curlBodyElsewhere says whether curl's arguments print the status
// (-w, --write-out), the head (-I, --head) or send the body to a file
// (-o, --output, -O, --remote-name), so that stdout is not the body
// alone.
func curlBodyElsewhere(args []string) bool {
	return curlHasOption(args, "woIO", "--write-out", "--output", "--head", "--remote-name")
}

// curlPrintsStatus says whether curl's arguments print the HTTP status
// on stdout: -w (--write-out) or the head, -I (--head), whose first line
// holds it.
func curlPrintsStatus(args []string) bool {
	return curlHasOption(args, "wI", "--write-out", "--head") || curlHeadersToStdout(args)
}

// curlHeadersToStdout says whether curl's arguments dump the response's
// headers, its status line first, on stdout (-D -, --dump-header
// /dev/stdout): `curl -s -D - -o /dev/null URL` prints the status a rule
// can judge, and was noted as printing none.
func curlHeadersToStdout(args []string) bool {
	stdout := func(v string) bool { return v == "-" || v == "/dev/stdout" }
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--dump-header":
			if i+1 < len(args) && stdout(args[i+1]) {
				return true
			}
			i++
		case strings.HasPrefix(a, "--"):
			if curlLongArgs[a] {
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				if !strings.ContainsRune(curlShortArgs, rune(a[j])) {
					continue
				}
				v := a[j+1:]
				if v == "" && i+1 < len(args) {
					v = args[i+1]
					i++
				}
				if a[j] == 'D' && stdout(v) {
					return true
				}
				break
			}
		}
	}
	return false
}

// curlHasOption says whether curl's arguments hold one of the one-letter
// options in letters (alone or in a group: -so) or one of the long ones.
// A letter after one that takes an argument is that argument.
func curlHasOption(args []string, letters string, long ...string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case slices.Contains(long, a):
			return true
		case strings.HasPrefix(a, "--"):
			if curlLongArgs[a] {
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j, c := range a[1:] {
				if strings.ContainsRune(letters, c) {
					return true
				}
				if strings.ContainsRune(curlShortArgs, c) {
					if j == len(a)-2 {
						i++
					}
					break
				}
			}
		}
	}
	return false
}
