package chart

// RunWarnings are the notes a run of this exec stage warns of once and
// `runbook plan` notes before any run, in that order: what the chart
// wrote that may read a failure as an answer (a pipeline with no
// pipefail, curl's exit without -f or over many URLs, or as its only
// answer with the body sent away and no status printed, curl's output
// piped on or read as the stage's output without -f, a pipeline ending in grep -q, a failure silenced
// by 2>/dev/null and || true together, sysctl -e's silence over a key
// not there, sqlite3's new empty database over a path not there, debsums'
// silence over a root with no dpkg database, btrfs scrub start without -B, dpkg --verify's code read
// as its findings, openssl x509 -checkend's end date alone, clamscan
// passing over what its limits, its folder depth or -i with
// --no-summary leave unsaid, ssh that checks no
// host key, dig +short's
// silence, getent's and host's codes, a checksum tool's --status, git status's untracked files, git config's read of no file named, test's silent 1, journalctl -q,
// systemctl show of a unit without LoadState, or of its values alone by position,
// smbstatus without --json, sshd -T for no connection or one -C names in
// part, visudo -c -f over the installed policy, which checks no mode),
// what puts a password in argv (redis-cli -a, snmpget -A, smbclient -U user%pw,
// keytool -storepass PW, kadmin -w PW, echo PW | kinit, and the
// password options of ldapsearch, squidclient, mosquitto_sub, sshpass,
// mysql and curl -u)
// or a password hash in the output a run keeps (pdbedit -w), or a key
// no form tells (wg show IFACE private-key, wg genkey),
// what reads the wrong span (a sampling tool's report since boot,
// one frame of systemd-cgtop or top, ulimit's and prlimit's own limits, a
// walk of one OID of the several given, the php CLI's own OPcache), what reads a record a file
// name can forge (find's names a line each) and a
// script reading chart names
// bash does not set. The one list of them, so a note added here is both
// planned and warned of.
func (e *ExecSpec) RunWarnings() []string {
	var out []string
	for _, n := range []string{e.UnguardedPipeline(), e.CurlExitWithoutFail(), e.CurlPipedWithoutFail(), e.CurlBodyReadWithoutFail(), e.CurlStatusUnread(), e.QuietGrepEndsPipe(), e.CurlManyURLs(), e.SSHHostUnchecked(), e.DigShortSilence(),
		e.GetentNotFoundIsNoAnswer(), e.ResolverExitAnswer(), e.ChecksumStatusSilence(), e.GitStatusUntracked(), e.GitConfigUnscoped(), e.SilentFileTest(), e.JournalQuiet(), e.SystemctlShowWithoutLoadState(), e.SystemctlShowValuesByPosition(), e.SinceBootReport(), e.OneFrame(), e.OwnLimits(), e.RedisPasswordInArgv(), e.SNMPPassphraseInArgv(), e.SNMPWalkManyOIDs(), e.SNMPNextValueOnly(), e.FindNamesByLine(), e.SwallowedFailure(), e.SysctlIgnoresMissing(), e.SQLiteMakesMissingDatabase(), e.E2fsckWithoutForce(), e.BtrfsScrubWithoutWait(), e.DebsumsSilentOverNoDatabase(), e.DpkgVerifyExitAnswer(), e.CheckendEndDateAlone(), e.ClamscanPassesOverLimits(), e.ClamscanDepthLimit(), e.ClamscanErrorsUnsaid(), e.SyslogCount(), e.LastCutsNames(), e.JournalOfSshdAlone(), e.ShellReadsChartNames(), e.SmbstatusTable(), e.SambaPasswordInArgv(), e.PdbeditPrintsHashes(), e.WireGuardPrivateKeyPrinted(), e.KeytoolPasswordInArgv(), e.KadminPasswordInArgv(), e.PasswordOptionInArgv(), e.KinitPasswordInScript(), e.SshdTestOutsideMatch(), e.VisudoCheckFileSkipsModes(), e.OPcacheOfTheCLI()} {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}
