package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel send the child SIGTERM when runbook dies,
// however it dies: a kill -9 passes no signal on, and runbook-temporal
// (a worker polling for ever) would be left an orphan. The kernel ties it
// to the thread that started the child, so handOff holds that thread.
func dieWithParent(c *exec.Cmd) {
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Pdeathsig = syscall.SIGTERM
}
