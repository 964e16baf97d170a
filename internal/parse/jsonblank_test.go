package parse

import (
	"strings"
	"testing"
)

// TestBlankTextIsNoJSONValue: parse: json over a text with nothing in it
// (a command that printed nothing, as curl -s of a 503 with an empty body
// does, exit 0) is a problem; the value stays null, so a foreach over it
// still says its items were null. Before, it was null with no problem, so
// `resp.stdout?.items ?? []` read no items and the run stood Consistent
// over an answer nobody gave. jsonl over a blank text is still no lines,
// and `null` is still the value null.
func TestBlankTextIsNoJSONValue(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"", "\n", "  \n\t\n"} {
		res, err := Parse(text, Spec{Mode: "json"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Value != nil || res.Problems != 1 {
			t.Errorf("json %q: value %#v, %d problems (%s); want null and 1 problem", text, res.Value, res.Problems, res.FirstProblem)
		}
	}
	if res, _ := Parse("null\n", Spec{Mode: "json"}); res.Value != nil || res.Problems != 0 {
		t.Errorf("json null: %#v, %d problems", res.Value, res.Problems)
	}
	if res, _ := Parse("\n", Spec{Mode: "jsonl"}); len(res.Value.([]any)) != 0 || res.Problems != 0 {
		t.Errorf("jsonl blank: %#v, %d problems", res.Value, res.Problems)
	}
}

// TestJSONDuplicateKeyIsAProblem: `{"status":"ok","status":"failed"}`
// was {"status": "failed"}, the first value dropped with no problem, and a
// rule over status judged a value the tool may not have meant (another
// reader keeps the first). It is a problem now: json keeps the text,
// jsonl counts the line and keeps the others.
func TestJSONDuplicateKeyIsAProblem(t *testing.T) {
	t.Parallel()
	const dup = `{"status":"ok","status":"failed"}`
	res, err := Parse(dup+"\n", Spec{Mode: "json"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Problems != 1 || res.Value != dup+"\n" || !strings.Contains(res.FirstProblem, `names the key "status" twice`) {
		t.Errorf("json: value %#v, %d problems (%s); want the text and 1 problem naming the key", res.Value, res.Problems, res.FirstProblem)
	}
	res, _ = Parse(`{"status":"ok"}`+"\n"+dup+"\n", Spec{Mode: "jsonl"})
	if l, _ := res.Value.([]any); res.Problems != 1 || len(l) != 1 || !strings.HasPrefix(res.FirstProblem, "line 2:") {
		t.Errorf("jsonl: value %#v, %d problems (%s); want line 1 kept and line 2 a problem", res.Value, res.Problems, res.FirstProblem)
	}
}

// TestJSONLoneSurrogateIsAProblem: a tool that cuts an emoji in half
// (`"\ud83d"`) printed a string parse: json read as U+FFFD with no
// problem, so "\ud83d" and "\udfff" were one name. It is a problem now.
func TestJSONLoneSurrogateIsAProblem(t *testing.T) {
	t.Parallel()
	res, _ := Parse(`{"a":"\ud83d","b":"\udfff"}`, Spec{Mode: "json"})
	if res.Problems != 1 || !strings.Contains(res.FirstProblem, `escapes \ud83d at byte 6, half of a UTF-16 pair`) {
		t.Errorf("json: value %#v, %d problems (%s); want 1 problem naming the escape", res.Value, res.Problems, res.FirstProblem)
	}
}

// TestJSONValuesOneAfterAnotherSayHowToReadThem: `go list -m -u -json
// all` prints one indented object per module, one after another, no list
// around them; parse: json said `not JSON (text follows the value)` of
// its first line, `{`, and jsonl that it could not read 33 lines, neither
// saying what the text is or how to read it. json says the text is
// several values one after another and how to make them one list; a text
// that is not JSON after its value still says text follows it.
func TestJSONValuesOneAfterAnotherSayHowToReadThem(t *testing.T) {
	t.Parallel()
	const stream = "{\n\t\"Path\": \"example.com/gm\",\n\t\"Main\": true\n}\n{\n\t\"Path\": \"golang.org/x/text\",\n\t\"Version\": \"v0.3.7\"\n}\n"
	res, _ := Parse(stream, Spec{Mode: "json"})
	if res.Problems != 1 || !strings.Contains(res.FirstProblem, "2 JSON values one after another") || !strings.Contains(res.FirstProblem, "jq -s .") {
		t.Errorf("json stream: %d problems (%s); want it said the text is several values and how to read them", res.Problems, res.FirstProblem)
	}
	res, _ = Parse("{\"a\": 1} trailing words\n", Spec{Mode: "json"})
	if res.Problems != 1 || !strings.Contains(res.FirstProblem, "text follows the value") || strings.Contains(res.FirstProblem, "values one after another") {
		t.Errorf("json then words: %d problems (%s); want text follows the value", res.Problems, res.FirstProblem)
	}
}
