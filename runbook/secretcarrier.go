package runbook

import (
	"fmt"

	"github.com/openrunbook/runbook/internal/secret"
)

// SecretCarrier says where the chart hands a run a secret, in words
// ("input \"token\" is secret"), "" when nowhere: a `secret: true` input,
// its own or a mounted chart's, or an exec stage's envFrom: variable whose
// name says it holds one (secret.NamedSecret, as the run judges it when it
// masks the value: PGPASSWORD given a plain input). A run elsewhere that
// stores what it is handed (a Temporal workflow's history) asks it before
// it starts: a password given as a plain input and handed to psql as
// PGPASSWORD was masked in the record, and stood in the clear in the
// workflow's history, its input and the stage's activity.
func (rb *Runbook) SecretCarrier() string {
	for _, in := range rb.spec.Inputs {
		if in.Secret {
			return fmt.Sprintf("input %q is secret", in.Name)
		}
	}
	var where string
	rb.WalkStages(func(v StageVisit) {
		if where != "" {
			return
		}
		st := v.Stage
		if sf := st.Subflow; sf != nil && sf.Spec != nil {
			for _, in := range sf.Spec.Inputs {
				if in.Secret {
					where = fmt.Sprintf("input %q of the chart stage %q mounts (%s) is secret", in.Name, v.Path, sf.Chart)
					return
				}
			}
		}
		if st.Exec == nil {
			return
		}
		for _, a := range st.Exec.EnvFrom {
			if secret.NamedSecret(a.Key) {
				where = fmt.Sprintf("stage %q hands its command %s (envFrom:), a name that says it holds a secret, so the run holds its value as one", v.Path, a.Key)
				return
			}
		}
	})
	return where
}
