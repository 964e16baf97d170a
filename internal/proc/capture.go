package proc

import (
	"bytes"
	"io"
	"unicode/utf8"
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

// capture keeps the first limit bytes of a stream and counts the rest.
type capture struct {
	limit int
	buf   []byte
	total int64
}

func (c *capture) readFrom(r io.Reader) {
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		if room := c.limit - len(c.buf); room > 0 && n > 0 {
			c.buf = append(c.buf, chunk[:min(n, room)]...)
		}
		c.total += int64(n)
		if err != nil {
			return // EOF, or the pipe closed after the drain window
		}
	}
}

// finish masks the secrets over the whole capture and cuts it at max bytes
// of the raw stream; a secret that starts before the cut is masked whole.
func (c *capture) finish(max int, secrets []string) ([]byte, bool) {
	keep := min(len(c.buf), max)
	out := mask(c.buf, secrets, keep)
	if out == nil {
		out = []byte{}
	}
	return out, c.total > int64(max)
}

const masked = "***"

// mask copies raw[:keep] with every secret replaced by "***". At each
// position the longest matching secret wins; a match may run past keep.
func mask(raw []byte, secrets []string, keep int) []byte {
	var ss [][]byte
	var first [256]bool
	for _, s := range secrets {
		if s != "" {
			ss = append(ss, []byte(s))
			first[s[0]] = true
		}
	}
	if len(ss) == 0 {
		return bytes.Clone(raw[:keep])
	}
	// Longest first, so "abcd" wins over "ab" at the same position.
	for i := 1; i < len(ss); i++ {
		for j := i; j > 0 && len(ss[j]) > len(ss[j-1]); j-- {
			ss[j], ss[j-1] = ss[j-1], ss[j]
		}
	}
	out := make([]byte, 0, keep)
	for i := 0; i < keep; {
		matched := 0
		if first[raw[i]] {
			for _, s := range ss {
				if bytes.HasPrefix(raw[i:], s) {
					matched = len(s)
					break
				}
			}
		}
		if matched > 0 {
			out = append(out, masked...)
			i += matched
			continue
		}
		out = append(out, raw[i])
		i++
	}
	return out
}

func longest(secrets []string) int {
	n := 0
	for _, s := range secrets {
		n = max(n, len(s))
	}
	return n
}
