// Package testplugin holds plugin binaries that misbehave on purpose, for
// the host's and the CLI's fault tests (built once per test package):
//
//	behave       a stage plugin whose `mode` argument picks its behaviour:
//	             ok, error, crash, hang, spawn (a child, then hang)
//	junk         writes a line to stdout before the handshake
//	proto2       speaks plugin protocol 2 only
//	nohandshake  starts a child holding its stdout and stderr, writes both
//	             pids to EXE.pids, and neither ever handshakes
//	crashes      describes itself, then exits 3 on every call
//	panics       panics in explodeOnPurpose (panic: true, the default)
//	logargs      writes its arguments to stderr in every form (%v, %q,
//	             JSON, a JSON log line); crash: true exits after
package testplugin
