package parse

import (
	"reflect"
	"testing"
)

// TestColumnsNameWithANoBreakSpaceIsOneField: a volume label typed on a
// Mac with Option-Space holds U+00A0 ("Meine Daten" that looks like a
// space), and a Japanese name an ideographic U+3000. lsblk pads its
// columns with spaces, and the split by every Unicode space made such a
// row one field too many: a problem naming 4 fields of a row that shows
// 3. A row is split at spaces and tabs alone, as under last: rest.
func TestColumnsNameWithANoBreakSpaceIsOneField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []any
	}{
		{"NAME   LABEL        SIZE\nsdb1   Meine\u00a0Daten  16G\nsdc1   Backup       32G\n",
			[]any{map[string]any{"NAME": "sdb1", "LABEL": "Meine\u00a0Daten", "SIZE": "16G"}, map[string]any{"NAME": "sdc1", "LABEL": "Backup", "SIZE": "32G"}}},
		{"USER  PID  CMD\nbob   22   my\u3000app\n",
			[]any{map[string]any{"USER": "bob", "PID": 22, "CMD": "my\u3000app"}}},
	} {
		r, err := Parse(tc.text, Spec{Mode: "columns"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Problems != 0 || !reflect.DeepEqual(r.Value, tc.want) {
			t.Errorf("%q: %#v, %d problems %q; want %#v and none", tc.text, r.Value, r.Problems, r.FirstProblem, tc.want)
		}
	}
}
