//go:build !linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
)

// dieWithParent does nothing off Linux: no other kernel signals a child
// when its parent dies, so there a runbook killed with SIGKILL leaves
// runbook-temporal running (a signal runbook catches is still passed on).
func dieWithParent(*exec.Cmd) {}

// inputsChannel writes the inputs in a file only this user reads, in the
// run's temporary folder (tmp), removed when runbook returns: off Linux a
// runbook killed with SIGKILL leaves it (and runbook-temporal) behind.
func inputsChannel(tmp string, data []byte) (string, *pipedInputs, error) {
	f := filepath.Join(tmp, "inputs.json")
	return f, nil, os.WriteFile(f, data, 0o600)
}
