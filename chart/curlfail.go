package chart

import (
	"path/filepath"
	"strings"
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
//	[curl, -sf, URL] with {0: up, 22: http-error}             not noted
func (e *ExecSpec) CurlExitWithoutFail() string {
	if e == nil || len(e.Command) == 0 || filepath.Base(e.Command[0]) != "curl" {
		return ""
	}
	if _, ok := e.ExitCodes[0]; !ok {
		return ""
	}
	for i := 1; i < len(e.Command); i++ {
		a := e.Command[i]
		switch {
		case a == "--fail" || a == "--fail-with-body":
			return ""
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j, c := range a[1:] {
				if c == 'f' {
					return ""
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
	return "its answer is curl's exit code, and curl without -f (--fail) exits 0 on every HTTP status, a 500 or a 404 as much as a 200, so exitCodes' word for 0 (\"" + e.ExitCodes[0] + "\") would be said of a server error; add -f (exit 22 on a status of 400 or more: declare 22 if it is an answer), or judge the status curl prints (-w '%{http_code}')"
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
	if e == nil || len(e.Command) == 0 || filepath.Base(e.Command[0]) != "curl" {
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
