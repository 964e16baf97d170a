package proc

import (
	"errors"
	"fmt"
	"strconv"
	"syscall"
	"time"
)

// pollEvery is how often KillGroup looks whether the group is gone.
const pollEvery = 10 * time.Millisecond

// KillGroup stops the process group pgid: SIGTERM to every member, then, if
// any member is still there after grace, SIGKILL. It returns once the group
// is gone or SIGKILL was sent, so it blocks at most about grace; a group
// already gone is no error.
//
// A zombie is still a member of its group, so the caller must be waiting for
// the leader concurrently, or KillGroup spends the whole grace (as it does
// when a killed orphan is left unreaped, under a PID 1 that is not an init).
// It refuses pgid 0 and 1 and the caller's own group: kill(2) would read
// those as "my group" or "every process".
func KillGroup(pgid int, grace time.Duration) error {
	if err := signalGroup(pgid, syscall.SIGTERM); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return err
	}
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-deadline.C:
			if err := signalGroup(pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
				return err
			}
			return nil
		case <-tick.C:
			if errors.Is(signalGroup(pgid, 0), syscall.ESRCH) {
				return nil
			}
		}
	}
}

// signalGroup sends sig to every member of group pgid (0 only probes).
func signalGroup(pgid int, sig syscall.Signal) error {
	if pgid <= 1 || pgid == syscall.Getpgrp() {
		return fmt.Errorf("proc: refusing to signal process group %d", pgid)
	}
	if err := syscall.Kill(-pgid, sig); err != nil {
		return fmt.Errorf("proc: signal %s to process group %d: %w", SignalName(sig), pgid, err)
	}
	return nil
}

// SignalName is the conventional name of sig on Linux ("SIGKILL"), or
// "SIGRTMIN+n" for a real-time signal, or "signal N" for one it does not know.
func SignalName(sig syscall.Signal) string {
	if name, ok := signalNames[sig]; ok {
		return name
	}
	if name, ok := osSignalNames[sig]; ok {
		return name
	}
	if sig >= sigRTMin && sig <= sigRTMax {
		return "SIGRTMIN+" + strconv.Itoa(int(sig-sigRTMin))
	}
	return "signal " + strconv.Itoa(int(sig))
}

// Real-time signals as the kernel numbers them (glibc reserves the first few,
// so a shell's SIGRTMIN may read a little higher).
const (
	sigRTMin syscall.Signal = 32
	sigRTMax syscall.Signal = 64
)

var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP:    "SIGHUP",
	syscall.SIGINT:    "SIGINT",
	syscall.SIGQUIT:   "SIGQUIT",
	syscall.SIGILL:    "SIGILL",
	syscall.SIGTRAP:   "SIGTRAP",
	syscall.SIGABRT:   "SIGABRT",
	syscall.SIGBUS:    "SIGBUS",
	syscall.SIGFPE:    "SIGFPE",
	syscall.SIGKILL:   "SIGKILL",
	syscall.SIGUSR1:   "SIGUSR1",
	syscall.SIGSEGV:   "SIGSEGV",
	syscall.SIGUSR2:   "SIGUSR2",
	syscall.SIGPIPE:   "SIGPIPE",
	syscall.SIGALRM:   "SIGALRM",
	syscall.SIGTERM:   "SIGTERM",
	syscall.SIGCHLD:   "SIGCHLD",
	syscall.SIGCONT:   "SIGCONT",
	syscall.SIGSTOP:   "SIGSTOP",
	syscall.SIGTSTP:   "SIGTSTP",
	syscall.SIGTTIN:   "SIGTTIN",
	syscall.SIGTTOU:   "SIGTTOU",
	syscall.SIGURG:    "SIGURG",
	syscall.SIGXCPU:   "SIGXCPU",
	syscall.SIGXFSZ:   "SIGXFSZ",
	syscall.SIGVTALRM: "SIGVTALRM",
	syscall.SIGPROF:   "SIGPROF",
	syscall.SIGWINCH:  "SIGWINCH",
	syscall.SIGIO:     "SIGIO",
	syscall.SIGSYS:    "SIGSYS",
}
