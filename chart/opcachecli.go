package chart

import (
	"path/filepath"
	"regexp"
	"strings"
)

// phpCLI is the PHP command-line binary's name, versioned as Debian and
// the Sury packages install it (php, php8.2, php7.4).
var phpCLI = regexp.MustCompile(`^php([0-9]+(\.[0-9]+)?)?$`)

// OPcacheOfTheCLI is the note for an exec that reads OPcache's status or
// configuration with the php CLI (`php -r 'opcache_get_status()'`), ""
// otherwise: the CLI's OPcache is its own process's, off by default
// (opcache.enable_cli=0: false) and empty at each run when on, never the
// shared memory of a php-fpm pool, so a check of a pool's cache said ok
// over a cache full at 223 of 223 keys. Read in a command: stage and in
// each command of a shell: script (noteOfEachCommand); a script file the
// CLI runs is not read here, and a status script a pool serves, asked
// through cgi-fcgi, is the way.
//
//	[php, -r, "var_export(opcache_get_status());"]            noted
//	shell: php -r 'echo json_encode(opcache_get_status(false));'   noted
//	shell: SCRIPT_FILENAME=/srv/opcache.php … cgi-fcgi -bind -connect 127.0.0.1:9000   not noted
func (e *ExecSpec) OPcacheOfTheCLI() string {
	return e.noteOfEachCommand(opcacheOfTheCLI)
}

// opcacheOfTheCLI is OPcacheOfTheCLI's note for one command's words.
func opcacheOfTheCLI(argv []string) string {
	argv = unwrap(argv)
	if !phpCLI.MatchString(filepath.Base(argv[0])) {
		return ""
	}
	for _, a := range argv[1:] {
		if strings.Contains(a, "opcache_get_status") || strings.Contains(a, "opcache_get_configuration") {
			return "it reads OPcache from the php CLI, whose cache is its own process's (off unless opcache.enable_cli=1, then empty at each run), never a php-fpm pool's shared memory: opcache_get_status() there says false or an empty cache whatever the pool's holds; ask the pool, through a status script it serves (SCRIPT_FILENAME=/path/opcache-status.php REQUEST_METHOD=GET cgi-fcgi -bind -connect POOL)"
		}
	}
	return ""
}
