package secret

import (
	"regexp"
	"strings"
)

// directivePasswordNames are the config directives whose first value is
// a password, written `NAME PASSWORD …` between blanks: Squid's
// cachemgr_passwd (`cachemgr_passwd PASSWORD ACTION…`) and keepalived's
// auth_pass (a VRRP instance's authentication block).
var directivePasswordNames = []string{"cachemgr_passwd", "auth_pass"}

// directivePassword is such a directive anywhere on a line, since `squid
// -k parse` echoes each directive after `Processing: `: its groups are
// the name with the blanks after it, and the password (a word, or a
// quoted text).
var directivePassword = regexp.MustCompile(`(\b(?:` + strings.Join(directivePasswordNames, "|") + `)[ \t]+)("[^"\r\n]*"|[^ \t\r\n]+)`)

// squidclientPassword is a cache manager URL squidclient is given with its
// password after the action (`mgr:info@PASSWORD`,
// `cache_object://HOST/info@PASSWORD`), the only way but -w it takes one:
// its groups are what is kept and the password.
var squidclientPassword = regexp.MustCompile(`(\bmgr:[A-Za-z0-9_]+@|\bcache_object://[^/\s"']+/[A-Za-z0-9_]+@)([^\s"']+)`)

// DirectivePasswords is t with the password of every such directive
// masked, what follows it kept: `squid -k parse` prints each directive it
// reads, and a config check kept the cache manager's password in its
// Scripts part and five times in the record
// (TestSquidCachemgrPasswordIsMaskedByForm); a VRRP check reading
// keepalived.conf kept the group's auth_pass
// (TestKeepalivedAuthPassIsMaskedByForm). So is the password squidclient
// is given after a cache manager action's @ (`mgr:info@PW`), which a run
// keeps in its argv (TestSquidclientPasswordIsMaskedByForm). Squid's `none` (no password
// asked) and `disable` (the actions turned off) are no password and are
// left as they are. A prose mention is masked too: a password may be
// any word, and a word masked costs less than a password shown.
// Idempotent.
//
//	Processing: cachemgr_passwd s3cretPW all   Processing: cachemgr_passwd *** all
//	auth_pass s3cr3tka                         auth_pass ***
//	squidclient mgr:info@s3cretPW              squidclient mgr:info@***
//	cachemgr_passwd none menu                  as it is
func DirectivePasswords(t string) string {
	if strings.Contains(t, "mgr:") || strings.Contains(t, "cache_object:") {
		t = squidclientPassword.ReplaceAllStringFunc(t, func(m string) string {
			sub := squidclientPassword.FindStringSubmatch(m)
			return sub[1] + Masked
		})
	}
	if !strings.Contains(t, "cachemgr_passwd") && !strings.Contains(t, "auth_pass") {
		return t
	}
	return directivePassword.ReplaceAllStringFunc(t, func(m string) string {
		sub := directivePassword.FindStringSubmatch(m)
		switch sub[2] {
		case "none", "disable", Masked:
			return m
		}
		return sub[1] + Masked
	})
}
