package rules

import (
	"strings"
	"testing"
	"time"
)

// The expression sandbox (Compile's doc; docs/RELIABILITY.md "Security").

// TestSandboxUnknownFunctionRefused: only expr's builtins can be called;
// any other name is a compile error, and a method looked up on a scope key
// finds nothing of the host's.
func TestSandboxUnknownFunctionRefused(t *testing.T) {
	t.Parallel()
	for _, src := range []string{`getenv("HOME")`, `exec("id")`, `system("id")`, `readFile("/etc/passwd")`, `open("/etc/passwd")`, `env("USER")`, `http("x")`} {
		if _, err := Compile(src); err == nil || !strings.Contains(err.Error(), "unknown function") {
			t.Errorf("%s: err = %v; want unknown function", src, err)
		}
	}
	e := MustCompile(`os.Getenv("HOME")`) // os is just a scope key here
	if v, _, err := e.Value(mapEnv{}); err == nil {
		t.Errorf("os.Getenv reached something: %v", v)
	}
}

// TestSandboxNodeBudget: an expression larger than DefaultMaxNodes is
// refused when compiled, not run.
func TestSandboxNodeBudget(t *testing.T) {
	t.Parallel()
	src := strings.Repeat("x + ", int(DefaultMaxNodes)) + "x"
	_, err := Compile(src)
	if err == nil || !strings.Contains(err.Error(), "exceeds maximum allowed nodes") {
		t.Fatalf("err = %.200v", err)
	}
	if _, err := Compile(strings.Repeat("x + ", 100) + "x"); err != nil {
		t.Fatalf("a modest expression was refused: %v", err)
	}
}

// TestSandboxMemoryBudget: an evaluation that would allocate past
// DefaultMemoryBudget stops with an error, at once. (repeat("x", 1e8) is
// now stopped before it builds, by the text budget:
// TestIssue19EveryBuilderIsBounded.)
func TestSandboxMemoryBudget(t *testing.T) {
	t.Parallel()
	for _, src := range []string{`map(1..1000000, # * 2)`, `1..100000000`, `len(filter(1..10000000, # > 0))`, `map(1..2000, map(1..2000, #))`} {
		began := time.Now()
		_, _, err := MustCompile(src).Value(mapEnv{})
		if err == nil || !strings.Contains(err.Error(), "memory budget exceeded") {
			t.Errorf("%s: err = %v; want memory budget exceeded", src, err)
		}
		if d := time.Since(began); d > 5*time.Second {
			t.Errorf("%s: stopped after %s", src, d)
		}
	}
}

// TestSandboxRegexIsLinear: matches uses Go's RE2 (linear time): the
// classic catastrophic pattern over a long subject finishes at once, in
// the expression form and the filter form. (A generous bound, not a
// timing assertion: backtracking would take longer than the universe.)
func TestSandboxRegexIsLinear(t *testing.T) {
	t.Parallel()
	subject := strings.Repeat("a", 100_000) + "!"
	env := mapEnv{"s": subject}
	began := time.Now()
	if out := MustCompile(`s matches "(a+)+$"`).Eval(env); out.Err != "" || out.Matched {
		t.Errorf("expression form: %+v", out.Err)
	}
	if out := MustFilter(Where("s", OpMatches, "(a+)+$")).Eval(env); out.Err != "" || out.Matched {
		t.Errorf("filter form: %+v", out.Err)
	}
	if out := MustFilter(Where("s", OpMatches, "(x+x+)+y")).Eval(mapEnv{"s": strings.Repeat("x", 50_000)}); out.Matched {
		t.Error("(x+x+)+y matched")
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("took %s", d)
	}
}
