package runbook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/coverage"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
)

// MaxReadFiles is the most files one `read: {glob: …}` reads; a pattern
// matching more fails the stage rather than reading some in silence.
const MaxReadFiles = 1000

// readStage reads a file, or every file a glob matches, without running a
// process (chart-yaml.md, read:), and writes under `into`:
//
//	path:  {path, exists, content}        the file as written in the chart
//	glob:  [{path, exists, content}, …]   every match, in path order
//
// content is parsed as exec's stdout is, by the same code (a result that
// declares coverage is read the same way); a file past the stage's
// maxSize: (exec's 1 MiB output cap when none) is withheld as exec output is (content null,
// `withheld` saying so). A relative path is read from the chart file's
// folder. A file that does not exist is an outcome: exists is false and
// content null, and an absence on the ledger (record.NoFileEntry). A glob
// that matches no file writes [] and files an absence on the ledger
// (record.NoMatchEntry): a path or pattern that found nothing is not a
// host with nothing to judge. A file that exists and cannot be read (a
// folder, permission denied) fails the stage; under a glob, a folder it
// could not read or a file it was refused is a not-checked item
// (record.UnreadGlobEntry), and the rest are read.
func readStage(st *chart.StageSpec) flow.StageFunc {
	rd := st.Read
	into := rd.Into
	if into == "" {
		into = st.ID
	}
	return func(ctx context.Context, s *flow.Scope) error {
		rs := stateOf(s)
		var file, pattern string
		var err error
		if rd.Glob != nil {
			pattern, err = readWord(rd.Glob, s, "read glob")
		} else {
			file, err = readWord(rd.Path, s, "read path")
		}
		if err == nil && rd.Glob != nil {
			err = recursiveGlob(pattern)
		}
		if err != nil {
			return err
		}
		files, unread, stubbed, err := rs.readStub(ctx, st, s, rd.Dir, file, pattern) // stubs.go
		if !stubbed {
			files, unread, err = readFiles(ctx, rd.Dir, file, pattern, maxOutput(rd.MaxSize))
		}
		if err != nil {
			return err
		}
		if rd.Glob == nil {
			if !files[0].Exists {
				rs.fileLedger(record.NoFileEntry(s.Path(), rs.mask(file))) // a path may hold a secret
			}
			s.SetFact(into, rs.readValue(s.Path(), rd, files[0])) // what the file held now, changed or not
			return nil
		}
		if len(unread) > 0 {
			// Said in place of "none matched" when none did: a folder
			// nobody could read is no folder with nothing in it.
			rs.fileLedger(rs.unreadGlobEntry(s.Path(), pattern, unread, len(files)))
		} else if len(files) == 0 {
			rs.fileLedger(record.NoMatchEntry(s.Path(), rs.mask(pattern))) // a pattern may hold a secret
		}
		out := make([]any, 0, len(files))
		for _, f := range files {
			out = append(out, rs.readValue(s.Path(), rd, f))
		}
		s.SetFact(into, out)
		return nil
	}
}

// unreadGlobEntry is the ledger's entry for a glob that could not read
// every folder on its way or every file it matched (record.UnreadGlobEntry),
// each path masked (a pattern built from a secret input holds it).
func (rs *runState) unreadGlobEntry(path, pattern string, unread []ReadUnread, read int) coverage.Entry {
	first := unread[0]
	return record.UnreadGlobEntry(path, rs.mask(pattern), len(unread), read, rs.mask(first.Path), rs.mask(first.Why))
}

// readFiles reads what a read: stage names from the file system: file, or
// every file pattern matches (in path order), each shown as the chart
// gave it (a match of a relative pattern relative to dir), its content
// up to one byte past the output cap (readValue withholds it).
//
// A glob's folder it could not read, a file it matched and was refused
// (permission denied), or a symbolic link it matched whose target is not
// there, is given in unread, shown as
// a match is, and the rest are read: the stage's answer is then part of what the pattern
// names (record.UnreadGlobEntry), never all of it in silence.
func readFiles(ctx context.Context, dir, file, pattern string, limit int) (files []ReadFile, unread []ReadUnread, err error) {
	if pattern == "" {
		f, err := readOne(file, inDir(dir, file), limit)
		if err != nil {
			return nil, nil, err
		}
		return []ReadFile{f}, nil, nil
	}
	matches, unread, err := globFiles(inDir(dir, pattern))
	if err != nil {
		return nil, nil, fmt.Errorf("read glob %q: %w", pattern, err)
	}
	if len(matches) > MaxReadFiles {
		return nil, nil, fmt.Errorf("read glob %q matches %d files, more than the %d one stage reads: narrow the pattern or split it", pattern, len(matches), MaxReadFiles)
	}
	slices.Sort(matches)
	shown := func(m string) string {
		if !filepath.IsAbs(pattern) && dir != "" {
			if rel, err := filepath.Rel(dir, m); err == nil {
				return rel
			}
		}
		return m
	}
	for i := range unread {
		unread[i].Path = shown(unread[i].Path)
	}
	files = make([]ReadFile, 0, len(matches))
	for _, m := range matches {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		f, err := readOne(shown(m), m, limit)
		if errors.Is(err, fs.ErrPermission) {
			unread = append(unread, ReadUnread{shown(m), fs.ErrPermission.Error()})
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if target, dangling := danglingLink(m, f); dangling {
			// The folder names a link whose file is not there: it was
			// never read, so it is no file with nothing in it
			// (TestGlobMatchOfADanglingLinkIsNoWholeAnswer). A name gone
			// since the folder was listed (a process that ended, under
			// /proc/[0-9]*/stat) stays exists: false, as a glob a moment
			// later would not have matched it.
			unread = append(unread, ReadUnread{shown(m), fmt.Sprintf("it is a symbolic link to %s, which is not there", target)})
			continue
		}
		files = append(files, f)
	}
	return files, unread, nil
}

// danglingLink says whether file, which read found no file at, is a
// symbolic link still there whose target is not (a site enabled in
// Apache's sites-enabled whose file in sites-available was removed, a
// certbot live/ link into an archive moved away), and its target.
func danglingLink(file string, f ReadFile) (string, bool) {
	if f.Exists {
		return "", false
	}
	fi, err := os.Lstat(file)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return "", false
	}
	target, err := os.Readlink(file)
	return target, err == nil
}

// recursiveGlob refuses a pattern one of whose folder names is "**":
// bash's globstar and most tools read it as any depth of folders, Go's
// filepath.Glob as "*", one name. g/**/*.log read g/app/a.log and never
// g/top.log or g/app/2026/12/b.log, and an ERROR only they held was an
// "ok" row, Consistent; nothing said a file was passed over. The error
// says what the pattern reads and what to write.
func recursiveGlob(pattern string) error {
	if !slices.Contains(strings.Split(filepath.ToSlash(pattern), "/"), "**") {
		return nil
	}
	one := strings.Replace(pattern, "**/", "", 1)
	two := strings.Replace(pattern, "**", "*", 1)
	return fmt.Errorf("read glob %q: \"**\" does not match folders at any depth here, as bash's globstar does: a glob reads it as \"*\", one folder name, so it would read %s and not %s nor a file two folders down, and say nothing of them; name each depth in a read: of its own (glob: '\"%s\"', then '\"%s\"', …), or find them all with exec: {shell: \"find … -name '…' -exec cat {} +\", parse: lines}", pattern, two, one, one, two)
}

// readWord is a path or pattern expression's value: a string, not empty.
func readWord(v rules.Valuer, s *flow.Scope, what string) (string, error) {
	val, _, err := v.Value(s)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", what, v.String(), err)
	}
	str, ok := val.(string)
	if !ok || str == "" {
		return "", fmt.Errorf("%s %s gave %v (%T), not a path: it must give a string that is not empty", what, v.String(), val, val)
	}
	return str, nil
}

// inDir is p read from dir when p is relative.
func inDir(dir, p string) string {
	if filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

// readOne reads one file (shown is the path as the chart gave it): a file
// that does not exist is an outcome, one that cannot be read an error.
func readOne(shown, file string, limit int) (ReadFile, error) {
	if fi, err := os.Stat(file); err == nil && ownStream(fi) != "" {
		return ReadFile{}, ownStreamError(shown, file, ownStream(fi))
	} else if err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		// Opening a FIFO waits for a writer, with no timeout of the
		// stage's own: the run hung there, saying nothing.
		return ReadFile{}, fmt.Errorf("read %s: it is a named pipe, not a file: opening it waits for a process to write to it, and the run would wait with it (read what it carries where it is written, or exec: {command: [cat, %s], timeout: 5s}, which a timeout ends)", shown, shown)
	} else if err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
		return ReadFile{}, notAFile(shown, file, fi.Mode())
	}
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return ReadFile{Path: shown}, nil
	}
	if err != nil {
		return ReadFile{}, fmt.Errorf("read %s: %w", shown, unwrapPathErr(err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return ReadFile{}, fmt.Errorf("read %s: it is a folder, not a file (to read the files in it, use glob: '\"%s/*\"')", shown, shown)
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return ReadFile{}, fmt.Errorf("read %s: %w", shown, unwrapPathErr(err))
	}
	return ReadFile{Path: shown, Exists: true, Content: data}, nil
}

// ownStream names the runner's own output stream that fi is ("stdout",
// "stderr"), "" when it is neither (stdin is not asked: a file given on
// stdin is that file, and reading it reads what it holds). A path that leads to one
// (a link to /dev/stdout, /dev/fd/2, /proc/self/fd/1) is no file of what
// the chart asks about: the official nginx image links
// /var/log/nginx/access.log to /dev/stdout and error.log to /dev/stderr,
// so that what nginx logs goes to `docker logs`; a read: of that path in
// a run whose stdout went to a file (cron's `>> runbook.log`) read the
// run's own output file, empty as the run began, as the access log, and a
// 5xx check said ok, 0 requests, Consistent
// (TestReadOfTheRunnersOwnStreamIsRefused).
func ownStream(fi fs.FileInfo) string {
	for _, s := range []struct {
		name string
		f    *os.File
	}{{"stdout", os.Stdout}, {"stderr", os.Stderr}} {
		if s.f == nil {
			continue
		}
		if own, err := s.f.Stat(); err == nil && os.SameFile(fi, own) {
			return s.name
		}
	}
	return ""
}

// ownStreamError is the error of a read: of a path that is the runner's
// own stream (ownStream), saying what it leads to.
func ownStreamError(shown, file, stream string) error {
	link := ""
	if target, err := os.Readlink(file); err == nil {
		link = fmt.Sprintf(" (a link to %s)", target)
	}
	return fmt.Errorf("read %s: it is this run's own %s%s, not a file: what a program writes there (nginx in a container whose log is a link to /dev/stdout or /dev/stderr) goes to whoever started that program, and reading it here reads runbook's own %s; read the log where it goes (docker logs, journalctl), or the file the program's config names", shown, stream, link, stream)
}

// notAFile is the error of a read: of a path that is a device, a socket
// or a kernel object (an eventfd, an epoll) rather than a file: reading a
// terminal or an eventfd waits for input with no timeout of the stage's
// own, and /dev/zero never ends. A glob over /proc/PID/fd/* (a count of a
// process's open files) matched its terminal, /dev/pts/0, and the run
// hung there, saying nothing (TestReadOfADeviceIsRefused). link is the
// path's target, when it is a symbolic link (/proc/PID/fd/N's are).
func notAFile(shown, file string, mode fs.FileMode) error {
	what := "not a regular file (a kernel object: an eventfd, an epoll, an anonymous inode)"
	switch {
	case mode&fs.ModeCharDevice != 0:
		what = "a character device (a terminal, /dev/zero, /dev/kmsg)"
	case mode&fs.ModeDevice != 0:
		what = "a block device (a disk)"
	case mode&fs.ModeSocket != 0:
		what = "a socket"
	}
	if target, err := os.Readlink(file); err == nil {
		what += fmt.Sprintf(", %s", target)
	}
	return fmt.Errorf("read %s: it is %s, not a file: reading it may wait for input with no end, and the run would wait with it; to count or list what a folder holds (a process's open files in /proc/PID/fd), list the names, exec: {shell: 'ls /proc/$PID/fd | wc -l', envFrom: {PID: string(pid)}}, or read what the device holds with exec: {command: [head, -c, 4096, %s], timeout: 5s}", shown, what, shown)
}

// readValue is one file as `read:` writes it, {path, exists, content}: a
// file that exists has its content parsed as exec's stdout is (rs.parsed),
// past the output cap withheld. A read stub's file takes the
// same road as a real one. A glob's match is a name the file system gave,
// and it is read (rs.text) as the content is: a Latin-1 name is not UTF-8.
func (rs *runState) readValue(path string, rd *chart.ReadSpec, f ReadFile) map[string]any {
	name := rs.text(path, "the name of a file it read", []byte(f.Path))
	out := map[string]any{"path": name, "exists": false, "content": nil}
	if !f.Exists {
		return out
	}
	out["exists"] = true
	if limit := maxOutput(rd.MaxSize); len(f.Content) > limit {
		out["withheld"] = fmt.Sprintf("the file passed the %d-byte cap and was withheld from the scope", limit)
		rs.fileLedger(record.WithheldEntry(path, "the file "+rs.mask(name), limit, "the read's maxSize:"))
		return out
	}
	out["content"] = rs.parsed(path, rd.Parse, rs.text(path, "the file "+name, f.Content), "the file "+name, out)
	return out
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
