package secret

import (
	"net"
	"regexp"
	"strings"
)

// monitAllow is a monitrc `allow USER:PASSWORD` line, on a line of its
// own under `set httpd` or on the `set httpd` line itself (any case, as
// monit reads its keywords): its groups are what is kept before the
// password (to the user's colon), and the password (a word, or a quoted
// text).
var monitAllow = regexp.MustCompile(`(?im)^([ \t]*(?:set[ \t]+httpd\b[^\r\n]*?[ \t])?allow[ \t]+([A-Za-z_][\w.-]*):)("[^"\r\n]*"|[^\s"]+)`)

// MonitAllowPasswords is t with the password of every monitrc `allow
// USER:PASSWORD` line masked, the user kept: monit's clients (monit
// status, summary, unmonitor) log in to the daemon with the first such
// line, and a chart asking whether the HTTP interface was bound to
// localhost showed `allow admin:m0nitPW` in its table and ten times in
// the record (TestMonitAllowPasswordsAreMaskedByForm). An allow line of an
// address or a network (`allow fe80::1`, `allow dead:beef::/64`), a host
// name, an @group or an htpasswd file names no password and is as it was.
// Idempotent.
//
//	allow admin:m0nitPW              allow admin:***
//	allow guest:"pass word" read-only  allow guest:*** read-only
func MonitAllowPasswords(t string) string {
	if !strings.Contains(t, "llow") && !strings.Contains(t, "LLOW") {
		return t
	}
	return monitAllow.ReplaceAllStringFunc(t, func(m string) string {
		g := monitAllow.FindStringSubmatch(m)
		if anAddress(g[2] + ":" + g[3]) {
			return m
		}
		return g[1] + Masked
	})
}

// anAddress says whether an allow line's word is an IPv6 address or
// network, whose colons are no user's.
func anAddress(w string) bool {
	if net.ParseIP(w) != nil {
		return true
	}
	_, _, err := net.ParseCIDR(w)
	return err == nil
}
