package record

import (
	"strings"
	"testing"
)

// TestToolErrorReadsNpmLsProblemsAsItsAnswer: npm's error lines on stderr
// under a declared code are its failure (npm audit's 1 over a registry
// that refused), save an error code npm gives its answer under: `npm ls`
// reports a tree's problems as `npm error code ELSPROBLEMS`, exit 1, and
// that 1 is the answer a chart declares `problems`.
func TestToolErrorReadsNpmLsProblemsAsItsAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, stderr, want string }{
		{"audit refused", "npm warn audit 405 Method Not Allowed\nnpm error audit endpoint returned an error\n", "npm error audit endpoint returned an error"},
		{"npm 8", "npm ERR! code ENOLOCK\n", "npm ERR! code ENOLOCK"},
		{"ls problems", "npm error code ELSPROBLEMS\nnpm error missing: minimist@0.0.8, required by demo@1.0.0\n", ""},
		{"ls problems, npm 8", "npm ERR! code ELSPROBLEMS\nnpm ERR! extraneous: x@1.0.0\n", ""},
		{"a warning", "npm warn config production Use `--omit=dev` instead.\n", ""},
		{"another tool's words", "my-npm errors: none\n", ""},
		{"nothing", "", ""},
	} {
		if got := ToolError(tc.stderr); got != tc.want {
			t.Errorf("%s: ToolError = %q; want %q", tc.name, got, tc.want)
		}
	}
}

// TestToolErrorReadsOpenSSLFailures: OpenSSL's error stack and its words
// that it could not load the file are its failure under a declared code
// (x509 -checkend's 1 over a file not there); openssl verify's reason
// for a chain that does not verify (`error 10 at 1 depth lookup`, the
// answer its 2 declares) is not.
func TestToolErrorReadsOpenSSLFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, stderr, want string }{
		{"3.x not there", "Could not open file or uri for loading certificate from nope.pem\n40B7437AE67F0000:error:80000002:system library:file_open:No such file or directory:file_store.c:266:calling stat(nope.pem)\nUnable to load certificate\n", "Could not open file or uri for loading certificate from nope.pem"},
		{"3.x stack alone", "40F75BA26E7F0000:error:1608010C:STORE routines:ossl_store_handle_load_result:unsupported:store_result.c:149:\n", "40F75BA26E7F0000:error:1608010C:STORE routines:ossl_store_handle_load_result:unsupported:store_result.c:149:"},
		{"1.1", "unable to load certificate\n140234567890:error:0909006C:PEM routines:get_name:no start line:pem_lib.c:745:Expecting: TRUSTED CERTIFICATE\n", "unable to load certificate"},
		{"verify's answer", "CN = Intermediate\nerror 10 at 1 depth lookup: certificate has expired\nerror b.pem: verification failed\n", ""},
		{"a line naming an error", "checking: error: 3 found\n", ""},
	} {
		if got := ToolError(tc.stderr); got != tc.want {
			t.Errorf("%s: ToolError = %q; want %q", tc.name, got, tc.want)
		}
	}
}

// TestToolErrorReadsNginxOpenFailures: nginx's open() of the main config
// (a -c path misspelt), its error log or its pid file is its own failure;
// an include the config names that is not there (` in FILE:LINE`) is the
// config's, and so are its other [emerg] lines.
func TestToolErrorReadsNginxOpenFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ stderr, want string }{
		{"nginx: [emerg] open() \"/etc/nginx/ngnix.conf\" failed (2: No such file or directory)\nnginx: configuration file /etc/nginx/ngnix.conf test failed\n", `nginx: [emerg] open() "/etc/nginx/ngnix.conf" failed (2: No such file or directory)`},
		{"2026/12/07 15:11:34 [emerg] 1234#1234: open() \"/var/log/nginx/error.log\" failed (13: Permission denied)\n", `2026/12/07 15:11:34 [emerg] 1234#1234: open() "/var/log/nginx/error.log" failed (13: Permission denied)`},
		{"nginx: [emerg] open() \"/etc/nginx/conf.d/x.conf\" failed (2: No such file or directory) in /etc/nginx/nginx.conf:12\nnginx: configuration file /etc/nginx/nginx.conf test failed\n", ""},
		{"nginx: [emerg] unknown directive \"worker_conections\" in /etc/nginx/nginx.conf:4\n", ""},
		{"open() \"/x\" failed (2: No such file or directory)\n", ""},
	} {
		if got := ToolError(tc.stderr); got != tc.want {
			t.Errorf("ToolError(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
}

// TestToolErrorReadsSquidOpenFailures: `squid -k parse -f PATH` exits 1
// over a config it could not open (a path misspelt, a file it may not
// read) as over one it refuses (`FATAL: Bungled`, an unrecognized
// directive), and a chart declaring {1: invalid} said invalid, CRITICAL,
// Consistent, of a squid.conf nobody read (wave-proxy squid-parse). Its
// `Unable to open configuration file` is its own failure; an include the
// config names that is not there (`Unable to find configuration file`)
// is the config's, as is a line it cannot read.
func TestToolErrorReadsSquidOpenFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ stderr, want string }{
		{"2026/12/07 22:48:51| FATAL: Unable to open configuration file: /etc/squid/sqiud.conf: (2) No such file or directory\n2026/12/07 22:48:51| Squid Cache (Version 5.7): Terminated abnormally.\n", "2026/12/07 22:48:51| FATAL: Unable to open configuration file: /etc/squid/sqiud.conf: (2) No such file or directory"},
		{"2026/12/07 22:48:59| FATAL: Unable to open configuration file: /tmp/proxy/squid/noperm.conf: (13) Permission denied\n", "2026/12/07 22:48:59| FATAL: Unable to open configuration file: /tmp/proxy/squid/noperm.conf: (13) Permission denied"},
		{"2026/12/07 22:48:59| FATAL: Unable to find configuration file: /etc/squid/conf.d/nope.conf: (2) No such file or directory\n", ""},
		{"2026/12/07 22:48:51| FATAL: Bungled squid/acl.conf line 2: http_access allow al\n", ""},
		{"2026/12/07 22:47:52| squid/typo.conf(7): unrecognized: 'cache_dri'\n", ""},
	} {
		if got := ToolError(tc.stderr); got != tc.want {
			t.Errorf("ToolError(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
}

// TestToolErrorReadsPHPFPMOpenFailures: `php-fpm -t -y PATH` exits 78
// over a configuration file that is not there as over one it refuses (a
// directive misspelt, a bad value), and a chart declaring {78: invalid}
// said invalid, CRITICAL, Consistent, of a file php-fpm never read
// (wave-php fpm-configtest). Its `failed to open configuration file` is
// its own failure; its refusals of a file it read are the answer.
func TestToolErrorReadsPHPFPMOpenFailures(t *testing.T) {
	t.Parallel()
	const missing = "[08-Dec-2026 00:42:28] ERROR: failed to open configuration file '/tmp/php/fpm/missing.conf': No such file or directory (2)"
	for _, tc := range []struct{ stderr, want string }{
		{missing + "\n[08-Dec-2026 00:42:28] ERROR: failed to load configuration file '/tmp/php/fpm/missing.conf'\n[08-Dec-2026 00:42:28] ERROR: FPM initialization failed\n", missing},
		{"[08-Dec-2026 00:40:11] ERROR: [/tmp/php/fpm/typo.conf:12] unknown entry 'pm.max_childern'\n[08-Dec-2026 00:40:11] ERROR: failed to load configuration file '/tmp/php/fpm/typo.conf'\n", ""},
	} {
		if got := ToolError(tc.stderr); got != tc.want {
			t.Errorf("ToolError(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
	if e := ToolErrorEntry("test", 78, "invalid", missing); !strings.Contains(e.Declaration.NotChecked[0].Why, "php-fpm said on stderr that it could not open its configuration file") {
		t.Errorf("the entry says %+v", e)
	}
}

// TestConfigCheckThatOpenedNothingIsNoInvalid: kea-dhcp4 -t exits 1 over
// a configuration it could not open (`Syntax check failed with: Unable
// to open file /etc/kea/kea-dhcp4.conff`: a path misspelt, or one the
// user may not read) as over one it found wrong, and freeradius -XC
// exits 1 over a raddb folder that is not there (`Errors reading
// /etc/freeradius/3.0x: No such file or directory`, on stdout under -X);
// a check under exitCodes: {0: valid, 1: invalid} said `CRITICAL
// /tmp/radius/kea/nosuch.conf: invalid`, Consistent, of a file nobody
// read (wave-radius); so did monit -t over a control file path
// misspelt, `The control file '…' is not a file` (wave-sup). Each is its
// tool's own failure, on stderr or on
// stdout; a configuration it read and refused is not.
func TestConfigCheckThatOpenedNothingIsNoInvalid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, stdout, stderr, want string
	}{
		{"kea, no such file", "Syntax check failed with: Unable to open file /etc/kea/kea-dhcp4.conff\n", "", "Syntax check failed with: Unable to open file /etc/kea/kea-dhcp4.conff"},
		{"kea, a keyword misspelt", "Syntax check failed with: kea/typo.conf:7.3-17: got unexpected keyword \"valid-lifetim\" in Dhcp4 map.\n", "", ""},
		{"freeradius, no such folder (on stdout under -X)", "FreeRADIUS Version 3.2.1\nErrors reading /etc/freeradius/3.0x: No such file or directory\n", "", "Errors reading /etc/freeradius/3.0x: No such file or directory"},
		{"freeradius, a folder it may not read, on stderr", "", "Errors reading /etc/freeradius/3.0: Permission denied\n", "Errors reading /etc/freeradius/3.0: Permission denied"},
		{"monit, its control file path misspelt", "", "The control file '/etc/monit/monitrcc' is not a file\n", "The control file '/etc/monit/monitrcc' is not a file"},
		{"monit, its control file's mode", "", "The control file '/etc/monit/monitrc' permission 0644 is wrong, maximum 0700 allowed\n", ""},
		{"freeradius, a module misspelt", "/etc/freeradius/3.0/sites-enabled/mon[13]: Failed to find \"papp\" as a module or policy.\n", "", ""},
	} {
		got := ToolError(tc.stderr)
		if got == "" {
			got = ConfigUnopened(tc.stdout)
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
