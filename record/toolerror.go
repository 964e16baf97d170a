package record

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemToolError is the kind of the not-checked item filed for an exec
// stage that exited with a non-zero code the chart declared an answer
// while the tool said on stderr, in its own words, that it failed: the
// code is then the tool's failure, not the answer it gives that code for.
//
// npm exits 1 for its answers and its failures alike: `npm audit` when
// it found a vulnerability and when it could not audit (the registry's
// advisory endpoint refused, no lockfile, no network), `npm outdated`
// over an outdated package and over a registry it could not reach. A
// failure prints an error object on stdout under --json (no
// "vulnerabilities") and `npm error …` lines on stderr (`npm ERR! …`
// before npm 9); a finding writes nothing on stderr. A release gate with
// `exitCodes: {0: clean, 1: vulnerable}`, rows from
// `values(audit.stdout.vulnerabilities ?? {})` and `result.empty: answer`
// said `npm-audit OK - no verdict rows`, Consistent, over an audit that
// never ran (cmd/runbook TestNpmErrorUnderDeclaredCodeIsNoAnswer).
const ItemToolError = "tool-error"

// toolErrors is the rule, one line at a time: the prefix a tool writes
// at the start of each line of its own failure, and the tool.
//
//	"npm error "   npm 9 and later
//	"npm ERR! "    npm 8 and earlier
//	"rsync error:" rsync, for every exit but 0 and 24
//
// npm's `npm warn` lines are warnings, no failure. rsync ends every
// failure with `rsync error: TEXT (code N) at FILE(LINE) [WHO=VERSION]`,
// its 23 (`some files/attrs were not transferred`) over a source path
// misspelt (`change_dir … failed: No such file or directory`) and over a
// folder it may not read alike; what it printed then covers only what it
// reached, and its --delete was skipped (`IO error encountered --
// skipping file deletion`). A drift check, `rsync -n -i --delete` with
// `exitCodes: {0: clean, 23: partial, 24: vanished}` and rows from its
// itemized lines, said `OK - no verdict rows`, Consistent, over a source
// misspelt (testdata/wave-rsync/drift). Its 24, files that vanished as it
// read, is `rsync warning:`, an answer. OpenSSL's failures are
// read by openSSLError, its error stack having no fixed prefix.
var toolErrors = []struct{ prefix, tool string }{
	{"npm error", "npm"},
	{"npm ERR!", "npm"},
	{"rsync error:", "rsync"},
}

// openSSLStack is a line of OpenSSL's error stack, which it prints on
// stderr for every failure of its own and never beside an answer: a
// thread id, "error", the error code in hexadecimal, then where
// (`40B7437AE67F0000:error:80000002:system library:file_open:No such file
// or directory:…`, 3.x; `140234567890:error:0909006C:PEM
// routines:get_name:no start line:…`, 1.1).
var openSSLStack = regexp.MustCompile(`^[0-9A-Fa-f]+:error:[0-9A-Fa-f]+:`)

// openSSLConnection says whether line is OpenSSL's error stack saying a
// connection or a TLS handshake failed (`…:error:8000006F:system
// library:BIO_connect:Connection refused:…`, `…:error:0A00010B:SSL
// routines:ssl3_get_record:wrong version number:…`, `…:SSL
// routines:tls_post_process_server_certificate:certificate verify
// failed:…`): s_client's, whose 1 under -verify_return_error is a
// certificate refused and a connection that failed alike.
func openSSLConnection(line string) bool {
	line = strings.TrimSpace(line)
	return openSSLStack.MatchString(line) && (strings.Contains(line, ":SSL routines:") || strings.Contains(line, ":BIO routines:") || strings.Contains(line, ":BIO_connect:") || strings.Contains(line, ":BIO_lookup"))
}

// openSSLLoadFailures are the lines OpenSSL writes when it could not load
// the file it was given, in 3.x and 1.1.
var openSSLLoadFailures = []string{"Could not open file or uri for loading", "Could not read certificate from", "Unable to load certificate", "unable to load certificate"}

// openSSLError says whether line is OpenSSL's word that it failed.
// `openssl x509 -checkend N` exits 1 when the certificate expires within
// N seconds and as much when it could not read the file at all (not
// there, a key in its place, a broken PEM), so `exitCodes: {0: ok, 1:
// expiring}` said `expiring`, Consistent, over a path misspelt
// (cmd/runbook TestOpenSSLFailureUnderDeclaredCodeIsNoAnswer).
func openSSLError(line string) bool {
	line = strings.TrimSpace(line)
	if openSSLStack.MatchString(line) {
		return true
	}
	for _, p := range openSSLLoadFailures {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// toolAnswerCodes are the error codes a tool gives its answer under, in
// the same words as its failures: `npm ls` reports the tree's problems
// (extraneous, missing, invalid) as `npm error code ELSPROBLEMS`, exit
// 1, beside the tree it printed, and that is the answer its 1 declares.
var toolAnswerCodes = []string{"ELSPROBLEMS"}

// ToolError is stderr's first line that is a tool's own error line
// (toolErrors, openSSLError), "" when none is, or when its error code is
// one it answers under (toolAnswerCodes).
func ToolError(stderr string) string {
	answer := firstLine(stderr, func(l string) bool {
		i := toolErrorRule(l)
		if i < 0 {
			return false
		}
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), toolErrors[i].prefix))
		code, ok := strings.CutPrefix(rest, "code ")
		return ok && slices.Contains(toolAnswerCodes, strings.TrimSpace(code))
	})
	if answer != "" {
		return ""
	}
	return firstLine(stderr, func(l string) bool {
		return toolErrorRule(l) >= 0 || openSSLError(l) || configOpenFailure(l) != nil
	})
}

// ToolErrorQuote is the line of stderr to quote for line, the tool error
// ToolError found: line itself, but for rsync, whose error line says only
// its code, the first line before it saying what failed (`rsync:
// [sender] change_dir "/srv/dat" failed: No such file or directory (2)`).
func ToolErrorQuote(stderr, line string) string {
	if i := toolErrorRule(line); i >= 0 && toolErrors[i].tool == "rsync" {
		if cause := firstLine(stderr, isRsyncCause); cause != "" {
			return cause
		}
	}
	return line
}

// isRsyncCause says whether line is rsync's word of one thing that
// failed, which comes before its `rsync error:` line.
func isRsyncCause(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "rsync: ")
}

// nginxOpenFailure says whether line is nginx saying it could not open a
// file it needs before it can judge a configuration: the main config (a
// `-c` path misspelt), the error log or pid file it is not allowed to
// open. `nginx -t -c /etc/nginx/ngnix.conf` says `[emerg] open()
// "/etc/nginx/ngnix.conf" failed (2: No such file or directory)` and
// `test failed`, exit 1, and `{0: valid, 1: invalid}` said invalid,
// CRITICAL, Consistent, of a config nginx never read (wave-nginx). An
// include the config names that is not there is said the same way with
// ` in FILE:LINE` after it: the config is invalid, and that line is no
// failure of nginx.
func nginxOpenFailure(line string) bool {
	line = strings.TrimSpace(line)
	_, rest, ok := strings.Cut(line, "[emerg] ")
	if !ok {
		return false
	}
	_, rest, ok = strings.Cut(rest, `open() "`)
	if !ok {
		return false
	}
	i := strings.LastIndex(rest, `" failed (`)
	return i >= 0 && strings.HasSuffix(rest, ")") && !strings.Contains(rest[i:], ") in ")
}

// squidOpenFailure says whether line is Squid saying it could not open
// its configuration file (a -f path misspelt, a file it may not read):
// `squid -k parse -f /etc/squid/sqiud.conf` says `FATAL: Unable to open
// configuration file: /etc/squid/sqiud.conf: (2) No such file or
// directory`, exit 1, the code it gives a config it refuses, and `{0:
// parsed, 1: invalid}` said invalid, CRITICAL, Consistent, of a config
// squid never read (wave-proxy squid-parse). An include the config names
// that is not there is `Unable to find configuration file`: the config
// is invalid, and that line is no failure of squid.
func squidOpenFailure(line string) bool {
	_, rest, ok := strings.Cut(line, "| FATAL: Unable to open configuration file: ")
	return ok && rest != ""
}

// phpFPMOpenFailure says whether line is php-fpm saying it could not
// open the configuration file it was given: `php-fpm8.2 -t -y
// /etc/php/8.2/fpm/php-fmp.conf` says `ERROR: failed to open
// configuration file '…': No such file or directory (2)`, exit 78, the
// code it gives a configuration it refuses, and `{0: valid, 78: invalid}`
// said invalid, CRITICAL, Consistent, of a file php-fpm never read
// (wave-php fpm-configtest). An include the file names that is not
// there is php-fpm refusing the configuration, said otherwise.
func phpFPMOpenFailure(line string) bool {
	_, rest, ok := strings.Cut(line, "ERROR: failed to open configuration file '")
	return ok && strings.Contains(rest, "': ")
}

// openFailure is a configuration checker saying it could not open a file
// it needs before it can judge a configuration, which it says under the
// exit code it gives a configuration it refuses: what it could not open,
// and how to give it one.
type openFailure struct {
	tool, what, fix string
	is              func(line string) bool
	// onStdout: the checker logs on stdout (FreeRADIUS under -X, Kea's
	// -t), where ConfigUnopened reads; the others' lines are read on
	// stderr alone, and one merged into stdout (2>&1) is the refusal
	// judgement's (record.Denied)
	onStdout bool
}

// configOpenFailures are the checkers whose own words say so: the one
// home of that judgement, over stderr, and over stdout too where a
// checker logs there (ConfigUnopened).
var configOpenFailures = []openFailure{
	{"nginx", "a file it needs before it can judge a configuration (the main config it was given, its error log or pid file)", "nginx -t -c PATH", nginxOpenFailure, false},
	{"squid", "its configuration file", "squid -k parse -f PATH", squidOpenFailure, false},
	{"php-fpm", "its configuration file", "php-fpm -t -y PATH", phpFPMOpenFailure, false},
	{"Kea", "its configuration file", "kea-dhcp4 -t PATH", keaOpenFailure, true},
	{"FreeRADIUS", "its configuration folder", "freeradius -XC -d DIR", radiusdOpenFailure, true},
	{"monit", "its control file", "monit -c PATH -t", monitOpenFailure, false},
}

// monitOpenFailure says whether line is monit 5.x saying the control file
// it was given is no file: `monit -c /etc/monit/monitrcc -t` says `The
// control file '/etc/monit/monitrcc' is not a file`, exit 1 as over a
// syntax error, and {1: invalid} said invalid, Consistent, of a file
// nobody read (wave-sup monit-config). One it may not read is a refusal
// (record's monitRefusal).
func monitOpenFailure(line string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "The control file '")
	return ok && strings.HasSuffix(rest, "' is not a file")
}

// keaOpenFailure says whether line is Kea 2.2's checker (kea-dhcp4 -t,
// kea-dhcp6, kea-ctrl-agent, kea-dhcp-ddns) saying it could not open the
// file it was given: `Syntax check failed with: Unable to open file
// PATH`, exit 1, the code of a configuration it read and refused, and
// {0: valid, 1: invalid} said invalid, CRITICAL, Consistent, of a path
// misspelt (wave-radius kea-config).
func keaOpenFailure(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "Syntax check failed with: Unable to open file ")
}

// radiusdOpenFailure says whether line is FreeRADIUS 3.2 (freeradius -XC,
// radiusd; on stdout under -X) saying it could not read its
// configuration folder: `Errors reading /etc/freeradius/3.0x: No such
// file or directory` (or `Permission denied`), exit 1 as over a module
// misspelt (wave-radius radius-config).
func radiusdOpenFailure(line string) bool {
	line = strings.TrimSpace(line)
	rest, ok := strings.CutPrefix(line, "Errors reading ")
	return ok && (strings.HasSuffix(rest, ": No such file or directory") || strings.HasSuffix(rest, ": Permission denied"))
}

// ConfigUnopened is stdout's first line on which a configuration checker
// says it opened no configuration (configOpenFailures), for those that
// log on stdout (FreeRADIUS under -X, Kea's -t); stderr's is ToolError's.
func ConfigUnopened(stdout string) string {
	return firstLine(stdout, func(l string) bool {
		f := configOpenFailure(l)
		return f != nil && f.onStdout
	})
}

// configOpenFailure is the checker line is the open failure of, nil for
// none.
func configOpenFailure(line string) *openFailure {
	for i := range configOpenFailures {
		if configOpenFailures[i].is(line) {
			return &configOpenFailures[i]
		}
	}
	return nil
}

// toolErrorRule is the index of the rule whose prefix line starts with
// (then a space or the line's end), -1 when none.
func toolErrorRule(line string) int {
	line = strings.TrimSpace(line)
	for i, r := range toolErrors {
		if rest, ok := strings.CutPrefix(line, r.prefix); ok && (rest == "" || rest[0] == ' ') {
			return i
		}
	}
	return -1
}

// ToolErrorEntry is the ledger's entry for such a stage, filed under its
// path: exit is the exit code, word the answer the chart declared for it,
// line stderr's first error line (masked already; ToolError).
func ToolErrorEntry(path string, exit int, word, line string) coverage.Entry {
	if openSSLConnection(line) {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but OpenSSL said on stderr that the connection or its TLS handshake failed, and s_client exits with that code over a certificate its verification refused (-verify_return_error) and as much over a connection refused, a port that speaks no TLS or a handshake cut short, so %q is not known; stderr's first such line: %q; say which stderr the answer goes with ({%d: {word: %s, stderr: \"certificate verify failed\"}}), and a refused connection or a failed handshake is then a failure of the command",
			exit, word, word, cutLine(line), exit, word), ItemToolError)
	}
	if openSSLError(line) {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but OpenSSL said on stderr that it failed, and it exits with the same code over its own failure (x509 -checkend's 1 over a certificate that expires and over a file it could not read: not there, a key in its place, a broken PEM), so %q is not known; stderr's first such line: %q; give it a certificate it can read, or judge what it printed beside the code (-checkend prints \"Certificate will expire\" with its answer)",
			exit, word, word, cutLine(line)), ItemToolError)
	}
	if f := configOpenFailure(line); f != nil {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but %s said on stderr that it could not open %s, and it exits with the same code over a configuration it refuses, so %q is not known; stderr's first such line: %q; give it a config path that is there (%s), and run it as a user who may read it",
			exit, word, f.tool, f.what, word, cutLine(line), f.fix), ItemToolError)
	}
	if isRsyncCause(line) || (toolErrorRule(line) >= 0 && toolErrors[toolErrorRule(line)].tool == "rsync") {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but rsync said on stderr that it failed, and it exits with that code over a source path misspelt as over a folder it may not read, printing only what it reached and skipping --delete, so %q is not known and what it printed is no whole comparison; stderr's first such line: %q; give it a source that is there and the privilege to read all of it, or, where the code is the answer, say which stderr it goes with ({%d: {word: %s, stderr: \"some files/attrs were not transferred\"}}) and judge the word (K.status) in a rule",
			exit, word, word, cutLine(line), exit, word), ItemToolError)
	}
	tool := "the tool"
	if i := toolErrorRule(line); i >= 0 {
		tool = toolErrors[i].tool
	}
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but %s said on stderr that it failed, and it exits with the same code over its own failure (npm audit's 1 over a vulnerability found and over an audit it could not run: a registry that refused, no lockfile, no network), so %q is not known and what it printed is its error, not the answer; stderr's first such line: %q; make it run (npm ci or npm i --package-lock-only for the lockfile, a registry that serves the audit endpoint), or read its answer from what it printed (audit.stdout.metadata.vulnerabilities, which a failure does not print) and let the code be no answer",
		exit, word, tool, word, cutLine(line)), ItemToolError)
}
