// Command behave is a stage plugin that misbehaves on request (mode arg).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/openrunbook/runbook/plugins/sdk"
)

type behave struct{}

func (behave) Describe() sdk.Description {
	d := describe()
	// BEHAVE_DECLARE declares one argument wrongly, for the host's
	// describe-time checks.
	switch os.Getenv("BEHAVE_DECLARE") {
	case "bad-type":
		d.Args = append(d.Args, sdk.Arg{Name: "count", Type: "int"})
	case "bad-default":
		d.Args = append(d.Args, sdk.Arg{Name: "count", Type: "integer", Default: 2.5, HasDefault: true})
	case "hang":
		// It handshakes, then never describes itself (slow setup done in
		// Describe: a config fetched, a cache warmed).
		time.Sleep(time.Hour)
	}
	return d
}

func describe() sdk.Description {
	return sdk.Description{
		Name: "behave", Version: "0.0.1", Description: "misbehaves on request",
		RunsCode: os.Getenv("BEHAVE_RUNS_CODE") != "",
		Reads:    []string{"seed"},
		Args: []sdk.Arg{
			{Name: "mode", Type: "string", Default: "ok", HasDefault: true},
			{Name: "n", Type: "number", Default: 1, HasDefault: true},
			{Name: "pidfile", Type: "string", Default: "", HasDefault: true},
		},
	}
}

func (behave) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	mode, _ := req.Args["mode"].(string)
	pidfile, _ := req.Args["pidfile"].(string)
	fmt.Println("a stray print to stdout, moved to stderr by the SDK")
	switch mode {
	case "error":
		return sdk.Response{}, errors.New("the thing it checks is broken")
	case "crash":
		fmt.Fprintln(os.Stderr, "behave: about to crash on purpose")
		os.Exit(3)
	case "gopanic":
		// A panic on a goroutine of its own: no recover in the SDK can
		// catch it, the process dies with the stack on stderr.
		go func() {
			for range 30 {
				fmt.Fprintln(os.Stderr, "behave: some noise before the panic")
			}
			panic("behave: boom on a goroutine")
		}()
		select {}
	case "exit-after":
		// Answers, then exits on its own: the next call finds no process.
		go func() {
			time.Sleep(100 * time.Millisecond)
			fmt.Fprintln(os.Stderr, "behave: exiting between calls on purpose")
			os.Exit(0)
		}()
	case "hang":
		fmt.Fprintln(os.Stderr, "behave: hanging on purpose")
		writePids(pidfile, os.Getpid())
		select {}
	case "spawn":
		cmd := exec.Command("sleep", "300")
		if err := cmd.Start(); err != nil {
			return sdk.Response{}, err
		}
		writePids(pidfile, os.Getpid(), cmd.Process.Pid)
		select {}
	case "env":
		return sdk.Response{Result: map[string]any{"env": strings.Join(os.Environ(), "\n")}}, nil
	case "slow":
		writePids(pidfile, os.Getpid())
		select {
		case <-ctx.Done():
			return sdk.Response{}, ctx.Err()
		case <-time.After(30 * time.Second):
		}
	case "exit2":
		// Evidence of a process that failed, beside a result that looks
		// fine: what a plugin that declares no code says it ran.
		return sdk.Response{Result: map[string]any{"healthy": true}, Facts: sdk.Exited(2)}, nil
	case "badutf8":
		// Bytes that are not UTF-8 in a string of the result.
		return sdk.Response{Result: map[string]any{"digest": "\xff\xfe"}}, nil
	case "absent":
		return sdk.Response{Result: sdk.Absent("the thing", "here", "there")}, nil
	}
	return sdk.Response{Result: map[string]any{"mode": mode, "n": req.Args["n"], "seed": req.Scope["seed"], "path": req.Path}}, nil
}

func writePids(file string, pids ...int) {
	if file == "" {
		return
	}
	s := ""
	for _, p := range pids {
		s += strconv.Itoa(p) + "\n"
	}
	_ = os.WriteFile(file+".tmp", []byte(s), 0o644)
	_ = os.Rename(file+".tmp", file)
}

func main() {
	if f := os.Getenv("BEHAVE_STARTED"); f != "" {
		_ = os.WriteFile(f, []byte("started"), 0o644)
	}
	sdk.Serve(behave{})
}
