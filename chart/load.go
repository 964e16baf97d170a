package chart

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/openrunbook/runbook/internal/parse"
)

// MaxChartBytes is the largest chart file Load and Parse read: 10 MiB. A
// bigger file is refused before it is parsed.
const MaxChartBytes = 10 << 20

// Load reads the chart file at path and checks it. A subflow's `chart:` path
// resolves relative to the directory of the file that names it; every chart
// it mounts is loaded too, once, and a chart that mounts itself, directly or
// through others, is refused.
//
// A subflow chart must be inside the root chart's folder (symlinks
// resolved) or a folder given with AllowDir (paths.go); a file that is not a
// chart is refused without a word of its content. Mounting is bounded
// (limits.go: MaxSubflowDepth, MaxSubflowMounts, MaxSubflowStages).
//
// On any error the Spec is nil and the error is a LoadErrors holding every
// problem found in every file, sorted by position.
func Load(path string, opts ...LoadOption) (*Spec, error) {
	s := newSession(path, opts)
	spec := s.loadFile(path, path, Pos{}, "", nil)
	return s.result(spec)
}

// Parse checks a chart held in memory. file names the positions of errors
// and the Spec (it may be ""); a subflow's `chart:` path resolves relative to
// file's directory. Errors are as Load's.
//
// Parse never panics: an input that trips a bug is still an error.
func Parse(file string, data []byte, opts ...LoadOption) (*Spec, error) {
	s := newSession(file, opts)
	spec := s.parseBytes(file, data, nil)
	return s.result(spec)
}

// LoadError is one problem with a chart: where it is, the stage it is in
// ("" outside a stage), and what is wrong and what would be right.
type LoadError struct {
	Pos   Pos
	Stage string
	Msg   string
}

// Error reads `chart.yaml:14:7: stage "posture": rule 2: then "at-risk"
// names no branch (branches: unprotected, declined)`. Without a line (a file
// that cannot be read) it reads `chart.yaml: …`.
func (e *LoadError) Error() string {
	var b strings.Builder
	switch {
	case e.Pos.Line > 0 && e.Pos.File != "":
		fmt.Fprintf(&b, "%s:%d:%d: ", e.Pos.File, e.Pos.Line, e.Pos.Col)
	case e.Pos.Line > 0:
		fmt.Fprintf(&b, "%d:%d: ", e.Pos.Line, e.Pos.Col)
	case e.Pos.File != "":
		fmt.Fprintf(&b, "%s: ", e.Pos.File)
	}
	if e.Stage != "" {
		fmt.Fprintf(&b, "stage %q: ", e.Stage)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// LoadErrors is every problem a chart has, sorted by position: the root
// chart's file first, then each mounted file in the order it was loaded.
type LoadErrors []*LoadError

// Error prints one error a line.
func (es LoadErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Sorted returns the errors in report order, as a new slice: by file (in
// the order each file first appears among them, the root chart's first),
// then line and column. Errors at one place keep their order.
func (es LoadErrors) Sorted() LoadErrors {
	files := map[string]int{}
	for _, e := range es {
		if _, ok := files[e.Pos.File]; !ok {
			files[e.Pos.File] = len(files)
		}
	}
	return sortErrors(es, files)
}

// sortErrors sorts by files' order, then line and column, stably.
func sortErrors(es LoadErrors, files map[string]int) LoadErrors {
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b *LoadError) int {
		return cmp.Or(
			cmp.Compare(files[a.Pos.File], files[b.Pos.File]),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return out
}

// Unwrap lets errors.As reach each *LoadError.
func (es LoadErrors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// session is one Load or Parse: the errors of every file, the files in the
// order they were opened, and the charts being and already loaded.
type session struct {
	errs  []*LoadError
	files map[string]int   // file name → order first seen (sorting)
	cache map[string]*Spec // absolute path → loaded chart (nil: it had errors)
	done  map[string]bool  // absolute path → loaded
	// compiled is every expression compiled, in every file, for the check
	// of the names they read (load_names.go).
	compiled []compiled
	// plainWords are the unquoted words filter conditions compare with,
	// for the check that none spells a name the chart defines.
	plainWords []plainWord
	// foreign are the texts passed on as written that hold `{{`, for the
	// check that none holds another tool's template of a chart's name.
	foreign []foreignText
	// roots are the folders subflow charts may be read from (resolved):
	// the root chart's, then allowWritten's (AllowDir, as given).
	roots        []string
	rootNames    []string // roots as given
	allowWritten []string
	// sources, when set (Sources), are the only subflow charts there are.
	sources map[string][]byte
}

func newSession(root string, opts []LoadOption) *session {
	s := &session{files: map[string]int{}, cache: map[string]*Spec{}, done: map[string]bool{}}
	for _, o := range opts {
		o(s)
	}
	s.confine(root)
	return s
}

func (s *session) add(pos Pos, stage, format string, args ...any) {
	if _, ok := s.files[pos.File]; !ok {
		s.files[pos.File] = len(s.files)
	}
	s.errs = append(s.errs, &LoadError{Pos: pos, Stage: stage, Msg: fmt.Sprintf(format, args...)})
}

func (s *session) result(spec *Spec) (*Spec, error) {
	if len(s.errs) == 0 && spec != nil {
		var les LoadErrors
		if errors.As(CheckMounts(spec), &les) {
			for _, e := range les {
				s.add(e.Pos, e.Stage, "%s", e.Msg)
			}
			return nil, sortErrors(s.errs, s.files)
		}
		// Asked once ids are known unique: it finds a stage's reads by its id.
		(&loader{s: s}).checkOverwrites(spec) // deadwrite.go
		s.markStdoutRead(spec)                // stdoutread.go
		if len(s.errs) > 0 {
			return nil, sortErrors(s.errs, s.files)
		}
		return spec, nil
	}
	if len(s.errs) == 0 {
		s.add(Pos{}, "", "the chart did not load, for a reason nobody wrote down (a loader bug)")
	}
	return nil, sortErrors(s.errs, s.files)
}

// loadFile reads and parses one chart file. written is its path as the
// mounting chart wrote it; at and stage say where (zero for the root); stack lists the absolute paths of the
// charts mounting it, outermost first.
func (s *session) loadFile(path, written string, at Pos, stage string, stack []frame) *Spec {
	where := at
	if where.Line == 0 {
		where = Pos{File: path}
	}
	what := "chart"
	if at.Line > 0 {
		what = fmt.Sprintf("subflow chart %q", written)
		if written != path {
			what += fmt.Sprintf(" (%s)", path)
		}
	}
	if s.sources != nil && at.Line > 0 {
		data, ok := s.sources[path]
		if !ok {
			s.add(where, stage, "%s is not among the charts the run was given: the run's sources hold every chart its root mounted where it was started (chart.Sources)", what)
			return nil
		}
		if !looksLikeChart(data) {
			s.add(where, stage, "%s %s", what, notChartWords)
			return nil
		}
		return s.parseBytes(path, data, stack)
	}
	f, err := os.Open(path)
	if err != nil {
		s.add(where, stage, "%s cannot be read: %v", what, unwrapPath(err))
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		kind := "not a regular file"
		if fi.IsDir() {
			kind = "a directory"
		}
		s.add(where, stage, "%s is %s: give the path of a chart file (.yaml)", what, kind)
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxChartBytes+1))
	if err != nil {
		s.add(where, stage, "%s cannot be read: %v", what, unwrapPath(err))
		return nil
	}
	if at.Line > 0 && !looksLikeChart(data) {
		s.add(where, stage, "%s %s", what, notChartWords)
		return nil
	}
	return s.parseBytes(path, data, stack)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// parseBytes parses one chart's bytes: the YAML first, then the chart.
func (s *session) parseBytes(file string, data []byte, stack []frame) (spec *Spec) {
	defer func() {
		if r := recover(); r != nil {
			spec = nil
			s.add(Pos{File: file, Line: 1, Col: 1}, "", "the loader failed on this file (a bug; please report it with the file): %v", r)
		}
	}()
	if len(data) > MaxChartBytes {
		s.add(Pos{File: file}, "", "the file is larger than %d bytes (10 MiB), the most a chart may be: split it into subflow charts", MaxChartBytes)
		return nil
	}
	if _, ok := s.files[file]; !ok {
		s.files[file] = len(s.files)
	}
	if len(stack) == 0 && !looksLikeChart(data) {
		s.add(Pos{File: file, Line: 1, Col: 1}, "", "the file %s", notChartWords)
		return nil
	}
	if e := NotUTF8(file, data); e != nil {
		s.add(e.Pos, "", "%s", e.Msg)
		return nil
	}
	sum := sha256.Sum256(data)
	data = []byte(parse.WithoutBOM(string(data)))
	l := &loader{s: s, file: file, lines: strings.Split(string(data), "\n"), anchors: map[string]ast.Node{}}
	if file != "" {
		l.abs = resolved(file)
	}
	l.stack = append(slices.Clone(stack), frame{abs: l.abs, name: file})
	if l.abs != "" {
		s.done[l.abs] = true
	}
	tokens := lexer.Tokenize(string(data))
	if !l.checkShape(tokens, len(data)) || !l.checkFlowColons(tokens) || !l.checkLeadingZeros(tokens) {
		return nil
	}
	f, err := parser.Parse(tokens, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		l.yamlError(err)
		return nil
	}
	spec = l.chart(f)
	if spec != nil {
		spec.SHA256 = hex.EncodeToString(sum[:])
	}
	return spec
}

// yamlError files the YAML parser's error at its position (YAMLError).
func (l *loader) yamlError(err error) {
	e := YAMLError(l.file, err)
	l.s.add(e.Pos, "", "%s", e.Msg)
}

// YAMLError is the YAML parser's error as a LoadError of file, at the line
// and column the parser stopped at (1:1 only when it names none), in the
// words every YAML file runbook reads is refused with: a chart, a test
// file, an inputs file. A tab is named as the cause it is.
//
//	YAMLError("a_test.yaml", err)   a_test.yaml:6:23: the file is not valid YAML: could not find end character of double-quoted text
func YAMLError(file string, err error) *LoadError {
	var ye interface {
		GetToken() *token.Token
		GetMessage() string
	}
	pos, msg := Pos{File: file, Line: 1, Col: 1}, err.Error()
	if errors.As(err, &ye) {
		msg = ye.GetMessage()
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			pos.Line, pos.Col = max(tk.Position.Line, 1), max(tk.Position.Column, 1)
			switch msg {
			case "could not find flow map content":
				msg += commaCutWords(tk)
			case "',' or '}' must be specified":
				msg += bracketCutWords(tk)
			}
			if cut := quotedCutWords(tk); cut != "" {
				msg += cut // a bracket it names as not closed is closed after the cut value
			} else {
				msg += unclosedWords(msg, tk)
			}
		}
	} else if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if strings.Contains(msg, "'\t'") || strings.Contains(msg, "\\t") {
		return &LoadError{Pos: pos, Msg: "a tab character: YAML indents with spaces only; replace the tab with spaces"}
	}
	if msg == "'@' is a reserved character" || msg == "'`' is a reserved character" {
		// `default: @10:20`, a Nagios range "inside": the parser's words
		// say neither that the value begins with it nor what to write.
		msg += ` (a plain value cannot begin with @ or ` + "`" + `, as the Nagios range @10:20 does; quote the whole value, default: "@10:20")`
	}
	if msg == "mapping value is not allowed in this context" {
		// `description: names only: a pod's db-0`: the parser's words
		// say neither which ": " nor what to write.
		msg += ` (a ": " inside a plain value starts a mapping, as in description: names only: a note; quote the whole value, description: "names only: a note")`
	}
	return &LoadError{Pos: pos, Msg: "the file is not valid YAML: " + msg}
}

// quotedCutWords says why a value could not be read when it began with a
// quoted text and went on after the closing quote: `when: 'v.pct' >=
// limit` was refused as "invalid header option", `subject: '"disk "' +
// v.mount` as "value is not allowed in this context", words that say
// neither that the quote ended the value nor what to write
// (TestPartlyQuotedValueSaysQuoteItWhole). It gives the value whole, in
// single quotes; "" when the token at fault does not follow a quoted
// text on its line.
func quotedCutWords(tk *token.Token) string {
	q := tk.Prev
	if q == nil || (q.Type != token.SingleQuoteType && q.Type != token.DoubleQuoteType) ||
		q.Position == nil || tk.Position == nil || q.Position.Line != tk.Position.Line {
		return ""
	}
	rest, _, _ := strings.Cut(tk.Origin, "\n")
	rest = strings.TrimRight(rest, "\r \t")
	if m := flowValueEnd.FindStringIndex(rest); m != nil {
		rest = rest[:m[0]]
	}
	if strings.TrimSpace(rest) == "" {
		return ""
	}
	if !strings.HasPrefix(rest, " ") && tk.Position.Column > q.Position.Column+len([]rune(q.Origin)) {
		rest = " " + rest
	}
	whole := q.Value + rest
	hint := "quote the whole value"
	if !strings.Contains(whole, "'") {
		hint += fmt.Sprintf(", '%s'", whole)
	}
	return fmt.Sprintf(" (the quoted %s ends the value at its closing quote, and YAML reads nothing after it as part of the value: %s; a text inside an expression takes the other kind of quote)", strings.TrimSpace(q.Origin), hint)
}

// flowValueEnd is where a value in a {…} or […] ends: a comma before the
// next key, or the closing bracket.
var flowValueEnd = regexp.MustCompile(`,\s*[A-Za-z_][\w-]*\s*:|\s*[}\]]+\s*$`)

// UnclosedFlow is unclosedWords of a YAML parser's error, for a reader
// that may not quote the parser's own words (an --inputs file may hold a
// secret): it quotes no text of the file, only the bracket and where it
// opened; "" for any other error.
func UnclosedFlow(err error) string {
	var ye interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if !errors.As(err, &ye) || ye.GetToken() == nil {
		return ""
	}
	return unclosedWords(ye.GetMessage(), ye.GetToken())
}

// unclosedWords names the { or [ the parser's "',' or '}' must be
// specified" (or ']') is about: the parser stops at the token after the
// value where it wanted the close, a line below the one that lacks it
// when a flow map ends its line unclosed (`hosts: {type: list,
// description: every host`); "" for any other message.
func unclosedWords(msg string, tk *token.Token) string {
	open, shut, closer := token.MappingStartType, token.MappingEndType, "}"
	switch msg {
	case "',' or '}' must be specified":
	case "',' or ']' must be specified":
		open, shut, closer = token.SequenceStartType, token.SequenceEndType, "]"
	default:
		return ""
	}
	depth := 0
	for p := tk.Prev; p != nil; p = p.Prev {
		switch p.Type {
		case shut:
			depth++
		case open:
			if depth == 0 {
				if p.Position == nil {
					return ""
				}
				return fmt.Sprintf(": the %s at %d:%d is not closed by a %s", p.Value, p.Position.Line, p.Position.Column, closer)
			}
			depth--
		}
	}
	return ""
}

// commaCutWords says why a {...} map could not be read when a comma cut
// a plain value and what followed it was no key: `{when: date(x, "Jan
// _2 15:04:05 2006 MST") < now(), then: expired}` was refused with the
// parser's words alone, "could not find flow map content", at the quoted
// layout. It gives the value whole, quoted as an expression is; "" when
// the token at fault does not follow a comma.
func commaCutWords(tk *token.Token) string {
	comma := tk.Prev
	if comma == nil || comma.Type != token.CollectEntryType || comma.Prev == nil {
		return ""
	}
	before := comma.Prev
	if before.Type != token.StringType {
		return ""
	}
	var rest strings.Builder
	depth := 0
	for t := tk; t != nil && t.Position != nil && t.Position.Line == tk.Position.Line; t = t.Next {
		switch t.Type {
		case token.SequenceStartType, token.MappingStartType:
			depth++
		case token.SequenceEndType, token.MappingEndType, token.CollectEntryType:
			if depth == 0 {
				t = nil
			} else if t.Type != token.CollectEntryType {
				depth--
			}
		}
		if t == nil {
			break
		}
		rest.WriteString(t.Origin)
	}
	whole := before.Value + ", " + strings.TrimSpace(rest.String())
	return fmt.Sprintf(" (a comma inside {…} ends a plain value, so %q was a value and what follows the comma is no key; quote a value that holds a comma whole, an expression in single quotes: '%s')", before.Value, strings.ReplaceAll(whole, "'", "''"))
}

// bracketCutWords says why a {...} map could not be read when a plain
// value held an index: `{subject: running.stdout[0], …}` was refused with
// the parser's words alone, "',' or '}' must be specified", at the "[",
// which inside {…} starts a list. It gives the value whole, quoted as an
// expression is; "" when the token at fault is no "[" right after a
// plain value.
func bracketCutWords(tk *token.Token) string {
	before := tk.Prev
	if tk.Type != token.SequenceStartType || before == nil || before.Type != token.StringType || strings.HasPrefix(tk.Origin, " ") {
		return ""
	}
	whole := before.Value
	depth := 0
	for t := tk; t != nil && t.Position != nil && t.Position.Line == tk.Position.Line; t = t.Next {
		switch t.Type {
		case token.SequenceStartType, token.MappingStartType:
			depth++
		case token.SequenceEndType, token.MappingEndType:
			depth--
		case token.CollectEntryType:
			if depth == 0 {
				depth = -1
			}
		}
		if depth < 0 {
			break
		}
		whole += t.Origin
	}
	whole = strings.TrimSpace(whole)
	return fmt.Sprintf(" (a \"[\" inside {…} starts a list, so the plain value %q ended before its index; quote the value whole, an expression in single quotes: '%s')", before.Value, strings.ReplaceAll(whole, "'", "''"))
}

// chart reads the one document of a chart file.
func (l *loader) chart(f *ast.File) *Spec {
	var docs []*ast.DocumentNode
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d)
		}
	}
	if len(docs) == 0 {
		l.s.add(Pos{File: l.file, Line: 1, Col: 1}, "", "the file is empty: a chart needs at least version: 1, runbook: NAME and stages: [...]")
		return nil
	}
	if len(docs) > 1 {
		l.s.add(l.pos(docs[1].Body), "", "the file holds %d YAML documents: a chart is one document; remove the `---` and what follows, or move it to its own file", len(docs))
	}
	l.collectAnchors(docs[0].Body)
	return l.top(docs[0].Body)
}
