package chart

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openrunbook/runbook/internal/suggest"
)

// podmanTimeLayouts are the layouts podman reads a --since or --until
// time in (podman 4.3's util.ParseInputTime), tried before a Unix time and
// a Go duration.
var podmanTimeLayouts = []string{time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04:05.999999999", "2006-01-02Z07:00", "2006-01-02"}

// podmanValuedGlobals are podman's global options that take the next
// argument as their value, so that word is no subcommand.
var podmanValuedGlobals = []string{"--cgroup-manager", "--conmon", "--connection", "-c", "--events-backend", "--hooks-dir", "--identity", "--imagestore", "--log-level", "--module", "--network-cmd-path", "--network-config-dir", "--root", "--runroot", "--runtime", "--runtime-flag", "--ssh", "--storage-driver", "--storage-opt", "--tmpdir", "--url", "--volumepath"}

// daysOrWeeks is a count of days or weeks, as journalctl and find read
// an age and Go's durations do not.
var daysOrWeeks = regexp.MustCompile(`^([0-9]+)([dw])$`)

// podmanSubcommand is the podman subcommand argv (a command line as
// written or as run) runs, "events" for `podman events` and `podman
// system events`, "ps" for `podman ps` and `podman container ps|ls|list`
// ("" for another, or no podman), and where its own arguments start.
func podmanSubcommand(argv []string) (string, int) {
	if len(argv) == 0 || filepath.Base(argv[0]) != "podman" {
		return "", 0
	}
	group := ""
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case slices.Contains(podmanValuedGlobals, a):
			i++
		case strings.HasPrefix(a, "-"):
		case group == "" && (a == "system" || a == "container"):
			group = a
		case a == "events" && group != "container":
			return "events", i + 1
		case a == "ps" && group != "system", group == "container" && (a == "ls" || a == "list"):
			return "ps", i + 1
		default:
			return "", 0
		}
	}
	return "", 0
}

// podmanPsHealths are the values `podman ps --filter health=` reads
// (podman 4.3).
var podmanPsHealths = []string{"healthy", "unhealthy", "starting"}

// podmanEventFilters are the keys `podman events --filter` reads
// (podman 4.3), podmanEventTypes the values of its type=, and
// podmanEventStatuses those of its event=.
var (
	podmanEventFilters  = []string{"container", "event", "image", "label", "pod", "type", "volume"}
	podmanEventTypes    = []string{"container", "image", "machine", "network", "pod", "system", "volume"}
	podmanEventStatuses = []string{"attach", "auto-update", "build", "checkpoint", "cleanup", "commit", "connect", "copy", "create", "died", "disconnect", "exec", "exec_died", "exited", "export", "health_status", "history", "import", "init", "kill", "loadfromarchive", "log-rotation", "mount", "pause", "prune", "pull", "push", "refresh", "remove", "rename", "renumber", "restart", "restore", "save", "start", "stop", "sync", "tag", "unmount", "unpause", "untag"}
)

// podmanEventsSilence is what podman 4.3 does over an argument of `podman
// events` it cannot read: it prints no event and exits 0, saying nothing.
const podmanEventsSilence = "and podman events then prints no event and exits 0, saying nothing, as over a host where nothing happened: a rule counting them would find none"

// PodmanArgProblem is the place in argv (a command line, as written or
// as run) of a `podman events` argument podman 4.3 cannot read (or a
// `podman ps` health filter: podmanPsProblem), and
// what is wrong with it (-1, "" when none is): a --since or --until value
// it reads as no time, a --filter key a letter off one it knows, or an
// event= or type= value a letter (or a case) off one, or several joined
// by commas. podman prints no event and exits 0 over each, saying nothing
// on stderr, so `podman events --since 1d --stream=false --filter
// event=died` read as a host where no container died, and a restart-loop
// check said OK, Consistent, over one that had died 23 times that day
// (`podman logs --since 1d` refuses it, exit 125); so did `--filter
// event=dide` and `--filter evnt=died`. A key or a value near none that
// podman knows is left to it (a later podman may know more). The one
// wording of the load error over an argument written in the chart and of
// the run's refusal of one a template rendered.
func PodmanArgProblem(argv []string) (int, string) {
	sub, from := podmanSubcommand(argv)
	if sub == "ps" {
		return podmanPsProblem(argv, from)
	}
	if sub != "events" {
		return -1, ""
	}
	for i := from; i < len(argv); i++ {
		a, at := argv[i], i
		var opt, v string
		switch {
		case (a == "--since" || a == "--until" || a == "--filter" || a == "-f") && i+1 < len(argv):
			opt, v, at = a, argv[i+1], i+1
			i++
		case strings.HasPrefix(a, "--since=") || strings.HasPrefix(a, "--until=") || strings.HasPrefix(a, "--filter="):
			opt, v, _ = strings.Cut(a, "=")
		default:
			continue
		}
		if strings.Contains(v, "${") {
			continue
		}
		if opt == "--filter" || opt == "-f" {
			if why := podmanEventFilterProblem(v); why != "" {
				return at, why
			}
			continue
		}
		if d, err := time.ParseDuration(v); err == nil && d < 0 && opt == "--since" {
			// podman reads a duration as that long before now, and a
			// negative one as after now: no event has happened since
			return at, fmt.Sprintf("is a time after now for --since (a negative duration), %s; write %q for %q", podmanEventsSilence, strings.TrimPrefix(v, "-"), v)
		}
		if podmanReadsTime(v) {
			continue
		}
		mean := "write a duration such as 24h, an RFC 3339 time (2026-12-08T10:00:00Z) or a date (2026-12-08)"
		if m := daysOrWeeks.FindStringSubmatch(v); m != nil {
			n, _ := strconv.Atoi(m[1])
			if m[2] == "w" {
				n *= 7
			}
			mean = fmt.Sprintf("write %q for %q", strconv.Itoa(n*24)+"h", v)
		}
		return at, fmt.Sprintf("is no time podman reads for %s, %s; %s", opt, podmanEventsSilence, mean)
	}
	return -1, ""
}

// podmanEventFilterProblem is what is wrong with one --filter KEY=VALUE
// of podman events, "" when nothing is known to be.
func podmanEventFilterProblem(f string) string {
	key, value, _ := strings.Cut(f, "=")
	if !slices.Contains(podmanEventFilters, key) {
		if near := suggest.Nearest(key, podmanEventFilters); near != "" {
			return fmt.Sprintf("filters by %q, a key podman events does not know, %s; did you mean %s=?", key, podmanEventsSilence, near)
		}
		return ""
	}
	known := podmanEventStatuses
	switch key {
	case "type":
		known = podmanEventTypes
	case "event":
	default:
		return ""
	}
	if slices.Contains(known, value) {
		return ""
	}
	if parts := strings.Split(value, ","); len(parts) > 1 {
		return fmt.Sprintf("gives %s several values joined by commas, which podman reads as one %s of that name, %s; give each its own --filter %s=…", key, key, podmanEventsSilence, key)
	}
	if near := suggest.Nearest(value, known); near != "" {
		return fmt.Sprintf("asks for the %s %q, which podman does not know (it compares %ss as written, case and all), %s; did you mean %s=%s?", key, value, key, podmanEventsSilence, key, near)
	}
	return ""
}

// podmanReadsTime says whether podman reads v as a time: in one of its
// layouts, as a Unix time, or as a Go duration before now.
func podmanReadsTime(v string) bool {
	for _, l := range podmanTimeLayouts {
		if _, err := time.Parse(l, v); err == nil {
			return true
		}
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return true
	}
	_, err := time.ParseDuration(v)
	return err == nil
}

// ArgvProblem is the place in argv (a command line, as written or as
// run) of an argument its tool would misread in silence, and why (-1, ""
// when none is): a record type dig does not know (DigTypeProblem), a
// time or a filter podman events does not read, a health podman ps does
// not (PodmanArgProblem). The loader
// refuses such an argument written in the chart, and a run one a
// template rendered, before anything is started.
func ArgvProblem(argv []string) (int, string) {
	if i, why := DigTypeProblem(argv); i >= 0 {
		return i, why
	}
	return PodmanArgProblem(argv)
}

// podmanPsProblem is PodmanArgProblem's answer for `podman ps`, whose
// args start at from: a --filter health= value a letter or a case off
// one podman reads, over which podman 4.3 lists no container and exits
// 0, saying nothing, so `podman ps --filter health=unhelthy` read as a
// host with no unhealthy container.
func podmanPsProblem(argv []string, from int) (int, string) {
	for i := from; i < len(argv); i++ {
		a, at, v := argv[i], i, ""
		switch {
		case (a == "--filter" || a == "-f") && i+1 < len(argv):
			v, at = argv[i+1], i+1
			i++
		case strings.HasPrefix(a, "--filter="):
			v = strings.TrimPrefix(a, "--filter=")
		default:
			continue
		}
		value, ok := strings.CutPrefix(v, "health=")
		if !ok || strings.Contains(value, "${") || slices.Contains(podmanPsHealths, value) {
			continue
		}
		const silence = "and podman ps then lists no container and exits 0, saying nothing, as over a host where none is so: a rule counting them would find none"
		if near := suggest.Nearest(value, podmanPsHealths); near != "" {
			return at, fmt.Sprintf("asks for the health %q, which podman does not know (it compares them as written, case and all), %s; did you mean health=%s?", value, silence, near)
		}
		if value == "none" {
			return at, fmt.Sprintf("asks for docker's none (the containers with no healthcheck), which podman 4.3 does not know: it lists no container over it, one with no healthcheck neither, %s; read each container's health instead (--format '{{.Names}} {{.Status}}', or podman inspect's State.Health.Status, empty where none is defined)", silence)
		}
		if value != "" {
			return at, fmt.Sprintf("asks for the health %q, which podman does not know (podman reads healthy, unhealthy and starting alone), %s", value, silence)
		}
	}
	return -1, ""
}
