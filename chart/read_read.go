package chart

import (
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/rules"
)

// The words onError: may hold, and the keys of read:.
var (
	onErrorWords = []string{"fail", "continue"}
	readKeys     = []string{"path", "glob", "parse", "into", "maxSize"}
)

// OnErrorContinue is the onError: word that lets a run go on past a
// stage's failure.
const OnErrorContinue = "continue"

// ReadSpec is a `read:` stage: one file (Path) or every file a pattern
// matches (Glob), read without running a process and parsed as exec's
// stdout is.
type ReadSpec struct {
	Path  rules.Valuer // exactly one of Path and Glob
	Glob  rules.Valuer
	Src   string     // the expression as written
	Parse parse.Spec // as exec's parse:
	Into  string
	// Dir is the folder a relative path is read from: the chart file's
	// (symlinks resolved); "" for a chart not read from a file (the
	// runner's working directory).
	Dir string
	Pos Pos
	// MaxSize is `maxSize:`, the bytes a file may hold before its content
	// is withheld (0: the 1 MiB default, as exec's maxOutput:); a log of
	// a busy day passes 1 MiB.
	MaxSize int
}

// read reads `read:`.
func (l *loader) read(e entry, s *StageSpec) *ReadSpec {
	sid := s.ID
	m, ok := l.block(e, sid, "read", readKeys)
	if !ok {
		return nil
	}
	r := &ReadSpec{Parse: parse.Spec{Mode: "text"}, Into: s.ID, Pos: e.keyPos}
	if l.abs != "" {
		r.Dir = filepath.Dir(l.abs)
	}
	pe, hasPath := m.get("path")
	ge, hasGlob := m.get("glob")
	switch {
	case hasPath && hasGlob:
		l.errf(ge.keyPos, sid, "read has both path and glob: give path (one file) or glob (every file it matches), not both")
	case hasPath:
		r.Path, r.Src, _ = l.readExpr(pe, sid, "read path")
	case hasGlob:
		r.Glob, r.Src, _ = l.readExpr(ge, sid, "read glob")
	default:
		l.errf(e.keyPos, sid, "read has neither path nor glob: give path: '\"/proc/meminfo\"' (an expression) or glob: '\"/etc/*.conf\"'")
	}
	// The parse modes are exec's (one reader, parseSpec): a new mode
	// added to internal/parse is a mode of read: too.
	if pe, ok := m.get("parse"); ok {
		if p, ok := l.parseSpec(pe, sid, "read parse"); ok {
			r.Parse = p
		}
	}
	if ie, ok := m.get("into"); ok {
		r.Into, _ = l.word(ie, sid, "read into")
	}
	if me, ok := m.get("maxSize"); ok {
		r.MaxSize = l.size(me, sid, "read maxSize")
	}
	return r
}

// readExpr reads a path or glob expression. A path written bare
// (/proc/meminfo, ./x.txt) is not an expression: the error says how to
// quote it.
func (l *loader) readExpr(e entry, sid, what string) (rules.Valuer, string, bool) {
	if sn, ok := e.val.(*ast.StringNode); ok {
		v := strings.TrimSpace(sn.Value)
		for _, p := range []string{"/", "./", "../", "~/"} {
			if strings.HasPrefix(v, p) {
				if fixed, ok := templateAsExpr(v); ok {
					// quoting /etc/${app}.conf whole would read a file
					// named so, ${ and all
					l.errf(e.valPos, sid, "%s %s is an expression, not a template (${…} is exec's command's): write %s", what, v, fixed)
					return nil, "", false
				}
				l.errf(e.valPos, sid, "%s %s is an expression: a literal path is quoted inside it, '\"%s\"'", what, v, v)
				return nil, "", false
			}
		}
	}
	a, ok := l.valuer(e, sid, what, "")
	return a.Expr, a.Src, ok
}
