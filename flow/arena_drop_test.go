package flow

import (
	"context"
	"sync"
	"testing"
)

// TestFanoutWorkersLetGoOfTheirRoom: a worker's arena can outlive the
// fan-out (its slab's first box may hold a decision's evidence that a
// commit keeps), so when the worker is done it must hold neither its
// commit room nor its spare scope — each worker kept its last chunk of
// branch logs alive, 12.6 MB on a 100k-item foreach, before it let go.
func TestFanoutWorkersLetGoOfTheirRoom(t *testing.T) {
	var mu sync.Mutex
	var seen []*arena
	workerDone = func(a *arena) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, a)
	}
	defer func() { workerDone = nil }()
	items := make([]any, 200)
	c, err := New("wide").ForEach("each", ForEach{
		Items:       func(ctx context.Context, s *Scope) ([]any, error) { return items, nil },
		MaxBranches: len(items),
		Body: Seq().Stage("mark", func(ctx context.Context, s *Scope) error {
			s.Set("seen", true)
			return nil
		}),
	}).Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(context.Background(), WithConcurrency(4)); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 4 {
		t.Fatalf("%d workers reported, want 4", len(seen))
	}
	for _, a := range seen {
		if a.commits != nil || a.spare != nil {
			t.Fatalf("a worker's arena still holds its commit room (%d) or spare scope (%v)", cap(a.commits), a.spare != nil)
		}
	}
}

// TestMovedBranchLogLeavesNoStaleRoom: a branch whose log outgrew its room
// in the arena moved it out; the room it wrote in is never handed to the
// next branch, whose commits are filled on the promise that a log extends
// only into zero slots (nextCommit, commit).
func TestMovedBranchLogLeavesNoStaleRoom(t *testing.T) {
	a := new(arena)
	log := a.branchLog()
	room := cap(log)
	for i := 0; i <= room; i++ { // one more than the room: the log moves
		nextCommit(&log).attempt = 7
	}
	a.keepLog(&log)
	next := a.branchLog()
	if c := nextCommit(&next); c.attempt != 0 {
		t.Fatalf("the next branch's first commit slot holds %+v; want a zero commit", *c)
	}
}
