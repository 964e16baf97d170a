package temporal

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	_ "time/tzdata" // a worker in a bare container reads a zone sent by name
)

// Zone is the zone a run reads as its machine's: the zone of now() and of
// date(x, layout, "Local"). A local run reads the host's; a run on
// Temporal is worked by whichever worker polls its task, and a replay may
// be on another, so the zone cannot be the worker's: a chart that names
// last night's backup by now().Format("20060102") or reads a log's local
// stamps would answer by the zone of the worker that happened to run it,
// and a replay on a worker in another zone take another branch than the
// history's. The Executor sends the zone of the machine that starts the
// run, as the tz database's bytes, so a worker without that database (a
// scratch container) reads it alike.
type Zone struct {
	// Name is the zone's name as the starting machine knows it
	// (Europe/Berlin, or Local when it has none).
	Name string
	// TZif is the zone's tz database file; empty for UTC, and for a zone
	// read by its name from the tz data built into the binary.
	TZif []byte `json:",omitempty"`
}

// LocalZone is this machine's zone as time.Local reads it: $TZ when set
// (an empty TZ is UTC), /etc/localtime when not.
func LocalZone() (*Zone, error) {
	tz, set := os.LookupEnv("TZ")
	if !set {
		b, err := os.ReadFile("/etc/localtime")
		if err != nil {
			if os.IsNotExist(err) {
				return &Zone{Name: "UTC"}, nil // as time.Local reads no file
			}
			return nil, fmt.Errorf("this machine's zone: %w", err)
		}
		name := "Local"
		if target, err := filepath.EvalSymlinks("/etc/localtime"); err == nil {
			if _, after, ok := strings.Cut(target, "zoneinfo/"); ok {
				name = after
			}
		}
		return &Zone{Name: name, TZif: b}, nil
	}
	tz = strings.TrimPrefix(tz, ":")
	if tz == "" || tz == "UTC" {
		return &Zone{Name: "UTC"}, nil
	}
	if filepath.IsAbs(tz) {
		b, err := os.ReadFile(tz)
		if err != nil {
			return nil, fmt.Errorf("this machine's zone, TZ=%s: %w", tz, err)
		}
		return &Zone{Name: tz, TZif: b}, nil
	}
	for _, dir := range zoneDirs() {
		if b, err := os.ReadFile(filepath.Join(dir, tz)); err == nil {
			return &Zone{Name: tz, TZif: b}, nil
		}
	}
	if _, err := time.LoadLocation(tz); err == nil {
		return &Zone{Name: tz}, nil // from the tz data built in: a worker has it too
	}
	return nil, fmt.Errorf("this machine's zone, TZ=%s: no such zone in the tz database (%s); set TZ to a zone such as Europe/Berlin, or RunInput.Zone", tz, strings.Join(zoneDirs(), ", "))
}

// zoneDirs are where the tz database's files are, as Go's time package
// looks for them.
func zoneDirs() []string {
	dirs := []string{"/usr/share/zoneinfo", "/usr/share/lib/zoneinfo", "/usr/lib/locale/TZ"}
	if d := os.Getenv("ZONEINFO"); d != "" {
		dirs = append([]string{d}, dirs...)
	}
	return dirs
}

// location is the zone as a *time.Location; nil for a run started without
// one (a history from before it was sent), which reads the worker's zone
// as it did.
func (z *Zone) location() (*time.Location, error) {
	if z == nil {
		return nil, nil
	}
	if len(z.TZif) == 0 {
		// By name, from the tz data built into this binary when the
		// machine has none.
		loc, err := time.LoadLocation(z.Name)
		if err != nil {
			return nil, fmt.Errorf("the run's zone %q: %w; give its tz data (RunInput.Zone.TZif), or use LocalZone", z.Name, err)
		}
		return loc, nil
	}
	loc, err := time.LoadLocationFromTZData(z.Name, z.TZif)
	if err != nil {
		return nil, fmt.Errorf("the run's zone %q: %w", z.Name, err)
	}
	return loc, nil
}
