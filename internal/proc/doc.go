// Package proc is the one place runbook starts a child process: every `exec:`
// stage runs through [Run], and the plugin host reuses its process-group
// handling through [KillGroup].
//
// It returns plain facts about how the process ended and imports no engine
// package of this module (only internal/secret, whose stream masker it
// calls); what they mean for a script row (its settlement and facts)
// is runbook's rule (runbook/execstage.go, execOutcome). The facts, first
// match wins:
//
//	the process                                   Result
//	ctx already done, never started               Cancelled, Started false
//	timeout passed before the start               TimedOut, Started false
//	could not be started                          StartErr, Started false
//	stopped by the runner (timeout, ctx cancel)   Started, TimedOut or Cancelled
//	exited with code N                            Started, ExitCode N
//	killed by a signal the runner did not send    Started, Signal "SIGKILL"
//
// "Stopped by the runner" means the runner had begun to stop the process
// group before it saw the leader end; whatever status the leader then
// reported (a trapped SIGTERM may still exit 0) is not evidence of the
// program's outcome, so Result carries neither ExitCode nor Signal for it.
//
// @example
//
//	sh -c 'exit 7'          → ExitCode 7
//	sh -c 'kill -9 $$'      → Signal "SIGKILL"
//	sleep 10, timeout 100ms → TimedOut, no ExitCode, no Signal
//	no-such-command         → StartErr `exec "no-such-command": not found in PATH "…"`
//
// # Processes
//
// The child is the leader of its own process group (Setpgid). When the runner
// stops it (timeout or ctx cancel) it sends SIGTERM to the whole group, then
// SIGKILL to the leader after Spec.Grace (default 2s) if it is still alive:
// os/exec does both, through Cmd.Cancel and Cmd.WaitDelay. Once the
// leader has ended, for whatever reason, the output pipes get a drain window
// (Spec.Drain, default 250ms) to reach EOF; then whatever is left of the group
// is killed with SIGKILL, which lets go of the pipes with what it wrote still
// readable. Only a holder outside the group can keep them open past a second
// drain window; then they are closed — once nothing the command wrote waits
// unread in them (Linux: a reader starved on a loaded machine is waited for,
// up to 10 s, rather than have its output dropped). So no process the stage started
// outlives the stage, and a grandchild that keeps stdout open
// (`sleep 30 & echo hi`) cannot hang the runner: such a run takes about one
// drain window longer than its leader. The grace is the leader's: a member
// still there after the leader ended gets SIGKILL after the drain window,
// not after a grace.
//
// A process that leaves the group on purpose (setsid, setpgid) escapes the
// group kill, not the stage (Linux): the first Run makes the runner a child
// subreaper (prctl PR_SET_CHILD_SUBREAPER), so such a process, once its
// parent is gone, is reparented to the runner rather than to init. Every
// child's environment carries RUNBOOK_EXEC_ID=<runner pid>.<n>, one value
// per Run, which a Spec cannot replace; where the group is killed the
// runner also kills every child of its own that carries the run's value,
// and all their descendants, and reaps them (sweep: each held by a pidfd
// from the look to the reap, so a reused pid is never touched; the leader,
// which os/exec waits on, never touched). So when Run returns, nothing the
// command started is left, in the group or out of it. Not found: a process
// that both left the group and cleared its environment (env -i) after its
// parent ended; and an escaped process that ends by itself before the
// stage ends stays a zombie of the runner until the runner exits. A
// process the caller starts itself (a stage plugin) gets the same by a
// Mark: its value in the process's environment, and Mark.Sweep once the
// process is stopped.
//
// A SIGKILLed runner cannot clean up: the child is started with the
// parent-death signal SIGKILL (Pdeathsig), so the leader dies with the
// runner. Linux sends it when the THREAD that forked the child ends, and
// the Go runtime ends a thread when a goroutine locked to it returns, so
// Run locks its goroutine to its OS thread from the start until the leader
// is reaped. The leader's own children get no such signal: what a shell
// runs in the foreground outlives a SIGKILLed runner (elsewhere than
// Linux, the leader too).
//
// # What it never does
//
//   - It never runs a shell unless Spec.Shell is set; Spec.Argv is executed
//     directly, looked up in the CHILD's PATH (see below). Spec.Shell runs
//     as `bash -e -o pipefail -c SCRIPT`, bash looked up the same way, so a
//     failing command inside a pipeline is the pipeline's exit code, and the
//     first command or pipeline that fails ends the script with it (a
//     failure the script tests with if, &&, || or ! does not); with no
//     bash it does not start (ErrNoBash) and no other shell is tried. The
//     script is run after an EXIT trap that writes its last pipeline's
//     codes to a temporary file (Result.PipeStatus). SCRIPT is a short
//     runner that evals the script from bash's environment (shellRunner):
//     the script's text is in no command line, so a search of command
//     lines it makes (pgrep -f) never finds the bash running it.
//   - It never hides argv: argv is visible to every user of the host (ps,
//     /proc/PID/cmdline), so callers never put a secret there. They pass
//     secrets through Spec.Env or Spec.Stdin, and list the values in
//     Spec.Secrets so captured output masks them.
//   - It never lets a child wait on a terminal or the runner's stdin: with
//     Spec.Stdin nil the child reads /dev/null and sees EOF at once.
//   - It never leaves a goroutine behind: Run returns after every goroutine it
//     started has ended.
//
// # Environment
//
// The child's environment is Spec.BaseEnv with Spec.Env laid over it (a key
// in Env replaces the same key in the base). When BaseEnv is nil the base is
// the minimal inherited set: of the runner's own environment (os.Environ)
// only these keys, when set:
//
//	PATH HOME LANG LC_ALL TZ USER TMPDIR
//
// with LC_NUMERIC=C, LC_TIME=C, LC_MESSAGES=C and LC_COLLATE=C added when that locale
// is not C (an LC_ALL passed as LANG, since it would outrank them): a
// child writes numbers, times and its words as a chart and the run read
// them, `4.54`, `1234`, `Dec  7`, `Average:` and `No such file or
// directory`, not de_DE's `4,54`, `1.234`, `Dez  7`, `Durchschn.:` and
// `Datei oder Verzeichnis nicht gefunden`. Its characters (LC_CTYPE) stay
// the runner's, but a Turkic locale's (tr_TR) casing of i and I, under
// which `grep -ic failed` passed over `FAILED`: such a child gets
// LC_CTYPE=C.UTF-8 (C where the locale is not UTF-8 or there is no
// C.UTF-8). A runner with no locale at all gives its child
// LC_CTYPE=C.UTF-8 too, where there is one: in C, ps wrote a path's ü as
// ??, and pgrep -f over it found nothing.
//
// Everything else the runner holds (tokens, cloud credentials, …) does not
// reach the child unless the caller passes it. A non-nil, empty BaseEnv means
// an empty base.
//
// A command without a slash is looked up in the PATH of the child's
// environment (so `env: {PATH: …}` is honoured); when the child has no PATH,
// in /usr/local/bin:/usr/bin:/bin. Empty and relative PATH entries are
// skipped. A command with a slash is run as given, relative to Spec.Dir.
//
// # Caps
//
// Each of stdout and stderr is captured up to Spec.MaxOutput bytes (default
// 1 MiB). Past the cap the stream is still read to EOF and discarded, so the
// child never blocks on a full pipe, and Result.Truncated is set; the caller
// withholds a truncated result from the scope. Capture is bytes, binary and
// invalid UTF-8 included; [Text] makes valid UTF-8 of it for the JSON scope.
//
// Secret values are masked as "***" over the whole captured stream (by
// secret.MaskStream, over the forms a secret.Set gives), so a
// secret split across reads is still masked, and a secret that straddles the
// cap is masked whole rather than cut in half (the capture reads the longest
// secret's length past the cap to see it). A masked stream may so be a few
// bytes longer than MaxOutput when a secret is shorter than "***".
//
// Besides the capture, the last TailBytes of each whole stream (past the
// cap too) are kept as Result.StdoutTail and StderrTail, masked the same
// way, so a caller can show what a program printed last.
//
// Cost: one goroutine per captured stream, one for Stdin when it is set, one
// awaiting the streams and os/exec's one watching ctx, all ended before Run
// returns.
package proc
