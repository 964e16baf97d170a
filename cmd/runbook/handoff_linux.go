package main

import (
	"os"
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

// inputsChannel hands runbook-temporal the inputs through a pipe it reads
// as /dev/fd/3, never a file: a file in the temporary folder outlived a
// runbook killed with SIGKILL (no deferred removal runs), a secret input's
// value in it, readable by this user for as long as the folder lasted
// (TestTemporalInputsNeverOnDisk).
func inputsChannel(_ string, data []byte) (string, *pipedInputs, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", nil, err
	}
	return "/dev/fd/3", &pipedInputs{r: r, w: w, data: data}, nil
}
