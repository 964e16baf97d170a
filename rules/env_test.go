package rules

import "sync"

// mapEnv is a scope held in a map.
type mapEnv map[string]any

func (m mapEnv) Get(k string) (any, bool) { v, ok := m[k]; return v, ok }

// countEnv counts the reads of each key, as the engine's tracked view would
// record them.
type countEnv struct {
	m    map[string]any
	mu   sync.Mutex
	gets map[string]int
	// order is the keys in the order first read.
	order []string
}

func newCountEnv(m map[string]any) *countEnv { return &countEnv{m: m, gets: map[string]int{}} }

func (c *countEnv) Get(k string) (any, bool) {
	c.mu.Lock()
	if c.gets[k] == 0 {
		c.order = append(c.order, k)
	}
	c.gets[k]++
	c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// panicEnv panics on every read.
type panicEnv struct{}

func (panicEnv) Get(string) (any, bool) { panic("boom") }
