package secret

import "testing"

// TestNUTPasswordsAreMaskedByForm: a chart auditing a NUT host's config
// read upsd.users (`password = s3cretpw` under each `[user]`) and
// upsmon.conf (`MONITOR ups@localhost 1 upsmon s3cretmonpw primary`, the
// password the fourth field), and printed both in its table and kept
// each seven times in the record, though the run was given no secret.
// The value is masked by its form wherever a run reads it: a setting
// whose name says it holds a secret, `=` between blanks (upsd.users,
// my.cnf, any INI file), and MONITOR's password field; the rest of the
// line is kept, and an empty value is left as it is.
func TestNUTPasswordsAreMaskedByForm(t *testing.T) {
	maskedByForm(t, map[string]string{
		"[admin]\n  password = s3cretpw\n  actions = SET\n":              "[admin]\n  password = ***\n  actions = SET\n",
		"[client]\npassword = hunter2pw\nuser = root\n":                  "[client]\npassword = ***\nuser = root\n",
		"\tpassword\t=\t\"pass word\"\r\n":                               "\tpassword\t=\t***\r\n",
		"  password = \n":                                                "  password = \n",
		"keyfile = /etc/nut/key.pem\nmaxage = 15\n":                      "keyfile = /etc/nut/key.pem\nmaxage = 15\n",
		"MONITOR ups@localhost 1 upsmon s3cretmonpw primary\n":           "MONITOR ups@localhost 1 upsmon *** primary\n",
		"  MONITOR rack2@10.0.0.5:3493 1 monuser \"p w x\" slave\n":      "  MONITOR rack2@10.0.0.5:3493 1 monuser *** slave\n",
		"MONITOR ups@localhost 1 upsmon s3cretmonpw master # old name\n": "MONITOR ups@localhost 1 upsmon *** master # old name\n",
		"MINSUPPLIES 1\nSHUTDOWNCMD \"/sbin/shutdown -h +0\"\n":          "MINSUPPLIES 1\nSHUTDOWNCMD \"/sbin/shutdown -h +0\"\n",
		"the MONITOR line names the UPS\n":                               "the MONITOR line names the UPS\n",
	})
}
