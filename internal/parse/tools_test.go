package parse

import (
	"reflect"
	"strings"
	"testing"
)

// TestColumnsRepeatedHeaderIsNoRow: two ps runs in one shell stage print
// the header twice, and the second was read as a row — a process named
// "COMMAND" with PID "PID", judged "ok" by a rule on its STAT. A line
// that repeats the header holds no values and is passed over.
func TestColumnsRepeatedHeaderIsNoRow(t *testing.T) {
	t.Parallel()
	out := "  PID STAT   RSS COMMAND\n    1 Ss   10584 init\n  PID STAT   RSS COMMAND\n  412 Z        0 worker\n"
	r, err := Parse(out, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []any{
		map[string]any{"PID": 1, "STAT": "Ss", "RSS": 10584, "COMMAND": "init"},
		map[string]any{"PID": 412, "STAT": "Z", "RSS": 0, "COMMAND": "worker"},
	}
	if !reflect.DeepEqual(r.Value, want) || r.Problems != 0 {
		t.Errorf("got %#v (%d problems: %s); want the two processes only", r.Value, r.Problems, r.FirstProblem)
	}
	// names: [...] reads the header past, and its repeat too.
	r, _ = Parse(out, Spec{Mode: "columns", Options: map[string]any{"header": true, "names": []any{"pid", "stat", "rss", "comm"}}})
	if l, _ := r.Value.([]any); len(l) != 2 || r.Problems != 0 {
		t.Errorf("with names: got %#v (%d problems); want 2 rows", r.Value, r.Problems)
	}
}

// TestColumnsShiftedRowUnderRestIsAProblem: `df -P` on a box with a CIFS
// share "//nas/My Share" (real output: a tmpfs mounted under that name in
// a mount namespace). Under last: rest the share's row split as
// Filesystem "//nas/My", 1024-blocks "Share", … Available 0 → the real
// Capacity, "Mounted on" "100% /tmp/adv/mnt/x": a full share read as one
// with 1024 KiB free. Its last value begins left of "Mounted on" though df
// aligned it: a problem, not a row. A mount point with a space ("my
// data"), which begins under "Mounted on", is read whole, as before.
// (Not caught: `df -P` of the share ALONE, one row of 7 fields under a
// header of 7 words, splits "Mounted on" in two and reads the row
// without a problem; named columns (names: [...]) catch it, below.)
func TestColumnsShiftedRowUnderRestIsAProblem(t *testing.T) {
	t.Parallel()
	df := `Filesystem              1024-blocks     Used Available Capacity Mounted on
/dev/vda                  264212084 49411940  46089324      52% /
model_tools_unavailable           4        0         4       0% /mnt/sandboxing/model_tools_env/v1/python
tmpfs                      12365704        0  12365704       0% /sys/fs/cgroup
devtmpfs                   12358824        0  12358824       0% /dev
//nas/My Share                 1024     1024         0     100% /tmp/adv/mnt/x
tmpfs                          1024        0      1024       0% /tmp/adv/mnt/my data
`
	r, err := Parse(df, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := r.Value.([]any)
	var mounts []any
	for _, row := range rows {
		mounts = append(mounts, row.(map[string]any)["Mounted on"])
	}
	if !reflect.DeepEqual(mounts, []any{"/", "/mnt/sandboxing/model_tools_env/v1/python", "/sys/fs/cgroup", "/dev", "/tmp/adv/mnt/my data"}) {
		t.Errorf("mounts %q; want every mount but the shifted share", mounts)
	}
	if r.Problems != 1 || !strings.Contains(r.FirstProblem, `line 6: its last column holds "100% /tmp/adv/mnt/x", which begins left of the header's "Mounted on"`) {
		t.Errorf("problems %d %q; want line 3, the share, counted", r.Problems, r.FirstProblem)
	}
	// With / and the share alone, no other row shows the alignment; the
	// share's row does itself (its mount point begins under "Mounted on").
	l := strings.Split(df, "\n")
	two := strings.Join([]string{l[0], l[1], l[5], ""}, "\n")
	r, _ = Parse(two, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if got, _ := r.Value.([]any); len(got) != 1 || r.Problems != 1 {
		t.Errorf("/ and the share: got %#v (%d problems); want the row of / and 1 problem", r.Value, r.Problems)
	}
	// The share alone, its columns named: the header is read past, and
	// still says where the last column begins.
	one := strings.Join([]string{l[0], l[5], ""}, "\n")
	names := []any{"fs", "blocks", "used", "avail", "capacity", "mount"}
	r, _ = Parse(one, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": true, "names": names}})
	if got, _ := r.Value.([]any); len(got) != 0 || r.Problems != 1 {
		t.Errorf("the share alone, named: got %#v (%d problems); want no row, 1 problem", r.Value, r.Problems)
	}
}

// TestCSVRepeatedHeaderIsNoRecord: a loop printing one CSV table per host
// repeats the header; it was a record, a unit "name" in state "state"
// that a rule on state judged ok. It is passed over, as columns' is.
func TestCSVRepeatedHeaderIsNoRecord(t *testing.T) {
	t.Parallel()
	out := "name,state\nweb-a,failed\nname,state\nweb-b,failed\n"
	for _, opts := range []map[string]any{nil, {"header": true, "names": []any{"unit", "st"}}} {
		r, err := Parse(out, Spec{Mode: "csv", Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		if l, _ := r.Value.([]any); len(l) != 2 || r.Problems != 0 {
			t.Errorf("options %v: got %#v (%d problems: %s); want the two units only", opts, r.Value, r.Problems, r.FirstProblem)
		}
	}
}

// TestColumnsShiftedRowOfWideNamesIsAProblem: df -P -k on a box with a
// share named "//nas/共有 フォルダ" (real output; a tmpfs mounted under that
// name). df pads by columns: the name takes 19 and is 25 bytes, and where
// the shifted row's last value begins was measured in bytes, right of
// "Mounted on", so the row was read keyed one column off — 1024-blocks
// "フォルダ", Available 1024 (its Used): a full share as free. Positions are
// display columns now, and the row is a problem; a mount point of wide
// runes under "Mounted on", and an é in an earlier column, are still rows.
func TestColumnsShiftedRowOfWideNamesIsAProblem(t *testing.T) {
	t.Parallel()
	df := `Filesystem              1024-blocks     Used Available Capacity Mounted on
/dev/vda                  264212084 59148944  36352320      62% /
tmpfs                      12365704        0  12365704       0% /sys/fs/cgroup
//nas/共有 フォルダ            1024     1024         0     100% /tmp/adv/mnt/x
/dev/vdé                       1024        0      1024       0% /srv/共有 データ
`
	r, err := Parse(df, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if err != nil {
		t.Fatal(err)
	}
	var mounts []any
	rows, _ := r.Value.([]any)
	for _, row := range rows {
		mounts = append(mounts, row.(map[string]any)["Mounted on"])
	}
	if !reflect.DeepEqual(mounts, []any{"/", "/sys/fs/cgroup", "/srv/共有 データ"}) {
		t.Errorf("mounts %q; want every mount but the shifted share", mounts)
	}
	if r.Problems != 1 || !strings.Contains(r.FirstProblem, `line 4: its last column holds "100% /tmp/adv/mnt/x", which begins left of the header's "Mounted on"`) {
		t.Errorf("problems %d %q; want line 4, the share, counted", r.Problems, r.FirstProblem)
	}
}

// TestColumnsSysstatRepeatedHeaderIsNoRow: sysstat (sar, mpstat, pidstat)
// opens its header with the time ("12:37:26 IFACE rxpck/s …") and prints
// the summary table under the same names opened with "Average:" (the
// locale's word for it: "Durchschn.:"). That second header differs from
// the first in its label only, so it was read as a row: a NIC named
// "IFACE" whose %ifutil was the text "%ifutil", a subject judged "ok" by
// the default of a rule that could not compare it (real `sar -n DEV 1 1`
// output).
func TestColumnsSysstatRepeatedHeaderIsNoRow(t *testing.T) {
	t.Parallel()
	sar := "Linux 6.18.44-fc-v1252 (vm) \t12/06/26 \t_x86_64_\t(2 CPU)\n\n" +
		"12:37:26        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n" +
		"12:37:27           lo      4.00      4.00      0.20      0.20      0.00      0.00      0.00      0.00\n" +
		"12:37:27         eth0      0.00      0.00      0.00      0.00      0.00      0.00      0.00      0.00\n\n" +
		"Average:        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n" +
		"Average:           lo      4.00      4.00      0.20      0.20      0.00      0.00      0.00      0.00\n" +
		"Average:         eth0      0.00      0.00      0.00      0.00      0.00      0.00      0.00      0.00\n"
	names := []any{"time", "IFACE", "rxpck", "txpck", "rxkB", "txkB", "rxcmp", "txcmp", "rxmcst", "ifutil"}
	for _, opts := range []map[string]any{{"skip": 2}, {"skip": 2, "header": true, "names": names}} {
		r, err := Parse(sar, Spec{Mode: "columns", Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := r.Value.([]any)
		var ifaces []any
		for _, row := range rows {
			ifaces = append(ifaces, row.(map[string]any)["IFACE"])
		}
		if want := []any{"lo", "eth0", "lo", "eth0"}; !reflect.DeepEqual(ifaces, want) || r.Problems != 0 {
			t.Errorf("%v: got NICs %v (%d problems: %s); want %v, the Average: header no row", opts, ifaces, r.Problems, r.FirstProblem, want)
		}
	}
	// A 12-hour locale's header opens with two words of time; a row that
	// lacks a field under it is still a problem, not a header.
	pm := "12:37:26 PM  CPU  %usr  %idle\n12:37:27 PM  all  1.00  99.00\nAverage:     CPU  %usr  %idle\nAverage:     all  1.00  99.00\n12:37:28 PM  %usr  %idle\n"
	r, _ := Parse(pm, Spec{Mode: "columns", Options: map[string]any{"header": true, "names": []any{"time", "ampm", "CPU", "usr", "idle"}}})
	if r.Problems != 2 || !strings.Contains(r.FirstProblem, "line 4") {
		t.Errorf("got %v (%d problems, first %q); want the Average: row (4 fields) and the short line 5 counted, the Average: header passed over", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestHeaderReadPastHoldingValuesIsAProblem: with names: given, the line
// after skip is read past as the header, whatever it holds. A skip one
// too many (skip: 1 over `ps -eo pid,rss,comm --sort=-rss`, whose header
// is its first line) read the biggest process past as the header: the
// row the rule was written for was gone, with no word, and the standing
// was Consistent. A header names columns; a line read past that holds a
// number is a row, and is counted as a problem.
func TestHeaderReadPastHoldingValuesIsAProblem(t *testing.T) {
	t.Parallel()
	ps := "  PID   RSS COMMAND\n19308 322836 runbook.test\n14862 300696 link\n"
	names := []any{"pid", "rss", "comm"}
	r, _ := Parse(ps, Spec{Mode: "columns", Options: map[string]any{"skip": 1, "header": true, "names": names}})
	if rows, _ := r.Value.([]any); len(rows) != 1 || r.Problems != 1 || !strings.Contains(r.FirstProblem, "line 2: ") || !strings.Contains(r.FirstProblem, `"19308"`) {
		t.Errorf("skip 1: got %v (%d problems: %s); want one row, line 2 a problem naming 19308", r.Value, r.Problems, r.FirstProblem)
	}
	// The header where it is: read past, no problem.
	r, _ = Parse(ps, Spec{Mode: "columns", Options: map[string]any{"header": true, "names": names}})
	if rows, _ := r.Value.([]any); len(rows) != 2 || r.Problems != 0 {
		t.Errorf("skip 0: got %v (%d problems: %s); want two rows", r.Value, r.Problems, r.FirstProblem)
	}
	// sysstat's header opens with the time, which is no number.
	r, _ = Parse("12:37:26  IFACE  rxkB/s\n12:37:27  lo  0.20\n", Spec{Mode: "columns", Options: map[string]any{"header": true, "names": []any{"time", "IFACE", "rxkB"}}})
	if r.Problems != 0 {
		t.Errorf("sysstat header: %d problems: %s", r.Problems, r.FirstProblem)
	}
	// who prints no header: read with header: true, its first session
	// (root from 10.0.0.7) was read past in silence. A date or an address
	// is a value.
	who := "root     pts/0        2026-12-06 17:00 (10.0.0.7)\nalice    pts/1        2026-12-06 17:05 (10.0.0.8)\n"
	r, _ = Parse(who, Spec{Mode: "columns", Options: map[string]any{"header": true, "names": []any{"user", "tty", "date", "time", "from"}}})
	if rows, _ := r.Value.([]any); len(rows) != 1 || r.Problems != 1 || !strings.Contains(r.FirstProblem, `line 1: it was read past as the header (names: are given), but it holds the value "2026-12-06"`) {
		t.Errorf("who: got %v (%d problems: %s); want one row, line 1 a problem naming the date", r.Value, r.Problems, r.FirstProblem)
	}
	for _, head := range []string{"Filesystem 1K-blocks Used Available Use% Mounted on", "Device r/s rkB/s %util", "State Recv-Q Local Address:Port"} {
		if msg, ok := valueReadPast(strings.Fields(head)); ok {
			t.Errorf("%q is a header, and was judged a row: %s", head, msg)
		}
	}
	// csv: the same.
	r, _ = Parse("web,10\ndb,20\n", Spec{Mode: "csv", Options: map[string]any{"header": true, "names": []any{"host", "size"}}})
	if rows, _ := r.Value.([]any); len(rows) != 1 || r.Problems != 1 || !strings.Contains(r.FirstProblem, `"10"`) {
		t.Errorf("csv: got %v (%d problems: %s); want one row, line 1 a problem naming 10", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestColumnsShiftedRowWithoutHeaderIsAProblem: ps --no-headers -eo
// pid,user,comm,args read with header: false, names and last: rest had
// no header to say where args begins, so a root bash whose comm was
// renamed "tmux: server" split as comm "tmux:" and args "server    bash
// -c …": a rule for root shells over args judged it ok, Consistent. The
// rows agree where args begins (ps pads comm to 15 columns), and the
// shifted row has a word there: it is a problem, not a row. A table of
// single spaces shows no such column and is read as before.
func TestColumnsShiftedRowWithoutHeaderIsAProblem(t *testing.T) {
	t.Parallel()
	ps := `    1 root     process_api     /process_api --addr 0.0.0.0:2024
    2 root     kthreadd        [kthreadd]
12526 root     tmux: server    bash -c echo -n "tmux: server" > /proc/$$/comm; sleep 1800; true
12528 root     sleep           sleep 1800
`
	names := []any{"pid", "user", "comm", "args"}
	r, err := Parse(ps, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": false, "names": names}})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := r.Value.([]any)
	var comms []any
	for _, row := range rows {
		comms = append(comms, row.(map[string]any)["comm"])
	}
	if !reflect.DeepEqual(comms, []any{"process_api", "kthreadd", "sleep"}) {
		t.Errorf("comms %q; want every process but the shifted one", comms)
	}
	if r.Problems != 1 || !strings.Contains(r.FirstProblem, `line 3: its last column holds "server    bash -c`) {
		t.Errorf("problems %d %q; want line 3, the renamed bash, counted", r.Problems, r.FirstProblem)
	}
	// ls -la /tmp /dev prints a table per folder, each padded to its own
	// widths: where the last column begins is each block's.
	ls := `drwxrwxrwt  9 root root 4096 Dec  6 17:31 .
-rw-r--r--  1 root root    0 Dec  6 17:31 a
-rw-r--r--  1 root root    0 Dec  6 17:31 abc defg

drwxr-xr-x  6 root root     2180 Dec  6 11:00 .
lrwxrwxrwx  1 root root       13 Dec  6 00:23 fd -> /proc/self/fd
drwxr-xr-x  4 root root       80 Dec  5 11:09 cpu
drwxr-xr-x  4 root root       80 Dec  5 11:09 net
`
	lsNames := []any{"perm", "links", "owner", "group", "size", "month", "day", "time", "name"}
	r, _ = Parse(ls, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": false, "names": lsNames}})
	if got, _ := r.Value.([]any); len(got) != 7 || r.Problems != 0 {
		t.Errorf("two ls blocks: got %d rows (%d problems %q); want 7 rows, no problem", len(got), r.Problems, r.FirstProblem)
	}
	// Single spaces (stat -c '%a %U %n'): no column the rows agree on
	// is padded, so a name with spaces is the last value it is.
	stat := "644 root /etc/a\n644 root /etc/b\n6 root a bc\n"
	r, _ = Parse(stat, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": false, "names": []any{"mode", "owner", "name"}}})
	if got, _ := r.Value.([]any); len(got) != 3 || r.Problems != 0 {
		t.Errorf("single spaces: got %#v (%d problems %q); want 3 rows, no problem", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestColumnsHeaderNamingFewerColumnsIsAProblem: /proc/net/tcp's header
// names "tx_queue rx_queue" and "tr tm->when" over one value each, so
// it has 12 names over rows of 17 values. Without last: rest each row
// was a problem whose words said to add it; with it, the rows split
// into 12, "uid" keyed the inode (26902727) and "inode" the rest, so a
// rule over the sockets' uid judged no socket root's, Consistent. The
// row holds the inode right under the header's "inode" while its last
// column would begin right of it: the row is a problem. Named columns
// read it.
func TestColumnsHeaderNamingFewerColumnsIsAProblem(t *testing.T) {
	t.Parallel()
	tcp := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:46A0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 26902727 1 000000002fb9fb84 100 0 0 10 0
   1: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1268 1 0000000046fbc9d6 100 0 0 10 0
`
	r, err := Parse(tcp, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Value.([]any); len(got) != 0 || r.Problems != 2 {
		t.Errorf("got %v (%d problems); want no row and 2 problems", r.Value, r.Problems)
	}
	if !strings.Contains(r.FirstProblem, `line 2: its last column would begin at "000000002fb9fb84 100 0 0 10 0", right of the header's "inode", under which the row holds "26902727"`) {
		t.Errorf("first problem %q; want it to say where inode is", r.FirstProblem)
	}
	// /proc/net/udp's header names 15 columns over 13 values: the last
	// name, "ref pointer drops", is three words, and "uid" keyed the inode
	// there too. The row's last value begins right of where that name
	// ends. /proc/net/unix's header stands offset from its rows, one word
	// a name: its rows are read.
	udp := "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops            \n" +
		"13764: 00000000:14E9 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 27029403 2 000000002db4ebe1 0      \n"
	r, _ = Parse(udp, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if got, _ := r.Value.([]any); len(got) != 0 || r.Problems != 1 || !strings.Contains(r.FirstProblem, `line 2: its last column would begin at "0", right of where the header's "ref pointer drops" ends`) {
		t.Errorf("udp: got %v (%d problems %q); want no row and 1 problem", r.Value, r.Problems, r.FirstProblem)
	}
	unix := "Num       RefCount Protocol Flags    Type St Inode Path\n" +
		"000000006c5c71e7: 00000003 00000000 00000000 0001 03  1264 /run/systemd/journal/stdout\n" +
		"00000000da3874a1: 00000003 00000000 00000000 0001 03  1265 /run/dbus/system_bus_socket\n"
	r, _ = Parse(unix, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if got, _ := r.Value.([]any); len(got) != 2 || r.Problems != 0 || got[0].(map[string]any)["Inode"] != 1264 {
		t.Errorf("unix: got %v (%d problems %q); want 2 rows, inode 1264", r.Value, r.Problems, r.FirstProblem)
	}
	names := []any{"sl", "local", "remote", "st", "queues", "timer", "retrnsmt", "uid", "timeout", "inode", "rest"}
	r, _ = Parse(tcp, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": true, "names": names}})
	rows, _ := r.Value.([]any)
	if len(rows) != 2 || r.Problems != 0 || rows[0].(map[string]any)["uid"] != 0 || rows[0].(map[string]any)["inode"] != 26902727 {
		t.Errorf("named: got %v (%d problems %q); want 2 rows, uid 0, inode 26902727", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestCSVReadsFieldsBetweenAnotherSeparator: csv had no separator but the
// comma, so a spreadsheet saved where the decimal point is a comma (Excel
// under de_DE or fr_FR writes fields between ";") could not be read at
// all, nor /etc/passwd between ":" (wave-locale's design question). sep
// gives the one character; one that is none, or quotes, is refused; tsv
// keeps its tab and says to use csv.
func TestCSVReadsFieldsBetweenAnotherSeparator(t *testing.T) {
	t.Parallel()
	passwd := Spec{Mode: "csv", Options: map[string]any{"sep": ":", "header": false, "names": []any{"user", "pw", "uid", "gid", "gecos", "home", "shell"}}}
	r, err := Parse("root:x:0:0:root:/root:/bin/bash\nwww-data:x:33:33:www-data:/var/www:/usr/sbin/nologin\n", passwd)
	if err != nil || r.Problems != 0 || len(r.Value.([]any)) != 2 || r.Value.([]any)[1].(map[string]any)["uid"] != 33 {
		t.Fatalf("passwd: %v (%d problems), %v", r.Value, r.Problems, err)
	}
	r, err = Parse("Name;Wert;Notiz\nvol-1;1,5;\"a; b\"\n", Spec{Mode: "csv", Options: map[string]any{"sep": ";"}})
	want := []any{map[string]any{"Name": "vol-1", "Wert": "1,5", "Notiz": "a; b"}}
	if err != nil || r.Problems != 0 || !reflect.DeepEqual(r.Value, want) {
		t.Fatalf("a de_DE export: %v (%d problems), %v; want %v", r.Value, r.Problems, err, want)
	}
	for _, tc := range []struct {
		spec Spec
		err  string
	}{
		{Spec{Mode: "csv", Options: map[string]any{"sep": ";;"}}, `sep ";;" is not one character`},
		{Spec{Mode: "csv", Options: map[string]any{"sep": ""}}, `is not one character`},
		{Spec{Mode: "csv", Options: map[string]any{"sep": `"`}}, `cannot separate fields`},
		{Spec{Mode: "csv", Options: map[string]any{"delimiter": ";"}}, `(did you mean "sep"?)`},
		{Spec{Mode: "tsv", Options: map[string]any{"sep": ";"}}, `use csv: {as: csv, sep: ";"}`},
	} {
		if _, err := Parse("a;b\n", tc.spec); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: %v; want %s", tc.spec.Options, err, tc.err)
		}
	}
}

// TestTSVQuoteSpanningLinesIsAProblem: a TSV export (sqlite3 -separator
// $'\t', psql's COPY text, mysql -B: no quoting) whose note field is a lone
// `"` was read as RFC 4180 quoting opened there, so every line up to the
// next lone `"` was one field: the `agg` job's "failed" row vanished into
// load's note, and a chart over job states said OK, Consistent. A TSV
// field cannot hold a line end, so a record read across lines is a
// problem; a quoted field on one line is still read as before.
func TestTSVQuoteSpanningLinesIsAProblem(t *testing.T) {
	t.Parallel()
	out := "job\tnote\tstatus\nload\t\"\tok\nagg\tx\tfailed\nexport\t\"\tok\nlast\t\"a b\"\tok\n"
	r, err := Parse(out, Spec{Mode: "tsv"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Problems == 0 {
		t.Errorf("got %#v and no problem; want the record read across lines 2-4 to be a problem", r.Value)
	}
	if !strings.Contains(r.FirstProblem, "line 2") || !strings.Contains(r.FirstProblem, "line end") {
		t.Errorf("first problem %q; want it to name line 2 and say a TSV field holds no line end", r.FirstProblem)
	}
	rows, _ := r.Value.([]any)
	if len(rows) != 1 || rows[0].(map[string]any)["note"] != "a b" {
		t.Errorf("rows %#v; want only the last job, its quoted note read as before", rows)
	}
}

// TestCSVRecordOfEmptyFieldsIsARow: sqlite3 -csv prints a row of NULLs as
// bare separators, ",", and a left join of the last seven days to the
// loaded partitions gives one for each day with no load. Such a record
// was passed over as a blank line, so the missing 2026-12-03 was no row
// and a chart judging every day present said OK, Consistent. A record
// with a separator is a record; a line of nothing but spaces is still
// blank, and so is a line of tabs before a tsv header.
func TestCSVRecordOfEmptyFieldsIsARow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ mode, text string }{
		{"csv", "part,rows\n2026-12-02,990\n,\n2026-12-04,1001\n   \n"},
		{"tsv", "\t\npart\trows\n2026-12-02\t990\n\t\n2026-12-04\t1001\n\n"},
	} {
		r, err := Parse(c.text, Spec{Mode: c.mode})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := r.Value.([]any)
		if len(rows) != 3 || r.Problems != 0 {
			t.Fatalf("%s: rows %#v (%d problems: %s); want three, the middle one empty", c.mode, rows, r.Problems, r.FirstProblem)
		}
		if mid := rows[1].(map[string]any); mid["part"] != "" || mid["rows"] != "" {
			t.Errorf("%s: middle row %#v; want both fields empty", c.mode, mid)
		}
	}
}

// TestCSVCarriageReturnLineEndsAreAProblem: Excel for Mac's "CSV
// (Macintosh)" ends lines with a carriage return alone. encoding/csv ends
// a record only at a line feed, so the whole export was one record, read
// as the header: no rows and no problem, and a check over the export's
// jobs said OK with nothing judged. A field holding a carriage return that
// ends no \r\n is a problem now, in csv and tsv; the words say lines end
// in \r alone, not that a quote ran on.
func TestCSVCarriageReturnLineEndsAreAProblem(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"csv", "tsv"} {
		text := strings.ReplaceAll("job,status\rload,ok\ragg,failed\r", ",", map[string]string{"csv": ",", "tsv": "\t"}[mode])
		r, err := Parse(text, Spec{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if r.Problems == 0 || !strings.Contains(r.FirstProblem, `\r alone`) || strings.Contains(r.FirstProblem, "quote") {
			t.Errorf("%s: %#v, %d problems, first %q; want a problem saying the lines end in \\r alone", mode, r.Value, r.Problems, r.FirstProblem)
		}
	}
}

// TestColumnsNoHeaderRestHoldingAColumnIsAProblem: systemctl list-timers
// --plain --no-legend read with header: false, names [next, left, last,
// passed, unit, activates] and last: rest. Its NEXT, LEFT, LAST and
// PASSED values hold spaces ("Mon 2026-12-07 00:00:00 UTC", "4h 4min
// left"), so the split keyed next "Mon", passed "UTC", unit "4h" and
// activates the rest of the line. Three daily timers print rows of one
// shape, so no row's last value began where the others' did not, and a
// chart over passed said backup.timer, last run four days ago, was ok:
// timers OK, Consistent. The rows' last value holds a column of the
// table: a word every row has at one display column, after a run of
// spaces (the UNIT column). Such rows are problems. A row whose last
// value begins at that column (a timer that never ran, all "-") reads.
func TestColumnsNoHeaderRestHoldingAColumnIsAProblem(t *testing.T) {
	t.Parallel()
	names := []any{"next", "left", "last", "passed", "unit", "activates"}
	opts := map[string]any{"last": "rest", "header": false, "names": names}
	same := `Mon 2026-12-07 00:00:00 UTC 4h 4min left Sun 2026-12-06 00:00:05 UTC 19h ago      dpkg-db-backup.timer dpkg-db-backup.service
Mon 2026-12-07 00:00:00 UTC 4h 4min left Sun 2026-12-06 00:00:05 UTC 19h ago      logrotate.timer      logrotate.service
Mon 2026-12-07 00:00:00 UTC 4h 4min left Wed 2026-12-02 00:00:02 UTC 4 days ago   backup.timer         backup.service
`
	r, err := Parse(same, Spec{Mode: "columns", Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Value.([]any); len(got) != 0 || r.Problems != 3 || !strings.Contains(r.FirstProblem, `line 1: its last column holds "4min left Sun`) || !strings.Contains(r.FirstProblem, `"dpkg-db-backup.timer"`) {
		t.Errorf("timers of one shape: got %v (%d problems %q); want no row, 3 problems naming the column inside the last value", r.Value, r.Problems, r.FirstProblem)
	}
	mixed := `Sun 2026-12-06 20:00:00 UTC 4min 12s left Sun 2026-12-06 19:00:01 UTC 55min ago    logrotate.timer              logrotate.service
Mon 2026-12-07 00:00:00 UTC 4h 4min left  Sun 2026-12-06 00:00:05 UTC 19h ago      man-db.timer                 man-db.service
Mon 2026-12-07 00:15:00 UTC 4h 19min left Wed 2026-12-02 00:15:02 UTC 4 days ago   backup.timer                 backup.service
-                           -             -                           -            certbot.timer                certbot.service
`
	r, _ = Parse(mixed, Spec{Mode: "columns", Options: opts})
	want := []any{map[string]any{"next": "-", "left": "-", "last": "-", "passed": "-", "unit": "certbot.timer", "activates": "certbot.service"}}
	if !reflect.DeepEqual(r.Value, want) || r.Problems != 3 {
		t.Errorf("timers of several shapes: got %v (%d problems %q); want the never-run row alone, 3 problems", r.Value, r.Problems, r.FirstProblem)
	}
	// Two rows whose last values are one text with a run of spaces in it
	// show a column only where every row has a word: ps's args of
	// different processes hold none.
	ps := `    1 root     init            /sbin/init  splash
  412 root     sshd            sshd: /usr/sbin/sshd -D [listener]
  413 www      nginx           nginx: worker process
`
	r, _ = Parse(ps, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": false, "names": []any{"pid", "user", "comm", "args"}}})
	if got, _ := r.Value.([]any); len(got) != 3 || r.Problems != 0 {
		t.Errorf("ps args: got %v (%d problems %q); want 3 rows, no problem", r.Value, r.Problems, r.FirstProblem)
	}
	// Workers started by one command line, a double space in it, hold a
	// word at one column after the same run in every row: no column pads
	// values of different widths there, and the rows read.
	workers := `  101 www      gunicorn        gunicorn app:wsgi  --workers 3
  102 www      gunicorn        gunicorn app:wsgi  --workers 3
  103 www      gunicorn        gunicorn app:wsgi  --workers 3
`
	r, _ = Parse(workers, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": false, "names": []any{"pid", "user", "comm", "args"}}})
	if got, _ := r.Value.([]any); len(got) != 3 || r.Problems != 0 {
		t.Errorf("identical args: got %v (%d problems %q); want 3 rows, no problem", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestColumnsMarkGlyphIsNoValue: systemctl list-units --failed
// --no-legend prints "●" before every failed unit (without --plain, which
// leaves that column out), and read with header: false, names [unit,
// load, active, sub, description] and last: rest, every row split alike:
// unit "●", active "loaded". A chart asking active == "failed" said
// failed-units OK - 2 ok, Consistent, over two failed units. A first
// field that is a lone symbol (Unicode's So: ● ○ ✓ ✗) is a mark, not a
// value, and the row is a problem. cron's "*" is no such symbol.
func TestColumnsMarkGlyphIsNoValue(t *testing.T) {
	t.Parallel()
	failed := `● nginx.service              loaded failed failed A high performance web server and a reverse proxy server
● postgresql@15-main.service loaded failed failed PostgreSQL Cluster 15-main
`
	names := []any{"unit", "load", "active", "sub", "description"}
	r, err := Parse(failed, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": false, "names": names}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Value.([]any); len(got) != 0 || r.Problems != 2 || !strings.Contains(r.FirstProblem, `line 1: its first field is the symbol "●" alone`) {
		t.Errorf("marked rows: got %v (%d problems %q); want no row, 2 problems", r.Value, r.Problems, r.FirstProblem)
	}
	// --plain leaves the mark out: the rows read.
	plain := "nginx.service loaded failed failed A high performance web server\n"
	r, _ = Parse(plain, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": false, "names": names}})
	if got, _ := r.Value.([]any); len(got) != 1 || r.Problems != 0 {
		t.Errorf("--plain: got %v (%d problems %q); want 1 row", r.Value, r.Problems, r.FirstProblem)
	}
	cron := "*/5 * * * * /usr/local/bin/poll.sh\n* * * * * date\n"
	r, _ = Parse(cron, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": false, "names": []any{"min", "hour", "dom", "mon", "dow", "cmd"}}})
	if got, _ := r.Value.([]any); len(got) != 2 || r.Problems != 0 {
		t.Errorf("crontab: got %v (%d problems %q); want 2 rows", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestColumnsBlankCellIsSaid: loginctl list-sessions leaves SEAT blank
// for a session over ssh, and its row was a problem that said "4 fields,
// the table has 5 columns": where, but not why nor what would read it.
// It names the header's column the row holds nothing under now.
func TestColumnsBlankCellIsSaid(t *testing.T) {
	t.Parallel()
	out := "SESSION  UID USER  SEAT  TTY  \n      3 1000 alice seat0 tty2 \n     12    0 root        pts/0\n"
	r, err := Parse(out, Spec{Mode: "columns"})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Value.([]any); len(got) != 1 || r.Problems != 1 || !strings.Contains(r.FirstProblem, `line 3: 4 fields, the table has 5 columns: the row holds nothing under the header's "SEAT": if the tool left a cell blank there`) {
		t.Errorf("got %v (%d problems %q); want alice's row, root's a problem naming SEAT", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestColumnsHeaderNamesAColumnInsideTheLastValue: journalctl
// --list-boots read with names [idx, boot, first, last], header: true and
// last: rest (names with spaces, "BOOT ID", "FIRST ENTRY", "LAST ENTRY",
// as the docs say for ss) split every row alike: first "Fri", last "2026-12-04
// 16:00:00 UTC Fri 2026-12-04 16:02:00 UTC", with no problem, Consistent.
// The header pads "LAST ENTRY" to where every row has a word, inside the
// rows' last value: the rows are problems. A header that pads no name
// inside the last value (df's "Mounted on") reads as before.
func TestColumnsHeaderNamesAColumnInsideTheLastValue(t *testing.T) {
	t.Parallel()
	boots := `IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY
 -2 0000000000000000000000000000abc0 Fri 2026-12-04 16:00:00 UTC Fri 2026-12-04 16:02:00 UTC
 -1 0000000000000000000000000000abc1 Sat 2026-12-05 16:00:00 UTC Sat 2026-12-05 16:01:00 UTC
  0 0000000000000000000000000000abc2 Sun 2026-12-06 09:40:00 UTC Sun 2026-12-06 09:43:00 UTC
`
	r, err := Parse(boots, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": true, "names": []any{"idx", "boot", "first", "last"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Value.([]any); len(got) != 0 || r.Problems != 3 || !strings.Contains(r.FirstProblem, `line 2: its last column holds "2026-12-04 16:00:00 UTC Fri 2026-12-04 16:02:00 UTC", in which "Fri" begins under the header's "LAST"`) {
		t.Errorf("list-boots: got %v (%d problems %q); want no row, 3 problems naming LAST", r.Value, r.Problems, r.FirstProblem)
	}
	df := `Filesystem     1024-blocks     Used Available Capacity Mounted on
/dev/vda         264212084 49411940  46089324      52% /
tmpfs                65536        0     65536       0% /dev
`
	r, _ = Parse(df, Spec{Mode: "columns", Options: map[string]any{"last": "rest", "header": true, "names": []any{"fs", "blocks", "used", "avail", "cap", "mount"}}})
	if got, _ := r.Value.([]any); len(got) != 2 || r.Problems != 0 {
		t.Errorf("df: got %v (%d problems %q); want 2 rows", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestPsqlFooterIsNoRow: psql without -t ends a table with its row
// count, "(1 row)" or "(N rows)", and the aligned form rules the header
// off with dashes. Read as csv (psql -A, one column) the footer was a
// record, so a chart over inactive replication slots judged a slot named
// "(0 rows)" every healthy night, Consistent; read as columns (psql -A
// -F ' ', two columns) it was a row {relname: "(2", n_dead_tup:
// "rows)"}, and the aligned rule a row of dashes. Each is a problem now,
// saying how to ask psql for no footer (real psql 15 output).
func TestPsqlFooterIsNoRow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, mode, out string
		rows, problems  int
	}{
		{"psql -A, one column", "csv", "slot_name\nstandby1\n(1 row)\n", 1, 1},
		{"psql -A, no rows", "csv", "slot_name\n(0 rows)\n", 0, 1},
		{"psql -A -F ' '", "columns", "relname n_dead_tup\nempty_t 0\norders 10000\n(2 rows)\n", 2, 1},
		{"psql aligned, one column", "columns", " count \n-------\n     1\n(1 row)\n\n", 1, 2},
		{"psql -A -F tab", "tsv", "relname\tn_dead_tup\nempty_t\t0\n(1 row)\n", 1, 1},
	}
	for _, tc := range tests {
		r, err := Parse(tc.out, Spec{Mode: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		l, _ := r.Value.([]any)
		if len(l) != tc.rows || r.Problems != tc.problems || !strings.Contains(r.FirstProblem, "psql") {
			t.Errorf("%s: got %v (%d problems: %s); want %d rows and %d problems naming psql", tc.name, r.Value, r.Problems, r.FirstProblem, tc.rows, tc.problems)
		}
	}
	// A value that only looks so inside a table is a value.
	r, _ := Parse("note,n\n(1 row),3\n", Spec{Mode: "csv"})
	if l, _ := r.Value.([]any); len(l) != 1 || r.Problems != 0 {
		t.Errorf("a value (1 row) in a field of two: %v, %d problems", r.Value, r.Problems)
	}
}

// TestPsqlFooterIsNoLine: the same footer read by lines. A chart over
// inactive replication slots ran psql -A (no -t), read its output as
// lines and skipped the header (q.stdout[1:]): with no inactive slot the
// footer "(0 rows)" was the one slot left, `(0 rows): inactive`, and the
// run stood Consistent. It is a problem now, as under csv, and no line;
// a line that only holds the words among others is a line.
func TestPsqlFooterIsNoLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		out   string
		lines []any
	}{
		{"slot_name\n(0 rows)\n", []any{"slot_name"}},
		{"slot_name\nstandby1_slot\n(1 row)\n", []any{"slot_name", "standby1_slot"}},
	} {
		r, err := Parse(tc.out, Spec{Mode: "lines"})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.Value, tc.lines) || r.Problems != 1 || !strings.Contains(r.FirstProblem, "psql") {
			t.Errorf("%q: got %v (%d problems: %s); want %v and one problem naming psql", tc.out, r.Value, r.Problems, r.FirstProblem, tc.lines)
		}
	}
	r, _ := Parse("restored (2 rows) from the backup\n", Spec{Mode: "lines"})
	if r.Problems != 0 {
		t.Errorf("a line holding the words among others: %d problems", r.Problems)
	}
}

// TestColumnsSysstatSecondTableIsNoRows: sar prints one table for each
// activity asked of it, and `sar -n IP,EIP 1 1` prints two of eight
// columns each. Read as one table, EIP's header was a row of texts and
// EIP's values were keyed irec/s, fwddgm/s …, Consistent, with no word
// (real output, sysstat 12.6.1). The other table's header and rows are
// problems now; the first table's rows, and its Average: table after the
// other's, are read. A row of decimal commas (a German LC_NUMERIC) is a
// row, not a header.
func TestColumnsSysstatSecondTableIsNoRows(t *testing.T) {
	t.Parallel()
	sar := "Linux 6.18.44-fc-v1300 (vm) \t12/07/26 \t_x86_64_\t(2 CPU)\n\n" +
		"03:52:12       irec/s  fwddgm/s    idel/s     orq/s   asmrq/s   asmok/s  fragok/s fragcrt/s\n" +
		"03:52:13       400.95      0.00    400.95    316.19      0.00      0.00      0.00      0.00\n\n" +
		"03:52:12    ihdrerr/s iadrerr/s iukwnpr/s   idisc/s   odisc/s   onort/s    asmf/s   fragf/s\n" +
		"03:52:13         7.00      0.00      0.00      0.00      0.00      0.00      0.00      0.00\n\n" +
		"Average:       irec/s  fwddgm/s    idel/s     orq/s   asmrq/s   asmok/s  fragok/s fragcrt/s\n" +
		"Average:       400.95      0.00    400.95    316.19      0.00      0.00      0.00      0.00\n\n" +
		"Average:    ihdrerr/s iadrerr/s iukwnpr/s   idisc/s   odisc/s   onort/s    asmf/s   fragf/s\n" +
		"Average:         7.00      0.00      0.00      0.00      0.00      0.00      0.00      0.00\n"
	names := []any{"time", "irec", "fwddgm", "idel", "orq", "asmrq", "asmok", "fragok", "fragcrt"}
	for _, opts := range []map[string]any{{"skip": 2}, {"skip": 2, "header": true, "names": names}} {
		r, err := Parse(sar, Spec{Mode: "columns", Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := r.Value.([]any)
		if len(rows) != 2 || r.Problems != 4 || !strings.Contains(r.FirstProblem, "line 6: it heads another table (ihdrerr/s") {
			t.Errorf("%v: got %v (%d problems: %s); want the IP table's 2 rows, EIP's 2 headers and 2 rows problems", opts, rows, r.Problems, r.FirstProblem)
		}
		for _, row := range rows {
			for k, v := range row.(map[string]any) {
				if k != "time" && k != "03:52:12" && v == 7.0 {
					t.Errorf("%v: EIP's ihdrerr/s 7.00 was read as %s", opts, k)
				}
			}
		}
	}
	// sar -n TCP,ETCP: four columns, then five.
	tcp := "03:48:00     active/s passive/s    iseg/s    oseg/s\n03:48:01         0.00      0.00      0.00      0.00\n\n" +
		"03:48:00     atmptf/s  estres/s retrans/s isegerr/s   orsts/s\n03:48:01         0.00      0.00     12.00      0.00      0.00\n"
	r, _ := Parse(tcp, Spec{Mode: "columns"})
	if rows, _ := r.Value.([]any); len(rows) != 1 || r.Problems != 2 || !strings.Contains(r.FirstProblem, "another table (atmptf/s estres/s retrans/s isegerr/s orsts/s), not this one's (active/s passive/s iseg/s oseg/s)") {
		t.Errorf("TCP,ETCP: got %v (%d problems: %s)", r.Value, r.Problems, r.FirstProblem)
	}
	// Decimal commas are values: the row is a row (its texts a rule error later).
	de := "03:48:00  IFACE  rxkB/s  txkB/s\n03:48:01  lo  0,20  1,50\n"
	r, _ = Parse(de, Spec{Mode: "columns"})
	if rows, _ := r.Value.([]any); len(rows) != 1 || r.Problems != 0 {
		t.Errorf("decimal commas: got %v (%d problems: %s); want one row", r.Value, r.Problems, r.FirstProblem)
	}
}

// TestColumnsTwoWordNameInsideTheHeaderIsSaid: df --output=source,
// target,pcent heads its second column "Mounted on", one space apart,
// and every row was a problem saying a cell under "on" was left blank.
// The problem says the header's two words may be one name, and what to
// write; loginctl's blank SEAT is said as before.
func TestColumnsTwoWordNameInsideTheHeaderIsSaid(t *testing.T) {
	t.Parallel()
	text := "Filesystem     Mounted on  Use%\n/dev/vda       /           95%\ntmpfs          /dev/shm     0%\n"
	r, err := Parse(text, Spec{Mode: "columns"})
	if err != nil {
		t.Fatal(err)
	}
	const want = `line 2: 3 fields, the table has 4 columns: the row holds nothing under the header's "on", which stands one space after the name before it: if "Mounted on" is one name of two words (df --output prints "Mounted on" so), a split by spaces reads it as two, and every row lacks one; name the columns with names: [...] and header: true`
	if r.Problems != 2 || !strings.Contains(r.FirstProblem, want) {
		t.Fatalf("problems %d, first %q; want 2, saying %s", r.Problems, r.FirstProblem, want)
	}
	// a header of names one space apart says nothing of a name of two
	// words: "a b", ps's "PID TTY      TIME CMD"
	for _, text := range []string{"a b\n1 2\n3\n", "    PID TTY          TIME CMD\n      1 ?        00:00:01 init\n      2          00:00:00 kthreadd\n"} {
		r, err := Parse(text, Spec{Mode: "columns"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.FirstProblem, "one name of two words") {
			t.Errorf("%q: %s; want a blank cell said as before", text, r.FirstProblem)
		}
	}
}

// TestColumnsShiftedRowUnderAnOffsetHeaderIsAProblem: jstat -gccause
// (OpenJDK 17) stands its header's LGCC and GCC one column left of the
// text under them, so a full GC storm's row `Allocation Failure   Allocation
// Failure` under last: rest was keyed LGCC "Allocation", GCC "Failure
// Allocation Failure", with no problem, and a chart asking whether GCC
// was "Allocation Failure" said ok, Consistent. A last value that holds
// a word after a run of spaces, within two columns of the header's last
// name, is a problem now; one with no such run ("No GC" after a one-word LGCC) is
// read. (G1's "G1 Humongous Allocation", past its column's width, runs
// into GCC with one space: no split can tell it, testdata/wave-jvm.)
func TestColumnsShiftedRowUnderAnOffsetHeaderIsAProblem(t *testing.T) {
	t.Parallel()
	out := "  S0     S1     E      O      M     CCS    YGC     YGCT     FGC    FGCT     CGC    CGCT       GCT    LGCC                 GCC                 \n" +
		"  0.00   0.00  99.64  99.41  36.01   2.98      3     0.020 819765   478.562     -         -   478.583 Allocation Failure   Allocation Failure  \n" +
		"  0.00   0.00  12.00  40.10  36.01   2.98      4     0.030     10     1.000     -         -     1.030 Ergonomics           No GC               \n"
	r, err := Parse(out, Spec{Mode: "columns", Options: map[string]any{"last": "rest"}})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := r.Value.([]any)
	if r.Problems != 1 || len(rows) != 1 {
		t.Fatalf("got %#v, %d problems; want the storm's row a problem and one row", r.Value, r.Problems)
	}
	if got := rows[0].(map[string]any)["GCC"]; got != "No GC" {
		t.Errorf("GCC = %#v; want \"No GC\"", got)
	}
}
