package chart

import "regexp"

// fastCGIClientInShell is a shell line running cgi-fcgi (libfcgi's
// client, Debian's libfcgi-bin), the way a php-fpm pool's status page,
// ping path or a status script is asked without a web server.
var fastCGIClientInShell = regexp.MustCompile(`(^|[\s;&|(/])cgi-fcgi(\s|$|[;&|)])`)

// FastCGIClient says whether the exec runs cgi-fcgi, which exits 0
// whatever php-fpm answered: a 404 of a path the pool has no script for,
// a 403, a script's fatal error (runbook's errorReply):
//
//	shell: SCRIPT_NAME=/status … cgi-fcgi -bind -connect 127.0.0.1:9000 | sed '1,/^\r$/d'   yes
//	[cgi-fcgi, -bind, -connect, /run/php/php8.2-fpm.sock]                                    yes
//	[php-fpm8.2, -t]                                                                         no
func (e *ExecSpec) FastCGIClient() bool { return e.runs(fastCGIClientInShell, "cgi-fcgi") }

// memcstatInShell is a shell line running memcstat.
var memcstatInShell = regexp.MustCompile(`(^|[\s;&|(/])memcstat(\s|$|[;&|)])`)

// Memcstat says whether the exec runs memcstat (libmemcached-tools 1.1;
// upstream's memstat, which Debian renames, is not read: Debian's own
// memstat package is another tool), which prints `Server: HOST (PORT)`
// before each server's stats and, over a server that closed the
// connection at once (memcached at its connection limit), prints nothing
// and mostly exits 0 (runbook's errorReply):
//
//	[memcstat, --servers=127.0.0.1:11211]          yes
//	shell: memcstat --servers="$S" | grep evictions   yes
//	[memcached, -h]                                no
func (e *ExecSpec) Memcstat() bool { return e.runs(memcstatInShell, "memcstat") }
