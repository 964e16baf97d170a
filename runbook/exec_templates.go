package runbook

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/secret"
)

// renderExec is what one run of an exec stage executes: its argv with
// every template part rendered (chart.Template.Render: strings as they
// are, numbers in plain decimal), and its bound, the templated timeout's
// when exec's timeout is a template (settle's otherwise). A part that
// errors, or a timeout that renders to no positive duration, fails the
// stage: nothing is run with a guessed argument. So does a part that
// renders a secret: the loader refuses a template that reads a secret input
// or a name computed from one (checkTemplateSecrets), but a value that
// holds a secret only at run time (a file's content, a plugin's result)
// it cannot see, and argv is what ps shows.
func renderExec(es *chart.ExecSpec, s *flow.Scope, bound time.Duration, secrets secret.Set) ([]string, time.Duration, error) {
	argv := es.Command
	if es.Args != nil {
		argv = make([]string, len(es.Args))
		for i := range es.Args {
			v, err := es.Args[i].Render(s)
			if err != nil {
				return nil, 0, fmt.Errorf("exec command argument %d %q: %w", i+1, es.Args[i].Src, err)
			}
			// A part with no ${…} is the chart's own text, not a value: a
			// program named `restic` under a password ending "-restic"
			// reads as the secret's cut tail to Holds, and was refused.
			if !es.Args[i].Literal() && secrets.Holds(v) {
				return nil, 0, fmt.Errorf("exec command argument %d %q renders a value that holds a secret: a secret never goes into argv, where ps shows it; nothing was run; pass the value with envFrom: or stdin: instead", i+1, es.Args[i].Src)
			}
			if err := optionFromAValue(es, argv, i, v); err != nil {
				return nil, 0, err
			}
			argv[i] = v
		}
		// an argument its tool misreads in silence (a dig type, a podman
		// events time or filter) that a template gave: the loader read
		// only the chart's own
		if i, why := chart.ArgvProblem(argv); i >= 0 && !es.Args[i].Literal() {
			return nil, 0, fmt.Errorf("exec command argument %d %q rendered %q, which %s; nothing was run", i+1, es.Args[i].Src, argv[i], why)
		}
	}
	if t := es.TimeoutTemplate; t != nil {
		v, err := t.Render(s)
		if err != nil {
			return nil, 0, fmt.Errorf("exec timeout %q: %w", t.Src, err)
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, 0, fmt.Errorf("exec timeout %q gave %q, not a positive duration: it must render to one such as 500ms, 10s or 2m (an input of type duration is one)", t.Src, v)
		}
		bound = d
	}
	return argv, bound, nil
}

// execEnv is the environment an exec stage lays over the child's base:
// the variables inheritEnv names, as the runner's own environment holds
// them when it does, then env:, which wins. Read when the stage runs, so a
// run sees the environment it was started in.
func execEnv(es *chart.ExecSpec, env map[string]string) map[string]string {
	if len(es.InheritEnv) == 0 {
		return env
	}
	out := make(map[string]string, len(env)+len(es.InheritEnv))
	for _, name := range es.InheritEnv {
		if v, ok := os.LookupEnv(name); ok {
			out[name] = v
		}
	}
	for k, v := range env {
		out[k] = v
	}
	return out
}

// ranAs is es as one run executed it: the argv rendered, for the script
// row's record of what ran.
func ranAs(es *chart.ExecSpec, argv []string) *chart.ExecSpec {
	if es.Args == nil {
		return es
	}
	c := *es
	c.Command = argv
	return &c
}

// optionFromAValue is the error for argument i, rendered v, when a value
// of the run put a leading "-" in front of it: the program reads it as an
// option, not as the value the chart meant. A host list's item "-V" made
// `[ssh, -o, BatchMode=yes, "${host}", "pgrep -x sshd"]` print ssh's
// version and exit 0, a host never reached read as running, OK,
// Consistent (TestOptionFromAnItemIsRefused); an item
// "-oProxyCommand=…" runs a command of its choosing on this machine. A
// dash the chart wrote (`-${flag}`, `--host=${h}`), the program's name
// (argument 1), a number (`${warn}` of -5) and an argument after a
// literal "--" (which ends a program's options) are taken as written.
func optionFromAValue(es *chart.ExecSpec, argv []string, i int, v string) error {
	if i == 0 || !strings.HasPrefix(v, "-") || v == "-" || !es.Args[i].LeadsWithValue() {
		return nil
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return nil
	}
	for j := 1; j < i; j++ {
		if es.Args[j].Literal() && argv[j] == "--" {
			return nil
		}
	}
	return fmt.Errorf("exec command argument %d %q gave %q, which begins with \"-\", so %s reads it as an option, not as the value the chart meant (a host named \"-V\" makes ssh print its version and exit 0, reaching no host); nothing was run; put a literal \"--\" item before it where the command ends its options there (ssh, grep, ls), or refuse such values where the list is made; an option the chart means is written with its dash in the chart (\"-${flag}\")",
		i+1, es.Args[i].Src, v, filepath.Base(argv[0]))
}
