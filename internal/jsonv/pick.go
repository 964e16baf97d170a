package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Pick reads one JSON object from r and returns the text of its members
// at paths — "checkpoint" a member of the object, "result.pause" a member
// of its member "result" — skipping every other value as it is read: a
// record of hundreds of megabytes is read once through a small buffer
// and never held whole, where json.Decoder.Decode reads a value whole
// into memory before it looks at it, even to fill three fields. A path's
// keys hold no dot; a path into a member that is not an object picks
// nothing; of a key given twice, the last counts (as encoding/json has
// it).
//
// The object must be whole: text cut short, a bracket left open or
// closed by the other kind, or anything but space after it is an error.
// What is skipped is checked only as far as skipping needs (brackets,
// strings and their escapes); a picked value is the caller's to decode.
//
// It is written here because nothing at hand skips a value without
// reading it: encoding/json's Decoder.Token does, a token and an
// allocation at a time (slower than the whole decode), and
// encoding/json/jsontext's SkipValue is built only under
// GOEXPERIMENT=jsonv2 in Go 1.26. FuzzPick holds it to encoding/json.
func Pick(r io.Reader, paths ...string) (map[string]json.RawMessage, error) {
	p := &picker{r: r, buf: make([]byte, 0, 64<<10), want: map[string]bool{}, inner: map[string]bool{}, out: map[string]json.RawMessage{}}
	for _, path := range paths {
		p.want[path] = true
		for i := range len(path) {
			if path[i] == '.' {
				p.inner[path[:i]] = true
			}
		}
	}
	c, err := p.space()
	if err != nil {
		return nil, err
	}
	if c != '{' {
		return nil, p.errorf("not a JSON object")
	}
	if err := p.object(""); err != nil {
		return nil, err
	}
	if c, err := p.space(); err == nil {
		return nil, p.errorf("%q after the object", c)
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	return p.out, nil
}

// picker reads r through buf: buf[pos:] is what is read and not yet
// looked at, and off is the offset in r of buf[0], for the errors.
type picker struct {
	r     io.Reader
	buf   []byte
	pos   int
	off   int64
	want  map[string]bool // the paths picked
	inner map[string]bool // the paths that lead to one: objects walked into
	out   map[string]json.RawMessage
	// keeping says the bytes from buf[from] on are the value being
	// picked: fill moves them to kept before it drops them.
	keeping bool
	from    int
	kept    []byte
}

func (p *picker) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", p.off+int64(p.pos), fmt.Sprintf(format, args...))
}

// fill reads more of r into buf; io.EOF when there is no more. What was
// looked at is dropped (kept first, when a value is being picked).
func (p *picker) fill() error {
	if p.keeping {
		p.kept = append(p.kept, p.buf[p.from:p.pos]...)
		p.from = 0
	}
	p.off += int64(p.pos)
	n := copy(p.buf, p.buf[p.pos:])
	p.buf, p.pos = p.buf[:n], 0
	for {
		m, err := p.r.Read(p.buf[n:cap(p.buf)])
		p.buf = p.buf[:n+m]
		if m > 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// next returns the next byte and moves past it.
func (p *picker) next() (byte, error) {
	if p.pos == len(p.buf) {
		if err := p.fill(); err != nil {
			return 0, err
		}
	}
	c := p.buf[p.pos]
	p.pos++
	return c, nil
}

// space moves past white space and returns the byte after it, moved past.
func (p *picker) space() (byte, error) {
	for {
		c, err := p.next()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, nil
	}
}

// cut turns an io.EOF met inside a value into an error saying so.
func (p *picker) cut(err error) error {
	if errors.Is(err, io.EOF) {
		return p.errorf("the text ends inside a value")
	}
	return err
}

// object reads the members of an object whose '{' was read; prefix is its
// path and a dot ("" for the top).
func (p *picker) object(prefix string) error {
	c, err := p.space()
	if err != nil {
		return p.cut(err)
	}
	if c == '}' {
		return nil
	}
	for {
		if c != '"' {
			return p.errorf("%q where a member's key should start", c)
		}
		raw, err := p.keep(c)
		if err != nil {
			return err
		}
		key := string(raw[1 : len(raw)-1])
		if bytes.IndexByte(raw, '\\') >= 0 {
			if err := json.Unmarshal(raw, &key); err != nil {
				return p.errorf("a key that is not a JSON string: %v", err)
			}
		}
		if c, err = p.space(); err != nil {
			return p.cut(err)
		}
		if c != ':' {
			return p.errorf("%q after a key, not ':'", c)
		}
		if c, err = p.space(); err != nil {
			return p.cut(err)
		}
		path := prefix + key
		if p.inner[path] {
			// the last of a key given twice counts: what an earlier one
			// held is not what the object holds
			for k := range p.out {
				if strings.HasPrefix(k, path+".") {
					delete(p.out, k)
				}
			}
		}
		switch {
		case p.want[path]:
			raw, err := p.keep(c)
			if err != nil {
				return err
			}
			p.out[path] = json.RawMessage(bytes.Clone(raw))
		case c == '{' && p.inner[path]:
			if err := p.object(path + "."); err != nil {
				return err
			}
		default:
			if err := p.skip(c); err != nil {
				return err
			}
		}
		if c, err = p.space(); err != nil {
			return p.cut(err)
		}
		switch c {
		case '}':
			return nil
		case ',':
			if c, err = p.space(); err != nil {
				return p.cut(err)
			}
		default:
			return p.errorf("%q after a member, not ',' or '}'", c)
		}
	}
}

// keep skips the value that starts with c (read) and returns its text,
// valid until the next keep.
func (p *picker) keep(c byte) ([]byte, error) {
	p.keeping, p.from, p.kept = true, p.pos-1, p.kept[:0]
	err := p.skip(c)
	p.keeping = false
	if err != nil {
		return nil, err
	}
	p.kept = append(p.kept, p.buf[p.from:p.pos]...)
	return p.kept, nil
}

// str moves past a string whose '"' was read: to the first '"' no
// backslash escapes.
func (p *picker) str() error {
	for {
		rest := p.buf[p.pos:]
		q := bytes.IndexByte(rest, '"')
		end := q
		if q < 0 {
			end = len(rest)
		}
		if s := bytes.IndexByte(rest[:end], '\\'); s >= 0 {
			// an escape: move past the backslash and the byte it escapes
			p.pos += s + 1
			if _, err := p.next(); err != nil {
				return p.cut(err)
			}
			continue
		}
		if q >= 0 {
			p.pos += q + 1
			return nil
		}
		p.pos = len(p.buf)
		if err := p.fill(); err != nil {
			return p.cut(err)
		}
	}
}

// skip moves past the value that starts with c (read). A scalar other
// than a string ends at the first byte that cannot be in one.
func (p *picker) skip(c byte) error {
	switch c {
	case '"':
		return p.str()
	case '{', '[':
		return p.nest(c)
	case '}', ']', ',', ':':
		return p.errorf("%q where a value should start", c)
	}
	for {
		if p.pos == len(p.buf) {
			if err := p.fill(); err != nil {
				if errors.Is(err, io.EOF) {
					return nil // a scalar at the very end; the caller finds the object open
				}
				return err
			}
		}
		switch p.buf[p.pos] {
		case ' ', '\t', '\n', '\r', ',', '}', ']', ':', '"', '{', '[':
			return nil
		}
		p.pos++
	}
}

// nest moves past an object or list whose first bracket, open, was read:
// to the bracket that closes it, brackets inside strings aside.
func (p *picker) nest(open byte) error {
	stack := []byte{open}
	for len(stack) > 0 {
		for p.pos < len(p.buf) {
			c := p.buf[p.pos]
			p.pos++
			switch c {
			case '"':
				if err := p.str(); err != nil {
					return err
				}
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if want := stack[len(stack)-1]; want == '{' && c != '}' || want == '[' && c != ']' {
					return p.errorf("%q closes a %q", c, want)
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return nil
				}
			}
		}
		if err := p.fill(); err != nil {
			return p.cut(err)
		}
	}
	return nil
}
