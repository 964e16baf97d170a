package secret

import "testing"

// TestMonitAllowPasswordsAreMaskedByForm: a chart asking whether monit's
// HTTP interface is bound to localhost read monitrc and showed its `allow`
// lines, and `allow admin:m0nitPW` stood in its table and ten times in
// the record, though the run was given no secret: monit's clients (monit
// status, summary) log in with the first user:password allow line, so it
// is the daemon's password. The password is masked by its form, the user
// kept; an address, a network, a host name, an @group and an htpasswd
// file's allow lines are as they were.
func TestMonitAllowPasswordsAreMaskedByForm(t *testing.T) {
	maskedByForm(t, map[string]string{
		"set httpd port 2812 and\n    use address 127.0.0.1\n    allow admin:m0nitPW\n": "set httpd port 2812 and\n    use address 127.0.0.1\n    allow admin:***\n",
		"  allow guest:\"pass word\" read-only\n":                                       "  allow guest:*** read-only\n",
		"set httpd port 2812 allow admin:monit\n":                                       "set httpd port 2812 allow admin:***\n",
		"ALLOW ops:S3cr3t\n": "ALLOW ops:***\n",
		"    allow localhost\n    allow 192.168.1.0/255.255.255.0\n":   "    allow localhost\n    allow 192.168.1.0/255.255.255.0\n",
		"    allow ::1\n    allow fe80::1\n    allow dead:beef::/64\n": "    allow ::1\n    allow fe80::1\n    allow dead:beef::/64\n",
		"    allow @monit\n    allow @users readonly\n":                "    allow @monit\n    allow @users readonly\n",
		"    allow md5 /etc/monit/htpasswd admin\n":                    "    allow md5 /etc/monit/htpasswd admin\n",
		"we allow a:b here\n":                                          "we allow a:b here\n",
	})
}
