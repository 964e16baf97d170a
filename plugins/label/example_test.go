package label_test

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/label"
)

func ExampleOf() {
	seven := 7
	out := label.Of(label.Returned, &label.Facts{ExitCode: &seven})
	fmt.Println(out.Label, *out.ExitCode)
	fmt.Println(label.Words(out.Label, out.ExitCode))

	fmt.Println(label.Of(label.Threw, nil).Label)
	ok := true
	fmt.Println(label.Of(label.Returned, &label.Facts{OK: &ok}).Label)
	// Output:
	// completed-with-failure 7
	// completed with failure, exit 7
	// outcome-unknown
	// reported-success
}

func ExampleReadRow() {
	_, err := label.ReadRow([]byte(`{"path":"collect","settlement":"returned","facts":{"exitCode":3},"label":"completed","exitCode":3}`))
	fmt.Println(err)
	// Output:
	// label: script row "collect": label "completed" does not fit exit code 3: an exit code rides only completed (0) and completed-with-failure (non-zero), and those two always carry one
}
