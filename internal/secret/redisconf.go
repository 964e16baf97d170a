package secret

import (
	"regexp"
	"strings"
)

// redisPasswordNames are the settings of a Redis server that hold a
// password: its own (requirepass) and its primary's (masterauth).
const redisPasswordNames = `requirepass|masterauth`

// redisPassword is a Redis password setting's value where a tool prints
// it, its name kept and its value the second group:
//
//	requirepass s3cret           redis.conf, a directive (sentinel.conf: sentinel auth-pass's is the same line's end)
//	requirepass⏎s3cret           redis-cli CONFIG GET, raw (what a run reads: no terminal)
//	1) "requirepass"⏎2) "s3cret" redis-cli CONFIG GET, as a terminal shows it (--no-raw)
//	"requirepass","s3cret"       redis-cli --csv CONFIG GET
var redisPassword = regexp.MustCompile(`(?m)(^[ \t]*(?:` + redisPasswordNames + `)[ \t]+|` +
	`^(?:[0-9]+\) )?"?(?:` + redisPasswordNames + `)"?\r?\n(?:[0-9]+\) )?|` +
	`"(?:` + redisPasswordNames + `)",)([^\r\n]*)`)

// redisACLUser is an ACL rule line (ACL LIST, an aclfile, a user
// directive of redis.conf), and redisACLPassword a password in one: a
// clear one to add (>PW) or remove (<PW), or the SHA-256 of one (#HEX,
// !HEX), unsalted, so a hash read is a password looked up.
var (
	redisACLUser     = regexp.MustCompile(`(?m)^[ \t]*(?:[0-9]+\) "?)?user \S+ [^\r\n]*`)
	redisACLPassword = regexp.MustCompile(`(^|\s)([<>]\S+|[#!][0-9a-f]{64})`)
	// redisACLPasswords is ACL GETUSER's "passwords" field: the hashes on
	// the lines after it, up to the next field's name.
	redisACLPasswords = regexp.MustCompile(`(?m)^((?:[0-9]+\) )?"?passwords"?\r?\n)((?:[ \t]*(?:[0-9]+\) )?"?[0-9a-f]{64}"?\r?\n?)+)`)
	redisHash         = regexp.MustCompile(`[0-9a-f]{64}`)
)

// RedisPasswords is t with the value of every Redis password setting in
// it masked (redisPassword), its name kept: `redis-cli CONFIG GET *` on a
// replica prints its masterauth, the primary's password, and a config
// drift chart kept it in the record five times, though the run was given
// no password at all. An empty value (`""`, or nothing: no password set)
// is left as it is, so a chart can still ask whether one is set.
// So is a password of an ACL user, clear (>PW) or its unsalted SHA-256
// (#HEX: ACL LIST, ACL GETUSER's passwords), the rest of the rule kept.
// Idempotent.
//
//	masterauth⏎s3cretPW         masterauth⏎***
//	user ops on #8e59…bc ~* +@all  user ops on #*** ~* +@all
//	requirepass "s3 cret"       requirepass ***
//	requirepass⏎                as it is
func RedisPasswords(t string) string {
	if strings.Contains(t, "user ") {
		t = redisACLUser.ReplaceAllStringFunc(t, func(line string) string {
			return redisACLPassword.ReplaceAllStringFunc(line, func(m string) string {
				sub := redisACLPassword.FindStringSubmatch(m)
				return sub[1] + sub[2][:1] + Masked
			})
		})
	}
	if strings.Contains(t, "passwords") {
		t = redisACLPasswords.ReplaceAllStringFunc(t, func(m string) string {
			return redisHash.ReplaceAllString(m, Masked)
		})
	}
	if !strings.Contains(t, "requirepass") && !strings.Contains(t, "masterauth") {
		return t
	}
	return redisPassword.ReplaceAllStringFunc(t, func(m string) string {
		sub := redisPassword.FindStringSubmatch(m)
		name, value := sub[1], sub[2]
		switch strings.TrimSpace(value) {
		case "", `""`, `''`, `2) ""`, Masked, `"` + Masked + `"`:
			return m
		}
		if strings.HasPrefix(value, `"`) && strings.HasPrefix(name, `"`) { // --csv
			return name + `"` + Masked + `"`
		}
		return name + Masked
	})
}
