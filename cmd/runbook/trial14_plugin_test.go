package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A development build of runbook (v0.0.0: no released module to require)
// writes a go.mod that `go mod tidy` cannot satisfy; its next steps say
// so and give the replace that makes them work, before go mod tidy, never
// a list of steps whose first one fails with a 404 from the proxy.
func TestPluginInitDevBuildSaysHowToReachTheSDK(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "p")
	r := runCLI(t, t.TempDir(), "plugin", "init", "greet", dir)
	if r.code != 0 {
		t.Fatalf("plugin init: exit %d: %s", r.code, r.stderr)
	}
	next := r.stdout[strings.Index(r.stdout, "next:"):]
	edit := strings.Index(next, "go mod edit -replace github.com/openrunbook/runbook=")
	if !strings.Contains(r.stdout, "development build") || edit < 0 || edit > strings.Index(next, "go mod tidy") {
		t.Errorf("stdout:\n%s\nwant it to say this is a development build and give the replace before go mod tidy", r.stdout)
	}
	checkout, _ := filepath.Abs("../..")
	r = runCLI(t, t.TempDir(), "plugin", "init", "greet", filepath.Join(t.TempDir(), "q"), "--replace", checkout)
	if r.code != 0 || strings.Contains(r.stdout, "go mod edit") || strings.Contains(r.stdout, "development build") {
		t.Errorf("with --replace: exit %d, stdout:\n%s\nwant the plain next steps", r.code, r.stdout)
	}
}
