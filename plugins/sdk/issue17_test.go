package sdk_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/sdk"
)

// both runs fn against the plugin in-process and as a real process: the
// one helper type, two ways to make it.
func both(t *testing.T, fn func(t *testing.T, p *sdk.Plugin)) {
	t.Run("in-process", func(t *testing.T) { t.Parallel(); fn(t, sdk.TestServe(t, echo{})) })
	t.Run("process", func(t *testing.T) {
		t.Parallel()
		fn(t, sdk.TestProcess(t, "github.com/openrunbook/runbook/plugins/sdk/internal/echo"))
	})
}

// TestIssue17HelperAppliesHostArgRules: the helpers filled no default and
// checked no type (issue #17), so a plugin's tests repeated every default
// and could not see what the host assumes. Now both apply plugins.ApplyArgs.
func TestIssue17HelperAppliesHostArgRules(t *testing.T) {
	t.Parallel()
	both(t, func(t *testing.T, p *sdk.Plugin) {
		ctx := context.Background()
		call, err := p.Run(ctx, sdk.Request{})
		if err != nil {
			t.Fatal(err)
		}
		if got := call.Result.(map[string]any)["x"]; got != 2.5 {
			t.Errorf("x = %#v, want the declared default 2.5", got)
		}
		if !reflect.DeepEqual(call.Assumed, []string{"x"}) {
			t.Errorf("assumed = %v, want [x]", call.Assumed)
		}
		call, err = p.Run(ctx, sdk.Request{Args: map[string]any{"x": 7}})
		if err != nil || len(call.Assumed) != 0 || call.Result.(map[string]any)["x"] != 7 {
			t.Errorf("given x: %+v %v", call, err)
		}
		for name, args := range map[string]map[string]any{
			"wrong type": {"x": "seven"},
			"unknown":    {"y": 1},
		} {
			_, err := p.Run(ctx, sdk.Request{Args: args})
			var ae *plugins.ArgError
			if !errors.As(err, &ae) {
				t.Errorf("%s: err = %v, want the host's *plugins.ArgError", name, err)
			}
		}
	})
}

// TestIssue17PanicKeepsStack: a recovered panic kept its message and lost
// its stack (issue #17). The call's error now carries the stack, naming
// the function that panicked, in-process and across a real process.
func TestIssue17PanicKeepsStack(t *testing.T) {
	t.Parallel()
	t.Run("in-process", func(t *testing.T) {
		t.Parallel()
		_, err := sdk.TestServe(t, echo{}).Run(context.Background(), sdk.Request{Args: map[string]any{"mode": "panic"}})
		if err == nil || !strings.Contains(err.Error(), "plugin panicked: asked to panic") ||
			!strings.Contains(err.Error(), "sdk_test.echo.Run") {
			t.Fatalf("err = %v, want the message and a stack naming echo.Run", err)
		}
	})
	t.Run("process", func(t *testing.T) {
		t.Parallel()
		p := sdk.TestProcess(t, "github.com/openrunbook/runbook/plugins/internal/testplugin/panics")
		_, err := p.Run(context.Background(), sdk.Request{})
		if err == nil || !strings.Contains(err.Error(), "panic: asked to panic") ||
			!strings.Contains(err.Error(), "main.explodeOnPurpose") {
			t.Fatalf("err = %v, want the panic line and a stack naming explodeOnPurpose", err)
		}
		// The process survived its panic: the next call is answered.
		if _, err := p.Run(context.Background(), sdk.Request{Args: map[string]any{"panic": false}}); err != nil {
			t.Fatalf("after the panic: %v", err)
		}
	})
}

// TestIssue17ProcessLeavesNoTempDir: TestProcess left its ~19 MB build
// directory in $TMPDIR on every go test (issue #17). Once the tests using
// a build end, nothing of it is left.
func TestIssue17ProcessLeavesNoTempDir(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var bin string
	t.Run("use", func(t *testing.T) {
		p := sdk.TestProcess(t, "github.com/openrunbook/runbook/plugins/sdk/internal/echo")
		bin = p.Path()
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("binary while in use: %v", err)
		}
	})
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if len(left) > 0 {
		t.Fatalf("left in TMPDIR after the test: %v (binary was %s)", left, filepath.Base(bin))
	}
}

// TestIssue17HelpersAreQuiet: an in-process test printed go-plugin's
// [DEBUG] lines (issue #17). Neither helper writes to the test's output.
func TestIssue17HelpersAreQuiet(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = w, w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	func() {
		defer func() { os.Stdout, os.Stderr = stdout, stderr }()
		t.Run("calls", func(t *testing.T) {
			for _, p := range []*sdk.Plugin{
				sdk.TestServe(t, echo{}),
				sdk.TestProcess(t, "github.com/openrunbook/runbook/plugins/sdk/internal/echo"),
			} {
				if _, err := p.Run(context.Background(), sdk.Request{Args: map[string]any{"x": 1}}); err != nil {
					t.Error(err)
				}
			}
		})
	}()
	w.Close()
	if out := <-done; out != "" {
		t.Fatalf("the helpers wrote:\n%s", out)
	}
}
