package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/display"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/runbook"
)

// Progress display: after progressDelay, at most once per progressTick.
const (
	progressDelay = time.Second
	progressTick  = 100 * time.Millisecond
)

// progress is a live recorder (runbook.WithLiveRecorders): it hears of
// each stage and branch as it happens, foreach items included, counts the
// finished stages and branches, and keeps the stage that started last and
// is still running. A ticker goroutine shows them on one stderr line while
// a long run goes on, cut to the terminal's width so that \r can redraw
// it, and erases the line when the run ends:
//
//	branches 12/146, stages done 40, running per-volume~12/posture
//
// Record is called one event at a time (the engine's live sink serialises
// it); the ticker reads under mu.
type progress struct {
	w     io.Writer
	width int // stderr's columns; 0: unknown, nothing cut

	mu       sync.Mutex
	stages   int
	branches int
	total    int
	running  []string // paths (no counter) of stages started and not ended, oldest first

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
	p := &progress{w: w, width: termWidth(w), done: make(chan struct{})}
	p.stopped.Add(1)
	go p.loop()
	return p
}

// Wants: the engine builds no other kind of event for the display.
func (p *progress) Wants(k recorder.Kind) bool {
	switch k {
	case recorder.StageStart, recorder.StageEnd, recorder.BranchEnd, recorder.Fork:
		return true
	}
	return false
}

// Record counts StageEnd and BranchEnd events and the branches each Fork
// starts (a foreach's items, or a parallel/select's branch names), and
// keeps which stages run.
func (p *progress) Record(e recorder.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Kind {
	case recorder.StageStart:
		p.running = append(p.running, flow.StripCounter(e.Path))
	case recorder.StageEnd:
		p.stages++
		path := flow.StripCounter(e.Path)
		for i := len(p.running) - 1; i >= 0; i-- {
			if p.running[i] == path {
				p.running = append(p.running[:i], p.running[i+1:]...)
				break
			}
		}
	case recorder.BranchEnd:
		p.branches++
	case recorder.Fork:
		if e.Total > 0 {
			p.total += e.Total
		} else {
			p.total += len(e.Branches)
		}
	}
}

// line is what the display shows now.
func (p *progress) line() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var parts []string
	if p.total > 0 {
		parts = append(parts, fmt.Sprintf("branches %d/%d", p.branches, p.total))
	}
	parts = append(parts, fmt.Sprintf("stages done %d", p.stages))
	if n := len(p.running); n > 0 {
		parts = append(parts, "running "+clean(p.running[n-1]))
	}
	return cutToWidth(strings.Join(parts, ", "), p.width-1)
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
		if line := p.line(); line != last {
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

// cutToWidth cuts s to at most cols terminal columns (cols ≤ 0: not cut),
// ending it with "…" when cut: a progress line that wrapped could not be
// redrawn in place.
func cutToWidth(s string, cols int) string {
	if cols <= 0 || display.Width(s) <= cols {
		return s
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		w := display.Width(string(r))
		if n+w > cols-1 {
			break
		}
		b.WriteRune(r)
		n += w
	}
	return b.String() + "…"
}

// withProgress adds the progress line to a run's options when it is shown
// (exec and resume alike: a resumed run is a run): the caller stops it when
// the run returns.
func withProgress(opts []runbook.ExecOption, f execFlags, stdout, stderr io.Writer) ([]runbook.ExecOption, *progress) {
	prog := newProgress(stderr, !f.quiet && showProgress(stdout, stderr, f.format))
	if prog != nil {
		opts = append(opts, runbook.WithLiveRecorders(prog))
	}
	return opts, prog
}

// showProgress says whether a run shows progress (cli.md): a person is
// watching — stdout is a terminal — and the line has a terminal to go to on
// stderr. An ndjson stream on that terminal would interleave with it, so it
// gets none.
func showProgress(stdout, stderr io.Writer, format string) bool {
	if !isTerminal(stdout) || !isTerminal(stderr) || dumbTerminal(os.Getenv) {
		return false
	}
	return format != "ndjson"
}

// colourOn says whether w gets colour: a terminal, not a dumb one, and
// NO_COLOR unset or empty (colourWanted).
func colourOn(w io.Writer) bool {
	return colourWanted(os.Getenv) && isTerminal(w)
}

// colourWanted reads the environment's word on colour: no-color.org's
// NO_COLOR "when present and not an empty string" turns it off (`NO_COLOR=`
// leaves it on), and so does TERM=dumb, a terminal that draws no escape
// sequence (Emacs' shell, a CI log viewer that sets it): it showed
// `^[[31mcompleted with failure^[[0m`.
func colourWanted(getenv func(string) string) bool {
	return getenv("NO_COLOR") == "" && !dumbTerminal(getenv)
}

// dumbTerminal says TERM is dumb: no escape sequence is drawn, so neither
// colour nor the progress line that rewrites itself (\r\033[K).
func dumbTerminal(getenv func(string) string) bool {
	return getenv("TERM") == "dumb"
}

// isTerminal reports whether w is an *os.File on a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// termWidth is the width in columns of the terminal w is, 0 when w is not
// a terminal (or says it has no width): the text output is then laid out
// as the record has it.
func termWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil || cols <= 0 {
		return 0
	}
	return cols
}
