package record

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed" // the record schema
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/version"
)

//go:embed record.schema.json
var recordSchema []byte

// RecordSchema returns the JSON Schema (draft 2020-12) of the saved run
// record of version RecordVersion: what `runbook schema --record` prints.
// It changes with RecordVersion; more keys may be added within a version.
// Each call returns a fresh copy.
func RecordSchema() []byte { return slices.Clone(recordSchema) }

// MaxRecordProblems bounds how many problems a reader lists; past it, one
// line says how many more there were.
const MaxRecordProblems = 20

// ReadRecord reads the run record saved at path (ParseRecord).
func ReadRecord(path string) (*RunRecord, []string, error) {
	// Read as it is decoded, not first whole into memory: the decoder
	// holds what it reads in its own buffer, so a 267 MB record was held
	// twice.
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("record %s: %w", path, err)
	}
	defer f.Close()
	rec, problems, err := parseRecord(f)
	if err != nil {
		return nil, nil, fmt.Errorf("record %s: %w", path, err)
	}
	return rec, problems, nil
}

// RecordVersionError is a record of a version this reader does not know.
type RecordVersionError struct{ Version int }

func (e *RecordVersionError) Error() string {
	return fmt.Sprintf("the record is version %d; this runbook (%s) reads version %d: read it with a runbook that knows version %d",
		e.Version, version.Release, RecordVersion, e.Version)
}

// ParseRecord reads a saved run record. It owns the reading rule:
//
//	not a JSON object, or no recordVersion     refused (error)
//	recordVersion 1                            read, and brought to the current shape
//	                                           (each commit's scope and n from its path,
//	                                           a write's space-joined from split)
//	any other than RecordVersion               refused (*RecordVersionError)
//	a commit out of order, or without a path   a problem; the commit is kept or left out
//	a value of the wrong type                  that value is left out (a problem);
//	                                           everything around it is read
//	cut short or broken JSON                   everything before the break is read,
//	                                           commit by commit (a problem says where)
//
// problems lists, in words, what could not be read; explain prints them
// and explains the rest. It never panics on any input.
func ParseRecord(data []byte) (rec *RunRecord, problems []string, err error) {
	return parseRecord(bytes.NewReader(data))
}

// parseRecord is ParseRecord of the text r reads.
func parseRecord(r io.Reader) (rec *RunRecord, problems []string, err error) {
	// One pass, its numbers kept as text until each value is read: the log
	// and the checkpoint settle them exactly, the rest as float64s, as a
	// plain decode reads them (settleNumbers). Reading the log's commits
	// twice, once as raw bytes and once exactly, made explain on a wide
	// record a third slower.
	seal := newSealReader(r) // seal.go
	dec := json.NewDecoder(seal)
	dec.UseNumber()
	p := &recordParser{dec: dec, rec: &RunRecord{}}
	version, sawVersion := p.top()
	if p.fatal != nil {
		return nil, nil, p.fatal
	}
	if !sawVersion {
		if p.broken {
			return nil, nil, fmt.Errorf("not a readable run record: it breaks before its recordVersion (%s)", firstProblem(p.problems))
		}
		return nil, nil, errors.New("not a runbook run record: it has no recordVersion")
	}
	if !readable(version) {
		return nil, nil, &RecordVersionError{Version: version}
	}
	p.rec.RecordVersion = RecordVersion // a version 1 record was read into the current shape
	if !p.broken {
		if problem := seal.sealProblem(p.sawSeal); problem != "" {
			p.problems = append([]string{problem}, p.problems...)
		}
	}
	if p.rec.Result == nil {
		p.problems = append(p.problems, "the record has no result: the verdicts, decisions and inputs it would hold are unknown")
	}
	for i, c := range p.rec.Log.Commits() {
		if c.Index != i {
			p.problems = append(p.problems, fmt.Sprintf("log.commits[%d] (%s) says it is commit %d: the log is out of order or has gaps", i, c.Path, c.Index))
			break
		}
	}
	if len(p.problems) > MaxRecordProblems {
		n := len(p.problems) - MaxRecordProblems
		p.problems = append(p.problems[:MaxRecordProblems], fmt.Sprintf("… and %d more problems", n))
	}
	return p.rec, p.problems, nil
}

// recordParser reads a record value by value, keeping what is sound.
type recordParser struct {
	dec      *json.Decoder
	rec      *RunRecord
	version  int // the recordVersion, once read (0: not yet; read as current)
	problems []string
	broken   bool // the JSON itself breaks: nothing after the break is read
	sawSeal  bool // the record has a recordDigest member (seal.go)
	fatal    error
}

func (p *recordParser) problem(format string, a ...any) {
	p.problems = append(p.problems, fmt.Sprintf(format, a...))
}

// breakAt notes where the JSON broke.
func (p *recordParser) breakAt(where string, err error) {
	p.broken = true
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		p.problem("the record is cut short (in %s, at byte %d): nothing after that point could be read", where, p.dec.InputOffset())
		return
	}
	p.problem("the record's JSON breaks in %s (at byte %d: %v): nothing after that point could be read", where, p.dec.InputOffset(), err)
}

// top reads the top-level object; it returns the recordVersion when seen.
func (p *recordParser) top() (int, bool) {
	tok, err := p.dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			p.fatal = errors.New("the record file is empty")
		} else {
			p.fatal = fmt.Errorf("not a runbook run record: %v", err)
		}
		return 0, false
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		p.fatal = errors.New("not a runbook run record: not a JSON object")
		return 0, false
	}
	version, saw := 0, false
	for p.dec.More() {
		tok, err := p.dec.Token()
		if err != nil {
			p.breakAt("the record's keys", err)
			return version, saw
		}
		key, _ := tok.(string)
		switch key {
		case "recordVersion":
			var v float64
			if err := p.dec.Decode(&v); err != nil {
				if isSyntax(err) {
					p.breakAt("recordVersion", err)
					return version, saw
				}
				p.fatal = fmt.Errorf("not a runbook run record: recordVersion is not a number")
				return 0, false
			}
			if v != float64(int(v)) {
				p.fatal = fmt.Errorf("not a runbook run record: recordVersion %v is not a whole number", v)
				return 0, false
			}
			version, saw = int(v), true
			p.version = version
			if !readable(version) {
				return version, saw // refused: read no further
			}
		case "log":
			if !p.log() {
				return version, saw
			}
		default:
			var dst any
			switch key {
			case "result":
				dst = &p.rec.Result
			case "chart":
				dst = &p.rec.Chart
			case "checkpoint":
				dst = &p.rec.Checkpoint
			case "structure":
				dst = &p.rec.Structure
			case "chartSha256":
				dst = &p.rec.ChartSHA256
			case "finishedAt":
				dst = &p.rec.FinishedAt
			case "answers":
				dst = &p.rec.Answers
			case "resumed":
				dst = &p.rec.Resumed
			case "checkpointSecrets":
				dst = &p.rec.CheckpointSecrets
			case "checkpointDigest":
				dst = &p.rec.CheckpointDigest
			case sealKey:
				p.sawSeal = true
				dst = new(string) // checked against the file's bytes (seal.go)
			default:
				dst = new(json.RawMessage) // a key of a later minor addition
			}
			if !p.value(key, dst, key == "checkpoint") {
				return version, saw
			}
		}
	}
	if _, err := p.dec.Token(); err != nil {
		p.breakAt("the end of the record", err)
		return version, saw
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		// More after the closing brace: the schema check cannot read it either.
		p.problem("the record goes on after its closing brace (at byte %d): what follows is not read", p.dec.InputOffset())
	}
	return version, saw
}

// value decodes one value into dst; false when the JSON broke.
func (p *recordParser) value(where string, dst any, exact bool) bool {
	err := p.decode(dst, exact) // exact: the state a resumed run goes on with
	switch {
	case err == nil:
		return true
	case isSyntax(err):
		p.breakAt(where, err)
		return false
	}
	p.problem("%s: %s", where, typeWords(err))
	return true
}

// log reads the log commit by commit, so a log cut short keeps the commits
// before the cut.
func (p *recordParser) log() bool {
	tok, err := p.dec.Token()
	if err != nil {
		p.breakAt("log", err)
		return false
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		p.problem("log: not an object: no commit could be read")
		return true // a scalar was consumed whole
	}
	for p.dec.More() {
		tok, err := p.dec.Token()
		if err != nil {
			p.breakAt("log", err)
			return false
		}
		switch key, _ := tok.(string); key {
		case "inputs":
			if !p.value("log.inputs", &p.rec.Log.Inputs, false) {
				return false
			}
		case "commits":
			if !p.commits() {
				return false
			}
		default:
			if !p.value("log."+key, new(json.RawMessage), false) {
				return false
			}
		}
	}
	if _, err := p.dec.Token(); err != nil {
		p.breakAt("log", err)
		return false
	}
	return true
}

func (p *recordParser) commits() bool {
	tok, err := p.dec.Token()
	if err != nil {
		p.breakAt("log.commits", err)
		return false
	}
	if tok == nil {
		return true
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		p.problem("log.commits: not a list: no commit could be read")
		return true
	}
	for i := 0; p.dec.More(); i++ {
		c, err := p.commit()
		if err != nil && isSyntax(err) {
			p.breakAt(fmt.Sprintf("log.commits[%d]", i), err)
			p.problem("read %d commits before the break", i)
			return false
		}
		if err != nil {
			p.problem("log.commits[%d] (%s): %s", i, c.Path, typeWords(err))
		}
		if c.Path == "" {
			p.problem("log.commits[%d] has no path: it is left out", i)
			continue
		}
		p.rec.Log.SetCommits(append(p.rec.Log.Commits(), c))
	}
	if _, err := p.dec.Token(); err != nil {
		p.breakAt("log.commits", err)
		return false
	}
	return true
}

func isSyntax(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

func typeWords(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		f := te.Field
		if f == "" {
			f = "the value"
		}
		return fmt.Sprintf("%s is a JSON %s where %s was expected: left out", f, te.Value, te.Type)
	}
	return err.Error()
}

func firstProblem(ps []string) string {
	if len(ps) == 0 {
		return "unknown"
	}
	return ps[0]
}

// WriteFile saves rec as JSON at path, atomically (a reader never
// sees half a record): a temporary file beside it, then a rename. The
// bytes are json.MarshalIndent(rec, "", "  ") and a newline, written as
// they are encoded (writeRecord), so a wide run's record is never whole
// in memory. On any error the temporary file is removed and a file
// already at path is left as it was.
func WriteFile(path string, rec *RunRecord) error {
	return writeFile(path, rec, nil)
}

// WriteBytes saves at path a record already encoded as WriteFile encodes
// one (the bytes a Temporal workflow made of its run), as WriteFile saves
// it: atomically, and closed with its seal (seal.go); bytes that already
// close with a seal are written as they are. A record saved through
// Temporal was written with os.WriteFile, unsealed, so an edit to it
// ("full" made "ok") was explained as the run's own record.
func WriteBytes(path string, b []byte) error {
	sealed := sealTail.Match(b)
	return writeEncoded(path, !sealed, nil, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// CheckWritable says whether WriteFile could write a record at path, without
// writing it: so that a caller can refuse a path before a run that would
// end with nowhere to keep its record. It owns what "plainly cannot be
// written" means:
//
//	path is a directory                         refused
//	path is a pipe, a socket or a device        refused: WriteFile renames a
//	                                            file over it, which would replace
//	                                            it (as root, /dev/full itself)
//	its directory is missing, is not a          refused, with the system's cause
//	directory, or no file can be made in it
//	(read-only, no permission)
//	path leads into /proc (/dev/stdout,         refused: it names a file a process
//	/dev/fd/3): a process's open file           holds open; the record would replace
//	                                            that file (a CI log the run's text
//	                                            goes to) or, as root, the link itself
//	path is a symlink                           the file it leads to is checked, and
//	                                            written: the link stays (recordTarget)
//
// It makes and removes one empty temporary file beside path. A disk that
// fills up, or a directory removed after the check, is still WriteFile's
// error: the check is not a promise, only the refusal of what would
// surely fail.
func CheckWritable(path string) error {
	path, err := recordTarget(path)
	if err != nil {
		return err
	}
	if st, err := os.Stat(path); err == nil {
		switch {
		case st.IsDir():
			return fmt.Errorf("%s is a directory: give the path of a file to write", path)
		case !st.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file (%s): a record is written beside it and renamed over it, which would replace it; give the path of a file", path, fileKind(st.Mode()))
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".runbook-record-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary name is not the user's
		}
		if errors.Is(err, fs.ErrNotExist) {
			// A folder a stage of the chart would make is not made yet:
			// the record is refused before any stage runs.
			return fmt.Errorf("no file can be made in %s: %w: make it before the run (mkdir -p %s)", filepath.Dir(path), err, filepath.Dir(path))
		}
		return fmt.Errorf("no file can be made in %s: %w", filepath.Dir(path), err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// Waiting says whether the file at path holds a run that waits to be
// resumed — paused at an ask: stage, or stopped by its host to go on
// elsewhere — and was not: a question whose only home is that file, which
// a record written over it would lose. With it, the runbook's name and the
// pause (nil when the record carries none). A file that is missing, not a
// record or damaged is not waiting. ParseRecord is the reader of records;
// this is a probe of four members (jsonv.Pick), which skips the rest as it
// reads: every `exec --record` over the last run's file asks it, and
// json.Decoder read that file whole into memory to fill them — two
// seconds and 270 MB over a 100,000-item foreach's record.
func Waiting(path string) (waiting bool, runbook string, pause *PauseRecord) {
	// Stat before opening: opening a named pipe to read waits for a writer,
	// and a pipe at a record's path would hold the run before it starts.
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return false, "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return false, "", nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false, "", nil
	}
	got, err := jsonv.Pick(f, "checkpoint", "resumed", "result.runbook", "result.pause")
	if cp := got["checkpoint"]; err != nil || len(cp) == 0 || cp[0] != '{' || holds(got["resumed"]) {
		return false, "", nil
	}
	if raw := got["result.runbook"]; raw != nil && json.Unmarshal(raw, &runbook) != nil {
		return false, "", nil
	}
	if raw := got["result.pause"]; raw != nil && json.Unmarshal(raw, &pause) != nil {
		return false, "", nil
	}
	return true, runbook, pause
}

// holds says a picked member is there and not null.
func holds(raw json.RawMessage) bool {
	return raw != nil && string(raw) != "null"
}

// ErrProcessFile is CheckWritable's and WriteFile's refusal of a path
// that leads into /proc: /dev/stdout, /dev/stderr, /dev/fd/N.
var ErrProcessFile = errors.New("a process's open file")

// recordTarget is the file a record written at path replaces: path with
// its links followed, so that a record path that is a symlink
// (latest.json -> runs/today.json) writes the file the link names and
// leaves the link, where a rename over path replaced the link with a
// file and left the file it named, which readers of it still read, as
// yesterday's record. A path that leads into /proc is refused
// (ErrProcessFile): /dev/stdout -> /proc/self/fd/1 names the file this
// process writes its output to, which a rename would replace — the log a
// CI job keeps of the run's text, or, as root, /dev/stdout itself for
// every process on the machine. A path that does not exist is itself.
func recordTarget(path string) (string, error) {
	p := path
	for hops := 0; ; hops++ {
		// The directory may be a link too (/dev/fd -> /proc/self/fd).
		if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
			p = filepath.Join(dir, filepath.Base(p))
		}
		if underProc(p) {
			return "", fmt.Errorf("%s leads to %s, %w: the record would replace that file, not be written to it; give the path of a file (--format json prints the run's result on stdout; the record, with its log, is written only to a file)", path, p, ErrProcessFile)
		}
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return p, nil
		}
		if hops == 40 {
			return "", fmt.Errorf("%s: too many links", path)
		}
		to, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(p), to)
		}
		p = to
	}
}

// underProc says whether an absolute path lies in /proc, where a file is
// a process's, not a place to keep a record.
func underProc(p string) bool {
	return p == "/proc" || strings.HasPrefix(p, "/proc/")
}

// fileKind names a file that is not a regular one, for CheckWritable.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.Type().String()
}

// writeFile is WriteFile; wrap, when set, stands between the encoder and
// the temporary file (a test's failing writer).
func writeFile(path string, rec *RunRecord, wrap func(io.Writer) io.Writer) error {
	return writeEncoded(path, true, wrap, func(w io.Writer) error { return writeRecord(w, rec) })
}

// writeEncoded writes what encode writes at path, atomically, closed with
// the seal when seal is set.
func writeEncoded(path string, seal bool, wrap func(io.Writer) io.Writer, encode func(io.Writer) error) error {
	dst, err := recordTarget(path)
	if err != nil {
		return fmt.Errorf("record %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".runbook-record-*")
	if err != nil {
		return fmt.Errorf("record %s: %w", path, err)
	}
	var w io.Writer = tmp
	if wrap != nil {
		w = wrap(w)
	}
	bw := bufio.NewWriterSize(w, recordBufferSize)
	var werr error
	if seal {
		sw := newSealWriter(bw) // seal.go: the file closes with its digest
		werr = encode(sw)
		if werr == nil {
			werr = sw.close()
		}
	} else {
		werr = encode(bw)
	}
	if werr == nil {
		werr = bw.Flush()
	}
	if werr == nil {
		// On the disk before it replaces the last record: renamed over it
		// unsynced, a machine that went down soon after (the incident the
		// record is for) could leave an empty file at path on XFS, and
		// neither record; and a write error a file system keeps until its
		// sync (NFS, a thin volume) was a record said written.
		werr = syncRecord(tmp)
	}
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), dst)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("record %s: %w", path, werr)
	}
	syncDir(filepath.Dir(dst)) // the rename itself, as far as the system lets a folder be synced
	return nil
}

// syncRecord syncs a record's temporary file to its disk (a test's stand-in
// fails it).
var syncRecord = (*os.File).Sync

// syncDir syncs folder dir, so that a rename in it outlasts a crash; a
// system that cannot sync a folder is not an error: the record is written.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// decode decodes the next value into dst (a pointer) and settles the
// numbers its values hold: exact, as the plugin wire reads them
// (jsonv.Decoded: a whole number that fits is an int, exactly), for what
// the log and the checkpoint hold — what the run had; otherwise as a
// plain decode reads them (float64).
func (p *recordParser) decode(dst any, exact bool) error {
	err := p.dec.Decode(dst)
	settle := floatNumber
	if exact {
		settle = jsonv.Decoded
	}
	settleNumbers(reflect.ValueOf(dst), settle)
	return err
}

// floatNumber is a number as a plain decode reads it: a float64; the text
// itself for one no float64 holds (1e999), a number still, where a plain
// decode refused the value.
func floatNumber(n json.Number) any {
	f, err := n.Float64()
	if err != nil {
		return n
	}
	return f
}

// settleNumbers settles, in place, every json.Number the decoder left in
// v's values (its fields, elements and map values of type any).
func settleNumbers(v reflect.Value, settle func(json.Number) any) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			settleNumbers(v.Elem(), settle)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				settleNumbers(f, settle)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			settleNumbers(v.Index(i), settle)
		}
	case reflect.Map:
		if v.Type().Elem().Kind() != reflect.Interface {
			return
		}
		iter := v.MapRange()
		for iter.Next() {
			if e := iter.Value(); !e.IsNil() {
				v.SetMapIndex(iter.Key(), reflect.ValueOf(settleValue(e.Interface(), settle)))
			}
		}
	case reflect.Interface:
		if !v.IsNil() && v.CanSet() {
			v.Set(reflect.ValueOf(settleValue(v.Elem().Interface(), settle)))
		}
	}
}

// settleValue is settleNumbers over a decoded JSON value.
func settleValue(v any, settle func(json.Number) any) any {
	switch x := v.(type) {
	case json.Number:
		return settle(x)
	case []any:
		for i, e := range x {
			x[i] = settleValue(e, settle)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = settleValue(e, settle)
		}
	}
	return v
}

// readable says whether ParseRecord reads records of version v: the
// current one, and version 1.
func readable(v int) bool { return v == RecordVersion || v == 1 }

// commitV1 is a version 1 commit: its writes' from one space-joined string.
type commitV1 struct {
	flow.Commit
	Writes []writeV1 `json:"writes,omitempty"`
}

type writeV1 struct {
	flow.Write
	From string `json:"from,omitempty"`
}

// commit decodes the next commit of the log, a version 1 one brought to
// the current shape: its scope and counter read from its path (the one
// parser of paths, flow.ParsePath), its writes' from split into a list.
//
// Its values' numbers are read exactly (decode): read as float64, a
// value past 2^53 was explained as another number and written so again
// into a resumed run's record.
func (p *recordParser) commit() (flow.Commit, error) {
	if p.version != 1 {
		var c flow.Commit
		err := p.decode(&c, true)
		return c, err
	}
	var v1 commitV1
	err := p.decode(&v1, true)
	c := v1.Commit
	c.Writes = nil
	for _, w := range v1.Writes {
		w.Write.From = strings.Fields(w.From)
		c.Writes = append(c.Writes, w.Write)
	}
	if pos, perr := flow.ParsePath(c.Path); perr == nil && c.Path != "" {
		c.Scope, c.N = pos.Scope, pos.N
	}
	return c, err
}

// CheckpointDigest is the digest a paused record is sealed with when it is
// written, and checked against when it is resumed: "sha256:" and the
// SHA-256 of the canonical JSON (keys sorted, numbers as JSON reads them
// back) of what resume continues from —
//
//	chartSha256         the chart it must be resumed with
//	checkpoint          the position, the branches taken, the state, the counters
//	checkpointSecrets   which state values resume must derive again
//	log.commits         the commits the continued run's log starts with
//	result.decisions    the decisions the continued record carries on
//
// A record edited by hand in any of these no longer matches. The digest
// is not keyed: it finds edits and damage, not a forger who recomputes it
// (that would need a key the runbook does not have). "" when rec has no
// checkpoint.
func CheckpointDigest(rec *RunRecord) string {
	if rec == nil || rec.Checkpoint == nil {
		return ""
	}
	sealed := struct {
		ChartSHA256       string           `json:"chartSha256"`
		Checkpoint        *flow.Checkpoint `json:"checkpoint"`
		CheckpointSecrets []string         `json:"checkpointSecrets"`
		Commits           []flow.Commit    `json:"commits"`
		Decisions         []Decision       `json:"decisions"`
	}{ChartSHA256: rec.ChartSHA256, Checkpoint: rec.Checkpoint, CheckpointSecrets: rec.CheckpointSecrets, Commits: rec.Log.Commits()}
	if rec.Result != nil {
		sealed.Decisions = rec.Result.Decisions
	}
	// Through a plain JSON value and back: the record as written and as
	// read (where every number is a float64, every object a map) give the
	// same bytes.
	b, err := json.Marshal(sealed)
	if err != nil {
		return ""
	}
	var plain any
	if err := json.Unmarshal(b, &plain); err != nil {
		return ""
	}
	if b, err = json.Marshal(plain); err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CheckCheckpoint says whether a paused record's checkpoint is the one it
// was written with (CheckpointDigest); nil when it is, or when rec is not
// paused. A paused record without a digest is refused too: an unkeyed
// digest whose absence were accepted would let any edit through by
// deleting one key (records before the digest were written by
// 0.1.0-dev builds; run the chart again).
func CheckCheckpoint(rec *RunRecord) error {
	if rec == nil || rec.Checkpoint == nil {
		return nil
	}
	if rec.CheckpointDigest == "" {
		return errors.New("the checkpoint does not match the digest it was written with: the record has no checkpointDigest (it was written by a runbook older than the digest, or the key was removed), so it cannot be shown to be the checkpoint the run paused with: run the chart again")
	}
	if got := CheckpointDigest(rec); got != rec.CheckpointDigest {
		return fmt.Errorf("the checkpoint does not match the digest it was written with: its checkpoint, state, log or decisions were edited after the pause (digest %s written, %s now); resume the record as runbook wrote it, or run the chart again", shortDigest(rec.CheckpointDigest), shortDigest(got))
	}
	return nil
}

func shortDigest(d string) string {
	if _, h, ok := strings.Cut(d, ":"); ok && len(h) > 12 {
		return h[:12]
	}
	return d
}
