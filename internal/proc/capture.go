package proc

import (
	"bytes"
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

// Invalid is where Text changes a text: the bytes that are no part of
// valid UTF-8, which it writes as U+FFFD. A value made of them is not what
// the command printed, and two different texts (0xe9 and 0xe8, é and è in
// Latin-1) read as one, so the record says where (record.NotUTF8Entry).
type Invalid struct {
	// Bytes counts the bytes Text replaces.
	Bytes int
	// Offset is the first one's byte offset from the text's start, Line
	// its line (from 1), and LineText that line's raw bytes, without its
	// "\n".
	Offset, Line int
	LineText     string
}

// FirstInvalid says where Text would change b, and false when it would
// not (b is UTF-8). Its cost is one pass over b, and none past
// utf8.Valid when b is UTF-8.
//
//	FirstInvalid([]byte("ok\ncaf\xe9\n")) == Invalid{Bytes: 1, Offset: 6, Line: 2, LineText: "caf\xe9"}, true
func FirstInvalid(b []byte) (Invalid, bool) {
	if utf8.Valid(b) {
		return Invalid{}, false
	}
	inv := Invalid{Offset: -1}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			if inv.Offset < 0 {
				inv.Offset = i
			}
			inv.Bytes++
		}
		i += n
	}
	start := bytes.LastIndexByte(b[:inv.Offset], '\n') + 1
	end := len(b)
	if j := bytes.IndexByte(b[inv.Offset:], '\n'); j >= 0 {
		end = inv.Offset + j
	}
	inv.Line = bytes.Count(b[:start], []byte{'\n'}) + 1
	inv.LineText = string(b[start:end])
	return inv, true
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
// as its last few bytes. A stream that is, whole, a private key in DER
// (secret.PrivateKeyDER) has its tail masked whole: the tail is shown
// (explain's "stdout ended with"), and its bytes are the key's last ones.
// The stream itself is kept as it was for the run's one road of read
// bytes, which masks it and says why (runbook's runState.text).
func (c *capture) finishTail(n int, secrets []string) []byte {
	if c.total == int64(len(c.buf)) && secret.PrivateKeyDER(c.buf) {
		return []byte(secret.Masked)
	}
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

// UTF16 says whether b reads as UTF-16 with no byte order mark, and in
// which order: "UTF-16LE" when every other byte is NUL from the second
// (ASCII text written two bytes a character, as SQL Server's bcp -w or a
// .NET writer with no mark writes it), "UTF-16BE" from the first, "" for
// any other text. Such a text is valid UTF-8, so Text keeps it, each
// character with a NUL beside it, and no rule reads "P\x00o\x00r\x00t" as
// "Port" (record.UTF16Entry). Judged over its first 512 bytes: at least
// 16, and nineteen in twenty of one parity NUL, no more than one in twenty
// of the other.
func UTF16(b []byte) string {
	if len(b) > 512 {
		b = b[:512]
	}
	if len(b) < 16 || bytes.IndexByte(b, 0) < 0 {
		return ""
	}
	var nul [2]int
	for i, c := range b {
		if c == 0 {
			nul[i%2]++
		}
	}
	half := [2]int{(len(b) + 1) / 2, len(b) / 2}
	switch {
	case nul[1]*20 >= half[1]*19 && nul[0]*20 <= half[0]:
		return "UTF-16LE"
	case nul[0]*20 >= half[0]*19 && nul[1]*20 <= half[1]:
		return "UTF-16BE"
	}
	return ""
}
