package runbook

import (
	"slices"

	"github.com/openrunbook/runbook/record"
)

// CheckAnswers says whether Resume would take these answers for rec (or,
// with rejecting, a rejection), without running anything: the refusal is
// the one Resume would return (a *ResumeError or InputErrors), nil when it
// would go on. A resume made elsewhere (a Temporal workflow woken by a
// signal, which cannot answer its sender) is checked with it first, so
// the person hears the refusal a local resume gives.
func (rb *Runbook) CheckAnswers(rec *record.RunRecord, answers map[string]any, rejecting bool) error {
	if err := rb.CanResume(rec); err != nil {
		return err
	}
	cp := *rec.Checkpoint
	cp.State = slices.Clone(cp.State) // resumeInputs puts secrets back into it
	_, _, err := rb.resumeInputs(rec, &cp, answers, rejecting)
	return err
}
