package rules

import (
	"fmt"
	"time"
)

// wallUnsure is the error for a time with no zone read in a zone whose
// clocks change (date(x, layout, "Europe/Berlin"), or "Local"), when its
// wall time is one that zone had twice or never; nil otherwise.
//
// A log that writes its local time with no offset writes 02:50 twice on
// the night the clocks go back: once at +02:00 and again, an hour later,
// at +01:00. Go reads the text as one of them in silence (the later, as
// Go 1.26 does), so a heartbeat line written at the first 02:50 and read
// at 03:10, 80 minutes later, was 20 minutes old, and a check that the
// app had logged within the half hour said it had; a line of the first
// pass counted in a window an hour after it was written
// (TestDateInTheHourTwiceIsUnsure). On the night the clocks go forward
// 02:30 never happened, and Go reads it as some other time. Neither is a
// time the text can be judged by.
//
//	date("2026-10-25 02:35:00", "2006-01-02 15:04:05", "Europe/Berlin")   error: … twice …
//	date("2026-03-29 02:30:00", "2006-01-02 15:04:05", "Europe/Berlin")   error: … never …
//	date("2026-10-25 03:35:00", "2006-01-02 15:04:05", "Europe/Berlin")   2026-10-25T03:35:00+01:00
func wallUnsure(args []any, t time.Time) error {
	text, layout, ok := zonedWall(args)
	if !ok {
		return nil
	}
	wall, err := time.Parse(layout, text)
	if err != nil {
		return nil
	}
	loc := t.Location()
	zone := loc.String()
	if zone == "Local" {
		zone = "this machine's zone (Local)"
	}
	if !sameWall(wall, t) {
		return fmt.Errorf("date(%q): %s never happened in %s (the clocks went forward past it), so the text is no time that zone had, and Go would read it as %s; have the log write its offset (ISO 8601's +01:00, strftime's %%z), or read a log its host writes in UTC with \"UTC\"",
			text, wall.Format("2006-01-02 15:04:05"), zone, t.Format(time.RFC3339))
	}
	_, off := t.Zone()
	for _, d := range []time.Duration{-6 * time.Hour, 6 * time.Hour} {
		_, other := t.Add(d).Zone()
		if other == off {
			continue
		}
		u := t.Add(time.Duration(off-other) * time.Second)
		if _, uo := u.Zone(); uo == other && sameWall(wall, u) {
			first, second := t, u
			if u.Before(t) {
				first, second = u, t
			}
			return fmt.Errorf("date(%q): %s happened twice in %s (at %s, and again at %s when the clocks went back), and the text does not say which: Go would read it as %s; have the log write its offset (ISO 8601's +01:00, strftime's %%z), or read a log its host writes in UTC with \"UTC\"",
				text, wall.Format("2006-01-02 15:04:05"), zone, first.Format(time.RFC3339), second.Format(time.RFC3339), t.Format(time.RFC3339))
		}
	}
	return nil
}

// zonedWall is the text and layout of a date() that read a wall time with
// no zone of its own in the zone its arguments named, ok false for any
// other date() (a text with its offset, a layout of expr's own).
func zonedWall(args []any) (text, layout string, ok bool) {
	at := 0
	if _, isLoc := args[0].(*time.Location); isLoc {
		at = 1
	} else if len(args) != 3 {
		return "", "", false
	}
	if len(args) < at+2 {
		return "", "", false
	}
	text, _ = args[at].(string)
	layout, _ = args[at+1].(string)
	return text, layout, layout != "" && readsClock(layout) && !readsZone(layout)
}

// sameWall says whether t's wall clock in its own zone is wall's, read in
// UTC: the fields the text gave.
func sameWall(wall, t time.Time) bool {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	wy, wmo, wd := wall.Date()
	wh, wmi, ws := wall.Clock()
	return y == wy && mo == wmo && d == wd && h == wh && mi == wmi && s == ws
}
