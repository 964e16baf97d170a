// Command escapes is a stage plugin that, as it starts, leaves a child in
// a session (and process group) of its own: stopping the plugin's group
// cannot reach it, so `runbook plugins check` must say it is left. It
// writes the child's pid to $TMPDIR/escapes.pid for the test to end it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/openrunbook/runbook/plugins/sdk"
)

type stage struct{}

func (stage) Describe() sdk.Description {
	return sdk.Description{Name: "escapes", Version: "0.1.0", Description: "leaves a child outside its process group"}
}

func (stage) Run(context.Context, sdk.Request) (sdk.Response, error) {
	return sdk.Response{Result: map[string]any{"ok": true}}, nil
}

func main() {
	if os.Getenv("RUNBOOK_PLUGIN") != "" {
		c := exec.Command("sleep", "300")
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := c.Start(); err == nil {
			_ = os.WriteFile(filepath.Join(os.TempDir(), "escapes.pid"), []byte(fmt.Sprint(c.Process.Pid)), 0o644)
		}
	}
	sdk.Serve(stage{})
}
