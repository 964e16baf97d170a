package runbook

import (
	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
)

// continueOption is a stage's `onError: continue` as the executor applies
// it (flow.ContinueOnError), with the key its failure is written to:
//
//	exec, plugin, read   into receives {error: "…"}
//	foreach              into keeps every item's result; a failed item's
//	                     holds "error" beside its keys
//	others               nothing is written
//
// Whatever the kind, the record's coverage ledger names the stage and the
// error (record.ItemFailed), so the standing line cannot say more than
// the stages that ended well support. false: the stage fails the run when
// it fails (onError: fail, the default).
func continueOption(st *chart.StageSpec) (flow.Option, bool) {
	if st.OnError != chart.OnErrorContinue {
		return nil, false
	}
	return flow.ContinueOnError(errorInto(st)), true
}

// errorInto is the key a failed stage's {error} is written to ("" for a
// kind that has none, or that writes its own: foreach).
func errorInto(st *chart.StageSpec) string {
	into := ""
	switch {
	case st.Exec != nil:
		into = st.Exec.Into
	case st.Plugin != nil:
		into = st.Plugin.Into
	case st.Read != nil:
		into = st.Read.Into
	default:
		return ""
	}
	if into == "" {
		into = st.ID
	}
	return into
}
