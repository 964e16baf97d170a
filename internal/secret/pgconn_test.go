package secret

import "testing"

// TestPostgresPasswordsAreMaskedByForm: a chart asking whether a standby
// streams from the primary it should read `SHOW primary_conninfo` and
// printed the replication password (`password='R3pl-s3cret'`, libpq's
// keyword/value form) in its table and kept it twelve times in the
// record, though the run was given no secret; postgresql.auto.conf writes
// the same inside a quoted setting (`password=”R3pl-s3cret”`), a
// pgbouncer.ini [databases] line unquoted, and pg_authid (or pgbouncer's
// userlist.txt) holds each role's SCRAM verifier, a password guessed
// offline. Each is masked by its form; the keyword, the rest of the
// string and the verifier's scheme are kept, and an empty password as
// it is.
func TestPostgresPasswordsAreMaskedByForm(t *testing.T) {
	maskedByForm(t, map[string]string{
		"user=replicator password='R3pl-s3cret' channel_binding=prefer host=127.0.0.1 port=15432\n": "user=replicator password=*** channel_binding=prefer host=127.0.0.1 port=15432\n",
		"primary_conninfo = 'user=replicator password=''R3pl-s3cret'' host=127.0.0.1 port=15432'\n": "primary_conninfo = 'user=replicator password=*** host=127.0.0.1 port=15432'\n",
		"shop = host=10.0.0.5 port=5432 dbname=shop user=app password=appPassw0rd\n":                "shop = host=10.0.0.5 port=5432 dbname=shop user=app password=***\n",
		"host=db password = 'pass word\\'s' user=app":                                               "host=db password = *** user=app",
		"'password=s3cretpw host=db'":                                         "'password=*** host=db'",
		"host=db password='' user=app":                                        "host=db password='' user=app",
		"user=replicator password=******** dbname=replication host=127.0.0.1": "user=replicator password=******** dbname=replication host=127.0.0.1",
		"monitor|SCRAM-SHA-256$4096:EVfT93p2mIbhn4GIy3ZjqA==$9hR9zuqDsxgX+R15rYi+e96j8GQb+umLuHnINnCe6V4=:wQqzD9jSNPqzQxxeTPSfp3bGiQv9a+Ly2YHticWy1LY=\n": "monitor|SCRAM-SHA-256$***\n",
		"\"app\" \"SCRAM-SHA-256$4096:c2FsdA==$c3RvcmVk:c2VydmVy\"\n":                                                                                     "\"app\" \"SCRAM-SHA-256$***\"\n",
		"old|md5a3556571e93b0d20722ba62be61e8c2d\n":                                                                                                       "old|md5***\n",
		"FATAL:  password authentication failed for user \"monitor\"\n":                                                                                   "FATAL:  password authentication failed for user \"monitor\"\n",
		"passwordless=true host=db": "passwordless=true host=db",
	})
}

// TestPgBouncerUserlistPasswordsAreMaskedByForm: a chart auditing which
// users of pgbouncer's auth_file (userlist.txt, `"user" "password"` a
// line) still have their password in plain text read the file and
// printed each password in its table and kept it 46 times in the
// record. The second field of such a line is masked, a verifier's
// scheme kept (PostgresPasswords), so the audit still tells them apart:
// `***` is plain text, `SCRAM-SHA-256$***` a SCRAM secret.
func TestPgBouncerUserlistPasswordsAreMaskedByForm(t *testing.T) {
	maskedByForm(t, map[string]string{
		"\"pgbadmin\" \"B0unce-s3cret\"\n\"postgres\" \"Pr1m4ry-s3cret\"\n": "\"pgbadmin\" \"***\"\n\"postgres\" \"***\"\n",
		"\"app\" \"SCRAM-SHA-256$4096:c2FsdA==$c3RvcmVk:c2VydmVy\"\n":       "\"app\" \"SCRAM-SHA-256$***\"\n",
		"\"old\" \"md5a3556571e93b0d20722ba62be61e8c2d\"\r\n":               "\"old\" \"md5***\"\r\n",
		"\"nopw\" \"\"\n": "\"nopw\" \"\"\n",
		"\"weird \"\"quoted\"\" user\" \"pa\"\"ss word\"\n": "\"weird \"\"quoted\"\" user\" \"***\"\n",
		";; a comment \"a\" \"bbbbbbbb\"\n":                 ";; a comment \"a\" \"bbbbbbbb\"\n",
		"say \"hello\" \"world\"\n":                         "say \"hello\" \"world\"\n",
	})
}
