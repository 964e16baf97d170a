package host

import (
	"bytes"
	"log/slog"
	"sync"
)

// stdio receives what a plugin writes to os.Stdout and os.Stderr while it
// serves, which go-plugin streams over gRPC (ClientConfig.SyncStdout and
// SyncStderr): the bytes join the plugin's stderr tail, and each whole line
// goes to the host's logger at Info, as the plugin's raw stderr lines do.
type stdio struct {
	tail   *ring
	logger *slog.Logger
	mask   func(string) string // WithMask's; nil: none
	plugin string
	stream string

	mu      sync.Mutex
	partial []byte
}

func (s *stdio) Write(p []byte) (int, error) {
	_, _ = s.tail.Write(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		if line := bytes.TrimRight(s.partial[:i], "\r"); len(line) > 0 {
			s.logger.Info(s.masked(string(line)), "plugin", s.plugin, "stream", s.stream)
		}
		s.partial = s.partial[i+1:]
	}
	if len(s.partial) > tailBytes { // a line that never ends: log what there is
		s.logger.Info(s.masked(string(s.partial)), "plugin", s.plugin, "stream", s.stream)
		s.partial = nil
	}
	return len(p), nil
}

func (s *stdio) masked(line string) string {
	if s.mask == nil {
		return line
	}
	return s.mask(line)
}
