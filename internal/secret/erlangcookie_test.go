package secret

import "testing"

// TestErlangCookieHashIsMaskedByForm: rabbitmqctl run by an account
// without the node's cookie says which cookie it tried, `Erlang cookie
// hash: …` (the base64 of its MD5), and a chart asking whether each node
// is reached kept it in the record's stderr tail. It is masked but for
// its label, in a stream and a text; the hash `rabbitmq-diagnostics
// erlang_cookie_hash` prints alone, to compare two nodes', is as it was.
func TestErlangCookieHashIsMaskedByForm(t *testing.T) {
	t.Parallel()
	const line = " * Erlang cookie hash: 9Ybj1Xq3+Vd4Zf0kT7sLmA==\n"
	maskedByForm(t, map[string]string{
		"DIAGNOSTICS\n" + line + " * Effective user: nagios\n": "DIAGNOSTICS\n * Erlang cookie hash: ***\n * Effective user: nagios\n",
		"9Ybj1Xq3+Vd4Zf0kT7sLmA==\n":                           "9Ybj1Xq3+Vd4Zf0kT7sLmA==\n",
	})
}
