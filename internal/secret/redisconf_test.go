package secret

import "testing"

// TestRedisPasswordSettingIsMasked: `redis-cli CONFIG GET *` on a
// replica prints its masterauth, its primary's password, and a chart
// auditing the config kept it in the record five times, though the run
// was given no password; redis.conf read as a file holds requirepass.
// The value is masked by its form wherever a run reads it, the name kept,
// and an unset password (an empty value) is left as it is. So is an ACL
// user's password, clear or its unsalted SHA-256 (ACL LIST, ACL GETUSER). So is an ACL
// user's password, clear or its unsalted SHA-256 (ACL LIST, ACL GETUSER).
func TestRedisPasswordSettingIsMasked(t *testing.T) {
	for in, want := range map[string]string{
		"masterauth\ns3cretPW\nmasteruser\n\n":                     "masterauth\n***\nmasteruser\n\n",
		"requirepass\r\ns3cretPW\r\nport\r\n6379\r\n":              "requirepass\r\n***\r\nport\r\n6379\r\n",
		"requirepass\n\nmasterauth\n\n":                            "requirepass\n\nmasterauth\n\n",
		"1) \"requirepass\"\n2) \"s3cretPW\"\n":                    "1) \"requirepass\"\n2) ***\n",
		"1) \"requirepass\"\n2) \"\"\n":                            "1) \"requirepass\"\n2) \"\"\n",
		"\"requirepass\",\"s3cretPW\"\n":                           "\"requirepass\",\"***\"\n",
		"# requirepass foobared\nrequirepass \"p w\"\nport 6379\n": "# requirepass foobared\nrequirepass ***\nport 6379\n",
		"  masterauth s3cretPW\n":                                  "  masterauth ***\n",
		"requirepass \"\"\n":                                       "requirepass \"\"\n",
		"the requirepass setting is on\n":                          "the requirepass setting is on\n",
		"user default on #1574c1f9383e945db0d4e2fa4b86ca4d5c4159810992d94aa3cf91c88879507d ~* &* +@all\n":                 "user default on #*** ~* &* +@all\n",
		"user monitor on >m0nitorPW resetchannels -@all +info\r\n":                                                        "user monitor on >*** resetchannels -@all +info\r\n",
		"user nobody off nopass -@all\n":                                                                                  "user nobody off nopass -@all\n",
		"flags\non\npasswords\n8e59073c6f9f9c59e2a300599fd04cca640ea3980190877f59e24fbc338c40bc\ncommands\n-@all +info\n": "flags\non\npasswords\n***\ncommands\n-@all +info\n",
	} {
		got := ByForm(in)
		if got != want {
			t.Errorf("ByForm(%q) = %q, want %q", in, got, want)
		}
		if again := ByForm(got); again != got {
			t.Errorf("ByForm is not idempotent over %q: %q", got, again)
		}
	}
}
