package record

import "testing"

// TestRedisErrorReplyIsKnownByItsCode: a line is a Redis error reply when
// one of Redis's codes starts it (behind "(error) " as a terminal shows
// it), never when another word does, nor a code inside a line (INFO's
// errorstat_NOAUTH) or glued to more letters.
func TestRedisErrorReplyIsKnownByItsCode(t *testing.T) {
	for out, want := range map[string]string{
		"NOAUTH Authentication required.\n\n":                                  "NOAUTH Authentication required.",
		"(error) WRONGPASS invalid username-password pair\n":                   "(error) WRONGPASS invalid username-password pair",
		"maxmemory\nMASTERDOWN Link with MASTER is down\r\n":                   "MASTERDOWN Link with MASTER is down",
		"DENIED Redis is running in protected mode because protected mode …\n": "DENIED Redis is running in protected mode because protected mode …",
		"ERR\n":                                 "ERR",
		"errorstat_NOAUTH:count=3\r\n":          "",
		"ERRORS 0\n":                            "",
		"OK\n":                                  "",
		"PONG\n":                                "",
		"role:master\r\nconnected_slaves:1\r\n": "",
	} {
		if got := RedisErrorReply(out); got != want {
			t.Errorf("RedisErrorReply(%q) = %q, want %q", out, got, want)
		}
	}
}
