// Package host starts plugin processes and calls them: the handshake
// (magic cookie, protocol version), the lifecycle, and batching.
//
// It owns one rule, what becomes of a plugin process:
//
//	event                              what the host does
//	sha256 pinned and not matching     refuses before starting it
//	start fails                        an *Error naming the likely cause
//	first use in a run (Manager)       starts it, once; later uses reuse it
//	concurrent calls                   one RunBatch per group (group commit)
//	crash, hang past deadline, garbage an *Error naming the plugin, its stderr's tail
//	the plugin's Run returns an error  a *RunError; the process stays up
//	run ends, fails, is interrupted    Kill: go-plugin's Kill, then its process group
//
// A plugin's environment is minimal: of the host's own, only PATH HOME
// LANG LC_ALL TZ USER TMPDIR (proc.InheritedEnv, the exec stages' set),
// plus what WithEnv passes and go-plugin's handshake variables — never the
// host's tokens or credentials.
//
// Plugins run in their own process group, with stdin from the host,
// stderr to the host's logger (and a 4 KB tail kept for errors), and a
// short unix socket directory when $TMPDIR is long. Cost: one round trip
// per batch of concurrent calls, not per call.
package host
