package runbook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// TestGoStageSetOfCommandBytesIsRefused: CommandResult.Stdout is a
// []byte, and a Go stage that set it as it was (s.Set("state",
// r.Stdout)) put base64 on the record ("YWN0aXZlCg==") while its rules
// read a list of numbers: `string(state) contains "active"` answered
// false with no error over a command that printed "active", so the
// decider chose "down" and the line said Consistent. SetResult, which
// reads a value as JSON, made it a list of numbers, to the same answer.
// The write is refused either way, the stage fails naming the key and
// saying to write string(r.Stdout), and the line is Not sure.
func TestGoStageSetOfCommandBytesIsRefused(t *testing.T) {
	for _, way := range []string{"set", "set-result", "text"} {
		asText := way == "text"
		fc, err := flow.New("svc").
			Stage("probe", func(ctx context.Context, s *flow.Scope) error {
				r, err := runbook.RunCommand(ctx, s, runbook.Command{Argv: []string{"echo", "active"}})
				if err != nil {
					return err
				}
				switch way {
				case "text":
					s.Set("state", string(r.Stdout))
				case "set-result": // read as JSON, it would be a list of numbers
					runbook.SetResult(s, "state", r.Stdout)
				default:
					s.Set("state", r.Stdout)
				}
				return nil
			}).
			Decide("judge", []decide.Rule{
				{When: rules.MustCompile(`string(state) contains "active"`), Then: "up", Label: "The service says it is active"},
			}, decide.Default{Branch: "down", Label: "Not active"}, []flow.Branch{
				{Name: "up", Steps: flow.Seq().Stage("mark-up", func(ctx context.Context, s *flow.Scope) error { s.Set("answer", "up"); return nil })},
				{Name: "down", Steps: flow.Seq().Stage("mark-down", func(ctx context.Context, s *flow.Scope) error { s.Set("answer", "down"); return nil })},
			}, flow.Name("Judge")).
			Build()
		if err != nil {
			t.Fatal(err)
		}
		rb, err := runbook.New(fc, runbook.WithResult(chart.ResultSpec{Kind: "state/svc"}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := rb.Exec(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if asText {
			if got := res.Run.State()["answer"]; got != "up" || res.Run.Err != nil {
				t.Errorf("string(r.Stdout): answer %v (%v), want up", got, res.Run.Err)
			}
			continue
		}
		if got, ok := res.Run.State()["answer"]; ok {
			t.Errorf("r.Stdout set as bytes: the run answered %v, want the write refused", got)
		}
		if res.Run.Err == nil || !strings.Contains(res.Run.Err.Error(), `"state"`) || !strings.Contains(res.Run.Err.Error(), "string(b)") {
			t.Errorf("run error %v, want one naming the key state and saying to write string(b)", res.Run.Err)
		}
		if line := res.Record.Assessment.Line; !strings.HasPrefix(line, "Not sure") {
			t.Errorf("standing %q, want Not sure", line)
		}
	}
}
