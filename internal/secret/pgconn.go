package secret

import (
	"regexp"
	"strings"
)

// conninfoPassword is libpq's password keyword in a keyword/value
// connection string (`SHOW primary_conninfo`, a pgbouncer.ini
// [databases] line, a service file): `password=`, blanks allowed around
// the "=", after the text's start, a blank or a quote (the string itself
// quoted in postgresql.auto.conf), then its value: quoted with its quotes
// doubled (inside postgresql.auto.conf's quoted setting), quoted with
// libpq's backslash escapes, or a word. Its groups are what is kept (the
// lead, the keyword and its "=") and the value.
var conninfoPassword = regexp.MustCompile(`((?:^|[\s'"])password[ \t]*=[ \t]*)(''(?:[^'\r\n]|'''')*''|'(?:[^'\\\r\n]|\\.)*'|[^\s']+)`)

// pgVerifier is a password verifier as PostgreSQL stores it (pg_authid's
// rolpassword, pg_shadow's passwd) and pgbouncer's userlist.txt and
// auth_query read it: SCRAM-SHA-256's iterations, salt and keys, or md5
// and 32 hexadecimal digits. Its group is the scheme, kept.
var pgVerifier = regexp.MustCompile(`\b(SCRAM-SHA-256\$)[0-9]+:[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}:[A-Za-z0-9+/]+={0,2}|\b(md5)[0-9a-f]{32}\b`)

// userlistLine is a line of pgbouncer's auth_file (userlist.txt): the
// user and the password, each between double quotes (a quote inside
// doubled), nothing else on the line. Its groups are what is kept (the
// user and the password's opening quote), the password, and its closing
// quote to the line's end.
var userlistLine = regexp.MustCompile(`(?m)^("(?:[^"\r\n]|"")*"[ \t]+")((?:[^"\r\n]|"")*)("[ \t]*\r?)$`)

// PostgresPasswords is t with every password libpq's connection string
// holds and every verifier PostgreSQL stores masked, the keyword and the
// scheme kept. A chart asking whether a standby streams from the primary
// it should read `SHOW primary_conninfo` and printed the replication
// password in its table and kept it twelve times in the record, though
// the run was given no secret; a verifier read is a password guessed
// offline, as a crypt(3) hash is (PasswordHashes). So is the password
// of each line of pgbouncer's userlist.txt: an audit of the users whose
// password stood there in plain text printed each one. An empty
// password, and pg_stat_wal_receiver's own `password=********`, are as
// they were. Idempotent.
//
//	user=replicator password='R3pl-s3cret' host=db      user=replicator password=*** host=db
//	primary_conninfo = 'user=r password=''pw'' host=db' primary_conninfo = 'user=r password=*** host=db'
//	monitor|SCRAM-SHA-256$4096:salt==$stored=:server=   monitor|SCRAM-SHA-256$***
//	old|md5a3556571e93b0d20722ba62be61e8c2d             old|md5***
//	"pgbadmin" "B0unce-s3cret"                          "pgbadmin" "***"
func PostgresPasswords(t string) string {
	if strings.Contains(t, "password") && strings.Contains(t, "=") {
		t = conninfoPassword.ReplaceAllStringFunc(t, func(m string) string {
			sub := conninfoPassword.FindStringSubmatch(m)
			keep, value := sub[1], sub[2]
			if strings.Trim(value, "'") == "" || strings.Trim(value, "*") == "" {
				return m
			}
			return keep + Masked
		})
	}
	if strings.Contains(t, "SCRAM-SHA-256$") || strings.Contains(t, "md5") {
		t = pgVerifier.ReplaceAllStringFunc(t, func(m string) string {
			if strings.HasPrefix(m, "md5") {
				return "md5" + Masked
			}
			return "SCRAM-SHA-256$" + Masked
		})
	}
	if !strings.Contains(t, `" `) && !strings.Contains(t, "\"\t") {
		return t
	}
	return userlistLine.ReplaceAllStringFunc(t, func(m string) string {
		sub := userlistLine.FindStringSubmatch(m)
		switch pw := sub[2]; pw {
		case "", Masked, "SCRAM-SHA-256$" + Masked, "md5" + Masked:
			// none, or one masked already with its scheme kept
			return m
		}
		return sub[1] + Masked + sub[3]
	})
}
