package chart

import (
	"strings"
	"testing"
)

// TestPodmanEventsTimeIsALoadError: podman 4.3 reads `podman events
// --since 1d` as no time and prints no event, exit 0, nothing on stderr,
// so a restart-loop check over `podman events --since 1d --stream=false
// --filter event=died` said no container died, OK, Consistent, over one
// that had died 23 times that day. A --since or --until value written in
// the chart that podman reads in none of its forms is a load error at
// its place, saying what to write; the forms podman reads, a template
// and another podman command are not.
func TestPodmanEventsTimeIsALoadError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		argv []string
		at   int
		say  string
	}{
		{[]string{"podman", "events", "--since", "1d", "--stream=false"}, 3, `write "24h" for "1d"`},
		{[]string{"/usr/bin/podman", "--root", "/var/lib/c", "events", "--since=2w"}, 4, `write "336h" for "2w"`},
		{[]string{"podman", "system", "events", "--until", "2026-12-08 00:00:00"}, 4, "write a duration such as 24h"},
		{[]string{"podman", "events", "--since", "1.5h", "--until", "2026-12-08T00:00:00"}, -1, ""},
		{[]string{"podman", "events", "--since", "2026-12-08", "--until", "1765152000"}, -1, ""},
		{[]string{"podman", "events", "--since", "2026-12-08T00:00:00Z"}, -1, ""},
		{[]string{"podman", "events", "--since", "${since}"}, -1, ""},
		{[]string{"podman", "logs", "--since", "1d", "web"}, -1, ""},
		{[]string{"podman", "--events-backend", "events", "ps"}, -1, ""},
	} {
		at, why := PodmanArgProblem(tc.argv)
		if at != tc.at || !strings.Contains(why, tc.say) {
			t.Errorf("%q: at %d, %q; want at %d, saying %q", tc.argv, at, why, tc.at, tc.say)
		}
	}
	_, err := Parse("chart.yaml", []byte(`version: 1
runbook: deaths
stages:
  - id: events
    exec:
      command: [podman, events, --since, 1d, --stream=false, --filter, event=died, --format, json]
      parse: jsonl
`))
	const want = `exec command argument 4 "1d" is no time podman reads for --since, and podman events then prints no event and exits 0`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `write "24h" for "1d"`) || !strings.Contains(err.Error(), "chart.yaml:6:") {
		t.Errorf("got %v, want an error at its place saying %s … write \"24h\"", err, want)
	}
}

// TestPodmanEventsFilterMisspeltIsALoadError: podman 4.3 prints no event
// and exits 0, saying nothing, over a --filter it cannot read: `--filter
// event=dide`, `--filter evnt=died`, `--filter event=Died` (it compares
// event names as written), `--filter type=contianer`, and `--filter
// event=died,start` (one event of that name) each read as a host where
// no container died. A key or an event= or type= value a letter or a
// case off one podman knows, or several joined by commas, is refused
// saying what it meant; what podman knows, a template and a word near
// nothing it knows (a later podman's) are not.
func TestPodmanEventsFilterMisspeltIsALoadError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		argv []string
		at   int
		say  string
	}{
		{[]string{"podman", "events", "--stream=false", "--filter", "event=dide"}, 4, "did you mean event=died?"},
		{[]string{"podman", "events", "--filter", "evnt=died"}, 3, "did you mean event=?"},
		{[]string{"podman", "events", "-f", "event=Died"}, 3, "case and all"},
		{[]string{"podman", "events", "--filter=type=contianer"}, 2, "did you mean type=container?"},
		{[]string{"podman", "events", "--filter", "event=died,start"}, 3, "give each its own --filter event="},
		{[]string{"podman", "events", "--filter", "event=died", "--filter", "event=health_status", "--filter", "type=container"}, -1, ""},
		{[]string{"podman", "events", "--filter", "container=falp", "--filter", "label=app=web"}, -1, ""},
		{[]string{"podman", "events", "--filter", "event=${ev}"}, -1, ""},
		{[]string{"podman", "events", "--filter", "event=oom"}, -1, ""},
		{[]string{"podman", "ps", "--filter", "status=exitd"}, -1, ""},
	} {
		at, why := PodmanArgProblem(tc.argv)
		if at != tc.at || !strings.Contains(why, tc.say) {
			t.Errorf("%q: at %d, %q; want at %d, saying %q", tc.argv, at, why, tc.at, tc.say)
		}
	}
	_, err := Parse("chart.yaml", []byte(`version: 1
runbook: deaths
stages:
  - id: events
    exec:
      command: [podman, events, --since, 24h, --stream=false, --filter, event=dide, --format, json]
      parse: jsonl
`))
	const want = `exec command argument 7 "event=dide" asks for the event "dide", which podman does not know`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "did you mean event=died?") || !strings.Contains(err.Error(), "chart.yaml:6:") {
		t.Errorf("got %v, want an error at its place saying %s … did you mean event=died?", err, want)
	}
}

// TestPodmanPsHealthMisspeltIsALoadError: podman 4.3 lists no container
// and exits 0, saying nothing, over `podman ps --filter health=unhelthy`
// (or `health=Unhealthy`), so a chart listing the unhealthy containers
// under result.empty: answer said none, OK, over one whose healthcheck
// failed; `--filter stauts=exited` and `status=exitd` it refuses itself,
// exit 125. A health a letter or a case off one podman reads is refused
// saying which it meant.
func TestPodmanPsHealthMisspeltIsALoadError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		argv []string
		at   int
		say  string
	}{
		{[]string{"podman", "ps", "-a", "--filter", "health=unhelthy", "--format", "json"}, 4, "did you mean health=unhealthy?"},
		{[]string{"podman", "container", "ls", "--filter=health=Unhealthy"}, 3, "case and all"},
		{[]string{"podman", "--root", "/var/lib/containers/storage", "ps", "-f", "health=startin"}, 5, "did you mean health=starting?"},
		{[]string{"podman", "ps", "--filter", "health=unhealthy", "--filter", "status=exited"}, -1, ""},
		// docker's none: podman 4.3.1 lists no container over it, not
		// one without a healthcheck (TestPodmanPsHealthNoneIsALoadError)
		{[]string{"podman", "ps", "--filter", "health=none"}, 3, "docker's"},
		{[]string{"podman", "ps", "--filter", "health=${h}"}, -1, ""},
		{[]string{"podman", "system", "ps", "--filter", "health=unhelthy"}, -1, ""},
		{[]string{"podman", "pod", "ps", "--filter", "health=unhelthy"}, -1, ""},
	} {
		at, why := PodmanArgProblem(tc.argv)
		if at != tc.at || !strings.Contains(why, tc.say) {
			t.Errorf("%q: at %d, %q; want at %d, saying %q", tc.argv, at, why, tc.at, tc.say)
		}
	}
}

// TestPodmanPsHealthNoneIsALoadError: docker lists the containers with no
// healthcheck under `ps --filter health=none`; podman 4.3.1 lists none
// over it, exit 0, and a chart listing the containers no healthcheck
// watches said nothing to report over one (fa2nohc, created live). A
// value far from every health podman reads is refused as one near is.
// And `podman events --since -1h` (a negative duration: an hour after
// now) printed no event, exit 0, over a host whose containers had died
// in the hour.
func TestPodmanPsHealthNoneIsALoadError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		argv []string
		at   int
		say  string
	}{
		{[]string{"podman", "ps", "-a", "--filter", "health=none", "--format", "json"}, 4, "docker's none"},
		{[]string{"podman", "ps", "--filter=health=ok"}, 2, "podman reads healthy, unhealthy and starting alone"},
		{[]string{"podman", "events", "--stream=false", "--since", "-1h"}, 4, `write "1h" for "-1h"`},
		{[]string{"podman", "events", "--stream=false", "--since=-30m"}, 3, "after now"},
		{[]string{"podman", "events", "--stream=false", "--since", "1h", "--until", "-5m"}, -1, ""},
		{[]string{"podman", "events", "--stream=false", "--since", "1h30m"}, -1, ""},
	} {
		at, why := PodmanArgProblem(tc.argv)
		if at != tc.at || !strings.Contains(why, tc.say) {
			t.Errorf("%q: at %d, %q; want at %d, saying %q", tc.argv, at, why, tc.at, tc.say)
		}
	}
}
