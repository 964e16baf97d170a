package record

import (
	"strings"
	"testing"
)

// TestNotUTF8CompressedFileSaysUnpackIt: a rotated log's compressed
// sibling (syslog.2.gz, matched by a read: glob over /var/log/syslog*) is
// bytes no UTF-8 reader can read; the ledger told the operator to convert
// it with iconv -f WINDOWS-1252, which never reads a gzip file. It now
// names the compression and the command that unpacks it, and a plain
// Latin-1 text still gets the iconv advice.
func TestNotUTF8CompressedFileSaysUnpackIt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, of, line string
		want, not      string
	}{
		{"gzip", "the file var/syslog.2.gz", "\x1f\x8b\b\x00\x00\x00\x00\x00\x00\x03sIMV", "it is gzip-compressed (it begins with the bytes 1f 8b), so none of the lines it holds were read: unpack it where it is read, exec: {command: [zcat, -f, var/syslog.2.gz], parse: lines} in place of read:", "iconv"},
		{"xz", "the file app.log.xz", "\xfd7zXZ\x00\x00\x04", "it is xz-compressed (it begins with the bytes fd 37 7a 58 5a 00)", "iconv"},
		{"zstd stdout", "its stdout", "\x28\xb5\x2f\xfd\x04", "exec: {command: [zstdcat, -f, FILE], parse: lines}", "iconv"},
		{"latin-1", "the file app.log", "caf\xe9", "iconv -f WINDOWS-1252 -t UTF-8", "compressed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := NotUTF8Entry("files", tc.of, 3, 1, strings.IndexFunc(tc.line, func(r rune) bool { return r == '\uFFFD' }), tc.line)
			why := e.NotChecked[0].Why
			if !strings.Contains(why, tc.want) || strings.Contains(why, tc.not) {
				t.Errorf("why = %q\nwant it to hold %q and not %q", why, tc.want, tc.not)
			}
			if e.NotChecked[0].Kind != ItemNotUTF8 {
				t.Errorf("kind = %q, want %q", e.NotChecked[0].Kind, ItemNotUTF8)
			}
		})
	}
}
