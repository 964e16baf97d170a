//go:build linux

package proc

import "syscall"

// osSignalNames are the signals only Linux has.
var osSignalNames = map[syscall.Signal]string{
	syscall.SIGSTKFLT: "SIGSTKFLT",
	syscall.SIGPWR:    "SIGPWR",
}
