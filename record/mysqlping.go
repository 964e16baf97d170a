package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemPingNotAlive is the kind of the not-checked item filed for an exec
// stage that runs `mysqladmin … ping` (chart.ExecSpec.MySQLAdminPing)
// and ended as no failure without printing `mysqld is alive`: mysqladmin
// exits 0 whenever the server answered at all, a refused login and `Too
// many connections` among it, and under --silent it says nothing of it,
// on stdout or stderr. A liveness check under `exitCodes: {0: up, 1:
// down}` said up, OK, Consistent, over a server that let no one in
// (cmd/runbook TestMySQLAdminPingRefusedIsNoAnswer).
const ItemPingNotAlive = "ping-not-alive"

// PingNotAliveEntry is the ledger's entry for such a stage, filed under
// its path: exit is its exit code, word the answer the chart declared for
// it ("" when none).
func PingNotAliveEntry(path string, exit int, word string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it runs mysqladmin ping and did not print \"mysqld is alive\" %s: mysqladmin ping exits 0 whenever the server answered at all, a refused login and too many connections among it, and under --silent says nothing of it, so its 0 is no server up for its clients; judge its stdout (\"is alive\"), or ask with mysql -e 'SELECT 1', which exits 1 over any refusal",
		exitedThough(exit, word)), ItemPingNotAlive)
}
