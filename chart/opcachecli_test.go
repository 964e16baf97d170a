package chart

import "testing"

// TestOPcacheOfTheCLIIsNoted: the php CLI's opcache_get_status() is the
// CLI process's own cache (false under opcache.enable_cli=0, the
// default; empty at each run under 1), never a php-fpm pool's shared
// memory: `php -d opcache.enable_cli=1 -r 'echo
// json_encode(opcache_get_status(false));'` said `OK opcache: ok (keys:
// 0)`, Consistent, while the pool's cache was full at 223 of 223 keys
// (testdata/wave-php/opcache). runbook plan notes such a read, in a
// command or a shell: line, and a run warns of it once; a script a pool
// serves, asked through cgi-fcgi, is not noted.
func TestOPcacheOfTheCLIIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"php", "-r", "var_export(opcache_get_status());"}, want: true},
		{cmd: []string{"php8.2", "-d", "opcache.enable_cli=1", "-r", "echo json_encode(opcache_get_status(false));"}, want: true},
		{cmd: []string{"/usr/bin/php7.4", "-r", "print_r(opcache_get_configuration());"}, want: true},
		{shell: `php -r 'echo json_encode(opcache_get_status(false));' | jq .cache_full`, want: true},
		{shell: `sudo -u www-data php -r 'var_export(opcache_get_status()["cache_full"]);'`, want: true},
		{cmd: []string{"php", "/usr/local/bin/opcache-status.php"}, want: false},
		{shell: `SCRIPT_FILENAME=/srv/opcache.php REQUEST_METHOD=GET cgi-fcgi -bind -connect 127.0.0.1:9000`, want: false},
		{cmd: []string{"php", "-r", "echo PHP_VERSION;"}, want: false},
		{cmd: []string{"php-fpm8.2", "-t"}, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).OPcacheOfTheCLI() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
	if n := (&ExecSpec{Command: []string{"php", "-r", "var_export(opcache_get_status());"}}).RunWarnings(); len(n) != 1 {
		t.Errorf("RunWarnings of php -r opcache_get_status(): %q, want the CLI's-own-cache note", n)
	}
}
