// Command tenants is a service's check loop built on runbook as a library:
// one Go chart compiled once, run for many tenants from many goroutines,
// each run's events streamed as NDJSON while it runs, each record redacted
// before it is handed on. It prints one line per tenant: its verdicts and
// the standing line.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// usage is what the service measured for each tenant (a Go stage would
// ask its API; here a map keeps the example runnable anywhere).
var usage = map[string]int{"acme": 95, "globex": 40, "initech": 81}

// Checker runs one compiled chart for every tenant.
type Checker struct{ rb *runbook.Runbook }

// NewChecker compiles the chart once: a Go stage measures, a decider over
// labelled rules classifies, and one verdict row per tenant is written.
func NewChecker() (*Checker, error) {
	mark := func(word string) *flow.Builder {
		return flow.Seq().Stage("mark-"+word, func(ctx context.Context, s *flow.Scope) error {
			owners, _ := s.Value("owners").([]any)
			s.Set(runbook.VerdictsKey, []any{map[string]any{"subject": s.Value("tenant"), "verdict": word, "used": s.Value("used"), "owner": owners[0]}})
			return nil
		})
	}
	fc, err := flow.New("tenant-quota").
		Stage("measure", func(ctx context.Context, s *flow.Scope) error {
			t, _ := s.Value("tenant").(string)
			used, ok := usage[t]
			if !ok {
				return fmt.Errorf("no usage reported for tenant %q", t)
			}
			s.Set("used", used)
			return nil
		}, flow.Name("Measure")).
		Decide("quota", []decide.Rule{
			// in: over the chart's own list; a record's copy of it is the caller's
			{When: rules.MustFilter(rules.Where("tenant", rules.OpIn, []any{"acme"})), Then: "exempt", Label: "Exempt by contract"},
			{When: rules.MustCompile("used >= 90"), Then: "over", Label: "At or over 90% of quota"},
		}, decide.Default{Branch: "within", Label: "Under 90% of quota"}, []flow.Branch{
			{Name: "exempt", Steps: mark("exempt")},
			{Name: "over", Steps: mark("over")},
			{Name: "within", Steps: mark("within")},
		}, flow.Name("Quota")).
		Build()
	if err != nil {
		return nil, err
	}
	rb, err := runbook.New(fc,
		runbook.WithInputs(
			chart.InputSpec{Name: "tenant", Type: "string", Required: true},
			chart.InputSpec{Name: "owners", Type: "list", Default: []any{"ops"}, HasDefault: true},
			chart.InputSpec{Name: "token", Type: "string", Secret: true, Default: "", HasDefault: true}),
		runbook.WithResult(chart.ResultSpec{Kind: "verdict/quota", Decider: "Quota"}),
		runbook.WithColumns("subject", "verdict", "used", "owner"))
	if err != nil {
		return nil, err
	}
	return &Checker{rb: rb}, nil
}

// Check runs the chart for one tenant, streaming its events to events
// (nil: none), and returns its result with the record redacted: the
// owners list is cut to its first entry, edited in place.
func (c *Checker) Check(ctx context.Context, tenant string, events io.Writer) (*runbook.Result, error) {
	var opts []runbook.ExecOption
	if events != nil {
		opts = append(opts, runbook.WithLiveRecorders(recorder.NewNDJSON(events)))
	}
	res, err := c.rb.Exec(ctx, map[string]any{"tenant": tenant}, opts...)
	if err != nil {
		return nil, err
	}
	if owners, ok := res.Record.State["owners"].([]any); ok && len(owners) > 0 {
		owners[0] = "redacted"
	}
	for _, d := range res.Record.Decisions {
		for _, r := range d.Rules {
			for _, cond := range r.Conditions {
				if l, ok := cond.Expected.([]any); ok && len(l) > 0 {
					l[0] = "redacted"
				}
			}
		}
	}
	return res, nil
}

// CheckAll checks every tenant at once.
func (c *Checker) CheckAll(ctx context.Context, tenants []string) map[string]*runbook.Result {
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := map[string]*runbook.Result{}
	for _, t := range tenants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.Check(ctx, t, nil)
			if err != nil {
				fmt.Fprintln(os.Stderr, t+":", err)
				return
			}
			mu.Lock()
			out[t] = res
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

func main() {
	c, err := NewChecker()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tenants:", err)
		os.Exit(2)
	}
	tenants := []string{"acme", "globex", "initech", "hooli"}
	results := c.CheckAll(context.Background(), tenants)
	sort.Strings(tenants)
	for _, t := range tenants {
		res := results[t]
		if res == nil {
			continue
		}
		fmt.Printf("%s: %v — %s\n", t, res.Record.Verdicts.Rows, res.Record.Assessment.Line)
	}
}
