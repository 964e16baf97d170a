package proc

import (
	"context"
	"testing"
	"time"
)

// TestOutputWaitingInThePipeIsNotDropped: output the command wrote before
// it ended is read whole, however late the readers get to it. With a
// drain window far shorter than a reader needs (a starved runner: a
// worker on a loaded machine lost an echo's output 1 to 3 times in
// 20,000), the pipes were closed with the output still in them, and the
// record said the command printed nothing.
func TestOutputWaitingInThePipeIsNotDropped(t *testing.T) {
	t.Parallel()
	for range 20 {
		r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "head -c 50000 /dev/zero | tr '\\0' x; echo done >&2"}, Drain: time.Nanosecond})
		if len(r.Stdout) != 50000 || string(r.Stderr) != "done\n" {
			t.Fatalf("read %d bytes of stdout and stderr %q; want 50000 and \"done\\n\"", len(r.Stdout), r.Stderr)
		}
	}
}
