package host

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestStdioSink: what go-plugin streams of a plugin's os.Stdout/os.Stderr
// joins the stderr tail and reaches the logger a whole line at a time.
func TestStdioSink(t *testing.T) {
	t.Parallel()
	var logged bytes.Buffer
	tail := &ring{}
	s := &stdio{tail: tail, logger: slog.New(slog.NewTextHandler(&logged, nil)), plugin: "p", stream: "stderr"}
	for _, chunk := range []string{"first li", "ne\nsecond\r\n", "unfinished"} {
		if n, err := s.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if got, want := tail.tail(), "first line\nsecond\r\nunfinished"; got != want {
		t.Errorf("tail = %q, want %q", got, want)
	}
	out := logged.String()
	for _, want := range []string{`msg="first line" plugin=p stream=stderr`, "msg=second plugin=p"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "unfinished") {
		t.Errorf("an unfinished line was logged:\n%s", out)
	}
}
