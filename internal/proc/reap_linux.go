//go:build linux

package proc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// sysProcAttr puts the child in a process group of its own, which the
// runner signals whole, and asks the kernel to SIGKILL it when the runner
// dies: a SIGKILLed runbook runs no cleanup, so without Pdeathsig the
// command would outlive it. Linux delivers the parent-death signal when
// the THREAD that forked the child exits, not the process, which is why
// Run holds its OS thread from Start until the child is reaped.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// lockThreadForChild is true where the parent-death signal is tied to the
// forking thread (Linux).
const lockThreadForChild = true

var subreaper struct {
	once sync.Once
	ok   bool
}

// becomeSubreaper makes this process a child subreaper (prctl
// PR_SET_CHILD_SUBREAPER), once, before the first command starts: a
// process whose parent ends is then reparented to the runner instead of
// init, so sweep can find what a command left behind — a grandchild that
// called setsid left the group the runner kills, but not the runner's
// tree. It is process-wide and permanent, so it is done only by a process
// that runs exec commands, never at package init.
func becomeSubreaper() bool {
	subreaper.once.Do(func() {
		subreaper.ok = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
	})
	return subreaper.ok
}

// sweep SIGKILLs and reaps every process that one Run's command left
// behind outside its process group: the runner's children that carry the
// run's tag in their environment (orphans reparented here, since the
// runner is a subreaper), and all their descendants, tagged or not. The
// leader is never touched: os/exec waits on it. Nothing else is touched
// either: a child without the tag is another run's, a plugin's, or the
// caller's own.
//
// Each victim is held by a pidfd from before it is checked to after it is
// reaped, so a pid reused meanwhile is never signalled nor waited on. It
// takes a few rounds, because a killed parent's children are reparented
// here only as it dies, and returns within about sweepWithin.
func sweep(tag string, leader int) {
	if !becomeSubreaper() {
		return // orphans go to init: nothing here can find them
	}
	self := os.Getpid()
	mark := []byte(tagKey + "=" + tag + "\x00")
	held := map[int]int{} // pid → pidfd, for every victim signalled
	defer func() {
		for _, fd := range held {
			_ = unix.Close(fd)
		}
	}()
	deadline := time.Now().Add(sweepWithin)
	for rounds := 0; rounds < sweepRounds && time.Now().Before(deadline); {
		// Every victim ended before this look: whatever they left is
		// reparented here by now, so a look that finds nothing new is the
		// last.
		settled := allExited(held)
		procs, kids := table()
		// The tagged children, those signalled before too (their new
		// children are looked for), then everything below them, parents
		// before children.
		var queue []int
		for _, c := range kids[self] {
			if _, ok := held[c]; ok || (c != leader && hasTag(c, mark)) {
				queue = append(queue, c)
			}
		}
		found := 0
		for ; len(queue) > 0; queue = queue[1:] {
			p := queue[0]
			queue = append(queue, kids[p]...)
			if _, ok := held[p]; ok || p == leader {
				continue
			}
			fd, err := unix.PidfdOpen(p, 0)
			if err != nil {
				continue // already gone
			}
			// The pidfd is the process now at p: it must be the one looked
			// at (same start time), so a pid reused meanwhile is let be.
			if now, ok := readStat(p); !ok || now.start != procs[p].start {
				_ = unix.Close(fd)
				continue
			}
			held[p] = fd
			_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
			found++
		}
		// A victim still ending may yet hand its children over (a killed
		// process's children are reparented as it exits): look again
		// until every one had ended before a look that found nothing.
		switch {
		case found > 0:
			rounds++
		case settled:
			rounds = sweepRounds
		default:
			time.Sleep(time.Millisecond)
		}
	}
	reap(held, deadline)
}

// sweep's bounds: a command that forks faster than it is killed is cut
// off after sweepRounds rounds that each found new processes; a victim
// the kernel takes long to end (stuck in an uninterruptible sleep) is
// left unreaped after sweepWithin.
const (
	sweepRounds = 16
	sweepWithin = 2 * time.Second
)

// reap waits for every held victim: one that is the runner's child is
// reaped (waitid on its pidfd, which can only ever reap that process);
// one that is not ended as another victim's child, and either was reaped
// by it or comes to the runner once that parent is gone, so it is asked
// again a few times before it is let go.
func reap(held map[int]int, deadline time.Time) {
	notOurs := map[int]int{}
	for len(held) > 0 && time.Now().Before(deadline) {
		for p, fd := range held {
			var info unix.Siginfo
			err := unix.Waitid(unix.P_PIDFD, fd, &info, unix.WEXITED|unix.WNOHANG, nil)
			switch {
			case err == nil && info.Signo == int32(unix.SIGCHLD):
				// Reaped.
			case errors.Is(err, unix.ECHILD) && exited(fd):
				if notOurs[p]++; notOurs[p] < 5 {
					continue
				}
			case err != nil && !errors.Is(err, unix.ECHILD):
				// Not waitable at all (no P_PIDFD before Linux 5.4): it is
				// killed; let it go.
			default:
				continue // still ending
			}
			_ = unix.Close(fd)
			delete(held, p)
		}
		if len(held) > 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// allExited reports whether every held victim has ended and handed its
// children over: it is a zombie or gone. (A pidfd is readable a moment
// earlier, before the children are reparented, so it is not asked.)
func allExited(held map[int]int) bool {
	for p := range held {
		if st, ok := readStat(p); ok && st.state != 'Z' && st.state != 'X' {
			return false
		}
	}
	return true
}

// exited reports whether the process of pidfd fd has ended (a pidfd is
// readable once it has).
func exited(fd int) bool {
	pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(pfd, 0)
	return err == nil && n > 0
}

// hasTag reports whether p's environment holds the tag entry. A process
// in the middle of an execve may show no environment for a moment: an
// empty one is read again.
func hasTag(p int, mark []byte) bool {
	for range 20 {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/environ")
		if err == nil && len(env) > 0 {
			return bytes.HasPrefix(env, mark) || bytes.Contains(env, append([]byte{0}, mark...))
		}
		if st, ok := readStat(p); !ok || st.state == 'Z' || st.state == 'X' {
			return false
		}
		time.Sleep(100 * time.Microsecond)
	}
	return false
}

// procStat is what sweep reads of a process from /proc/PID/stat.
type procStat struct {
	ppid  int
	state byte
	start uint64 // clock ticks after boot; with the pid, it names one process
}

// table reads every live process, and maps each to its children, from
// /proc/*/stat (one read per process: Linux without CONFIG_PROC_CHILDREN
// has no cheaper way to find a process's children). Zombies are left out:
// they hold nothing and are reaped through the pidfd already held.
func table() (map[int]procStat, map[int][]int) {
	procs := map[int]procStat{}
	kids := map[int][]int{}
	d, err := os.Open("/proc")
	if err != nil {
		return procs, kids
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	for _, name := range names {
		p, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		st, ok := readStat(p)
		if !ok || st.state == 'Z' || st.state == 'X' {
			continue
		}
		procs[p] = st
		kids[st.ppid] = append(kids[st.ppid], p)
	}
	return procs, kids
}

// readStat reads /proc/p/stat.
func readStat(p int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt
	// majflt cmajflt utime stime cutime cstime priority nice num_threads
	// itrealvalue starttime …; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+2:])
	if len(f) < 20 || len(f[0]) == 0 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	start, err2 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil {
		return procStat{}, false
	}
	return procStat{ppid: ppid, state: f[0][0], start: start}, true
}
