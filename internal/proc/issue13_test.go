package proc

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestIssue13ShellPipefail: a shell script runs under bash with pipefail,
// so a failing command inside a pipeline is the script's exit code; under
// /bin/sh `false | cat` exited 0.
func TestIssue13ShellPipefail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script string
		exit   int
	}{
		{"false | cat", 1},
		{"exit 3 | cat", 3},
		{"true | cat", 0},
		{"echo hi | (exit 4) | cat", 4},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			t.Parallel()
			r := Run(context.Background(), Spec{Shell: tc.script})
			if r.StartErr != nil {
				t.Fatalf("StartErr: %v", r.StartErr)
			}
			if r.ExitCode == nil || *r.ExitCode != tc.exit {
				t.Errorf("exit %s, want %d", showExit(r.ExitCode), tc.exit)
			}
		})
	}
}

// TestIssue13ShellNeedsBash: with no bash in the child's PATH a shell
// script does not start, naming bash; it never falls back to /bin/sh.
func TestIssue13ShellNeedsBash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := Run(context.Background(), Spec{Shell: "echo ran", Env: map[string]string{"PATH": dir}})
	if r.StartErr == nil {
		t.Fatalf("StartErr = nil (stdout %q), want bash not found", r.Stdout)
	}
	if !errors.Is(r.StartErr, ErrNoBash) {
		t.Errorf("StartErr %q is not ErrNoBash", r.StartErr)
	}
	if !strings.Contains(r.StartErr.Error(), "bash") || !strings.Contains(r.StartErr.Error(), dir) {
		t.Errorf("StartErr %q does not name bash and the PATH searched", r.StartErr)
	}
	if r.Started || len(r.Stdout) > 0 {
		t.Errorf("started %v, stdout %q: nothing may run", r.Started, r.Stdout)
	}
}

// TestIssue13Tails: each stream's last TailBytes are kept, past the cap
// too, masked; a secret straddling the tail's start is masked whole, and a
// cut inside a UTF-8 sequence drops its leading part.
func TestIssue13Tails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		spec           Spec
		stdout, stderr string // the whole tail, or its end after "…"
		wantLen        int    // of the stdout tail, when not -1
	}{
		{"short streams whole", Spec{Shell: `echo out; echo err >&2`}, "out\n", "err\n", -1},
		{"past the cap: the stream's end, not the capture's",
			Spec{Shell: `head -c 5000 /dev/zero | tr '\0' a; printf END`, MaxOutput: 100}, "…aEND", "", TailBytes},
		{"a secret straddling the tail's start is masked whole",
			// "SECRET" begins 3 bytes before the last TailBytes.
			Spec{Shell: `printf 'xxSECRET'; head -c 1021 /dev/zero | tr '\0' b`, Secrets: []string{"SECRET"}}, "***bbb…", "", 3 + 1021},
		{"a cut inside a UTF-8 sequence",
			// é is two bytes; the tail's first byte is its second.
			Spec{Shell: `printf 'é'; head -c 1023 /dev/zero | tr '\0' c`}, "ccc…", "", 1023},
		{"stderr masked", Spec{Shell: `echo "k=$K" >&2`, Env: map[string]string{"K": "hunter2"}, Secrets: []string{"hunter2"}}, "", "k=***\n", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Run(context.Background(), tc.spec)
			if r.StartErr != nil {
				t.Fatalf("StartErr: %v", r.StartErr)
			}
			check := func(what string, got []byte, want string) {
				t.Helper()
				s := string(got)
				switch {
				case strings.HasPrefix(want, "…") && !strings.HasSuffix(s, want[len("…"):]):
					t.Errorf("%s tail ends %q, want …%q", what, s[max(0, len(s)-20):], want[len("…"):])
				case strings.HasSuffix(want, "…") && !strings.HasPrefix(s, strings.TrimSuffix(want, "…")):
					t.Errorf("%s tail starts %q, want %q…", what, s[:min(len(s), 20)], strings.TrimSuffix(want, "…"))
				case !strings.Contains(want, "…") && s != want:
					t.Errorf("%s tail %q, want %q", what, s, want)
				}
			}
			check("stdout", r.StdoutTail, tc.stdout)
			check("stderr", r.StderrTail, tc.stderr)
			if tc.wantLen >= 0 && len(r.StdoutTail) != tc.wantLen {
				t.Errorf("stdout tail is %d bytes, want %d", len(r.StdoutTail), tc.wantLen)
			}
			for _, sec := range tc.spec.Secrets {
				for _, tail := range [][]byte{r.StdoutTail, r.StderrTail} {
					if strings.Contains(string(tail), sec[1:]) {
						t.Errorf("tail %q shows part of the secret", tail)
					}
				}
			}
		})
	}
}

// TestShellEarlierFailureFailsTheScript: pipefail makes a pipeline's exit
// a failing command's, but a script's exit is its LAST command's, so
// "dmesg | tail -n 20" on a host that denies dmesg, followed by one more
// line, exited 0: the stage completed, its stdout held the last line, and
// a rule finding no OOM in it stood Consistent. The script runs with
// errexit too (bash -e -o pipefail, as GitHub Actions runs bash steps):
// the first command or pipeline that fails ends it with its code. A
// failure the script tests (if, &&, ||, !) is not one.
func TestShellEarlierFailureFailsTheScript(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script string
		exit   int
		out    string
	}{
		{"(echo denied >&2; exit 1) | tail -n 20\necho '-- end'", 1, ""},
		{"false\necho after", 1, ""},
		{"exit 3 | cat; echo after", 3, ""},
		{"if false; then echo no; fi\necho after", 0, "after\n"},
		{"false || echo handled", 0, "handled\n"},
		{"grep -q x /dev/null && echo found\necho after", 0, "after\n"},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			t.Parallel()
			r := Run(context.Background(), Spec{Shell: tc.script})
			if r.StartErr != nil {
				t.Fatalf("StartErr: %v", r.StartErr)
			}
			if r.ExitCode == nil || *r.ExitCode != tc.exit || string(r.Stdout) != tc.out {
				t.Errorf("exit %s, stdout %q; want exit %d, stdout %q", showExit(r.ExitCode), r.Stdout, tc.exit, tc.out)
			}
		})
	}
}
