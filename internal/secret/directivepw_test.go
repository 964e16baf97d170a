package secret

import "testing"

// TestSquidCachemgrPasswordIsMaskedByForm: a chart checking Squid's
// config with `squid -k parse` printed `Processing: cachemgr_passwd
// s3cretPW all` in its Scripts part and kept the cache manager's
// password five times in the record, though the run was given no secret:
// squid echoes every directive it reads on stderr. The password is
// masked by its form (the first word after cachemgr_passwd), on a
// squid.conf line and in squid's echo of it alike; `none` and `disable`
// are Squid's words for no password and an action turned off, not
// passwords, and are left as they are so a chart can ask about them.
func TestSquidCachemgrPasswordIsMaskedByForm(t *testing.T) {
	maskedByForm(t, map[string]string{
		"cachemgr_passwd s3cretPW all\n":                                         "cachemgr_passwd *** all\n",
		"2026/12/07 22:47:52| Processing: cachemgr_passwd s3cretPW all\n":        "2026/12/07 22:47:52| Processing: cachemgr_passwd *** all\n",
		"  cachemgr_passwd\tp@ss:w0rd info 5min utilization\r\n":                 "  cachemgr_passwd\t*** info 5min utilization\r\n",
		"cachemgr_passwd none menu\ncachemgr_passwd disable shutdown\n":          "cachemgr_passwd none menu\ncachemgr_passwd disable shutdown\n",
		"# cachemgr_passwd secret shutdown\n":                                    "# cachemgr_passwd *** shutdown\n",
		"http_port 127.0.0.1:13128\ncache_dir ufs /var/spool/squid 100 16 256\n": "http_port 127.0.0.1:13128\ncache_dir ufs /var/spool/squid 100 16 256\n",
		"the cachemgr_passwd directive\n":                                        "the cachemgr_passwd ***\n",
	})
}

// TestKeepalivedAuthPassIsMaskedByForm: a VRRP check reading
// keepalived.conf to list each instance's VIPs and priority kept
// `auth_pass s3cr3tka`, the password every node of the group shares, in
// its record, though the run was given no secret. It is masked by its
// form as Squid's cachemgr_passwd is, the rest of the block kept;
// keepalived's own dump (SIGUSR1's /tmp/keepalived.data, `Password =
// s3cr3tka`) was masked already, as a setting whose name says so.
func TestKeepalivedAuthPassIsMaskedByForm(t *testing.T) {
	maskedByForm(t, map[string]string{
		"  authentication {\n    auth_type PASS\n    auth_pass s3cr3tka\n  }\n": "  authentication {\n    auth_type PASS\n    auth_pass ***\n  }\n",
		"\tauth_pass\t\"p w\"\r\n": "\tauth_pass\t***\r\n",
		"   Authentication type = SIMPLE_PASSWORD\n   Password = s3cr3tka\n": "   Authentication type = SIMPLE_PASSWORD\n   Password = ***\n",
		"    auth_type AH\n": "    auth_type AH\n",
	})
}

// TestSquidclientPasswordIsMaskedByForm: squidclient takes the cache
// manager's password in its argv alone, `squidclient mgr:info@s3cretPW`
// (or `cache_object://HOST/info@s3cretPW`), and a chart that wrote it
// there kept it in the record's argv twice and in `runbook plan`. The
// part after the action's `@` is masked by its form; an action with no
// password, and an address with an @ elsewhere, are as they were.
func TestSquidclientPasswordIsMaskedByForm(t *testing.T) {
	maskedByForm(t, map[string]string{
		"squidclient -h 127.0.0.1 -p 13128 mgr:info@s3cretPW": "squidclient -h 127.0.0.1 -p 13128 mgr:info@***",
		"squidclient cache_object://127.0.0.1/5min@p@ss":      "squidclient cache_object://127.0.0.1/5min@***",
		"squidclient -p 3128 mgr:info":                        "squidclient -p 3128 mgr:info",
		"ssh ops@proxy1 squidclient mgr:utilization":          "ssh ops@proxy1 squidclient mgr:utilization",
		"[\"squidclient\",\"mgr:menu@hunter22\"]":             "[\"squidclient\",\"mgr:menu@***\"]",
	})
}
