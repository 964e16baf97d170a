package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemAbsentMember is the kind of the not-checked item filed for a set:
// key whose value is null, or holds a null, because its expression read a
// member its object lacks (with no near name: a near one is the stage's
// error), unguarded. Kubernetes leaves status.readyReplicas out of a
// Deployment none of whose replicas is ready: `set: {ready:
// d.status.readyReplicas}` wrote null, a later `ready == 0` was a plain
// no, and a deployment with nothing ready read ok. A rule reading the
// member itself is a rule-error; one reading the key it was copied into
// cannot tell, so the set: says it. The standing cannot be Consistent
// over it, and a Nagios check is no better than UNKNOWN, until the chart
// says what the absence means (`d.status.readyReplicas ?? 0`). So is a
// key max() or min() of no items left null (rules' patchExtreme): a
// keytab's key version taken as max() of klist's lines that named the
// principal, none of which did, read as a version other than the KDC's,
// stale (wave-krb).
const ItemAbsentMember = "absent-member"

// AbsentMemberEntry is the ledger's entry for the set: stage at path whose
// key got null from a member its object lacks; absent says which (masked
// already, rules.Expr.ValueNoting's words).
func AbsentMemberEntry(path, key, absent string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: fmt.Sprintf("the value of %s", key),
			Why:  fmt.Sprintf("it is null where it read a member that is not there (or took max() or min() of no items), and a rule over it reads no value, not a zero or a no: %s", absent),
			Kind: ItemAbsentMember,
		}},
	}}
}
