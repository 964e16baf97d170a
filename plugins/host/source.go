package host

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openrunbook/runbook/internal/suggest"
)

// Prefix starts the file name of every plugin in a plugin directory:
// `runbook-plugin-<name>`.
const Prefix = "runbook-plugin-"

// Source is where a plugin's executable is and how to start it.
type Source struct {
	// Name is the plugin's name as charts call it.
	Name string
	// Path is the executable.
	Path string
	// Args are extra arguments (the runbook binary serving its own honesty
	// plugin is started with a hidden subcommand).
	Args []string
	// SHA256, when set (64 hex digits), is checked against the file before
	// it is started; a mismatch refuses to start it.
	SHA256 string
	// Version, when set, is a version constraint (">= 1.2, < 2") the
	// plugin's declared version must meet (plugins.VersionAllowed).
	Version string
}

// Resolve finds the plugin called name: first in chart (a chart's
// `plugins:` map, its paths already made absolute), then in dir as
// `runbook-plugin-<name>`. dir "" skips the directory. A plugin found in
// neither is a *NotFoundError.
func Resolve(name string, chart map[string]Source, dir string) (Source, error) {
	if s, ok := chart[name]; ok {
		return s, nil
	}
	if dir != "" {
		p, err := inDir(dir, Prefix+name)
		if err != nil {
			return Source{}, err
		}
		if _, err := os.Stat(p); err == nil {
			return Source{Name: name, Path: p}, nil
		}
	}
	known := make([]string, 0, len(chart))
	for n := range chart {
		known = append(known, n)
	}
	if dir != "" {
		found, _ := Discover(dir) // a directory that cannot be read offers no name
		for _, f := range found {
			known = append(known, f.Name)
		}
	}
	sort.Strings(known)
	return Source{}, &NotFoundError{Name: name, Dir: dir, Near: suggest.Nearest(name, known)}
}

// NotFoundError says a plugin is neither in the chart's plugins: map nor
// in the plugin directory. It names no flag: how a user gives a directory
// is the embedder's to say (Hint).
type NotFoundError struct {
	// Name is the plugin's name as the chart calls it.
	Name string
	// Dir is the plugin directory looked in; "" when none was given.
	Dir string
	// Hint, when set, says how to give a plugin directory (the CLI sets
	// "--plugin-dir or RUNBOOK_PLUGIN_DIR"); it is shown when Dir is "".
	Hint string
	// Near is the chart's or the directory's plugin nearest to Name (a
	// typo: `adversery` for `adversary`), or "".
	Near string
}

func (e *NotFoundError) Error() string {
	where := "the chart's plugins: map has no entry for it"
	switch {
	case e.Dir != "":
		where += fmt.Sprintf(", and %s has no %s%s", e.Dir, Prefix, e.Name)
	case e.Hint != "":
		where += " and no plugin directory was given (" + e.Hint + ")"
	default:
		where += " and no plugin directory was given"
	}
	if e.Near != "" {
		where += fmt.Sprintf("; did you mean %q?", e.Near)
	}
	return fmt.Sprintf("plugin %q not found: %s", e.Name, where)
}

// Unwrap makes a missing plugin fs.ErrNotExist, as a missing file is.
func (e *NotFoundError) Unwrap() error { return fs.ErrNotExist }

// inDir is the path of file in a plugin directory, made absolute: a
// relative directory joined to a bare name (`.` + `runbook-plugin-x` is
// `runbook-plugin-x`) would be looked up on $PATH when started, and could
// run a different binary of that name (issue #17).
func inDir(dir, file string) (string, error) {
	abs, err := filepath.Abs(filepath.Join(dir, file))
	if err != nil {
		return "", fmt.Errorf("plugin directory %s: %w", dir, err)
	}
	return abs, nil
}

// Discover lists the plugins in dir: the files named `runbook-plugin-<name>`,
// sorted by name. A missing dir lists none.
func Discover(dir string) ([]Source, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("plugin directory: %w", err)
	}
	var out []Source
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasPrefix(n, Prefix) || len(n) == len(Prefix) {
			continue
		}
		p, err := inDir(dir, n)
		if err != nil {
			return nil, err
		}
		out = append(out, Source{Name: n[len(Prefix):], Path: p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
