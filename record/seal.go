package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"regexp"
)

// The seal of a record file: WriteFile closes every record it writes with
// one more member, last,
//
//	,
//	  "recordDigest": "sha256:<hex>"
//	}
//
// whose digest is the SHA-256 of every byte of the file before that
// member's comma — the record exactly as it would be without it. The
// reader (parseRecord) owns the check, one rule:
//
//	no recordDigest member                 not checked (a record written
//	                                       before the seal, or by hand)
//	the member closes the file as written  the bytes before it must hash
//	and the digest matches                 to it: the record is whole
//	the digest does not match              a problem: the record was edited
//	                                       or damaged after the run wrote it
//	the member is there but not as the     a problem: the file was re-encoded
//	file's closing member, as written      or edited after the run wrote it
//
// Before, a record whose verdict row or commit was edited by hand ("full"
// made "ok") was explained as if the run had written it, with nothing to
// say it was not the run's. Like the checkpoint's digest, the seal is not
// keyed: it finds edits and damage, not a forger who recomputes it, nor
// one who removes it.
const sealKey = "recordDigest"

// sealTail matches the seal as WriteFile writes it, at the end of a file.
var sealTail = regexp.MustCompile(`,\n  "recordDigest": "sha256:([0-9a-f]{64})"\n}\n$`)

// sealMax is the longest the seal can be: what a reader holds back from
// the hash until it knows where the file ends.
const sealMax = 128

// sealWriter hashes what passes through it and holds back the last three
// bytes, the record's closing "\n}\n", so that close can write the seal
// before them.
type sealWriter struct {
	w    io.Writer
	h    hash.Hash
	held []byte
}

func newSealWriter(w io.Writer) *sealWriter {
	return &sealWriter{w: w, h: sha256.New()}
}

func (s *sealWriter) Write(p []byte) (int, error) {
	s.held = append(s.held, p...)
	if n := len(s.held) - 3; n > 0 {
		if _, err := s.w.Write(s.held[:n]); err != nil {
			return 0, err
		}
		s.h.Write(s.held[:n])
		s.held = append(s.held[:0], s.held[n:]...)
	}
	return len(p), nil
}

// close writes the seal and the closing brace. A record that did not end
// as writeRecord ends one is written as it was, unsealed.
func (s *sealWriter) close() error {
	if string(s.held) != "\n}\n" {
		_, err := s.w.Write(s.held)
		return err
	}
	_, err := io.WriteString(s.w, `,`+"\n"+`  "`+sealKey+`": "sha256:`+hex.EncodeToString(s.h.Sum(nil))+`"`+"\n}\n")
	return err
}

// sealReader hashes what a parser reads through it, all but the last
// sealMax bytes, which it holds until the end is known.
type sealReader struct {
	r    io.Reader
	h    hash.Hash
	tail []byte
}

func newSealReader(r io.Reader) *sealReader {
	return &sealReader{r: r, h: sha256.New()}
}

func (s *sealReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	got := p[:n]
	// hashed in place: a decoder reading a wide record asks for megabytes
	// at a time, and a copy of them held here cost explain that much more
	if excess := len(s.tail) + n - sealMax; excess > 0 {
		if excess <= len(s.tail) {
			s.h.Write(s.tail[:excess])
			s.tail = append(s.tail[:0], s.tail[excess:]...)
		} else {
			s.h.Write(s.tail)
			s.h.Write(got[:excess-len(s.tail)])
			got = got[excess-len(s.tail):]
			s.tail = s.tail[:0]
		}
	}
	s.tail = append(s.tail, got...)
	return n, err
}

// sealProblem reads what is left of the file and says what is wrong with
// its seal, if anything: "" for a whole record, or one with no seal (saw:
// the parser met no recordDigest member).
func (s *sealReader) sealProblem(saw bool) string {
	if !saw {
		return ""
	}
	io.Copy(io.Discard, s) // the parser may stop short of the end
	m := sealTail.FindSubmatchIndex(s.tail)
	if m == nil {
		return "the record's recordDigest does not close the file as runbook writes it: the file was re-encoded or edited after the run wrote it, so it cannot be shown to be the run's own record; what follows is explained from the file as it now is"
	}
	s.h.Write(s.tail[:m[0]])
	want := s.tail[m[2]:m[3]]
	if got := hex.EncodeToString(s.h.Sum(nil)); !bytes.Equal([]byte(got), want) {
		return "the record's bytes do not match the recordDigest it was written with (sha256:" + string(want[:12]) + "…, now sha256:" + got[:12] + "…): it was edited or damaged after the run wrote it; what follows is explained from the file as it now is, not as the run left it"
	}
	return ""
}
