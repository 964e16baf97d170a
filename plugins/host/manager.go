package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Manager starts the stage plugins one run uses, each at most once, on
// first use, and stops them all on Close. Safe for concurrent use.
type Manager struct {
	chart map[string]Source
	dir   string
	opts  []Option

	mu     sync.Mutex
	stages map[string]*starting
	closed bool
}

type starting struct {
	done   chan struct{}
	cancel context.CancelFunc // ends the start: Close calls it
	s      *Stage
	p      *Plugin
	err    error
	// handshook: the process started and handshook, so a start past its
	// time was its Describe's (it said "did not handshake" of a plugin
	// that had, sending its author to the wrong place).
	handshook atomic.Bool
}

// NewManager resolves plugin names in chart (a chart's `plugins:` map,
// paths absolute), then in dir (`runbook-plugin-<name>`; "" none).
func NewManager(chart map[string]Source, dir string, opts ...Option) *Manager {
	return &Manager{chart: chart, dir: dir, opts: opts, stages: map[string]*starting{}}
}

// Stage returns the stage plugin called name, starting it on first use.
// A plugin that failed to start fails every later use the same way
// (it is not restarted within the run).
func (m *Manager) Stage(ctx context.Context, name string) (*Stage, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, &Error{Plugin: name, Op: "start", Err: context.Canceled}
	}
	st, ok := m.stages[name]
	if !ok {
		// The start outlives a caller that gives up (another branch may
		// wait), but not Close.
		sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		st = &starting{done: make(chan struct{}), cancel: cancel}
		m.stages[name] = st
		go m.start(sctx, name, st)
	}
	m.mu.Unlock()
	began := time.Now()
	select {
	case <-st.done:
		return st.s, st.err
	case <-ctx.Done():
		err := ctx.Err()
		if errors.Is(err, context.DeadlineExceeded) {
			// The time it was given is its deadline's, not the time this
			// goroutine took to notice it: on a loaded machine that was
			// later, and a 500ms bound was said as 600ms.
			given := time.Since(began)
			if dl, ok := ctx.Deadline(); ok {
				given = max(0, dl.Sub(began))
			}
			if st.handshook.Load() {
				// It started; its Describe is what did not answer.
				err = fmt.Errorf("handshook, then did not describe itself within %s, the time it was given (Describe must answer at once: do slow setup in Run, or when serving starts): %w", given.Round(100*time.Millisecond), err)
			} else {
				err = fmt.Errorf("did not handshake within %s, the time it was given: %w", given.Round(100*time.Millisecond), err)
			}
		}
		return nil, &Error{Plugin: name, Op: "start", Err: err}
	}
}

func (m *Manager) start(ctx context.Context, name string, st *starting) {
	defer close(st.done)
	defer st.cancel()
	src, err := Resolve(name, m.chart, m.dir)
	if err != nil {
		st.err = err
		return
	}
	p, err := Start(ctx, src, m.opts...)
	if err != nil {
		st.err = err
		return
	}
	st.p = p
	st.handshook.Store(true)
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		p.Kill()
		st.err = &Error{Plugin: name, Op: "start", Err: context.Canceled}
		return
	}
	st.s, st.err = p.Stage(ctx)
	if st.err == nil {
		if err := NameMismatch(st.s.desc.Name, name, src.Path, false); err != nil {
			// Another plugin under this one's name (a binary copied to
			// runbook-plugin-NAME, a plugins: map pointing at the wrong
			// file) ran, and answered, as the plugin the chart asked for.
			st.err = &Error{Plugin: name, Op: "describe", Err: err}
			st.s = nil
		}
	}
}

// NameMismatch is the one rule of a plugin's name: the name it declares
// (Description.Name) must be the one it is called by — by a chart
// (byFile false), or, for a file in a plugin directory, by its file name
// runbook-plugin-NAME (byFile true: `runbook plugins` and `runbook
// plugins check` of such a file, which listed and PASSed a file a chart
// calling it by that name refuses). nil when they are the same.
func NameMismatch(declared, name, path string, byFile bool) error {
	if declared == name {
		return nil
	}
	if byFile {
		return fmt.Errorf("declares its name %q, but its file is named for %q: a chart calling %s from a plugin directory refuses it, and one calling %s does not find it; name the file %s%s", declared, name, name, declared, Prefix, declared)
	}
	return fmt.Errorf("declares its name %q, but the chart calls it %q: %s is another plugin; install %s%s, or point the chart's plugins: map at it", declared, name, path, Prefix, name)
}

// Provenance is what a run's record says of a stage plugin that ran: which
// plugin, which build (its declared version) and which bytes.
type Provenance struct {
	Name     string
	Version  string
	Protocol int
	Path     string
	SHA256   string
}

// Started is the provenance of every stage plugin that started and
// described itself, sorted by name.
func (m *Manager) Started() []Provenance {
	m.mu.Lock()
	all := make([]*starting, 0, len(m.stages))
	for _, st := range m.stages {
		all = append(all, st)
	}
	m.mu.Unlock()
	var out []Provenance
	for _, st := range all {
		select {
		case <-st.done:
		default:
			continue // still starting: it has run nothing
		}
		if st.s == nil || st.p == nil {
			continue
		}
		out = append(out, Provenance{Name: st.p.Name(), Version: st.s.Description().Version,
			Protocol: st.p.Protocol(), Path: st.p.Path(), SHA256: st.p.SHA256()})
	}
	slices.SortFunc(out, func(a, b Provenance) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Close stops every plugin process the manager started, concurrently, and
// waits until they are gone. A start still under way is ended, not waited
// out.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	all := make([]*starting, 0, len(m.stages))
	for _, st := range m.stages {
		all = append(all, st)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, st := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.cancel()
			<-st.done
			if st.p != nil {
				st.p.Kill()
			}
		}()
	}
	wg.Wait()
}
