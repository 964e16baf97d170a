package rules

import (
	"fmt"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
)

// Clock is an Env that says what time it is for the expressions that read
// it: now() reads Now, once per evaluation, and the evidence says what it
// read (the input `now()`). An Env that is not a Clock reads the host's
// clock. A run gives its scope a clock so a chart's test can fix it (a
// cert's expiry judged against the day the case says, not the day the
// test runs) and a Temporal workflow reads its own (a replay must read the
// time the run first read).
type Clock interface {
	Env
	Now() time.Time
}

// ClockInput is the evidence input that holds the time now() read.
const ClockInput = "now()"

// nowFunc and clockKey are names no source can spell: every now() is
// patched into a call of nowFunc reading the time the evaluation put in
// its environment under clockKey, so one evaluation reads one time however
// many now() it calls.
const (
	nowFunc  = "\x00now"
	clockKey = "\x00clock"
)

// clockFuncs are the functions patchNow calls, as Compile's expr options:
// now() and now(timezone(…)), typed so `now() - date(x)` is a duration to
// the checker.
func clockFuncs() []expr.Option {
	return []expr.Option{expr.Function(nowFunc, func(p ...any) (any, error) {
		t, ok := p[0].(time.Time)
		if !ok {
			return nil, fmt.Errorf("now(): the evaluation has no clock")
		}
		if len(p) == 2 {
			loc, ok := p[1].(*time.Location)
			if !ok {
				return nil, fmt.Errorf("now(zone): the zone is not a timezone(…)")
			}
			return t.In(loc), nil
		}
		return t, nil
	}, new(func(any) time.Time), new(func(any, *time.Location) time.Time))}
}

// patchNow rewrites each now(…) into a call of nowFunc over the
// evaluation's time.
type patchNow struct{}

func (patchNow) Visit(node *ast.Node) {
	n, ok := (*node).(*ast.BuiltinNode)
	if !ok || n.Name != "now" {
		return
	}
	args := append([]ast.Node{&ast.IdentifierNode{Value: clockKey}}, n.Arguments...)
	ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: nowFunc}, Arguments: args})
}

// Zoned is an Env that says which zone is this machine's for the
// expressions evaluated over it: date(x, layout, "Local") reads x in
// Zone. An Env that is not Zoned, or whose Zone is nil, reads the host's
// (time.Local). A chart's test that fixes its clock in a zone gives that
// zone, so a log's local stamp is read in the zone the case says and the
// case passes or fails alike on every host.
type Zoned interface {
	Env
	Zone() *time.Location
}

// zoneKey is where an evaluation that reads "Local" finds this machine's
// zone; no source can spell it.
const zoneKey = "\x00zone"

// zoneOf is this machine's zone for an evaluation over env.
func zoneOf(env Env) *time.Location {
	if z, ok := env.(Zoned); ok {
		if loc := z.Zone(); loc != nil {
			return loc
		}
	}
	return time.Local
}

// readsLocal reports whether a call of date is date(text, layout,
// "Local"): a form patchLocal rewrites.
func readsLocal(args []ast.Node) bool {
	return len(args) == 3 && namesLocal(args[2:])
}

// namesLocal reports whether args is the one literal "Local":
// timezone("Local"), the other form patchLocal rewrites.
func namesLocal(args []ast.Node) bool {
	if len(args) != 1 {
		return false
	}
	s, ok := args[0].(*ast.StringNode)
	return ok && s.Value == "Local"
}

// patchLocal rewrites each date(text, layout, "Local") into a call of
// dateInFunc, date(zone, text, layout), and each timezone("Local") into
// the zone itself, zone the evaluation's (zoneOf): "Local" read as
// time.Local was the zone of the host that ran the expression, so a
// chart test whose case fixed now: in Berlin's offset read the log's
// stamps in Berlin on one laptop and in UTC in CI.
type patchLocal struct{}

func (patchLocal) Visit(node *ast.Node) {
	var args []ast.Node
	switch n := (*node).(type) {
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && id.Value == "date" {
			args = n.Arguments
		}
	case *ast.BuiltinNode:
		if n.Name == "timezone" && namesLocal(n.Arguments) {
			ast.Patch(node, &ast.IdentifierNode{Value: zoneKey})
			return
		}
		if n.Name == "date" {
			args = n.Arguments
		}
	}
	switch {
	case readsLocal(args):
		ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: dateInFunc}, Arguments: []ast.Node{&ast.IdentifierNode{Value: zoneKey}, args[0], args[1]}})
	case readsAbbreviation(args):
		ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: dateNamedFunc}, Arguments: []ast.Node{&ast.IdentifierNode{Value: zoneKey}, args[0], args[1]}})
	}
}

// readsAbbreviation reports whether a call of date is date(text, layout):
// a layout may read a zone's abbreviation (MST), which Go looks up in this
// machine's zone, and patchLocal rewrites it so the evaluation's zone is
// that machine's (dateNamed).
func readsAbbreviation(args []ast.Node) bool {
	return len(args) == 2
}

// dateNamedFunc is the call patchLocal makes of date(text, layout):
// dateNamed over the evaluation's zone.
const dateNamedFunc = "\x00dateNamed"

// dateNamed is date(text, layout) with the zone abbreviation a layout
// reads looked up in zone, this machine's zone for the evaluation, where
// Go's time.Parse looks it up in time.Local, the zone of the host running
// it: keytool on a host in Berlin prints "Tue Jan 05 23:00:00 CET 2027",
// which a run there reads as 22:00 UTC, and a chart test whose case says
// zone: Europe/Berlin read it so on a laptop in Berlin and refused it in
// CI in UTC ("the zone CET has no offset this machine knows") (wave-pki).
// Every other call (a location first, a layout that reads no zone name, a
// zone that is time.Local) is date's own.
func dateNamed(zone *time.Location, a, b any) (any, error) {
	layout, ok := b.(string)
	if _, loc := a.(*time.Location); loc || !ok || zone == nil || zone == time.Local || !readsZoneName(layout) {
		return dateFunc(a, b)
	}
	return dateFunc(zone, a, layout)
}

// readsZoneName reports whether a layout reads a zone's name (MST), which
// one wall time in two zones of one offset and two names prints apart.
func readsZoneName(layout string) bool {
	a := time.Date(2006, 1, 2, 15, 4, 5, 0, time.FixedZone("AAA", 3600))
	b := time.Date(2006, 1, 2, 15, 4, 5, 0, time.FixedZone("BBB", 3600))
	return a.Format(layout) != b.Format(layout)
}

// dateInFunc is the call patchLocal makes: date(zone, text, layout) over
// the evaluation's zone, typed as one signature for expr's checker (the
// zone's type is not known when the expression compiles).
const dateInFunc = "\x00dateIn"

// localFuncs are the functions patchLocal calls, as Compile's expr options.
func localFuncs() []expr.Option {
	return []expr.Option{expr.Function(dateInFunc, func(p ...any) (any, error) {
		loc, ok := p[0].(*time.Location)
		if !ok {
			return nil, fmt.Errorf("date(x, layout, \"Local\"): the evaluation has no zone")
		}
		return dateFunc(loc, p[1], p[2])
	}, new(func(any, string, string) time.Time)), expr.Function(dateNamedFunc, func(p ...any) (any, error) {
		loc, _ := p[0].(*time.Location)
		return dateNamed(loc, p[1], p[2])
	}, new(func(any, string, string) time.Time), new(func(any, *time.Location, string) time.Time))}
}

// timeOf is what time it is for an evaluation over env, without the
// monotonic clock reading time.Now carries: string(now()) wrote it as
// "… +0000 UTC m=-3599.995698273", a text no layout reads as a time, so
// `p.metadata.creationTimestamp > string(now() - duration("1h"))` was
// compared by character ("2026-12-06T03:00:00Z" after "2026-12-06
// 14:24:58…", 'T' after ' ') and a pod eleven hours old was new, under
// Consistent. Without it, the two are times written as text: a rule error
// (textOrder).
func timeOf(env Env) time.Time {
	if c, ok := env.(Clock); ok {
		return c.Now().Round(0)
	}
	return time.Now().Round(0)
}
