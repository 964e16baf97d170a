package record

import "testing"

// TestRedisErrorReplyIsKnownByItsCode: a line is a Redis error reply when
// one of Redis's codes starts it (behind "(error) " as a terminal shows
// it), never when another word does, nor a code inside a line (INFO's
// errorstat_NOAUTH) or glued to more letters.
func TestRedisErrorReplyIsKnownByItsCode(t *testing.T) {
	wantReplies(t, "RedisErrorReply", RedisErrorReply, map[string]string{
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
	})
}

// TestZooKeeperRefusalIsKnownWhole: a line is ZooKeeper's refusal of a
// four-letter word when it is the whole sentence ZooKeeper writes (a
// word not whitelisted, a server serving no requests), and isro's
// `null` is one only where isro was asked; mntr's metrics and cons's
// connections are not.
func TestZooKeeperRefusalIsKnownWhole(t *testing.T) {
	for _, tc := range []struct {
		out  string
		isro bool
		want string
	}{
		{"mntr is not executed because it is not in the whitelist.\n", false, "mntr is not executed because it is not in the whitelist."},
		{"This ZooKeeper instance is not currently serving requests\r\n", false, "This ZooKeeper instance is not currently serving requests"},
		{"null", true, "null"},
		{"null", false, ""},
		{"rw", true, ""},
		{"zk_version\t3.8.0\nzk_server_state\tleader\n", false, ""},
		{" /127.0.0.1:40380[0](queued=0,recved=1,sent=0)\n\n", false, ""},
		{"note: This ZooKeeper instance is not currently serving requests\n", false, ""},
	} {
		if got := ZooKeeperErrorReply(tc.out, tc.isro); got != tc.want {
			t.Errorf("ZooKeeperErrorReply(%q, %v) = %q, want %q", tc.out, tc.isro, got, tc.want)
		}
	}
}

// TestMemcachedErrorReplyIsKnownWhole: memcached's ERROR line, and its
// CLIENT_ERROR and SERVER_ERROR ones, are error replies; a STAT line, END,
// and a stat whose value holds the word are not.
func TestMemcachedErrorReplyIsKnownWhole(t *testing.T) {
	wantReplies(t, "MemcachedErrorReply", MemcachedErrorReply, map[string]string{
		"ERROR\r\n": "ERROR",
		"CLIENT_ERROR bad command line format\r\n":    "CLIENT_ERROR bad command line format",
		"SERVER_ERROR out of memory storing object\n": "SERVER_ERROR out of memory storing object",
		"STAT pid 4673\r\nEND\r\n":                    "",
		"END\r\n":                                     "",
		"STAT last_error ERROR\r\n":                   "",
		"ERRORS 3\r\n":                                "",
	})
}

// TestNUTErrorReplyIsKnownWhole: upsd's `ERR CODE` lines (Network UPS
// Tools' network protocol) are error replies, with or without the words
// after the code; a VAR line holding the words, memcached's ERROR, and a
// code upsd does not have are not.
func TestNUTErrorReplyIsKnownWhole(t *testing.T) {
	wantReplies(t, "NUTErrorReply", NUTErrorReply, map[string]string{
		"ERR DATA-STALE\nOK Goodbye\n":                                           "ERR DATA-STALE",
		"VAR ups ups.status \"OL\"\nERR UNKNOWN-UPS\n":                           "ERR UNKNOWN-UPS",
		"ERR DRIVER-NOT-CONNECTED\r\n":                                           "ERR DRIVER-NOT-CONNECTED",
		"ERR VAR-NOT-SUPPORTED\n":                                                "ERR VAR-NOT-SUPPORTED",
		"ERR ACCESS-DENIED\n":                                                    "ERR ACCESS-DENIED",
		"ERR INVALID-ARGUMENT extra words\n":                                     "ERR INVALID-ARGUMENT extra words",
		"VAR ups ups.status \"OL\"\nOK Goodbye\n":                                "",
		"VAR ups ups.alarm \"ERR DATA-STALE\"\n":                                 "",
		"ERROR\r\n":                                                              "",
		"ERR unknown command 'GET'\n":                                            "",
		"BEGIN LIST VAR ups\nVAR ups battery.charge \"100\"\nEND LIST VAR ups\n": "",
	})
}

// wantReplies checks that reply (named name) finds in each output the
// line its case wants, "" for none.
func wantReplies(t *testing.T, name string, reply func(string) string, cases map[string]string) {
	t.Helper()
	for out, want := range cases {
		if got := reply(out); got != want {
			t.Errorf("%s(%q) = %q, want %q", name, out, got, want)
		}
	}
}

// TestMemcachedConnectionLimitIsAnErrorReply: memcached 1.6 at its
// connection limit (-c) answers a new connection with `ERROR Too many
// open connections` and closes it, which nc prints and exits 0 over. The
// reply's ERROR followed by words was read as no error reply, so kv
// (sep " ") made it the key ERROR, and a chart of evictions read `??
// 0` said ok, Consistent, over a server that refused it
// (testdata/wave-php/memcached-nc). A stat named ERROR is none.
func TestMemcachedConnectionLimitIsAnErrorReply(t *testing.T) {
	wantReplies(t, "MemcachedErrorReply", MemcachedErrorReply, map[string]string{
		"ERROR Too many open connections\r\n": "ERROR Too many open connections",
		"ERROR\r\n":                           "ERROR",
		"STAT pid 4673\r\nEND\r\n":            "",
		"ERRORS 3\r\n":                        "",
	})
}

// TestFastCGIErrorReplyIsPHPFPMsOwnWords: cgi-fcgi exits 0 whatever
// php-fpm answered, and php-fpm says on the FastCGI stderr stream, which
// cgi-fcgi prints on its stderr, why it served no script: a path it has
// no script for (`Primary script unknown`: a pool whose pm.status_path or
// ping.path is unset or another, a status script not deployed), a file
// security.limit_extensions refuses, or a script that died of a fatal
// error, on stderr or, where display_errors is On, in the page itself
// (status 200: a status script that had sent its Content-Type). A warning
// of a script that ran on is not such a reply, nor the lines of a status
// page.
func TestFastCGIErrorReplyIsPHPFPMsOwnWords(t *testing.T) {
	for page, want := range map[string]string{
		"<br />\n<b>Fatal error</b>:  Uncaught Error: Call to undefined function opcache_get_status() in /tmp/php/www/opcache.php:1\nStack trace:\n": "<b>Fatal error</b>:  Uncaught Error: Call to undefined function opcache_get_status() in /tmp/php/www/opcache.php:1",
		"\nFatal error: Uncaught Error: Call to undefined function opcache_get_status() in /srv/opcache.php:1\n":                                     "Fatal error: Uncaught Error: Call to undefined function opcache_get_status() in /srv/opcache.php:1",
		`{"opcache_enabled":true,"cache_full":false}`:                                                  "",
		"<b>Warning</b>:  Undefined variable $x in <b>/srv/opcache.php</b> on line <b>2</b><br />\n{}": "",
	} {
		if got := FastCGIErrorReply(page, ""); got != want {
			t.Errorf("FastCGIErrorReply(%q, \"\") = %q, want %q", page, got, want)
		}
	}
	wantReplies(t, "FastCGIErrorReply", func(stderr string) string { return FastCGIErrorReply("", stderr) }, map[string]string{
		"Primary script unknown": "Primary script unknown",
		"Access to the script '/tmp/php/www/status' has been denied (see security.limit_extensions)":                                                                                            "Access to the script '/tmp/php/www/status' has been denied (see security.limit_extensions)",
		"PHP message: PHP Fatal error:  Uncaught Error: Call to undefined function opcache_get_status() in /srv/opcache.php:2\nStack trace:\n#0 {main}\n  thrown in /srv/opcache.php on line 2": "PHP message: PHP Fatal error:  Uncaught Error: Call to undefined function opcache_get_status() in /srv/opcache.php:2",
		"PHP message: PHP Parse error:  syntax error, unexpected end of file in /srv/opcache.php on line 3":                                                                                     "PHP message: PHP Parse error:  syntax error, unexpected end of file in /srv/opcache.php on line 3",
		"PHP message: PHP Warning:  PHP Request Startup: Failed to open stream: Permission denied in Unknown on line 0; Unable to open primary script: /srv/opcache.php (Permission denied)":    "PHP message: PHP Warning:  PHP Request Startup: Failed to open stream: Permission denied in Unknown on line 0; Unable to open primary script: /srv/opcache.php (Permission denied)",
		"PHP message: PHP Warning:  Undefined variable $x in /srv/opcache.php on line 2":                                                                                                        "",
		"pool:                 www\nmax children reached: 0\n":                                                                                                                                  "",
		"": "",
	})
}
