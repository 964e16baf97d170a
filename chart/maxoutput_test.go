package chart

import (
	"strings"
	"testing"
)

// TestExecMaxOutputReadsASize: the 1 MiB cap on a command's output had no
// chart key, so `kubectl get pods -A -o json` on a cluster of a few hundred
// pods was always withheld. exec's maxOutput: raises (or lowers) it, a
// size with a binary unit or a number of bytes, from 1 KiB to 1 GiB.
func TestExecMaxOutputReadsASize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		val  string
		want int
		err  string
	}{
		{"64MiB", 64 << 20, ""},
		{"512KiB", 512 << 10, ""},
		{"1GiB", 1 << 30, ""},
		{"2097152", 2 << 20, ""},
		{"4096B", 4096, ""},
		{"64MB", 0, `exec maxOutput "64MB" is not a size: write a whole number with a unit, B, KiB, MiB or GiB (64MiB), or a number of bytes`},
		{"1.5MiB", 0, `is not a size`},
		{"2GiB", 0, `exec maxOutput 2GiB is out of range: from 1KiB to 1GiB (the default is 1MiB)`},
		{"10", 0, `out of range`},
	} {
		src := "version: 1\nrunbook: m\nstages:\n  - id: k\n    exec: {command: [kubectl, get, pods, -o, json], parse: json, maxOutput: " + tc.val + "}\n"
		spec, err := Parse("c.yaml", []byte(src))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), `c.yaml:5:`) {
				t.Errorf("maxOutput: %s: %v; want an error at its line saying %q", tc.val, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("maxOutput: %s: %v", tc.val, err)
			continue
		}
		if got := spec.Stages[0].Exec.MaxOutput; got != tc.want {
			t.Errorf("maxOutput: %s read as %d bytes; want %d", tc.val, got, tc.want)
		}
	}
}

// TestReadMaxSizeReadsASize: read:'s file cap was exec's 1 MiB with no
// key, so a busy day's /var/log/syslog was always withheld. maxSize:
// reads as exec's maxOutput: does.
func TestReadMaxSizeReadsASize(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: m\nstages:\n  - id: log\n    read: {path: '\"/var/log/syslog\"', parse: lines, maxSize: 256MiB}\n"
	spec, err := Parse("c.yaml", []byte(src))
	if err != nil || spec.Stages[0].Read.MaxSize != 256<<20 {
		t.Fatalf("%v; want maxSize read as 256 MiB", err)
	}
	_, err = Parse("c.yaml", []byte(strings.Replace(src, "256MiB", "256MB", 1)))
	if err == nil || !strings.Contains(err.Error(), `c.yaml:5:`) || !strings.Contains(err.Error(), `read maxSize "256MB" is not a size`) {
		t.Errorf("%v; want 256MB refused at its line", err)
	}
}
