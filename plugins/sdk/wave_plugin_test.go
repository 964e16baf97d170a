package sdk_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/openrunbook/runbook/plugins/sdk"
)

// badType declares an argument of type "int", which the host does not
// check and so refuses when the plugin describes itself.
type badType struct{}

func (badType) Describe() sdk.Description {
	return sdk.Description{Name: "bad-type", Version: "1.0.0", Args: []sdk.Arg{{Name: "n", Type: "int"}}}
}

func (badType) Run(context.Context, sdk.Request) (sdk.Response, error) {
	return sdk.Response{Result: map[string]any{"ok": true}}, nil
}

// fatalTB records a Fatalf and stops the goroutine, as testing.T does.
type fatalTB struct {
	testing.TB
	mu    sync.Mutex
	fatal string
	clean []func()
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Cleanup(fn func()) {
	f.mu.Lock()
	f.clean = append(f.clean, fn)
	f.mu.Unlock()
}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.fatal = fmt.Sprintf(format, args...)
	f.mu.Unlock()
	runtime.Goexit()
}

// A plugin whose description the host refuses fails its own tests under
// sdk.TestServe, in the host's words: TestServe called it and answered,
// and the plugin author learnt only from a run that every run refuses it.
func TestServeRefusesADescriptionTheHostRefuses(t *testing.T) {
	t.Parallel()
	f := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sdk.TestServe(f, badType{})
	}()
	<-done
	for i := len(f.clean) - 1; i >= 0; i-- {
		f.clean[i]()
	}
	if !strings.Contains(f.fatal, `declares type "int", which is not a type runbook checks`) {
		t.Errorf("TestServe's failure = %q; want the host's refusal of the description", f.fatal)
	}
}
