//go:build !linux

package proc

import "syscall"

// osSignalNames: none beyond the common ones elsewhere than Linux.
var osSignalNames = map[syscall.Signal]string{}
