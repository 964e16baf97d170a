//go:build unix

package runbook

import "syscall"

func notDirError() error { return syscall.ENOTDIR }
