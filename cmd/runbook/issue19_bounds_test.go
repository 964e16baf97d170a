package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// unsafeOutput finds the first character of out a terminal would act on
// rather than show: a control other than the line break, a C1 or bidi
// control, a byte that is not UTF-8.
func unsafeOutput(out string) (rune, bool) {
	for i, r := range out {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(out[i:]); n == 1 {
				return rune(out[i]), true
			}
		}
		if (r < 0x20 && r != '\n') || r == 0x7f || unsafeRune(r) {
			return r, true
		}
	}
	return 0, false
}

// TestIssue19TerminalEscapesSanitized: a command's output with a clear
// screen, an OSC title, a carriage return redrawing a fake table row, C1
// and bidi controls reaches the verdict table and the script's stderr
// tail. The text and markdown output show every one escaped; JSON keeps
// the value as the command printed it. Before, they reached the terminal.
func TestIssue19TerminalEscapesSanitized(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("../../testdata/issue19/bounds-escapes")
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "markdown"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			code, out, stderr := runIn(t, dir, "exec", "chart.yaml", "--format", format)
			if code != 0 {
				t.Fatalf("exit %d, stderr %s", code, stderr)
			}
			if r, bad := unsafeOutput(out); bad {
				t.Errorf("output holds %U:\n%s", r, out)
			}
			for _, want := range []string{`vol-1\x1b[2J\x1b]0;pwned\x07`, `a\tb c`, `x\u009b31my\u202eevil`, `boom\x1b[31m\r| forged | row |`, `\x1b]0;title\x07done`} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %s:\n%s", want, out)
				}
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		t.Parallel()
		code, out, stderr := runIn(t, dir, "exec", "chart.yaml", "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d, stderr %s", code, stderr)
		}
		var rec struct {
			State struct {
				Out struct {
					Stdout map[string]string `json:"stdout"`
				} `json:"out"`
			} `json:"state"`
		}
		if err := json.Unmarshal([]byte(out), &rec); err != nil {
			t.Fatal(err)
		}
		if got := rec.State.Out.Stdout["name"]; got != "vol-1\x1b[2J\x1b]0;pwned\x07" {
			t.Errorf("JSON state out.stdout.name = %q; want the value as printed", got)
		}
	})
}

// TestIssue19Clean: the one sanitizer, case by case.
func TestIssue19Clean(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain words — ünïcode", "plain words — ünïcode"},
		{"\x1b[2J", `\x1b[2J`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`},
		{"ok\r| fake | row |", `ok\r| fake | row |`},
		{"a\tb\nc", `a\tb\nc`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"csi\u009b31m", `csi\u009b31m`},
		{"rtl\u202eevil\u2066x\u2028y", `rtl\u202eevil\u2066x\u2028y`},
		{"bad\xffutf8", `bad\xffutf8`},
		{`a\x1b written`, `a\x1b written`},
	} {
		if got := clean(tc.in); got != tc.want {
			t.Errorf("clean(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
	if got := cleanLines("| a |\n| b\x1b |"); got != "| a |\n"+`| b\x1b |` {
		t.Errorf("cleanLines kept or lost a line break: %q", got)
	}
}

// TestIssue19AllowChartPathFlag: a subflow chart outside the chart's
// folder is refused unless its folder is given with --allow-chart-path
// (validate, exec and graph take it).
func TestIssue19AllowChartPathFlag(t *testing.T) {
	t.Parallel()
	root, shared := t.TempDir(), t.TempDir()
	sub := filepath.Join(shared, "sub.yaml")
	if err := os.WriteFile(sub, []byte("version: 1\nrunbook: sub\nstages:\n  - {id: s, set: {x: 1}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := "version: 1\nrunbook: m\nstages:\n  - {id: m, subflow: {chart: " + sub + "}}\n"
	if err := os.WriteFile(filepath.Join(root, "main.yaml"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runIn(t, root, "validate", "main.yaml"); code != 1 || !strings.Contains(stderr, "is outside the chart's folder") || !strings.Contains(stderr, "--allow-chart-path") {
		t.Errorf("without the flag: exit %d, stderr %q", code, stderr)
	}
	for _, args := range [][]string{
		{"validate", "--allow-chart-path", shared, "main.yaml"},
		{"exec", "--allow-chart-path", shared, "main.yaml", "--format", "json"},
		{"graph", "--allow-chart-path", shared, "main.yaml"},
	} {
		if code, _, stderr := runIn(t, root, args...); code != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestIssue19ExplainSanitized: `runbook explain` prints what a command
// wrote (values, stdout and stderr tails) and a record's text; it went to
// the terminal unsanitized (the escapes test of issue #19 held exec's
// output only). Every form explain prints as text is now cleaned; its JSON
// keeps the values as they are.
func TestIssue19ExplainSanitized(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("../../testdata/issue19/bounds-escapes")
	if err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(t.TempDir(), "run.json")
	if code, _, stderr := runIn(t, dir, "exec", "chart.yaml", "--record", rec); code != 0 {
		t.Fatalf("exec: exit %d, stderr %s", code, stderr)
	}
	for _, args := range [][]string{
		{"explain", rec},
		{"explain", rec, "out", "--full"},
		{"explain", rec, "err"},
		{"explain", rec, "verdicts[0]"},
		{"explain", rec, "--why-not", "Posture/odd"},
	} {
		t.Run(strings.Join(args[2:], " "), func(t *testing.T) {
			t.Parallel()
			code, out, stderr := runIn(t, dir, args...)
			if r, bad := unsafeOutput(out); bad {
				t.Errorf("exit %d; output holds %U:\n%s", code, r, out)
			}
			if r, bad := unsafeOutput(stderr); bad {
				t.Errorf("stderr holds %U:\n%s", r, stderr)
			}
		})
	}
}
