//go:build !linux

package main

import "os/exec"

// dieWithParent does nothing off Linux: no other kernel signals a child
// when its parent dies, so there a runbook killed with SIGKILL leaves
// runbook-temporal running (a signal runbook catches is still passed on).
func dieWithParent(*exec.Cmd) {}
