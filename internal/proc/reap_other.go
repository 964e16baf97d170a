//go:build !linux

package proc

import "syscall"

// sysProcAttr puts the child in a process group of its own. Elsewhere than
// Linux there is no parent-death signal, so a command outlives a
// SIGKILLed runner.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// lockThreadForChild is false where no parent-death signal is tied to the
// forking thread.
const lockThreadForChild = false

// sweep finds nothing elsewhere than Linux: without a child subreaper a
// process that left the command's group is reparented to init, out of
// reach; the group kill is all there is.
func sweep(tag string, leader int) {}

// becomeSubreaper: there is no child subreaper elsewhere than Linux.
func becomeSubreaper() bool { return false }
