package chart

import (
	"path/filepath"
	"slices"
)

// AideCheck says whether the exec runs aide to compare the files with its
// database (--check, --compare, --update, or no mode, which is --check),
// in a command or a shell: script: its exit 1 to 7 says what it found
// (1 added, 2 removed, 4 changed, summed), and its report goes where its
// config's report_url says, stdout by default.
func (e *ExecSpec) AideCheck() bool {
	return e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || filepath.Base(argv[0]) != "aide" {
			return ""
		}
		for _, mode := range []string{"--init", "-i", "--version", "-v", "--help", "-h", "--config-check", "-D"} {
			if slices.Contains(argv[1:], mode) {
				return ""
			}
		}
		return "aide"
	}) != ""
}
