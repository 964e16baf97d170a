// Package sdktest is a stage plugin's acceptance harness: it runs a chart
// through the real runbook host — chart loading, the host's argument rules,
// plugin processes started over go-plugin, the honesty stages, the record —
// against the plugin under test, and asserts on the result record.
//
//	func TestFresh(t *testing.T) {
//		res := sdktest.Run(t, chartYAML, sdktest.Plugin("file-age", fileAge{}),
//			sdktest.Inputs(map[string]any{"path": "/etc/hostname"}))
//		res.ExpectStatus("completed")
//		res.ExpectVerdict(map[string]any{"verdict": "fresh"})
//		res.ExpectAssumed("file-age", "maxAge")
//	}
//
// It owns one rule, how the plugin under test is served to the host:
//
//	Plugin(name, stage)  this test binary, re-executed as the plugin: the
//	                     host starts it (a wrapper script in the test's temp
//	                     dir) with -test.run naming the calling test only,
//	                     and the Run call in that test serves stage
//	                     (sdk.Serve) instead of running the chart
//	Binary(name, path)   an executable built by other means (any language)
//
// Either way the chart finds the plugin as a real run finds it (a plugin
// directory, or the chart's plugins: map pointed at it): the plugin is a
// real process and every call crosses the real protocol. The re-executed
// test runs the calling test's code up to its Run call again, in the
// plugin process, so keep that code free of effects on shared state.
//
// It does not own running a chart (package runbook), the record (package
// record) or the argument rules (plugins.ApplyArgs); it only asks them.
// It never writes to the test's output unless the test fails (then the
// plugins' log lines are logged).
package sdktest

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/plugins/host"
	"github.com/openrunbook/runbook/plugins/sdk"
	"github.com/openrunbook/runbook/runbook"
)

// envServe names the test and plugin a re-executed test binary serves.
const envServe = "RUNBOOK_SDKTEST_SERVE"

// Option configures one Run.
type Option func(*config)

type config struct {
	plugins map[string]served
	order   []string
	inputs  map[string]any
	timeout time.Duration
}

type served struct {
	stage sdk.Stage // Plugin
	path  string    // Binary
}

// Plugin serves stage as the plugin the chart calls name, from this test
// binary re-executed as a real plugin process.
func Plugin(name string, stage sdk.Stage) Option {
	return func(c *config) { c.add(name, served{stage: stage}) }
}

// Binary serves the executable at path as the plugin the chart calls name
// (a plugin built beforehand, in Go or in another language).
func Binary(name, path string) Option {
	return func(c *config) { c.add(name, served{path: path}) }
}

// Inputs are the run's inputs, as `--input` gives them (strings are
// converted to the declared type).
func Inputs(in map[string]any) Option { return func(c *config) { c.inputs = in } }

// Timeout bounds the run (default one minute).
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

func (c *config) add(name string, s served) {
	if _, ok := c.plugins[name]; !ok {
		c.order = append(c.order, name)
	}
	c.plugins[name] = s
}

// Run runs the chart given as YAML text (written to the test's temp dir as
// chart.yaml, so relative paths in it are relative to that dir) through the
// real host, with the plugins opts serve, and returns its result record to
// assert on. A chart that does not load, or a run that cannot start, fails
// the test; a run that fails is a result (ExpectStatus("failed")).
func Run(t testing.TB, chartYAML string, opts ...Option) *Result {
	t.Helper()
	if os.Getenv(envServe) != "" {
		// The plugin process: RunFile serves and never returns, or stays
		// out of the way. A temp dir made here was never removed: every
		// plugin call of every test left a /tmp/TestName…/001/chart.yaml.
		return RunFile(t, "", opts...)
	}
	path := filepath.Join(t.TempDir(), "chart.yaml")
	if err := os.WriteFile(path, []byte(chartYAML), 0o644); err != nil {
		t.Fatalf("sdktest: %v", err)
	}
	return RunFile(t, path, opts...)
}

// RunFile is Run for a chart file. A plugin opts serve that the chart's
// plugins: map also names is served from opts (its command and sha256 are
// replaced); any other is found as a real run finds it.
func RunFile(t testing.TB, chartPath string, opts ...Option) *Result {
	t.Helper()
	c := &config{plugins: map[string]served{}, timeout: time.Minute}
	for _, o := range opts {
		o(c)
	}
	if key := os.Getenv(envServe); key != "" {
		// This is the plugin process: serve, or stay out of the way.
		for _, name := range c.order {
			if s := c.plugins[name]; s.stage != nil && key == serveKey(t, name) {
				sdk.Serve(s.stage) // never returns
			}
		}
		return &Result{t: t, inert: true}
	}
	if runtime.GOOS == "windows" {
		t.Skip("sdktest: the plugin wrapper is a shell script; not on windows")
	}
	dir, err := pluginDir(t, c)
	if err != nil {
		t.Fatalf("sdktest: %v", err)
	}
	spec, err := chart.Load(chartPath)
	if err != nil {
		t.Fatalf("sdktest: %v", err)
	}
	for i, p := range spec.Plugins {
		if _, ok := c.plugins[p.Name]; ok {
			spec.Plugins[i].Command = filepath.Join(dir, host.Prefix+p.Name)
			spec.Plugins[i].SHA256 = ""
		}
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		t.Fatalf("sdktest: %v", err)
	}
	logs := &syncBuffer{}
	t.Cleanup(func() {
		if t.Failed() && logs.Len() > 0 {
			t.Logf("sdktest: the run's log:\n%s", logs.String())
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	res, err := rb.Exec(ctx, c.inputs,
		runbook.WithPluginDir(dir),
		runbook.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	if err != nil {
		t.Fatalf("sdktest: the run could not start: %v", err)
	}
	return &Result{t: t, Record: res.Record}
}

// pluginDir makes the plugin directory the run looks in: for each plugin
// opts serve, runbook-plugin-NAME — a wrapper re-executing this test
// binary, or a link to the given binary.
func pluginDir(t testing.TB, c *config) (string, error) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	for _, name := range c.order {
		s := c.plugins[name]
		file := filepath.Join(dir, host.Prefix+name)
		if s.stage == nil {
			abs, err := filepath.Abs(s.path)
			if err != nil {
				return "", err
			}
			if err := os.Symlink(abs, file); err != nil {
				return "", err
			}
			continue
		}
		// Only the calling test runs in the plugin process (-test.run names
		// it and nothing else), and it serves at its Run call.
		script := fmt.Sprintf("#!/bin/sh\n%s=%s exec %s -test.run=%s\n",
			envServe, serveKey(t, name), shellQuote(exe), shellQuote(runPattern(t.Name())))
		if err := os.WriteFile(file, []byte(script), 0o755); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// serveKey names one plugin of one test, in letters a shell passes as is.
func serveKey(t testing.TB, name string) string {
	return hex.EncodeToString([]byte(t.Name() + "\x00" + name))
}

// runPattern is the -test.run pattern matching the test named name (with
// its subtest path) and nothing else.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// syncBuffer is a bytes.Buffer the run's concurrent loggers can share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
