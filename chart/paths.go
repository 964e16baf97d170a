package chart

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/openrunbook/runbook/internal/parse"
)

// Where a chart may read its subflow charts from, and what counts as a
// chart file. One rule, asked by mount for every `subflow: {chart: PATH}`:
//
//	the path, symlinks resolved, is inside   loaded
//	the root chart's folder (or below it),
//	or inside a folder given with AllowDir
//	anywhere else (/proc/self/environ,       refused, naming the folder and
//	../../etc/passwd, a symlink out)         how to allow another
//
// and a file that does not look like a chart — no `version:`, `runbook:`
// or `stages:` key at all — is refused as "not a chart file" without a
// word of its content: a load error never quotes a file that is not a chart.

// LoadOption configures Load and Parse.
type LoadOption func(*session)

// AllowDir lets subflow charts be read from dir (and below it) as well as
// from the root chart's folder. The CLI's flag is --allow-chart-path DIR.
func AllowDir(dir string) LoadOption {
	return func(s *session) { s.allowWritten = append(s.allowWritten, dir) }
}

// Sources makes files the subflow charts a chart may mount: each by the
// path the loader reads it at (the mounting chart's folder joined with the
// path written, as Spec.File names it), none read from disk, and a path
// not among them a load error. The folder rules above still hold. It is
// for a chart loaded where its files are not, as a Temporal worker loads
// the chart a run was started with elsewhere (SubflowFiles gathers them).
func Sources(files map[string][]byte) LoadOption {
	return func(s *session) {
		s.sources = files
		if s.sources == nil {
			s.sources = map[string][]byte{}
		}
	}
}

// confine sets the folders subflow charts may be read from: the root
// chart's folder (the folder of file as named, symlinks resolved) and each
// AllowDir folder.
func (s *session) confine(file string) {
	dir := filepath.Dir(file)
	if file == "" {
		dir = "."
	}
	s.roots = append(s.roots, resolved(dir))
	s.rootNames = append(s.rootNames, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
	for _, d := range s.allowWritten {
		r := resolved(d)
		if fi, err := os.Stat(r); err != nil || !fi.IsDir() {
			s.add(Pos{File: d}, "", "the folder allowed for subflow charts is not a folder that can be read: give an existing folder (--allow-chart-path DIR)")
			continue
		}
		s.roots = append(s.roots, r)
		s.rootNames = append(s.rootNames, strings.TrimSuffix(d, string(filepath.Separator))+string(filepath.Separator))
	}
}

// resolved is p made absolute, with symlinks resolved as far as they can be
// (a path that does not exist stays lexical).
func resolved(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// inside reports whether the resolved path p is in one of the roots.
func (s *session) inside(p string) bool {
	for _, root := range s.roots {
		rel, err := filepath.Rel(root, p)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// rootWords names the folders subflow charts may come from, as given, for
// a message.
func (s *session) rootWords() string {
	if len(s.rootNames) == 1 {
		return "the chart's folder " + s.rootNames[0]
	}
	return "the chart's folder " + s.rootNames[0] + " and the allowed folders (" + strings.Join(s.rootNames[1:], ", ") + ")"
}

// chartLike matches a chart's keys: version, runbook or stages as a key, in
// block or flow (JSON) style.
var chartLike = regexp.MustCompile(`(?m)(^|[{,])\s*["']?(version|runbook|stages)["']?\s*:`)

// looksLikeChart reports whether data could be a chart: it names one of a
// chart's keys. Empty data is judged elsewhere ("the file is empty").
func looksLikeChart(data []byte) bool {
	text := parse.WithoutBOM(string(data))
	return len(strings.TrimSpace(text)) == 0 || chartLike.MatchString(text)
}

// notChartWords is what a load error says of a file that is not a chart.
const notChartWords = "is not a chart file (it has no version:, runbook: or stages: key; its content is not shown): a chart is a YAML map of version: 1, runbook: NAME and stages: [...]"
