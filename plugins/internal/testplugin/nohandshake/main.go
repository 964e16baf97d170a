// Command nohandshake is a plugin that never handshakes: it starts a child
// that holds its stdout and stderr (sleep 60), writes both pids to the file
// beside its own binary (EXE.pids), and then neither it nor the child writes
// a line. go-plugin's readers of the plugin's pipes see no end until the
// child is gone, so a host that waits for them before killing the process
// group hangs. With NOHANDSHAKE_SETSID=1 the child leaves the plugin's
// process group and session (setsid), so killing the group cannot end it.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	child := exec.Command("sleep", "60")
	child.Stdout, child.Stderr = os.Stdout, os.Stderr
	if os.Getenv("NOHANDSHAKE_SETSID") == "1" {
		child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	}
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "nohandshake:", err)
		os.Exit(1)
	}
	if exe, err := os.Executable(); err == nil {
		pids := fmt.Sprintf("%d\n%d\n", os.Getpid(), child.Process.Pid)
		_ = os.WriteFile(exe+".pids.tmp", []byte(pids), 0o644)
		_ = os.Rename(exe+".pids.tmp", exe+".pids")
	}
	fmt.Fprintln(os.Stderr, "nohandshake: started a child holding stdout; never handshaking")
	for {
		time.Sleep(time.Hour)
	}
}
