package runbook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/proc"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
)

// execStage runs a process and writes its outcome under `into`:
// {stdout, stderr, exitCode, ok, timedOut, durationMs}, and `status`, the
// chart's word for the exit code when exitCodes: lists it. A process that
// cannot start, times out, exits non-zero or is killed is an OUTCOME: the
// stage files a script row (holding what ran, the answer word, and the
// cause of an unknown outcome) and the run goes on. Only a broken stage (a
// stdin expression that errors) or a shell: with no bash to run it fails
// the stage. With retry, each attempt files its own row and the last
// attempt's outcome is written.
func execStage(st *chart.StageSpec, set settled) flow.StageFunc {
	es := st.Exec
	into := es.Into
	if into == "" {
		into = st.ID
	}
	timeout := set.timeout
	env := make(map[string]string, len(es.Env))
	for _, e := range es.Env {
		env[e.Name] = e.Value
	}
	attempts := 1
	if set.retry != nil && set.retry.Attempts > 1 {
		attempts = set.retry.Attempts
	}
	warnings := es.RunWarnings()
	return func(ctx context.Context, s *flow.Scope) error {
		rs := stateOf(s)
		for _, w := range warnings {
			rs.warnOnce(st.ID, s.Path(), w)
		}
		argv, timeout, err := renderExec(es, s, timeout, rs.secrets) // exec_templates.go
		if err != nil {
			return err
		}
		spec := proc.Spec{Argv: argv, Shell: es.Shell, Env: execEnv(es, env), Dir: es.Dir, Timeout: timeout, MaxOutput: es.MaxOutput}
		// An inherited variable is the runner's, and a password it carries
		// (a proxy URL's user:PASSWORD@) is a secret of the run: curl -v
		// prints "Uses proxy env variable https_proxy == '…'" and its
		// Proxy-Authorization header, which the record kept. So is a
		// value whose name says it is one (VAULT_TOKEN), whole.
		for _, name := range es.InheritEnv {
			if v, ok := spec.Env[name]; ok {
				rs.secrets.AddInherited(name, v)
			}
		}
		for _, name := range es.InheritedLocale() {
			own := slices.ContainsFunc(es.Env, func(e chart.EnvVar) bool { return e.Name == name }) || slices.ContainsFunc(es.EnvFrom, func(a chart.Assign) bool { return a.Key == name })
			if v, ok := spec.Env[name]; ok && !own && !proc.CLocale(v) {
				rs.warnOnce(st.ID, s.Path(), "inheritEnv: passes the runner's "+name+"="+v+" on, which outranks the LC_NUMERIC=C, LC_TIME=C and LC_MESSAGES=C runbook gives a command whose runner's locale is not C: the command writes numbers, times and words in it (1.234.567, 4,54, Dez, Durchschn.:, its errors), which a chart reads as other numbers and the run does not read as errors; drop it from inheritEnv:, or pin the stage's locale with env: {LC_ALL: C.UTF-8}")
			}
		}
		if len(es.EnvFrom) > 0 {
			base := spec.Env
			spec.Env = make(map[string]string, len(base)+len(es.EnvFrom))
			for k, v := range base {
				spec.Env[k] = v
			}
			for _, a := range es.EnvFrom {
				v, _, err := a.Expr.Value(s)
				if err != nil {
					return fmt.Errorf("exec envFrom %s: %s: %w", a.Key, rules.OneLine(a.Src), err)
				}
				rs.derive(s, a.Expr, v)
				spec.Env[a.Key] = envText(v)
				// A variable whose name says it is a secret (PGPASSWORD)
				// is one, as an inherited one is, whatever the value
				// came from: an input the chart did not mark secret,
				// handed to psql by envFrom, stood in the clear wherever
				// the command printed it.
				rs.secrets.AddInherited(a.Key, spec.Env[a.Key])
			}
		}
		if es.Stdin != nil {
			v, _, err := es.Stdin.Expr.Value(s)
			if err != nil {
				return fmt.Errorf("exec stdin %s: %w", rules.OneLine(es.Stdin.Src), err)
			}
			rs.derive(s, es.Stdin.Expr, v)
			spec.Stdin = stdinBytes(v)
		}
		// After envFrom and stdin: a value they derived is masked too.
		spec.Secrets = rs.secrets.Forms()
		var res proc.Result
		var row label.Row
		var stubbed bool
		m := record.Masker(rs.secrets)
		for a := 1; ; a++ {
			var err error
			if res, stubbed, err = rs.runOrStub(ctx, s, spec); err != nil { // stubs.go
				return err
			}
			settlement, facts := execOutcome(res)
			attempt := 0
			if attempts > 1 {
				attempt = a
			}
			ran := ranOf(ranAs(es, argv).Command, es.Shell, es.Dir, res, m)
			row = rs.script(s.Path(), settlement, facts, res.Truncated, callNotes{
				attempt:   attempt,
				ran:       ran,
				answer:    es.Answer(res.ExitCode, res.Stdout, res.Stderr),
				notAnswer: es.NotAnswer(res.ExitCode, res.Stdout, res.Stderr),
				cause:     execCause(res, timeout, ctx, programOf(ran)),
			})
			if errors.Is(res.StartErr, proc.ErrNoBash) {
				// Not an outcome of the script, and no retry brings bash.
				return noBash(st, res.StartErr, m)
			}
			if a >= attempts || ctx.Err() != nil || !retryOn(set.on, row, res) {
				break
			}
			if sl, ok := rs.stubs.(Sleeper); ok { // stubs.go
				sl.Sleep(ctx, set.retry.Delay(a))
				continue
			}
			t := time.NewTimer(set.retry.Delay(a))
			select {
			case <-ctx.Done():
				t.Stop()
			case <-t.C:
			}
		}
		// a fact: its durationMs made an equal value an accident of the clock
		s.SetFact(into, rs.execValue(s.Path(), es, argv, res, row, stubbed))
		return nil
	}
}

// execOutcome is the one rule for how a process's end becomes an exec
// stage's settlement and facts for its script row (honesty.md §1), read top
// to bottom, first match wins:
//
//	the process (proc.Result)                     settlement   facts
//	ctx already done, never started               not-entered  none
//	could not be started                          threw        none
//	stopped by the runner (timeout, ctx cancel)   threw        none
//	  (a timeout that passed before the start too)
//	exited with code N                            returned     {ok: N == 0, exitCode: N}
//	killed by a signal the runner did not send    returned     {ok: false, terminatedBy: "SIGKILL"}
//	anything else (its end could not be read)     threw        none
//
// @example
//
//	sh -c 'exit 7'          → returned, {ok: false, exitCode: 7}
//	sh -c 'kill -9 $$'      → returned, {ok: false, terminatedBy: "SIGKILL"}
//	sleep 10, timeout 100ms → threw, no facts
func execOutcome(r proc.Result) (label.Settlement, *label.Facts) {
	switch {
	case !r.Started && r.Cancelled:
		return label.NotEntered, nil
	case r.StartErr != nil || r.TimedOut || r.Cancelled:
		return label.Threw, nil // nothing about the outcome is known
	case r.ExitCode != nil:
		ok, code := *r.ExitCode == 0, *r.ExitCode // the row's own copy
		return label.Returned, &label.Facts{OK: &ok, ExitCode: &code}
	case r.Signal != "":
		ok := false
		return label.Returned, &label.Facts{OK: &ok, TerminatedBy: r.Signal}
	}
	return label.Threw, nil
}

// envText is a scope value as an environment variable: a string as it is,
// null as empty, anything else as JSON.
func envText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	}
	return string(stdinBytes(v))
}

func stdinBytes(v any) []byte {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		return []byte(t)
	case []byte:
		return t
	}
	b, _ := json.Marshal(v)
	return b
}

// retryOn says whether an attempt's outcome is worth another: by default
// anything but `completed` and an exit code the chart declared an answer
// (exitCodes:; a Nagios check's 2 is its measurement, and asking again
// would only hide it — honesty.md §6); with `on:`, only the listed exit
// codes, labels, or "timeout", as written, answers included.
func retryOn(on []string, row label.Row, res proc.Result) bool {
	if row.Label == label.Completed {
		return false
	}
	if len(on) == 0 {
		return !row.Answered()
	}
	for _, on := range on {
		switch {
		case on == "timeout" && res.TimedOut:
			return true
		case on == string(row.Label):
			return true
		case row.ExitCode != nil && on == strconv.Itoa(*row.ExitCode):
			return true
		}
	}
	return false
}

// execValue is what `into` receives. Parsed stdout is the stage's result:
// it passes through coverage (served form in the scope, declarations on the
// ledger). A result over the output cap is withheld from the scope, and
// the ledger says so (record.WithheldEntry). stubbed: a stub answered,
// and no process ran here.
func (rs *runState) execValue(path string, es *chart.ExecSpec, argv []string, res proc.Result, row label.Row, stubbed bool) map[string]any {
	out := map[string]any{
		"stdout":     nil,
		"stderr":     nil,
		"exitCode":   nil,
		"ok":         row.Label == label.Completed,
		"timedOut":   res.TimedOut,
		"durationMs": float64(res.Duration.Microseconds()) / 1000,
	}
	if res.ExitCode != nil {
		out["exitCode"] = *res.ExitCode
	}
	if res.Signal != "" {
		out["signal"] = res.Signal
	}
	word := es.Answer(res.ExitCode, res.Stdout, res.Stderr)
	if word != "" {
		out["status"] = word
	}
	// bits over an answer, and over exit 0 ([]), which is no failure
	// though exitCodes: may give it no word (exitBits: alone)
	if word != "" || res.ExitCode != nil && *res.ExitCode == 0 {
		if bits := es.BitWords(res.ExitCode); bits != nil {
			list := make([]any, len(bits))
			for i, b := range bits {
				list[i] = b
			}
			out["bits"] = list
		}
	}
	if res.StartErr != nil {
		out["error"] = rs.mask(res.StartErr.Error())
	}
	if res.Truncated {
		limit := maxOutput(es.MaxOutput)
		out["withheld"] = fmt.Sprintf("the output passed the %d-byte cap and was withheld from the scope", limit)
		rs.fileLedger(record.WithheldEntry(path, "its output", limit, "the stage's maxOutput:"))
		return out
	}
	stdout, stderr := rs.text(path, "its stdout", res.Stdout), rs.text(path, "its stderr", res.Stderr)
	out["stderr"] = stderr
	// A command that never started (not found, not executable) has no
	// output: its empty text is parsed so the chart reads the shape it
	// expects, but no parse problem is filed over it. The standing line
	// led with "line 1: no JSON value: the text is blank" where the cause,
	// in its script row, was "could not be started: not found". Nor over
	// the blank output of one that ended with no exit code (timed out,
	// cancelled, killed by a signal), or that exited with a code that is
	// a failure (curl -f's 22): its row says why it printed nothing, and
	// it is no answer either way (TestFailedScriptsBlankOutputIsNoParseProblem).
	silent := !answeredAsNoFailure(res, row) && len(bytes.TrimSpace(res.Stdout)) == 0
	blank := answeredBlank(es, res, row)
	// A blank stdout beside stderr is said once, by the stderr-only item,
	// which quotes stderr (kubectl's "No resources found"): columns' own
	// problem over a blank text, no header row, would say it again.
	onlyStderr := !blank && stderrOnly(es, res, row)
	// A server's error reply printed as the output is said once, by the
	// error-reply item, which quotes it: kv's own problem over the same
	// line ("no separator: \"NOAUTH Authentication required.\"") would
	// say it again.
	reply, whose := errorReply(es, res, row, stdout, stderr)
	out["stdout"] = rs.parsedAs(path, es.Parse, stdout, "its output", out, res.StartErr == nil && !silent && !blank && !onlyStderr && whose == "")
	if whose != "" {
		rs.fileLedger(record.ErrorReplyEntry(path, whose, *res.ExitCode, rs.mask(reply)))
	}
	if uid := rsyncOwnersUncompared(es, res, row, stubbed); uid > 0 {
		rs.fileLedger(record.RsyncOwnersEntry(path, uid))
	}
	if from := es.FirstCertificateOnly(); from != "" && answeredAsNoFailure(res, row) {
		// Whatever x509 printed: it is one certificate's of several.
		rs.fileLedger(record.FirstCertificateEntry(path, from))
	}
	if line, n := ldifFolded(es, res, row, stdout); n > 0 {
		// Beside whatever else is said: a value read cut in two is
		// wrong whatever the rest of the output holds.
		rs.fileLedger(record.LDIFFoldedEntry(path, n, rs.mask(line)))
	}
	if line, kind := clamavUnscanned(es, res, row, stdout, stderr); line != "" {
		// Before the others: the scanner's own words that it scanned
		// part of the tree, or over old signatures, say more exactly
		// than a blank stdout beside its warning (stderr-only quoted a
		// line of asterisks).
		rs.fileLedger(record.ClamAVUnscannedEntry(path, *res.ExitCode, row.Answer, rs.mask(line), kind))
	} else if onlyStderr {
		mode := es.Parse.Mode
		if !es.ParseGiven {
			mode = "" // read by an expression, with no parse: (ExecSpec.StdoutRead)
		}
		rs.fileLedger(record.StderrOnlyEntry(path, mode, *res.ExitCode, rs.mask(stderr)))
	} else if line := hostUnverified(res, row, stderr); line != "" {
		// Before the others: an answer from a machine the command could
		// not name is no answer of the host, whatever else it said.
		rs.fileLedger(record.HostUnverifiedEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line, why := fsckUnchecked(es, res, row, stdout, stderr); line != "" {
		// Before the others: the checker's own words that it checked
		// nothing (e2fsck's skip line, a mounted filesystem refused)
		// say why its code is no answer more exactly than any line.
		rs.fileLedger(record.FsckUncheckedEntry(path, *res.ExitCode, row.Answer, rs.mask(line), why))
	} else if line := keyNotValid(res, row, stdout, stderr); line != "" {
		// Before the others: gpg's exit 0 over a revoked key's signature
		// is no answer of a good one, whatever else it said.
		rs.fileLedger(record.KeyNotValidEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if why := ldapBaseUnfound(es, argv, res, row, stderr); why != "" {
		// Before the others: ldapsearch's "No such object" is said of
		// a base not found as of an entry gone, and what its Matched
		// DN says tells them apart.
		rs.fileLedger(record.LDAPBaseUnfoundEntry(path, row.Answer, rs.mask(why)))
	} else if line := toolError(es, res, row, stdout, stderr); line != "" {
		// Before the others: the tool's own words that it failed say
		// why its code is no answer more exactly than a line it quotes
		// (npm error … EACCES) or a pipeline around it.
		rs.fileLedger(record.ToolErrorEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if subs := unseenFailure(es, res, row); len(subs) > 0 {
		// Before denied: a substitution bash does not see fail is the
		// more exact cause of a "No such file" on stderr, with its fix.
		s := subs[0]
		rs.fileLedger(record.UnseenFailureEntry(path, *res.ExitCode, rs.mask(s.Text), rs.mask(s.Where()+" of its script"), len(subs), rs.mask(stderr)))
	} else if line := gitStderr(es, res, row, stderr); line != "" {
		// Before denied: git's own error line says why its answer is
		// none more exactly than a "No such file" it quotes (fatal:
		// cannot run gpg: No such file or directory is no file it was
		// given).
		rs.fileLedger(record.GitStderrEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line := kadminError(es, res, row, stderr); line != "" {
		// Before denied: kadmin's own failure line says why its
		// output is no answer more exactly than a Permission denied
		// it quotes.
		rs.fileLedger(record.KadminErrorEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line := denied(es, res, row, stdout, stderr); line != "" && *res.ExitCode != 0 {
		if es.RefusesOnStdout() && record.Refused(stderr) == "" {
			rs.fileLedger(record.RefusedOnStdoutAnswerEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
		} else if es.MergesStderr() && record.Refused(stderr) == "" {
			rs.fileLedger(record.RefusedMergedAnswerEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
		} else {
			rs.fileLedger(record.RefusedAnswerEntry(path, *res.ExitCode, row.Answer, rs.mask(line), rs.mask(es.AnswerStderr[*res.ExitCode])))
		}
	} else if line != "" {
		rs.fileLedger(record.DeniedEntry(path, *res.ExitCode, rs.mask(line)))
	} else if line := ldapReference(es, res, row, stdout); line != "" {
		rs.fileLedger(record.LDAPReferralEntry(path, *res.ExitCode, rs.mask(line)))
	} else if n, first := dpkgVerifyFound(es, res, row, stdout); n > 0 {
		rs.fileLedger(record.DpkgVerifyFoundEntry(path, row.Answer, n, rs.mask(first)))
	} else if line := btrfsScrubBackground(res, row, stdout); line != "" {
		rs.fileLedger(record.BtrfsScrubBackgroundEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line, instead := zeroBelied(es, res, row, stderr); line != "" {
		rs.fileLedger(record.ZeroBeliedEntry(path, row.Answer, rs.mask(line), instead))
	} else if line := btrfsDeviceMissing(res, row, stdout); line != "" {
		rs.fileLedger(record.BtrfsDeviceMissingEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line := findingOnStderr(es, res, row, stderr); line != "" {
		rs.fileLedger(record.FindingOnStderrEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if aideReportElsewhere(es, res, row, stdout) {
		rs.fileLedger(record.AideReportElsewhereEntry(path, *res.ExitCode, row.Answer))
	} else if clamavFoundUnprinted(es, res, row, stdout) {
		rs.fileLedger(record.ClamAVFoundUnprintedEntry(path, *res.ExitCode, row.Answer))
	} else if line, ok := rkhunterWarningsUnsaid(es, res, row, stdout); ok {
		rs.fileLedger(record.RkhunterWarningsElsewhereEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line := unresolved(es, res, row, stderr); line != "" {
		rs.fileLedger(record.UnresolvedAnswerEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line := unreached(es, res, row, stdout, stderr); line != "" {
		rs.fileLedger(record.UnreachedAnswerEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line := cannotRun(es, res, row, stderr); line != "" {
		rs.fileLedger(record.CannotRunAnswerEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line := deniedInOutput(res, row, stdout); line != "" {
		rs.fileLedger(record.DeniedInOutputEntry(path, *res.ExitCode, rs.mask(line)))
	} else if line := noDNSAnswer(res, row, stdout, stderr); line != "" {
		rs.fileLedger(record.NoDNSAnswerEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line, why := aliasUnfollowed(es, argv, res, row, stdout); line != "" {
		rs.fileLedger(record.AliasUnfollowedEntry(path, *res.ExitCode, row.Answer, rs.mask(line), why))
	} else if digShortBlank(es, res, row) {
		rs.fileLedger(record.DigShortBlankEntry(path, *res.ExitCode, row.Answer, es.DigStatusUnprinted()))
	} else if pingNotAlive(es, res, row) {
		rs.fileLedger(record.PingNotAliveEntry(path, *res.ExitCode, row.Answer))
	} else if mqttHeardNothing(es, res, row) {
		rs.fileLedger(record.MQTTHeardNothingEntry(path, *res.ExitCode, row.Answer))
	} else if klistSilent(es, res, row) {
		rs.fileLedger(record.KlistSilentEntry(path, *res.ExitCode, row.Answer))
	} else if mdadmScanBlank(es, res, row) {
		rs.fileLedger(record.MdadmScanBlankEntry(path, *res.ExitCode, row.Answer))
	} else if xfsQuotaBlank(es, res, row) {
		rs.fileLedger(record.XFSQuotaBlankEntry(path, *res.ExitCode, row.Answer))
	} else if blkidBlank(es, res, row) {
		rs.fileLedger(record.BlkidBlankEntry(path, *res.ExitCode, row.Answer))
	} else if line := searchedNothing(es, res, row, stdout, stderr); line != "" {
		rs.fileLedger(record.SearchedNothingEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line := checksumListUnopened(es, res, row, stderr); line != "" {
		rs.fileLedger(record.UnopenedListEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if line := skippedLines(res, row, stderr); line != "" {
		rs.fileLedger(record.DeniedEntry(path, *res.ExitCode, rs.mask(line)))
	} else if line := jqNull(es, res, row, stdout, out["stdout"]); line != "" {
		rs.fileLedger(record.JQNullEntry(path, *res.ExitCode, row.Answer, rs.mask(line)))
	} else if pipedAnswer(es, res, row) {
		rs.fileLedger(record.PipedAnswerEntry(path, *res.ExitCode, row.Answer, rs.mask(stderr), res.PipeStatus, es.AnswerFromASubshellPipeline()))
	} else if remotePipedAnswer(es, res, row) {
		rs.fileLedger(record.RemotePipedAnswerEntry(path, *res.ExitCode, row.Answer, rs.mask(stderr)))
	}
	return out
}

// clamavUnscanned is the first line a ClamAV scan (chart.ExecSpec.
// ClamAVScan) printed saying a path went unscanned or its signatures are
// stale, and its item's kind (record.ClamAVUnscanned), when it ended as
// no failure: clamscan and clamdscan exit 1 over an infected file
// whatever else went wrong, and 0 over a database a month old. "", ""
// otherwise: their 2, an error, is said as a failure.
func clamavUnscanned(es *chart.ExecSpec, res proc.Result, row label.Row, stdout, stderr string) (line, kind string) {
	if !answeredAsNoFailure(res, row) || !es.ClamAVScan() {
		return "", ""
	}
	return record.ClamAVUnscanned(*res.ExitCode, stdout, stderr)
}

// pipedAnswer says whether a shell: script of several commands (a
// pipeline, a list) exited with a non-zero code the chart declared an
// answer and wrote on stderr, or whose last pipeline had a command before
// the last fail (proc's Result.PipeStatus): the code may be another
// command's failure, not the answer (record.ItemPipedAnswer). One whose
// last pipeline's codes are known and none before its last failed answers
// with its last command's own code. One that
// wrote nothing on stderr, and whose pipeline's codes are not known, gives
// no sign of a failure, unless its last pipeline ran in a subshell, whose
// codes bash's PIPESTATUS does not hold
// (chart.ExecSpec.AnswerFromASubshellPipeline).
func pipedAnswer(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	if es.Shell == "" || res.ExitCode == nil || *res.ExitCode == 0 || !row.Answered() {
		return false
	}
	if record.EarlierInPipeFailed(res.PipeStatus) {
		return true
	}
	if len(res.PipeStatus) <= 1 && es.AnswerFromASubshellPipeline() {
		// its last pipeline is inside the subshell: its codes are not
		// the script's PIPESTATUS
		return true
	}
	if len(res.PipeStatus) > 1 && !es.AnswerFromASubshellPipeline() && !es.PipesIntoACompound() {
		// the last pipeline's codes are known, every command before its
		// last exited 0, and the last one, a simple command, gave the
		// script's exit (proc's readPipeStatus): the code is the
		// answering command's own, whatever stderr says. `curl -sSf URL
		// | promtool check metrics` exiting 0 3 with promtool's lint
		// lines on stderr.
		return false
	}
	// the script is parsed last, only for a run that may be one
	if !wroteStderr(res) || !es.ShellRunsManyCommands() {
		return false
	}
	// `cd "$D" && sha256sum -c SUMS`: a cd that failed says so on stderr,
	// and without that line the code is the one other command's (its
	// `WARNING: 1 computed checksum did NOT match` is no failure of cd)
	return !es.ShellRunsCdBesideOne() || cdFailed(res.Stderr)
}

// cdFailed says whether bash said on stderr that a cd failed (`bash: line
// 1: cd: /srv/app: No such file or directory`).
func cdFailed(stderr []byte) bool {
	for _, l := range strings.Split(string(stderr), "\n") {
		if strings.HasPrefix(l, "bash:") && strings.Contains(l, " cd: ") {
			return true
		}
	}
	return false
}

// remotePipedAnswer says whether an ssh stage whose remote command runs
// more than one command (chart.ExecSpec.RemoteRunsManyCommands) exited
// with a non-zero code the chart declared an answer and wrote on stderr:
// the remote shell exits with its last command's code, so the code may
// follow an earlier command's failure, as pipedAnswer judges a shell:
// script's. `ssh web1 'cat app.log | grep -c ERROR'` under `{0: found,
// 1: none}` over a log not there exits with grep's 1 over nothing, and a
// fleet check said none, OK, Consistent (TestRemotePipelineAnswerIsNoAnswer).
func remotePipedAnswer(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	// 255 is ssh's own code for its own failure (a port closed, a key
	// refused), no remote command's: record.Refused and record.Unresolved
	// judge what it said
	if es.Shell != "" || !codeMayBeAFailure(es, res, row) || *res.ExitCode == 255 {
		return false
	}
	// ssh's own note of a first contact says nothing of the command
	said := false
	for _, l := range strings.Split(string(res.Stderr), "\n") {
		if strings.TrimSpace(l) != "" && !strings.Contains(l, "Permanently added") {
			said = true
			break
		}
	}
	return said && es.RemoteRunsManyCommands()
}

// answeredAsNoFailure says whether a command ended with an exit code that
// is no failure: it completed, or the chart declared its code an answer.
// The gaps of a command that said otherwise than its code (stderrOnly,
// denied, unseenFailure) are read only over such an end; a failure is
// said as one.
func answeredAsNoFailure(res proc.Result, row label.Row) bool {
	return res.ExitCode != nil && (row.Label == label.Completed || row.Answered())
}

// wroteStderr says whether a command wrote anything on stderr but blanks
// and a tool's routine notice (record.FirstSaid: NUT's `Init SSL without
// certificate database`, which upsc writes on every connection).
func wroteStderr(res proc.Result) bool {
	return len(bytes.TrimSpace(res.Stderr)) > 0 && record.FirstSaid(string(res.Stderr)) != ""
}

// unseenFailure is the substitutions of a shell: script bash does not see
// fail (chart.ExecSpec.HiddenSubstitutions), when the script ended as no
// failure and wrote on stderr: a command inside one may have failed, and
// what the script printed hold its empty text (record.ItemUnseenFailure).
// nil otherwise; a script that wrote nothing on stderr gives no sign of a
// failure, and one that failed is said as one.
func unseenFailure(es *chart.ExecSpec, res proc.Result, row label.Row) []chart.Substitution {
	if es.Shell == "" || !answeredAsNoFailure(res, row) || !wroteStderr(res) {
		return nil
	}
	return es.HiddenSubstitutions()
}

// text is a text a stage read (a stream, a file's content) as the scope
// holds it, proc.Text's valid UTF-8; where that had to replace bytes, the
// ledger says so (record.NotUTF8Entry), since a value made of them is not
// what was read. of names the text. It is the one road of read bytes into
// the scope, so a private key's material and a password hash are masked
// here (a read: file's, a command's already by its capture): no rule,
// record or output holds them (secret.ByForm); a key in DER (secret.PrivateKeyDER) is masked
// whole, and the ledger says why, as it said of its bytes that they are
// not UTF-8.
func (rs *runState) text(path, of string, b []byte) string {
	if secret.PrivateKeyDER(b) {
		rs.fileLedger(record.DERKeyEntry(path, rs.mask(of), len(b)))
		return secret.Masked
	}
	if inv, bad := proc.FirstInvalid(b); bad {
		// The offset is counted in the masked text, as the record holds
		// it: the raw one would tell a secret's length. No secret holds
		// the bad byte (a secret is UTF-8), so none spans the cut.
		at := len(rs.mask(string(b[:inv.Offset])))
		rs.fileLedger(record.NotUTF8Entry(path, rs.mask(of), inv.Bytes, inv.Line, at, rs.mask(inv.LineText)))
	} else if order := proc.UTF16(b); order != "" {
		rs.fileLedger(record.UTF16Entry(path, rs.mask(of), order))
	}
	return secret.ByForm(proc.Text(b))
}

// stderrOnly says whether a command that ended as no failure (completed,
// or an exit code the chart declared an answer) printed nothing on the
// stdout the chart parses as data and wrote on stderr instead: the empty
// value its parse made is no answer of none (record.ItemStderrOnly). Text
// by default (no parse: written) is not judged, since an action's stage
// (a restart) may print only progress on stderr; an explicit parse: text
// is, since the chart reads that stdout as the answer: `postconf -h` of a
// parameter it does not know prints nothing, warns on stderr and exits 0,
// and the empty value read as the setting left unset. So is a stage with
// no parse: whose stdout an expression reads (ExecSpec.StdoutRead):
// `nginx -V` writes its module list on stderr alone, and `v.stdout
// contains "http_dav_module"` said no forbidden module was built in;
// not where it declares exit answers (exitCodes:, exitBits:), whose code
// is the answer (`nginx -t` under {0: valid, 1: invalid} with stdout in a
// column stood Not sure on every run). json and nagios are
// not judged, since a blank text is already a parse problem there.
func stderrOnly(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	return blankIsNoAnswer(es) && blankAnswer(res, row) && wroteStderr(res)
}

// blankIsNoAnswer says whether the exec's stdout is read as data whose
// blank text a parse makes an empty value silently: lines, kv, columns,
// csv, an explicit parse: text, or a text an expression reads. Text by
// default (no parse: written) is not, since an action's stage (a
// restart) may print nothing; json and nagios are not, since a blank
// text is already a parse problem there; nor is a stdout read beside a
// declared exit answer, which may be for show (a column beside nginx
// -t's {0: valid, 1: invalid}): the code is the answer there, and
// stdout's silence says nothing of it.
func blankIsNoAnswer(es *chart.ExecSpec) bool {
	switch es.Parse.Mode {
	case "", "json", "nagios":
		return false
	case "text":
		return es.ParseGiven || es.StdoutRead && len(es.AnswerWords()) == 0
	}
	return true
}

// denied is stderr's first line saying the command was refused access
// (record.Denied), when it exited 0: what it printed is part of what it
// was asked (record.ItemDenied). Under a non-zero code the chart declared
// an answer, only a refusal is judged (record.Refused): the code may be
// the refusal, not the answer (record.RefusedAnswerEntry); where the chart
// gave the code the stderr its answer goes with (`{1: {word: not-readable,
// stderr: Permission denied}}` for `setpriv --reuid=nobody cat
// /etc/shadow`), the refusal is its answer and nothing is said; a text
// that names no refusal (`Syntax error`) vouches for none, and a refusal
// beside it is judged as under a code declared with its word alone. ""
// for a failure, which is said as one. A script that merges stderr into
// stdout (chart.ExecSpec.MergesStderr) has its refusal read in stdout too
// under a non-zero code, and so does a tool that prints its refusal on
// stdout (chart.ExecSpec.RefusesOnStdout: rkhunter, chkrootkit).
func denied(es *chart.ExecSpec, res proc.Result, row label.Row, stdout, stderr string) string {
	if !answeredAsNoFailure(res, row) {
		return ""
	}
	if *res.ExitCode == 0 {
		return record.Denied(stderr)
	}
	if es.RefusesOnStdout() {
		// rkhunter and chkrootkit print their refusal to run as a user
		// on stdout; only those words are read there, never a warning
		// that quotes a refusal
		if line := record.RootRefusal(stdout); line != "" && codeMayBeAFailure(es, res, row) {
			return line
		}
		if es.RunsSv() {
			// sv's own warning line, never a status line
			// (TestRunitSvRefusalOnStdoutIsNoAnswer)
			if line := record.SvRefusal(stdout); line != "" && codeMayBeAFailure(es, res, row) {
				return line
			}
		}
	}
	if es.MergesStderr() {
		// Under a declared non-zero code a refusal is judged wherever the
		// script sent stderr: `nginx -t 2>&1` printed its Permission
		// denied on stdout. Under exit 0 stdout is the data, which may
		// quote such a line (a log scan), and is not read so.
		stderr = stdout + "\n" + stderr
	}
	if codeMayBeAFailure(es, res, row) {
		return record.Refused(stderr)
	}
	if keyed, ok := es.AnswerStderr[*res.ExitCode]; ok && record.Refused(keyed) == "" {
		// The chart's text names no refusal, so it vouches for none:
		// apache2ctl configtest run as a user who may not read one site
		// says `Syntax error on line 225 …: Could not open configuration
		// file …: Permission denied`, and {1: {word: invalid, stderr:
		// Syntax error}} called a config nobody read invalid
		// (TestRefusalBesideTheAnswersStderrIsNoAnswer).
		return record.Refused(stderr)
	}
	return ""
}

// gitStderr is the first line of git's stderr saying what it printed is
// not the answer asked for (record.GitStderr: a ref name it could not
// tell apart, a ref it left out, an error it went on past), when a stage
// that runs git exited 0, or with a non-zero code the chart declared an
// answer without the stderr it goes with (codeMayBeAFailure: verify-
// commit's 1 over no signature and over one it could not check;
// record.ItemGitStderr). "" otherwise: git exits 128 over its own
// failure, said as one.
func gitStderr(es *chart.ExecSpec, res proc.Result, row label.Row, stderr string) string {
	if !answeredAsNoFailure(res, row) || !es.RunsGit() {
		return ""
	}
	if *res.ExitCode != 0 && !codeMayBeAFailure(es, res, row) {
		return ""
	}
	return record.GitStderr(stderr)
}

// kadminError is stderr's first line saying a kadmin request failed
// (record.KadminError), when the stage runs kadmin or kadmin.local and
// exited 0, or with a code the chart declared an answer that may be a
// failure: kadmin exits 0 over a request that failed
// (record.ItemKadminError). "" otherwise: a failure is said as one.
func kadminError(es *chart.ExecSpec, res proc.Result, row label.Row, stderr string) string {
	if !answeredAsNoFailure(res, row) || !es.RunsKadmin() {
		return ""
	}
	if *res.ExitCode != 0 && !codeMayBeAFailure(es, res, row) {
		return ""
	}
	return record.KadminError(stderr)
}

// unresolved is stderr's first line saying the command found no address
// for its host (record.Unresolved), when it exited with a non-zero code the
// chart declared an answer and gave no stderr text of its own: the code may
// be that failure, not the answer (record.UnresolvedAnswerEntry). "" otherwise:
// exit 0 reached the host, and a failure is said as one.
func unresolved(es *chart.ExecSpec, res proc.Result, row label.Row, stderr string) string {
	if !codeMayBeAFailure(es, res, row) {
		return ""
	}
	return record.Unresolved(stderr)
}

// unreached is stderr's first line saying the command could not reach
// the service manager it asks (record.Unreached), or stdout's for
// supervisorctl, which prints its failures there
// (chart.ExecSpec.RunsSupervisorctl), when it exited with a
// non-zero code the chart declared an answer and gave no stderr text of
// its own: the code may be that failure, not the answer
// (record.UnreachedAnswerEntry). "" otherwise: under exit 0 denied judges
// it, and a failure is said as one.
func unreached(es *chart.ExecSpec, res proc.Result, row label.Row, stdout, stderr string) string {
	if !codeMayBeAFailure(es, res, row) {
		return ""
	}
	if es.RunsSupervisorctl() {
		// supervisorctl prints `unix:///… refused connection` on stdout
		// and exits 4, its code for no such process
		// (TestSupervisordUnreachedIsNoAnswer)
		if line := record.Unreached(stdout); line != "" {
			return line
		}
	}
	return record.Unreached(stderr)
}

// cannotRun is stderr's first line saying a daemon asked to test its
// configuration could not start for a cause outside it (record.CannotRun:
// sshd -t without /run/sshd), when it exited with a non-zero code the
// chart declared an answer and gave no stderr text of its own: the code
// is that failure's, not the answer (record.CannotRunAnswerEntry). ""
// otherwise.
func cannotRun(es *chart.ExecSpec, res proc.Result, row label.Row, stderr string) string {
	if !codeMayBeAFailure(es, res, row) {
		return ""
	}
	return record.CannotRun(stderr)
}

// codeMayBeAFailure says whether the command exited with a non-zero code
// the chart declared an answer without the stderr text that answer goes
// with: a tool exits with that code over a failure as over the answer
// (stat's 1, nc's 1, systemctl's 1), so what stderr says decides which it
// was. The one judgement denied, unresolved, unreached and cannotRun share.
func codeMayBeAFailure(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	return res.ExitCode != nil && *res.ExitCode != 0 && row.Answered() && !es.AnswerNeedsStderr(*res.ExitCode)
}

// deniedInOutput is stdout's first line holding the mark a tool prints
// in place of what it was refused (record.DeniedInOutput: lspci's
// "<access denied>"), when it exited 0, as denied judges stderr.
func deniedInOutput(res proc.Result, row label.Row, stdout string) string {
	if !answeredAsNoFailure(res, row) || *res.ExitCode != 0 {
		return ""
	}
	return record.DeniedInOutput(stdout)
}

// errorReply is stdout's first line that is a server's error reply, and
// whose it is (record.ReplyRedis, record.ReplySNMP), when the command
// ended as no failure: redis-cli (chart.ExecSpec.RedisCLI) exits 0 over
// an error reply (record.RedisErrorReply: `NOAUTH Authentication
// required.`), and snmpget, snmpwalk, … (chart.ExecSpec.SNMPClient) over
// an agent's exception (record.SNMPException: `No Such Instance
// currently exists at this OID`), and the output is then the refusal,
// not the value asked for (record.ItemErrorReply). An SNMPv1 walk
// (chart.ExecSpec.SNMPWalk) of an OID the agent has nothing under prints
// nothing at all and exits 0, where v2c's prints `No Such Object`: its
// blank output is the same reply (record.ReplySNMPNothing, line ""). A
// command that talks to a socket (chart.ExecSpec.SocketClient: socat,
// nc) exits 0 over HAProxy's error reply on its stats socket
// (record.HAProxyErrorReply: `No such proxy.`, `Unknown command`), and
// over upsd's (record.NUTErrorReply: `ERR DATA-STALE`), and over
// OpenVPN's management interface's (record.OpenVPNManagementReply: its
// password prompt, `ERROR: unknown command`, its banner alone). cgi-fcgi
// (chart.ExecSpec.FastCGIClient) exits 0 whatever php-fpm answered, and
// php-fpm says on the FastCGI stderr stream that it served no script
// (record.FastCGIErrorReply: `Primary script unknown`), which survives a
// filter that strips the headers (the `Status: 404` line) from stdout, or
// PHP wrote a fatal error into the page, status 200.
// memcstat (chart.ExecSpec.Memcstat) prints nothing and exits 0 over a
// server that closed the connection (record.ReplyMemcstatNothing).
// curl, wget, kea-shell and the socket clients (chart.ExecSpec.KeaClient)
// exit 0 over Kea's control channel's refusal, a JSON reply whose result
// is 1, 2 or 4 (record.KeaErrorReply), sent with HTTP 200.
// whose is "" when there is none.
func errorReply(es *chart.ExecSpec, res proc.Result, row label.Row, stdout, stderr string) (line, whose string) {
	if !answeredAsNoFailure(res, row) {
		return "", ""
	}
	if es.FastCGIClient() {
		said := stderr
		if es.MergesStderr() {
			said = stdout + "\n" + stderr
		}
		if line := record.FastCGIErrorReply(stdout, said); line != "" {
			return line, record.ReplyFastCGI
		}
	}
	if es.Memcstat() && *res.ExitCode == 0 && strings.TrimSpace(stdout) == "" && blankIsNoAnswer(es) {
		return "", record.ReplyMemcstatNothing
	}
	if es.RedisCLI() {
		if line := record.RedisErrorReply(stdout); line != "" {
			return line, record.ReplyRedis
		}
	}
	if es.SNMPClient() {
		if line := record.SNMPException(stdout); line != "" {
			return line, record.ReplySNMP
		}
		if *res.ExitCode == 0 && es.SNMPWalk() && strings.TrimSpace(stdout) == "" {
			return "", record.ReplySNMPNothing
		}
	}
	if es.KeaClient() && !es.ReplyResultRead {
		// a chart that judges the reply's result (is the server
		// answering?) takes the refusal as its answer
		if line := record.KeaErrorReply(stdout); line != "" {
			return line, record.ReplyKea
		}
	}
	if es.SocketClient() {
		if line := record.HAProxyErrorReply(stdout); line != "" {
			return line, record.ReplyHAProxy
		}
		if line := record.ZooKeeperErrorReply(stdout, es.Sends("isro")); line != "" {
			return line, record.ReplyZooKeeper
		}
		if line := record.MemcachedErrorReply(stdout); line != "" {
			return line, record.ReplyMemcached
		}
		if line := record.NUTErrorReply(stdout); line != "" {
			return line, record.ReplyNUT
		}
		if line := record.OpenVPNManagementReply(stdout); line != "" {
			return line, record.ReplyOpenVPN
		}
		// A server that closed the connection without a word: ZooKeeper
		// does so for a four-letter word it does not know (`cnos` for
		// cons), and nc and socat exit 0; its parse made an empty list,
		// zero connections.
		if *res.ExitCode == 0 && strings.TrimSpace(stdout) == "" && blankIsNoAnswer(es) {
			return "", record.ReplySocketNothing
		}
	}
	return "", ""
}

// noDNSAnswer is the first line of its stdout, then its stderr, saying
// the name server gave no answer (record.NoDNSAnswer: SERVFAIL, REFUSED,
// no server reached), when the command ended as no failure: host's exit
// 1 is the same over those as over NXDOMAIN, and dig's 0 too
// (record.ItemNoDNSAnswer). "" otherwise: a failure (dig's exit 9) is
// said as one.
func noDNSAnswer(res proc.Result, row label.Row, stdout, stderr string) string {
	if !answeredAsNoFailure(res, row) {
		return ""
	}
	if line := record.NoDNSAnswer(stdout); line != "" {
		return line
	}
	return record.NoDNSAnswer(stderr)
}

// aliasUnfollowed is the answer line of a dig that ended as no failure
// which is an alias no one followed (record.AliasUnfollowed; under
// +short, record.AliasUnfollowedShort), or host's alias line with
// nothing of its target after it (record.HostAliasUnfollowed), and why; "" otherwise: the
// records asked for may be at the target nobody asked
// (record.ItemAliasUnfollowed).
func aliasUnfollowed(es *chart.ExecSpec, argv []string, res proc.Result, row label.Row, stdout string) (string, string) {
	if !answeredAsNoFailure(res, row) {
		return "", ""
	}
	if es.Shell != "" {
		argv = nil // the shell's argv is bash's own
	}
	qtype, ok := es.DigQueryType(argv)
	if !ok {
		if line := record.HostAliasUnfollowed(stdout); line != "" {
			return line, "after which it printed nothing of the target (host and nslookup asked of a server that does not recurse print the alias alone)"
		}
		return "", ""
	}
	if es.DigStatusUnprinted() == "+short" {
		if line := record.AliasUnfollowedShort(stdout, qtype); line != "" {
			return line, "which dig +short printed as the target's name with no record after it, whether the server did not follow it or the target holds none"
		}
		return "", ""
	}
	return record.AliasUnfollowed(stdout, qtype)
}

// digShortBlank says whether a stage running dig with a display that
// prints no status (+short, +noall: chart.ExecSpec.DigStatusUnprinted)
// ended as no failure and printed nothing on stdout: such silence is the
// same over a REFUSED or a SERVFAIL as over no record, so it is no answer
// of none (record.ItemDigShortBlank).
func digShortBlank(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	return blankAnswer(res, row) && es.DigStatusUnprinted() != ""
}

// blankAnswer says whether a command ended as no failure (completed, or
// an exit code the chart declared an answer) and printed nothing on
// stdout but blanks: the silence the judgements of a tool whose silence
// says nothing read (digShortBlank, mdadmScanBlank, stderrOnly).
func blankAnswer(res proc.Result, row label.Row) bool {
	return answeredAsNoFailure(res, row) && len(bytes.TrimSpace(res.Stdout)) == 0
}

// pingNotAlive says whether a stage that runs `mysqladmin … ping`
// (chart.ExecSpec.MySQLAdminPing) exited 0 without printing `is alive`:
// its 0 is said of a server that refused it too, and under --silent
// nothing says which (record.ItemPingNotAlive). A refusal mysqladmin
// wrote on stderr is said by denied first, quoting it.
func pingNotAlive(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	if !answeredAsNoFailure(res, row) || *res.ExitCode != 0 || !es.MySQLAdminPing() {
		return false
	}
	return !bytes.Contains(res.Stdout, []byte("is alive"))
}

// mqttHeardNothing says whether a stage that runs mosquitto_sub or
// mosquitto_rr (chart.ExecSpec.MosquittoSubscriber) exited 27, -W's
// time run out, under a word the chart declared for it without the
// stderr that word goes with, and printed nothing: it heard no message,
// and its 27 is said whether it heard any or none
// (record.ItemMQTTHeardNothing).
func mqttHeardNothing(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	return answeredBlank(es, res, row) && *res.ExitCode == chart.MosquittoTimeoutCode &&
		es.MosquittoSubscriber() && !es.AnswerNeedsStderr(*res.ExitCode)
}

// klistSilent says whether a stage that runs `klist -s`
// (chart.ExecSpec.KlistSilent) exited with a non-zero code the chart
// declared an answer and wrote nothing on stderr: klist -s's 1 is said of
// a cache with no valid ticket and of one it could not read alike
// (record.ItemKlistSilent). A line on stderr is judged by the rules that
// read it; exit 0 is a valid ticket read.
func klistSilent(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	return answeredAsNoFailure(res, row) && *res.ExitCode != 0 && len(bytes.TrimSpace(res.Stderr)) == 0 && es.KlistSilent()
}

// mdadmScanBlank says whether a stage that runs `mdadm --detail --scan`
// (chart.ExecSpec.MdadmDetailScan) ended as no failure and printed
// nothing on stdout: mdadm prints each array it scans, so its silence is
// no array scanned, and its 0 no answer of arrays working
// (record.ItemMdadmScanBlank).
func mdadmScanBlank(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	return blankAnswer(res, row) && es.MdadmDetailScan()
}

// xfsQuotaBlank says whether a stage that runs xfs_quota's report
// (chart.ExecSpec.XFSQuotaReport) ended as no failure and printed nothing
// on stdout: xfs_quota prints nothing, exit 0, over a filesystem whose
// quota accounting is off (record.ItemXFSQuotaBlank).
func xfsQuotaBlank(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	return blankAnswer(res, row) && es.XFSQuotaReport()
}

// blkidBlank says whether a stage that runs blkid over devices it names
// (chart.ExecSpec.BlkidOfDevices) ended as no failure and printed nothing
// on stdout: blkid prints each device it identified, exits 2 over one
// holding nothing it knows, and over one it could not open prints
// nothing and exits 0 (record.ItemBlkidBlank): that 0 alone is judged.
func blkidBlank(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	// its 2, blank too, is its answer of nothing identified
	return blankAnswer(res, row) && *res.ExitCode == 0 && es.BlkidOfDevices()
}

// searchedNothing is stderr's first line saying the command's search
// could find nothing (record.SearchedNothing: pgrep over a name past
// comm's 15 bytes, journalctl over no journal, nmap over a name it could
// not resolve; or its report's, nmap's count of hosts up below the
// addresses where es scans ports), when it ended as no
// failure: its "none found", exit 0 or a declared code, is then no answer
// (record.ItemSearchedNothing). "" otherwise: a failure is said as one.
func searchedNothing(es *chart.ExecSpec, res proc.Result, row label.Row, stdout, stderr string) string {
	if !answeredAsNoFailure(res, row) {
		return ""
	}
	portScan := es.NmapPortScan()
	if line := record.SearchedNothing(stderr, len(bytes.TrimSpace(res.Stdout)) > 0, portScan); line != "" {
		return line
	}
	return record.SearchedNothingInOutput(stdout, portScan)
}

// fsckUnchecked is a filesystem checker's line saying it did not check
// the filesystem, or that its check is not valid, and why
// (record.FsckUnchecked: e2fsck's skip line without -f, a mounted
// filesystem, xfs_repair's and btrfs check's refusals), when the command
// ended as no failure: exit 0, or a code the chart declared an answer
// (record.ItemFsckUnchecked). "" otherwise: a failure is said as one, and
// an answer declared with the stderr it goes with is judged by it.
func fsckUnchecked(es *chart.ExecSpec, res proc.Result, row label.Row, stdout, stderr string) (string, string) {
	if !answeredAsNoFailure(res, row) || (*res.ExitCode != 0 && es.AnswerNeedsStderr(*res.ExitCode)) {
		return "", ""
	}
	return record.FsckUnchecked(stdout, stderr, *res.ExitCode)
}

// ldapBaseUnfound is why an ldapsearch's exit 32 (noSuchObject) the chart
// declared an answer is none (record.LDAPNoSuchBase): the server did not
// say the entry's parent was found, so the base's container or suffix
// may be what is missing. Judged under the declared 32 whatever stderr
// text it was declared with: slapd says "No such object" of both. ""
// otherwise.
func ldapBaseUnfound(es *chart.ExecSpec, argv []string, res proc.Result, row label.Row, stderr string) string {
	if !row.Answered() || res.ExitCode == nil || *res.ExitCode != 32 || !es.LDAPSearch() {
		return ""
	}
	return record.LDAPNoSuchBase(stderr, chart.LDAPSearchBase(argv))
}

// ldapReference is the first search continuation reference an ldapsearch
// printed (record.LDAPReference), when it ended as no failure: part of
// the tree is on a server it did not ask (record.ItemLDAPReferral). ""
// otherwise.
func ldapReference(es *chart.ExecSpec, res proc.Result, row label.Row, stdout string) string {
	if !answeredAsNoFailure(res, row) || !es.LDAPSearch() {
		return ""
	}
	return record.LDAPReference(stdout)
}

// euid is the user this process runs as (a test runs as another).
var euid = os.Geteuid

// rsyncOwnersUncompared is the uid an rsync dry run asked to compare
// owners ran as, when it is not root and the run ended as no failure
// (record.ItemRsyncOwners); 0 otherwise. A stub's answer is no rsync run
// here: its output is the stub's, owners and all.
func rsyncOwnersUncompared(es *chart.ExecSpec, res proc.Result, row label.Row, stubbed bool) int {
	if stubbed || !answeredAsNoFailure(res, row) || !es.RsyncOwnersLocally() {
		return 0
	}
	return max(euid(), 0)
}

// ldifFolded is the first folded line an ldapsearch printed and its
// number (record.LDIFFolded), when it ended as no failure and its stdout
// is ldapsearch's own (a command:, not a script's filter): each parse
// mode but ldif, which joins it to the line it continues, reads a
// continuation as a line of its own (record.ItemLDIFFolded). 0 otherwise.
func ldifFolded(es *chart.ExecSpec, res proc.Result, row label.Row, stdout string) (string, int) {
	if !answeredAsNoFailure(res, row) || !es.LDAPSearchCommand() || es.Parse.Mode == "ldif" {
		return "", 0
	}
	return record.LDIFFolded(stdout)
}

// toolError is stderr's first line that is the tool's own error line
// (record.ToolError: npm's `npm error`), or stdout's that is a
// configuration checker's saying it opened nothing (record.ConfigUnopened),
// when the command exited with a
// non-zero code the chart declared an answer: npm audit exits 1 over a
// vulnerability found and over an audit it could not run, so the word
// is then no answer (record.ItemToolError). "" otherwise: under exit 0
// the tool did not fail, a code not declared is a failure said as one,
// and a code declared with that very failure as its stderr text is its
// answer (chart.ExecSpec.DeclaresStderrIn); a declared text beside the
// failure vouches for none.
func toolError(es *chart.ExecSpec, res proc.Result, row label.Row, stdout, stderr string) string {
	if res.ExitCode == nil || *res.ExitCode == 0 || !row.Answered() {
		return ""
	}
	line := record.ToolError(stderr)
	if line == "" {
		// a configuration checker that logs on stdout (FreeRADIUS -X,
		// Kea -t) says there that it opened nothing
		line = record.ConfigUnopened(stdout)
	}
	if line == "" || es.DeclaresStderrIn(*res.ExitCode, line) {
		// a code declared with the very failure as its stderr text is
		// that answer; a text beside the failure vouches for none (nginx
		// -t's `test failed` follows its open() of a -c path misspelt)
		return ""
	}
	return record.ToolErrorQuote(stderr, line)
}

// hostUnverified is stderr's first line saying the host the command
// reached is not the one it knows by its key (record.HostUnverified:
// ssh's REMOTE HOST IDENTIFICATION HAS CHANGED under
// StrictHostKeyChecking no), when it ended as no failure, whatever its
// code: what it printed, and its code, are another machine's
// (record.ItemHostUnverified). "" otherwise: a failure is said as one.
func hostUnverified(res proc.Result, row label.Row, stderr string) string {
	if !answeredAsNoFailure(res, row) {
		return ""
	}
	return record.HostUnverified(stderr)
}

// keyNotValid is stderr's first line on which gpg says the key of the
// signature it checked is revoked or expired (record.KeyNotValid), when
// the command ended as no failure, whatever its code: gpg's 0 is then no
// answer of a good signature (record.ItemKeyNotValid). "" otherwise: a
// failure is said as one.
func keyNotValid(res proc.Result, row label.Row, stdout, stderr string) string {
	if !answeredAsNoFailure(res, row) {
		return ""
	}
	return record.KeyNotValid(stdout, stderr)
}

// dpkgVerifyFound is the count of lines a dpkg --verify read by its code
// (chart.ExecSpec.DpkgVerifyExitAnswer: exitCodes: declares a non-zero
// code, and no parse: reads what it printed) printed under exit 0, and
// the first of them: dpkg exits 0 over its findings too, so the word
// the chart gave 0 is no answer (record.ItemCodeNotAnswer). 0 otherwise.
func dpkgVerifyFound(es *chart.ExecSpec, res proc.Result, row label.Row, stdout string) (int, string) {
	if es.ParseGiven || !answeredAsNoFailure(res, row) || *res.ExitCode != 0 || es.DpkgVerifyExitAnswer() == "" {
		return 0, ""
	}
	var lines []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return 0, ""
	}
	return len(lines), lines[0]
}

// zeroBelied is stderr's first line on which a tool says what belies the
// word the chart gave its exit 0 (record.ZeroBelied: btrfs scrub's errors
// corrected, testparm's unknown parameter), and what to judge instead,
// when it exited 0, the chart declared that an answer and no parse:
// reads what it printed (record.ItemCodeNotAnswer). "", "" otherwise: a
// chart that parses what it printed judges that.
func zeroBelied(es *chart.ExecSpec, res proc.Result, row label.Row, stderr string) (string, string) {
	if es.ParseGiven || !row.Answered() || res.ExitCode == nil || *res.ExitCode != 0 {
		return "", ""
	}
	return record.ZeroBelied(stderr)
}

// btrfsScrubBackground is stdout's first line on which btrfs scrub start
// says it left the scrub running in the background (no -B;
// record.BtrfsScrubBackground), when it ended as no failure: its code
// says the scrub started (record.ItemCodeNotAnswer). "" otherwise.
func btrfsScrubBackground(res proc.Result, row label.Row, stdout string) string {
	if !answeredAsNoFailure(res, row) {
		return ""
	}
	return record.BtrfsScrubBackground(stdout)
}

// btrfsDeviceMissing is stdout's first line on which btrfs says a device
// of the filesystem is missing (record.BtrfsDeviceMissing: device stats'
// devid:N, usage's Device missing), when the command ended as no
// failure: what it printed of that device was not read from it
// (record.ItemBtrfsDeviceMissing). "" otherwise: a failure is said as
// one.
func btrfsDeviceMissing(res proc.Result, row label.Row, stdout string) string {
	if !answeredAsNoFailure(res, row) {
		return ""
	}
	return record.BtrfsDeviceMissing(stdout)
}

// findingOnStderr is stderr's first line on which the command reported a
// finding of the kind its stdout lists (record.FindingOnStderr: debsums'
// missing file), when it ended as no failure and the chart parses its
// stdout as data (parse: given): the rows made of stdout leave it out
// (record.ItemFindingElsewhere). "" otherwise: a chart that reads the
// exit code alone reads debsums' 2 over it, and a failure is said as one.
func findingOnStderr(es *chart.ExecSpec, res proc.Result, row label.Row, stderr string) string {
	if !es.ParseGiven || !answeredAsNoFailure(res, row) {
		return ""
	}
	return record.FindingOnStderr(stderr)
}

// aideReportElsewhere says whether an aide check whose stdout the chart
// parses (chart.ExecSpec.AideCheck, parse: given) exited with a declared
// code of differences found (1 to 7) and printed no report of them: its
// report went where its config's report_url sends it
// (record.AideReportElsewhereEntry).
func aideReportElsewhere(es *chart.ExecSpec, res proc.Result, row label.Row, stdout string) bool {
	if !es.ParseGiven || !row.Answered() || res.ExitCode == nil || *res.ExitCode < 1 || *res.ExitCode > 7 || !es.AideCheck() {
		return false
	}
	return !strings.Contains(strings.ToLower(stdout), "found differences between database and filesystem")
}

// clamavFoundUnprinted says whether a ClamAV scan whose stdout the chart
// parses (chart.ExecSpec.ClamAVScan, parse: given) exited 1, its code for
// an infected file found, and printed no FOUND line: under --quiet it
// prints nothing but its errors, and a list made of its stdout holds none
// of what it found (record.ClamAVFoundUnprintedEntry).
func clamavFoundUnprinted(es *chart.ExecSpec, res proc.Result, row label.Row, stdout string) bool {
	if !es.ParseGiven || !row.Answered() || res.ExitCode == nil || *res.ExitCode != 1 || !es.ClamAVScan() {
		return false
	}
	return !strings.Contains(stdout, " FOUND")
}

// rkhunterWarningsUnsaid says whether an rkhunter check whose stdout the
// chart parses (chart.ExecSpec.RkhunterCheck, parse: given) exited 1, its
// code for warnings found, and printed no `Warning:` line, and gives its
// stdout's first line that is not blank: its warnings are in another
// language (rkhunter.conf's LANGUAGE=de prints `Warnung:`), or in its log
// alone (without --rwo each is `[ Warning ]`), or the 1 is its own error
// (`Unknown enabled test name given: …`, on stdout), and the rows made of
// its stdout hold none of them (record.RkhunterWarningsElsewhereEntry).
func rkhunterWarningsUnsaid(es *chart.ExecSpec, res proc.Result, row label.Row, stdout string) (string, bool) {
	if !es.ParseGiven || !row.Answered() || res.ExitCode == nil || *res.ExitCode != 1 || !es.RkhunterCheck() {
		return "", false
	}
	first := ""
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "Warning: ") {
			return "", false
		}
		if first == "" && strings.TrimSpace(l) != "" {
			first = strings.TrimSpace(l)
		}
	}
	return first, true
}

// skippedLines is stderr's first line saying the command skipped lines
// of its list (record.SkippedLines: sha256sum -c's improperly formatted
// lines), when it ended as no failure, whatever its code: exit 0 is read
// by denied already, a code the chart declared an answer here, since the
// skipped line's file was not checked under either.
func skippedLines(res proc.Result, row label.Row, stderr string) string {
	if !answeredAsNoFailure(res, row) {
		return ""
	}
	return record.SkippedLines(stderr)
}

// checksumListUnopened is stderr's first line saying a file was not
// there (or a folder), when a checksum tool's check (chart.ExecSpec.
// ChecksumCheck) exited with a non-zero code the chart declared an answer
// and printed nothing: the list it was given could not be opened, and its
// code is the one it gives a mismatch (record.UnopenedListEntry). A
// refusal is said before, by denied.
func checksumListUnopened(es *chart.ExecSpec, res proc.Result, row label.Row, stderr string) string {
	if !answeredBlank(es, res, row) || !es.ChecksumCheck() {
		return ""
	}
	return record.Unopened(stderr)
}

// jqNull is the output's first line on which jq printed null where a
// value was asked for (record.JQNull), when the exec runs jq
// (chart.ExecSpec.RunsJQ) and ended as no failure: exit 0, or a code the
// chart declared an answer (jq -e's 1, said over null as over false).
// "" otherwise: a failure is said as one.
// Under json and jsonl the parsed value is read too: a member null in
// every object of a list (record.JQNullMember) is a key jq's input lacked;
// so, under csv and tsv of jq's @csv or @tsv, is a column empty in every
// row (record.JQEmptyColumn), and under a structured text mode a value
// that is the word null (record.JQNullWord).
func jqNull(es *chart.ExecSpec, res proc.Result, row label.Row, stdout string, parsed any) string {
	if !answeredAsNoFailure(res, row) || !es.RunsJQ() {
		return ""
	}
	if line := record.JQNull(es.Parse.Mode, stdout); line != "" {
		return line
	}
	if es.Parse.Mode == "json" || es.Parse.Mode == "jsonl" {
		return record.JQNullMember(parsed)
	}
	switch es.Parse.Mode {
	case "", "text", "lines":
		return ""
	case "tsv", "csv":
		if es.JQFormatsFields() {
			if at := record.JQEmptyColumn(parsed); at != "" {
				return at
			}
		}
	}
	return record.JQNullWord(parsed)
}

// answeredBlank says whether a command answered with an exit code alone:
// a non-zero exit the chart declared an answer (findmnt --mountpoint's 1,
// nothing mounted there; systemd-analyze verify's 1, its findings on
// stderr) with nothing on stdout. The blank stdout is that answer's, so
// its parse files no problem and no stderr-only gap: findmnt -J's
// `exitCodes: {0: found, 1: none}` under parse: json stood UNKNOWN over a
// mountpoint that was simply not mounted. Exit 0 is not read so (a tool
// that exits 0 while it fails is what those gaps catch), nor is nagios
// mode, whose plugin must print its status line whatever its exit.
func answeredBlank(es *chart.ExecSpec, res proc.Result, row label.Row) bool {
	return row.Answered() && *res.ExitCode != 0 && es.Parse.Mode != "nagios" && len(bytes.TrimSpace(res.Stdout)) == 0
}

// maxOutput is the cap on each stream of an exec stage whose maxOutput:
// is n (chart.ExecSpec.MaxOutput): n, or proc's default when none is given.
func maxOutput(n int) int {
	if n > 0 {
		return n
	}
	return proc.DefaultMaxOutput
}
