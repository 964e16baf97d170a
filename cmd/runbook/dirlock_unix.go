//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"os"
	"syscall"
)

// lockDir holds an exclusive flock(2) on the folder dir until the returned
// function is called, so that runbook processes writing records in one
// folder choose and write their files one at a time (writeRunRecord). A
// folder that cannot be opened or locked is not locked: the write goes on
// as it did before there was a lock.
func lockDir(dir string) (unlock func()) {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
