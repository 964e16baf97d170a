package host

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
}

// Resolve finds the plugin called name: first in chart (a chart's
// `plugins:` map, its paths already made absolute), then in dir as
// `runbook-plugin-<name>`. dir "" skips the directory.
func Resolve(name string, chart map[string]Source, dir string) (Source, error) {
	if s, ok := chart[name]; ok {
		return s, nil
	}
	if dir != "" {
		p := filepath.Join(dir, Prefix+name)
		if _, err := os.Stat(p); err == nil {
			return Source{Name: name, Path: p}, nil
		}
	}
	where := "the chart's plugins: map has no entry for it"
	if dir != "" {
		where += fmt.Sprintf(", and %s has no %s%s", dir, Prefix, name)
	} else {
		where += " and no plugin directory was given (--plugin-dir or RUNBOOK_PLUGIN_DIR)"
	}
	return Source{}, kindError{fmt.Sprintf("plugin %q not found: %s", name, where), fs.ErrNotExist}
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
		out = append(out, Source{Name: n[len(Prefix):], Path: filepath.Join(dir, n)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
