//go:build linux

package sdk

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// setParentDeathSignal asks Linux to send SIGTERM when the parent dies.
func setParentDeathSignal() {
	_ = unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0)
}

// killOwnGroup SIGKILLs this process's process group — itself and every
// child it started — when it leads that group, as a runbook host starts
// every plugin. A plugin started by someone else, in their group, kills
// nothing but itself: never the group of whoever started it.
func killOwnGroup() {
	if syscall.Getpgrp() == syscall.Getpid() {
		_ = syscall.Kill(0, syscall.SIGKILL)
	}
}
