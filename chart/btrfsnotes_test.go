package chart

import (
	"strings"
	"testing"
)

// TestBtrfsScrubWithoutWaitIsNoted: btrfs scrub start or resume without
// -B (alone or among short flags) is noted; with it, and other btrfs
// commands, are not.
func TestBtrfsScrubWithoutWaitIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"btrfs", "scrub", "start", "/srv"}}, true},
		{ExecSpec{Command: []string{"/usr/bin/btrfs", "scrub", "resume", "-d", "/srv"}}, true},
		{ExecSpec{Shell: "btrfs scrub start /srv && echo done"}, true},
		{ExecSpec{Command: []string{"btrfs", "scrub", "start", "-B", "/srv"}}, false},
		{ExecSpec{Command: []string{"btrfs", "scrub", "start", "-dBr", "/srv"}}, false},
		{ExecSpec{Command: []string{"btrfs", "scrub", "status", "/srv"}}, false},
		{ExecSpec{Command: []string{"btrfs", "device", "stats", "/srv"}}, false},
	} {
		got := tc.e.BtrfsScrubWithoutWait()
		if (got != "") != tc.want || tc.want && !strings.Contains(got, "without -B") {
			t.Errorf("%v %q: %q, want noted %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}
