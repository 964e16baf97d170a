package record

import (
	"strings"
	"testing"
)

// TestJVMAttachToolLinesAreFound: the lines jcmd and jstat (OpenJDK 17)
// print when they reached no JVM, or could not ask it, are found and said
// as the JVM not reached; a JVM's own stack trace of an exception it
// caught, and jstat's usage, are not.
func TestJVMAttachToolLinesAreFound(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"sun.jvmstat.monitor.MonitorException: 4242 not found",
		"sun.jvmstat.monitor.MonitorException: Could not attach to 4242",
		"java.io.IOException: No such process",
		"java.io.IOException: well-known file /tmp/.java_pid4242 is not secure: file should be owned by the current user (which is 65534) but is owned by 0",
		"com.sun.tools.attach.AttachNotSupportedException: The VM does not support the attach mechanism",
		"com.sun.tools.attach.AttachNotSupportedException: Unable to open socket file /proc/4242/root/tmp/.java_pid4242: target process 4242 doesn't respond within 10500ms or HotSpot VM not loaded",
		"Could not find any processes matching : 'App'",
		"java.lang.IllegalArgumentException: Unknown diagnostic command",
	} {
		stderr := line + "\n\tat jdk.attach/sun.tools.attach.VirtualMachineImpl.<init>(VirtualMachineImpl.java:82)\n\t... 4 more\n"
		if got := Denied(stderr); got != line {
			t.Errorf("Denied = %q; want %q", got, line)
			continue
		}
		why := DeniedEntry("threads", 0, line).NotChecked[0].Why
		if !strings.Contains(why, causeJVMUnreached) || !strings.Contains(why, "jps -l") {
			t.Errorf("why = %s; want the JVM not reached and jps -l", why)
		}
	}
	for _, stderr := range []string{
		"java.lang.IllegalStateException: cache warm-up skipped\n\tat com.example.App.main(App.java:12)\n",
		"Unknown option: -gcutl\nUsage: jstat --help|-options\n",
	} {
		if got := Denied(stderr); got != "" {
			t.Errorf("Denied(%q) = %q; want none", stderr, got)
		}
	}
}
