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
