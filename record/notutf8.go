package record

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemNotUTF8 is the kind of the not-checked item filed for a text a
// stage read (a command's stdout or stderr, a file) that is not UTF-8: a
// Latin-1 mount name (/srv/caf\xe9), a lone 0xff, a multi-byte sequence
// cut at the end. The scope holds JSON text, so each such byte is U+FFFD
// there (proc.Text): the value is not what the command printed, and two
// different names (caf\xe9, caf\xe8) read as one string that every rule
// compares as one. What the chart decided may rest on a value the runtime
// altered, so the standing cannot be Known or Consistent over it, and a
// Nagios check is no better than UNKNOWN. The item quotes the first bad
// byte's line as it was (\xe9), so the record keeps the evidence, and
// says what would read it: converted to UTF-8 where it is made (a log
// in Windows-1252 whose lines a chart only counts is Not sure, and the
// operator is told how it can be Known).
const ItemNotUTF8 = "not-utf8"

// NotUTF8Entry is the ledger's entry for one text that is not UTF-8,
// filed under the stage's path: of names the text ("its stdout", "the
// file /etc/x"), count the bytes replaced, line and offset where the
// first is (its line from 1, its byte offset from the text's start), and
// text that line's raw bytes, masked already; the item quotes them around
// the first bad byte, with Go's escapes (\xe9), at most 120 bytes.
func NotUTF8Entry(path, of string, count, line, offset int, text string) coverage.Entry {
	at, bad := 0, byte(0)
	for at < len(text) {
		r, n := utf8.DecodeRuneInString(text[at:])
		if r == utf8.RuneError && n == 1 {
			bad = text[at]
			break
		}
		at += n
	}
	from, to := max(0, at-80), min(len(text), at+40)
	for from > 0 && from < at && !utf8.RuneStart(text[from]) {
		from++ // never half a character
	}
	for to < len(text) && to > at && !utf8.RuneStart(text[to]) {
		to--
	}
	near := strconv.Quote(text[from:to])
	if from > 0 {
		near = "…" + near
	}
	if to < len(text) {
		near += "…"
	}
	bytes := fmt.Sprintf("%d bytes of it are", count)
	if count == 1 {
		bytes = "1 byte of it is"
	}
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: of,
			Why:  fmt.Sprintf("%s not UTF-8 and reached the scope as U+FFFD, so a value made of it is not what was read, and two different texts may read as one; the first is byte %d of it (0x%02x), on line %d: %s; %s", bytes, offset, bad, line, near, notUTF8Fix(of, line, text)),
			Kind: ItemNotUTF8,
		}},
	}}
}

// notUTF8Fix says what reads a text that is not UTF-8: unpacked where it
// is compressed, converted where it is made, a name renamed. line and text
// are the first bad byte's line and its bytes: a compressed file's magic
// opens line 1 (gzip's 1f 8b, whose 0x8b is never UTF-8), so a rotated
// syslog.2.gz a glob matched is told to be unpacked, not converted from
// Windows-1252 with iconv, which would never read it.
func notUTF8Fix(of string, line int, text string) string {
	if strings.HasPrefix(of, "the name") {
		return "to read it, rename the file in UTF-8 (convmv -f WINDOWS-1252 -t UTF-8, or the encoding it is in)"
	}
	if line == 1 {
		for _, c := range compressions {
			if strings.HasPrefix(text, c.magic) {
				file, ok := strings.CutPrefix(of, "the file ")
				if !ok {
					file = "FILE"
				}
				return fmt.Sprintf("it is %s-compressed (it begins with the bytes %s), so none of the lines it holds were read: unpack it where it is read, exec: {command: [%s, -f, %s], parse: lines} in place of read: (%s -f prints a plain file as it is, so one command reads a log and its rotated siblings: shell: %s -f /var/log/syslog*)", c.name, c.hex, c.cat, file, c.cat, c.cat)
			}
		}
	}
	if line == 1 && (strings.HasPrefix(text, "\xff\xfe") || strings.HasPrefix(text, "\xfe\xff")) {
		return fmt.Sprintf("it begins with the bytes %02x %02x, UTF-16's byte order mark (Windows PowerShell's Out-File and > write it, reg export too): it is UTF-16, two bytes a character, and no line of it was read as written; convert it where it is read, exec: {command: [iconv, -f, UTF-16, -t, UTF-8, %s], parse: lines} in place of read:", text[0], text[1], fileOf(of))
	}
	if line == 1 && derLike(text) {
		file, ok := strings.CutPrefix(of, "the file ")
		if !ok {
			file = "FILE"
		}
		return fmt.Sprintf("it begins with the bytes %02x %02x, an ASN.1 SEQUENCE: it is likely DER (a certificate, a CRL, a request), binary and no text, which no conversion reads: ask openssl of it where it is, exec: {command: [openssl, storeutl, -noout, -text, %s]} (storeutl reads DER and PEM alike)", text[0], text[1], file)
	}
	return "to read it, have it converted to UTF-8 where it is made (iconv -f WINDOWS-1252 -t UTF-8, or the encoding it is in)"
}

// fileOf is the file a ledger's "the file F" names, or FILE for a
// command's output.
func fileOf(of string) string {
	if file, ok := strings.CutPrefix(of, "the file "); ok {
		return file
	}
	return "FILE"
}

// UTF16Entry is the ledger's entry for a text a stage read that is UTF-16
// with no byte order mark (proc.UTF16 says which order), filed under the
// stage's path as a text that is not UTF-8 is (ItemNotUTF8): its bytes are
// valid UTF-8, so it reached the scope with a NUL beside each character,
// and `PasswordAuthentication yes` in a kv or a line read as
// "P\x00a\x00s\x00s…", which no rule matches; a check for the line said
// it was not there, Consistent (TestUTF16TextIsNotSure).
func UTF16Entry(path, of, order string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: of,
			Why:  fmt.Sprintf("every other byte of it is NUL: it is %s, two bytes a character (SQL Server's bcp -w, a .NET writer with no byte order mark), which reached the scope with a NUL beside each character, so no rule reads its words as written; convert it where it is read, exec: {command: [iconv, -f, %s, -t, UTF-8, %s], parse: lines} in place of read:", order, order, fileOf(of)),
			Kind: ItemNotUTF8,
		}},
	}}
}

// derLike reports whether text begins as DER does: a SEQUENCE (0x30) and
// a length of one byte or of one to three more (0x81…0x83). A certificate
// read with read: was told to be converted from Windows-1252 with iconv,
// which makes garbage of it.
func derLike(text string) bool {
	return len(text) >= 2 && text[0] == 0x30 && (text[1] < 0x80 || text[1] >= 0x81 && text[1] <= 0x83)
}

// compressions are the compressed formats logrotate and journald leave
// beside a log, by the bytes each file begins with, and the command that
// prints one unpacked (with -f, a plain file as it is).
var compressions = []struct{ name, magic, hex, cat string }{
	{"gzip", "\x1f\x8b", "1f 8b", "zcat"},
	{"xz", "\xfd7zXZ\x00", "fd 37 7a 58 5a 00", "xzcat"},
	{"zstd", "\x28\xb5\x2f\xfd", "28 b5 2f fd", "zstdcat"},
	{"bzip2", "BZh", "42 5a 68", "bzcat"},
}

// DERKeyEntry is the ledger's entry for a text a stage read that is, whole,
// a private key or a store of keys in DER (secret.PrivateKeyDER), size
// bytes, filed under the stage's path as a text that is not UTF-8 is
// (ItemNotUTF8): its bytes are no text, and none of them is quoted, since
// they are the key; the scope holds Masked for it. Quoted as a text that
// is not UTF-8 (NotUTF8Entry), an EC key's 32 private bytes were in the
// standing line and the record (wave-pki).
func DERKeyEntry(path, of string, size int) coverage.Entry {
	file, ok := strings.CutPrefix(of, "the file ")
	if !ok {
		file = "FILE"
	}
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: of,
			Why:  fmt.Sprintf("its %d bytes are a private key (or a store of keys) in DER, binary ASN.1, which is no text: none of it reached the scope or the record (it reads %s there); ask openssl of it where it is, exec: {command: [openssl, pkey, -inform, DER, -in, %s, -noout]} (openssl pkcs12 -info for a .p12)", size, secret.Masked, file),
			Kind: ItemNotUTF8,
		}},
	}}
}
