package proc

import (
	"io"
	"unicode/utf8"

	"github.com/openrunbook/runbook/internal/secret"
)

// Text makes valid UTF-8 of captured bytes for the JSON scope: each byte
// that is not part of a valid UTF-8 sequence becomes U+FFFD, one for one, as
// encoding/json would write it. Valid input comes back unchanged.
//
//	Text([]byte("ok\xff\xfe")) == "ok\uFFFD\uFFFD"
func Text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return string(out)
}

// capture keeps the first limit bytes of a stream and its last tailKeep
// bytes, and counts them all.
type capture struct {
	limit    int
	buf      []byte
	total    int64
	tailKeep int
	tail     []byte
}

func (c *capture) readFrom(r io.Reader) {
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		if room := c.limit - len(c.buf); room > 0 && n > 0 {
			c.buf = append(c.buf, chunk[:min(n, room)]...)
		}
		c.total += int64(n)
		if n > 0 && c.tailKeep > 0 {
			c.tail = append(c.tail, chunk[:n]...)
			if over := len(c.tail) - c.tailKeep; over > c.tailKeep {
				c.tail = append(c.tail[:0], c.tail[over:]...) // copy moves overlapping bytes safely
			}
		}
		if err != nil {
			return // EOF, or the pipe closed after the drain window
		}
	}
}

// finish masks the secrets over the whole capture and cuts it at max bytes
// of the raw stream; a secret that starts before the cut is masked whole.
func (c *capture) finish(max int, secrets []string) ([]byte, bool) {
	keep := min(len(c.buf), max)
	out := secret.MaskStream(c.buf, secrets, 0, keep)
	if out == nil {
		out = []byte{}
	}
	return out, c.total > int64(max)
}

// finishTail is the last n bytes of the stream, masked. The capture kept
// the longest secret's length more than n, so a secret that starts before
// the tail and ends inside it is seen whole and masked whole, never shown
// as its last few bytes.
func (c *capture) finishTail(n int, secrets []string) []byte {
	raw := c.tail
	if over := len(raw) - c.tailKeep; over > 0 {
		raw = raw[over:]
	}
	from := max(0, len(raw)-n)
	out := secret.MaskStream(raw, secrets, from, len(raw))
	if c.total > int64(len(raw)-from) {
		// The cut may fall inside a UTF-8 sequence: drop its leading part
		// rather than show a replacement character that nothing printed.
		for i := 0; i < utf8.UTFMax-1 && len(out) > 0 && !utf8.RuneStart(out[0]); i++ {
			out = out[1:]
		}
	}
	return out
}
