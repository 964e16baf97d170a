package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/host"
)

// checkUnknownArg is the argument name the check gives to see the host's
// rules refuse an undeclared one.
const checkUnknownArg = "runbook-check-undeclared"

func newPluginsCheckCmd(stdout io.Writer) *cobra.Command {
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "check PATH",
		Short: "Run a conformance check against a stage plugin binary (any language)",
		Long: `check starts the plugin at PATH as runbook does and takes it through each
step a run depends on, printing PASS or FAIL for each:

  handshake     it starts, prints the go-plugin handshake line, speaks
                protocol ` + fmt.Sprint(plugins.ProtocolVersion) + ` over gRPC
  describe      it answers Describe with a name, a version and arguments
                whose declared defaults fit their types (the host's rules)
  call          it answers a call made with its declared defaults (and a
                sample value for each required argument)
  bad argument  the host's rules refuse an undeclared argument, and the
                plugin survives a wrongly typed one sent to it directly
  shutdown      it exits when asked (GRPCController.Shutdown), within 2s
  no process    nothing of its process group is left, nor a child it
                started in a group of its own

It exits 1 when a step fails, naming what is wrong: usable in a plugin's CI.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, a []string) error {
			if !checkPlugin(cmd.Context(), stdout, a[0], timeout) {
				return quietExit(exitFailed)
			}
			return nil
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 10*time.Second, "bound each step (the start included) by `D`")
	return cmd
}

// checker prints one line per step and remembers the first failure.
type checker struct {
	w      io.Writer
	failed []string
	steps  int
	// faulted: the plugin itself failed a step (crashed, hung, garbage),
	// so asking it to shut down tells nothing.
	faulted bool
}

func (c *checker) pass(step, format string, a ...any) {
	c.steps++
	fmt.Fprintf(c.w, "PASS  %-13s %s\n", step, fmt.Sprintf(format, a...))
}

func (c *checker) fail(step, format string, a ...any) {
	c.steps++
	msg := fmt.Sprintf(format, a...)
	c.failed = append(c.failed, step+": "+msg)
	fmt.Fprintf(c.w, "FAIL  %-13s %s\n", step, msg)
}

func (c *checker) skip(steps ...string) {
	for _, s := range steps {
		c.steps++
		fmt.Fprintf(c.w, "SKIP  %-13s (an earlier step failed)\n", s)
	}
}

// checkPlugin runs every step against the plugin at path and reports
// whether all passed.
func checkPlugin(ctx context.Context, w io.Writer, path string, timeout time.Duration) bool {
	c := &checker{w: w}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	name := strings.TrimPrefix(filepath.Base(abs), host.Prefix)
	fmt.Fprintf(w, "runbook plugins check %s\n", abs)
	defer func() {
		if len(c.failed) == 0 {
			fmt.Fprintf(w, "PASS: all %d steps\n", c.steps)
		} else {
			fmt.Fprintf(w, "FAIL: %d of %d steps failed; first: %s\n", len(c.failed), c.steps, c.failed[0])
		}
	}()
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p, err := host.Start(sctx, host.Source{Name: name, Path: abs}, host.WithStartTimeout(timeout), host.WithCallTimeout(timeout))
	if err != nil {
		c.fail("handshake", "%v", err)
		c.skip("describe", "call", "bad argument", "shutdown", "no process")
		return false
	}
	pid := p.Pid()
	c.pass("handshake", "protocol %d over gRPC, pid %d", p.Protocol(), pid)
	killed := false
	defer func() {
		if !killed {
			p.Kill()
		}
	}()
	st, err := p.Stage(sctx)
	if err != nil {
		c.faulted = true
		c.fail("describe", "%v", err)
		c.skip("call", "bad argument")
	} else {
		d := st.Description()
		if ok := checkDescription(c, d, name, abs); ok {
			checkCall(ctx, c, st, d, timeout)
			if c.faulted {
				c.skip("bad argument")
			} else {
				checkBadArg(ctx, c, st, d, timeout)
			}
		} else {
			c.skip("call", "bad argument")
		}
	}
	// Its descendants while it runs, wherever they are: one that left the
	// plugin's process group (setsid) is out of reach of stopping it.
	kids := liveDescendants(pid)
	if c.faulted {
		c.skip("shutdown")
	} else {
		start := time.Now()
		p.Kill()
		killed = true
		took := time.Since(start)
		if took > 2*time.Second {
			c.fail("shutdown", "took %s to stop: it did not exit when asked (a plugin in another language must serve GRPCController.Shutdown and exit; see docs/PLUGINS.md)", took.Round(time.Millisecond))
		} else {
			c.pass("shutdown", "stopped %s after being asked", took.Round(time.Millisecond))
		}
	}
	if !killed {
		p.Kill()
		killed = true
	}
	if left := groupLeft(pid); left != nil {
		c.fail("no process", "%v", left)
	} else if out := outsideLeft(kids, pid); out != "" {
		c.fail("no process", "%s, started by the plugin in a process group of its own, still runs after the plugin was stopped: stopping the plugin's group cannot reach it (keep children in the plugin's group, and end them when it exits)", out)
	} else if out := outsideGroup(kids, pid); out != "" {
		// runbook ended it (by the mark in the plugin's environment);
		// another host, or runbook off Linux, would not have
		c.fail("no process", "%s, started by the plugin in a process group of its own: stopping the plugin's group cannot reach it, and only a host that sweeps what its plugins leave (runbook on Linux) ends it (keep children in the plugin's group, and end them when it exits)", out)
	} else {
		c.pass("no process", "nothing of process group %d is left", pid)
	}
	return len(c.failed) == 0
}

// checkDescription holds the description to what the host needs: a name,
// a version, and defaults the host's own rules accept (ApplyArgs given
// nothing but sample values for the required arguments).
func checkDescription(c *checker, d plugins.Description, name, path string) bool {
	var missing []string
	if d.Name == "" {
		missing = append(missing, "name")
	}
	if d.Version == "" {
		missing = append(missing, "version")
	}
	if len(missing) > 0 {
		c.fail("describe", "declares no %s", strings.Join(missing, " and no "))
		return false
	}
	// A file named runbook-plugin-NAME is found by that name in a plugin
	// directory, so it must declare NAME; a file named otherwise is
	// reached through a chart's plugins: map, by any name.
	if strings.HasPrefix(filepath.Base(path), host.Prefix) {
		if err := host.NameMismatch(d.Name, name, path, true); err != nil {
			c.fail("describe", "%v", err)
			return false
		}
	}
	if _, _, err := plugins.ApplyArgs(d, samples(d)); err != nil {
		c.fail("describe", "its declared arguments do not pass the host's rules: %v", err)
		return false
	}
	c.pass("describe", "%s %s: %s", d.Name, d.Version, argSummary(d.Args))
	return true
}

// checkCall makes the call a chart giving nothing it need not would make.
func checkCall(ctx context.Context, c *checker, st *host.Stage, d plugins.Description, timeout time.Duration) {
	args, assumed, err := plugins.ApplyArgs(d, samples(d))
	if err != nil {
		c.fail("call", "%v", err)
		return
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := st.Run(cctx, plugins.Request{Path: "check", Args: args, Scope: map[string]any{}})
	var re *host.RunError
	switch {
	case errors.As(err, &re):
		c.pass("call", "answered with its own error (a sound answer to sample values): %s", firstLine(re.Message))
	case err != nil:
		c.faulted = true
		c.fail("call", "%v", err)
	default:
		c.pass("call", "answered %s (defaults assumed: %s)", clipText(fmt.Sprintf("%v", resp.Result), 80), orNone(assumed))
	}
}

// checkBadArg: the host's rules refuse an undeclared argument, and a
// wrongly typed value sent past them does not bring the plugin down.
func checkBadArg(ctx context.Context, c *checker, st *host.Stage, d plugins.Description, timeout time.Duration) {
	given := samples(d)
	given[checkUnknownArg] = 1
	if _, _, err := plugins.ApplyArgs(d, given); err == nil {
		c.fail("bad argument", "the host's rules accepted the undeclared argument %q", checkUnknownArg)
		return
	}
	args, _, _ := plugins.ApplyArgs(d, samples(d))
	wrong, bad := "", any(nil)
	for _, a := range d.Args {
		if v, ok := wrongValue(a.Type); ok {
			wrong, bad = a.Name, v
			break
		}
	}
	if wrong == "" {
		c.pass("bad argument", "the host refuses an undeclared argument; no typed argument to send a wrong value for")
		return
	}
	args[wrong] = bad
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err := st.Run(cctx, plugins.Request{Path: "check", Args: args, Scope: map[string]any{}})
	var re *host.RunError
	switch {
	case errors.As(err, &re):
		c.pass("bad argument", "the host refuses an undeclared argument; sent %s = %v directly, the plugin refused it: %s", wrong, bad, firstLine(re.Message))
	case err != nil:
		c.faulted = true
		c.fail("bad argument", "sent %s = %v (not its declared %s), the plugin failed: %v", wrong, bad, typeOf(d, wrong), err)
	default:
		c.pass("bad argument", "the host refuses an undeclared argument; sent %s = %v directly, the plugin answered (the host never sends it)", wrong, bad)
	}
}

// samples gives each required argument without a default a value of its
// declared type, so a call can be made.
func samples(d plugins.Description) map[string]any {
	out := map[string]any{}
	for _, a := range d.Args {
		if a.Required && !a.HasDefault {
			out[a.Name] = sampleOf(a)
		}
	}
	return out
}

// sampleOf is a value the host would pass for a: its enum's first value,
// its min, or a plain value of its type.
func sampleOf(a plugins.Arg) any {
	switch {
	case len(a.Enum) > 0:
		return a.Enum[0]
	case a.Min != nil:
		return *a.Min
	case a.Max != nil && *a.Max < 0:
		return *a.Max
	}
	switch a.Type {
	case "number", "integer":
		return 0
	case "bool":
		return false
	case "list":
		return []any{}
	case "object":
		return map[string]any{}
	case "duration":
		return "1s"
	}
	return ""
}

// wrongValue is a value no argument of typ accepts.
func wrongValue(typ string) (any, bool) {
	switch typ {
	case "string", "duration":
		return 12345, true
	case "number", "integer", "bool", "list", "object":
		return "not-a-" + typ, true
	}
	return nil, false
}

func typeOf(d plugins.Description, name string) string {
	for _, a := range d.Args {
		if a.Name == name {
			return a.Type
		}
	}
	return ""
}

func argSummary(as []plugins.Arg) string {
	if len(as) == 0 {
		return "no arguments"
	}
	parts := make([]string, 0, len(as))
	for _, a := range as {
		parts = append(parts, argWords(a))
	}
	return fmt.Sprintf("%d argument(s): %s", len(as), strings.Join(parts, "; "))
}

// argWords is one declared argument as `runbook plugins` and `plugins
// check` list it: its name, type, and whether required or its default.
func argWords(a plugins.Arg) string {
	s := a.Name
	if a.Type != "" {
		s += " " + a.Type
	}
	switch {
	case a.Required:
		s += " (required)"
	case a.HasDefault && a.Sensitive:
		s += " = " + secret.Masked // sensitive: its default is never shown either
	case a.HasDefault:
		s += fmt.Sprintf(" = %v", a.Default)
	}
	return s
}

// groupLeft names the processes of group pgid still alive, after a short
// grace for the reaping to finish.
func groupLeft(pgid int) error {
	if pgid <= 0 {
		return nil
	}
	deadline := time.Now().Add(time.Second)
	for {
		err := syscall.Kill(-pgid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("process group %d is still alive after the plugin was stopped (pids: %s): it left a child running", pgid, groupPids(pgid))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// groupPids lists the pids in group pgid (Linux /proc; "?" elsewhere).
func groupPids(pgid int) string {
	var pids []string
	for _, p := range procs() {
		if p.pgrp == pgid {
			pids = append(pids, strconv.Itoa(p.pid))
		}
	}
	sort.Strings(pids)
	if len(pids) == 0 {
		return "?"
	}
	return strings.Join(pids, ", ")
}

// proc is one process as /proc/PID/stat says it.
type proc struct {
	pid, ppid, pgrp int
	comm            string
}

// procs lists the running processes (Linux /proc; none elsewhere).
func procs() []proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …: comm may hold spaces; read after ')'.
		s := string(b)
		i, j := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if i < 0 || j < i {
			continue
		}
		f := strings.Fields(s[j+1:])
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		out = append(out, proc{pid: pid, ppid: ppid, pgrp: pgrp, comm: s[i+1 : j]})
	}
	return out
}

// liveDescendants are pid's children, theirs, and so on, as they run now. A
// child whose parent has already exited is init's and not among them.
func liveDescendants(pid int) []proc {
	all := procs()
	in := map[int]bool{pid: true}
	var out []proc
	for grew := true; grew; {
		grew = false
		for _, p := range all {
			if in[p.ppid] && !in[p.pid] {
				in[p.pid], grew = true, true
				out = append(out, p)
			}
		}
	}
	return out
}

// outsideLeft names the processes of kids outside group pgid that still
// run ("" when none): `1234 (sleep)`.
func outsideLeft(kids []proc, pgid int) string {
	return outsideNamed(kids, pgid, func(k proc) bool { return syscall.Kill(k.pid, 0) == nil })
}

// outsideGroup names the processes of kids that were outside group pgid
// while the plugin ran, running still or not ("" when none).
func outsideGroup(kids []proc, pgid int) string {
	return outsideNamed(kids, pgid, func(proc) bool { return true })
}

func outsideNamed(kids []proc, pgid int, keep func(proc) bool) string {
	var left []string
	for _, k := range kids {
		if k.pgrp != pgid && keep(k) {
			left = append(left, fmt.Sprintf("process %d (%s)", k.pid, k.comm))
		}
	}
	return strings.Join(left, ", ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return clipText(line, 120)
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
