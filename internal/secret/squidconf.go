package secret

import (
	"regexp"
	"strings"
)

// squidCachemgrPasswd is Squid's cachemgr_passwd directive (`cachemgr_passwd
// PASSWORD ACTION…`), anywhere on a line, since `squid -k parse` echoes each
// directive after `Processing: `: its groups are the name and the password.
var squidCachemgrPasswd = regexp.MustCompile(`(\bcachemgr_passwd[ \t]+)([^ \t\r\n]+)`)

// SquidCachemgrPasswords is t with the password of every Squid
// cachemgr_passwd directive masked, the actions after it kept: `squid -k
// parse` prints each directive it reads, and a config check kept the
// cache manager's password in its Scripts part and five times in the
// record (TestSquidCachemgrPasswordIsMaskedByForm). `none` (no password
// asked) and `disable` (the actions turned off) are Squid's own words,
// no password, and are left as they are. A prose mention is masked too:
// a password may be any word, and a word masked costs less than a
// password shown. Idempotent.
//
//	Processing: cachemgr_passwd s3cretPW all   Processing: cachemgr_passwd *** all
//	cachemgr_passwd none menu                  as it is
func SquidCachemgrPasswords(t string) string {
	if !strings.Contains(t, "cachemgr_passwd") {
		return t
	}
	return squidCachemgrPasswd.ReplaceAllStringFunc(t, func(m string) string {
		sub := squidCachemgrPasswd.FindStringSubmatch(m)
		switch sub[2] {
		case "none", "disable", Masked:
			return m
		}
		return sub[1] + Masked
	})
}
