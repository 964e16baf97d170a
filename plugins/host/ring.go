package host

import (
	"strings"
	"sync"
)

// stderrTail keeps the last tailBytes of a plugin's stderr, for the error
// that names it.
const tailBytes = 4 << 10

type ring struct {
	mu  sync.Mutex
	buf []byte
	// mask is WithMask's, applied when the tail is read: the kept bytes
	// are whole lines, so a secret is seen whole (nil: none).
	mask func(string) string
}

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if over := len(r.buf) - tailBytes; over > 0 {
		cut := over
		// Start at a line when one begins within the cut's reach.
		if i := strings.IndexByte(string(r.buf[over:]), '\n'); i >= 0 && i < 256 {
			cut = over + i + 1
		}
		r.buf = append(r.buf[:0:0], r.buf[cut:]...)
	}
	return len(p), nil
}

// tail is the kept stderr, trimmed.
func (r *ring) tail() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := strings.TrimSpace(string(r.buf))
	if r.mask != nil {
		t = r.mask(t)
	}
	return t
}
