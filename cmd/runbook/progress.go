package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openrunbook/runbook/recorder"
)

// Progress display: after progressDelay, at most once per progressTick.
const (
	progressDelay = time.Second
	progressTick  = 100 * time.Millisecond
)

// progress is a recorder that counts finished stages and branches and shows
// the counts on one stderr line while a long run goes on, erasing the line
// when the run ends. Record only adds to counters; a ticker goroutine prints.
type progress struct {
	w        io.Writer
	stages   atomic.Int64
	branches atomic.Int64
	total    atomic.Int64

	done    chan struct{}
	stopped sync.WaitGroup
	shown   bool // the line is on screen (ticker goroutine only)
}

// newProgress starts the display on w, or returns nil when on is false. A
// nil *progress is a no-op for stop.
func newProgress(w io.Writer, on bool) *progress {
	if !on {
		return nil
	}
	p := &progress{w: w, done: make(chan struct{})}
	p.stopped.Add(1)
	go p.loop()
	return p
}

// Record counts StageEnd and BranchEnd events, and the branches each Fork
// starts (a foreach's items, or a parallel/select's branch names).
func (p *progress) Record(e recorder.Event) {
	switch e.Kind {
	case recorder.StageEnd:
		p.stages.Add(1)
	case recorder.BranchEnd:
		p.branches.Add(1)
	case recorder.Fork:
		if e.Total > 0 {
			p.total.Add(int64(e.Total))
		} else {
			p.total.Add(int64(len(e.Branches)))
		}
	}
}

func (p *progress) loop() {
	defer p.stopped.Done()
	delay := time.NewTimer(progressDelay)
	defer delay.Stop()
	select {
	case <-p.done:
		return
	case <-delay.C:
	}
	tick := time.NewTicker(progressTick)
	defer tick.Stop()
	last := ""
	for {
		line := fmt.Sprintf("stages done %d, branches %d/%d", p.stages.Load(), p.branches.Load(), p.total.Load())
		if line != last {
			fmt.Fprintf(p.w, "\r\033[K%s", line)
			p.shown, last = true, line
		}
		select {
		case <-p.done:
			if p.shown {
				fmt.Fprint(p.w, "\r\033[K")
			}
			return
		case <-tick.C:
		}
	}
}

// stop ends the display and erases its line.
func (p *progress) stop() {
	if p == nil {
		return
	}
	close(p.done)
	p.stopped.Wait()
}

// showProgress says whether a run shows progress (cli.md): a person is
// watching — stdout is a terminal — and the line has a terminal to go to on
// stderr. An ndjson stream on that terminal would interleave with it, so it
// gets none.
func showProgress(stdout, stderr io.Writer, format string) bool {
	if !isTerminal(stdout) || !isTerminal(stderr) {
		return false
	}
	return format != "ndjson"
}

// colourOn says whether w gets colour: a terminal, and NO_COLOR unset.
func colourOn(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether w is an *os.File on a character device (a
// terminal; /dev/null too, which is harmless for what we decide with it).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
