package main

import (
	"archive/zip"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestIssue17PluginsDocWalkthrough follows docs/PLUGINS.md's walkthrough
// verbatim: the commands of its ```sh walkthrough block, run in that order
// by one shell in an empty folder with this build's runbook on PATH. The
// module is not published: this checkout is served as its v0.0.0 by a
// file GOPROXY, so the doc's commands need no replace line.
func TestIssue17PluginsDocWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module: not in -short")
	}
	t.Parallel()
	doc, err := os.ReadFile("../../docs/PLUGINS.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```sh walkthrough\n")
	block, _, closed := strings.Cut(block, "```")
	if !ok || !closed || strings.TrimSpace(block) == "" {
		t.Fatal("docs/PLUGINS.md has no ```sh walkthrough block")
	}
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	proxy := moduleProxy(t, checkout)
	cmd := exec.Command("sh", "-e", "-x", "-c", block)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"), // This checkout is github.com/openrunbook/runbook v0.0.0 on a
		// file proxy, ahead of the real one for everything else.
		"GOPROXY=file://"+proxy+",https://proxy.golang.org,direct",
		"GONOSUMDB=github.com/openrunbook/runbook", "GOFLAGS=", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the walkthrough failed: %v\n%s", err, out)
	}
	for _, want := range []string{"ok  \texample.com/runbook-plugin-http-probe", "PASS: all 6 steps"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the walkthrough's output lacks %q:\n%s", want, out)
		}
	}
}

// moduleProxy writes a GOPROXY directory serving the module at root as
// github.com/openrunbook/runbook v0.0.0 (.info, .mod and .zip), leaving out
// what a module zip may not hold: .git, node_modules, nested modules,
// symlinks.
func moduleProxy(t *testing.T, root string) string {
	t.Helper()
	const mod, ver = "github.com/openrunbook/runbook", "v0.0.0"
	proxy := t.TempDir()
	at := filepath.Join(proxy, filepath.FromSlash(mod), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(at, ver+".mod"), gomod, 0o644))
	must(os.WriteFile(filepath.Join(at, ver+".info"), []byte(`{"Version":"v0.0.0","Time":"2026-01-01T00:00:00Z"}`), 0o644))
	must(os.WriteFile(filepath.Join(at, "list"), []byte(ver+"\n"), 0o644))
	f, err := os.Create(filepath.Join(at, ver+".zip"))
	must(err)
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." {
				if n := d.Name(); n == ".git" || n == "node_modules" || strings.HasPrefix(n, ".") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		w, err := zw.Create(mod + "@" + ver + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	must(err)
	must(zw.Close())
	must(f.Close())
	return proxy
}
