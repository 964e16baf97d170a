// Command runbook-plugin-adversary misbehaves on purpose, one way per mode:
// the mistakes outside plugin authors make and the faults of the field.
package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"strings"
	"time"

	"github.com/openrunbook/runbook/plugins/sdk"
)

const Version = "0.0.1"

type adv struct{}

func (adv) Describe() sdk.Description {
	return sdk.Description{
		Name:        "adversary",
		Version:     Version,
		Description: "Misbehaves on purpose (mode)",
		Args: []sdk.Arg{
			{Name: "mode", Type: "string", Required: true, Description: "how to misbehave"},
			{Name: "secret", Type: "string", Sensitive: true, Default: "", HasDefault: true, Description: "a secret to leak"},
			{Name: "n", Type: "integer", Default: 0, HasDefault: true, Description: "a size or a delay in ms"},
		},
	}
}

func (adv) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	mode, _ := req.Args["mode"].(string)
	sec, _ := req.Args["secret"].(string)
	n, _ := req.Args["n"].(int)
	ok := func(v any) (sdk.Response, error) { return sdk.Response{Result: v}, nil }
	switch mode {
	case "ok":
		return ok(map[string]any{"healthy": true, "n": n})
	case "crash":
		fmt.Fprintln(os.Stderr, "adversary: out of memory in the parser")
		os.Exit(3)
	case "exit0":
		os.Exit(0)
	case "gopanic":
		go func() { panic("boom in a goroutine") }()
		time.Sleep(time.Second)
	case "panic":
		panic("boom")
	case "hang":
		select {}
	case "ignorectx":
		time.Sleep(time.Duration(n) * time.Millisecond)
		return ok(map[string]any{"late": true})
	case "slow":
		select {
		case <-time.After(time.Duration(n) * time.Millisecond):
			return ok(map[string]any{"slept": n})
		case <-ctx.Done():
			return sdk.Response{}, ctx.Err()
		}
	case "stdout":
		fmt.Println(`{"healthy": false}`)
		fmt.Println("stray line on stdout")
		return ok(map[string]any{"healthy": true})
	case "huge":
		return ok(map[string]any{"blob": strings.Repeat("x", n)})
	case "manykeys":
		m := map[string]any{}
		for i := 0; i < n; i++ {
			m[fmt.Sprintf("k%07d", i)] = i
		}
		return ok(m)
	case "deep":
		var v any = 1
		for i := 0; i < n; i++ {
			v = []any{v}
		}
		return ok(map[string]any{"deep": v})
	case "nan":
		return ok(map[string]any{"used": math.NaN()})
	case "inf":
		return ok(map[string]any{"used": math.Inf(1)})
	case "bigint":
		return ok(map[string]any{
			"u64":   uint64(math.MaxUint64),
			"i64":   int64(math.MaxInt64),
			"p53":   int64(1<<53 + 1),
			"neg":   int64(math.MinInt64),
			"small": uint8(200),
			"f32":   float32(0.1),
		})
	case "nulls":
		return ok(map[string]any{"a": nil, "b": map[string]any{"c": nil, "d": []any{nil, map[string]any{"e": nil}}}, "hosts": nil})
	case "typednil":
		var m map[string]any
		var s []string
		var p *int
		return ok(map[string]any{"m": m, "s": s, "p": p})
	case "nilresult":
		return ok(nil)
	case "nonutf8":
		return ok(map[string]any{"name": "caf\xe9"})
	case "nonutf8key":
		return ok(map[string]any{"caf\xe9": 1})
	case "errsecret":
		return sdk.Response{}, fmt.Errorf("auth failed for token %s", sec)
	case "errsecretupper":
		return sdk.Response{}, fmt.Errorf("auth failed for token %s", strings.ToUpper(sec))
	case "errsecretb64":
		return sdk.Response{}, fmt.Errorf("auth header Basic %s rejected", base64.StdEncoding.EncodeToString([]byte("admin:"+sec)))
	case "errsecretsplit":
		return sdk.Response{}, fmt.Errorf("token starts %s and ends %s", sec[:len(sec)/2], sec[len(sec)/2:])
	case "resultsecret":
		return ok(map[string]any{"echo": sec, "url": "https://u:" + sec + "@h/"})
	case "logsecret":
		log.Printf("connecting with token=%s", sec)
		fmt.Fprintf(os.Stderr, "debug: token=%s\n", sec)
		return ok(map[string]any{"healthy": true})
	case "spam":
		line := strings.Repeat("noise ", 15) + "\n"
		for i := 0; i < n; i++ {
			os.Stderr.WriteString(line)
		}
		return ok(map[string]any{"healthy": true})
	case "logsecretcrash":
		fmt.Fprintf(os.Stderr, "fatal: login with %s refused\n", sec)
		os.Exit(2)
	case "partial":
		return sdk.Response{Result: map[string]any{"checked": 3, "of": 10}}, errors.New("lost connection after 3 of 10")
	case "structresult":
		type disk struct {
			Name string
			Used float64 `json:"used"`
		}
		return ok([]disk{{"sda", 10}})
	case "absentnowhere":
		return ok(sdk.Absent("the lock file"))
	case "bytes":
		return ok(map[string]any{"raw": []byte("hello")})
	case "chan":
		return ok(map[string]any{"c": make(chan int)})
	}
	return sdk.Response{}, fmt.Errorf("unknown mode %q", mode)
}

func main() { sdk.Serve(adv{}) }
