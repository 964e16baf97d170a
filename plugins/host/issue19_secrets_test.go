package host_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/host"
)

// syncBuffer is a log sink the plugin's reader goroutines write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestIssue19PluginStderrMasked: what a plugin writes on stderr — its
// arguments as %v, %q, JSON and a JSON log line — reaches the host's log,
// and on a crash the error's stderr tail, with the run's secrets masked
// (issue #19: a plugin's stderr was passed on as written).
func TestIssue19PluginStderrMasked(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), host.Prefix+"logargs")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/openrunbook/runbook/plugins/internal/testplugin/logargs").CombinedOutput(); err != nil {
		t.Fatalf("building logargs: %v\n%s", err, out)
	}
	const text, num = `sec"<ret-4f9Kq\x`, 73914
	secrets := secret.New()
	secrets.Add(text)
	secrets.Add(num)
	for _, crash := range []bool{false, true} {
		t.Run("crash="+strconv.FormatBool(crash), func(t *testing.T) {
			t.Parallel()
			log := &syncBuffer{}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			p, err := host.Start(ctx, host.Source{Name: "logargs", Path: bin},
				host.WithLogger(slog.New(slog.NewJSONHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug - 4}))),
				host.WithMask(secrets.Text))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Kill()
			st, err := p.Stage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			_, err = st.Run(ctx, plugins.Request{Args: map[string]any{"text": text, "num": num, "crash": crash}})
			var he *host.Error
			if crash && !errors.As(err, &he) {
				t.Fatalf("a crash is not a host error: %v", err)
			}
			if !crash && err != nil {
				t.Fatal(err)
			}
			// The lines arrive on the plugin's reader goroutines: wait for
			// the last one.
			for deadline := time.Now().Add(5 * time.Second); !strings.Contains(log.String(), "a JSON log line") && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			p.Kill()
			where := map[string]string{"the host log": log.String()}
			if he != nil {
				where["the error"] = he.Error()
				if !strings.Contains(he.Stderr, "logargs: args") {
					t.Errorf("the error's stderr tail lost the plugin's lines: %q", he.Stderr)
				}
			}
			if !strings.Contains(log.String(), "logargs: args") {
				t.Fatalf("the plugin's stderr did not reach the log:\n%s", log.String())
			}
			for name, out := range where {
				for _, r := range []string{text, strconv.Quote(text)[1:9], `sec\"\u003cret`, `sec\\\"\u003cret`, `sec\\\"<ret`, strconv.Itoa(num)} {
					if strings.Contains(out, r) {
						t.Errorf("%s shows the secret as %q:\n%s", name, r, out)
					}
				}
			}
		})
	}
}
