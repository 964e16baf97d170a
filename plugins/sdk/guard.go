package sdk

import (
	"context"
	"fmt"
	"runtime/debug"
)

// maxStack bounds the stack a recovered panic puts on its call's error:
// enough for the frames that matter, never a record swamped by one call.
const maxStack = 8 << 10

// guarded is st with a panic in Run turned into that call's error, its
// stack kept: `plugin panicked: MSG` and then the goroutine's stack, so
// the record says where the plugin failed, not only that it did. Serve
// and the test helpers serve every stage through it; the process and the
// other calls of the batch go on.
type guarded struct{ st Stage }

func (g guarded) Describe() Description { return g.st.Describe() }

func (g guarded) Run(ctx context.Context, req Request) (resp Response, err error) {
	defer func() {
		if r := recover(); r != nil {
			stack := debug.Stack()
			if len(stack) > maxStack {
				stack = append(stack[:maxStack:maxStack], "\n…(stack cut)"...)
			}
			resp, err = Response{}, fmt.Errorf("plugin panicked: %v\n\npanic: %v\n%s", r, r, stack)
		}
	}()
	return g.st.Run(ctx, req)
}

// guard wraps st once (nil stays nil: a process serving only honesty).
func guard(st Stage) Stage {
	if st == nil {
		return nil
	}
	if _, ok := st.(guarded); ok {
		return st
	}
	return guarded{st}
}
