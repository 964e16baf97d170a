//go:build linux

package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// unread is how many bytes wait unread in the pipe f (FIONREAD, which
// Linux names TIOCINQ; 0 when it cannot say). Control leaves f as it is
// (Fd would make it blocking under the reader).
func unread(f *os.File) int {
	sc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = sc.Control(func(fd uintptr) { n, _ = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
	return n
}
