package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/record"

	"github.com/openrunbook/runbook/chart"

	"github.com/openrunbook/runbook/runbook"
)

// inputChart declares one input of every type, one of them secret, and
// runs nothing that costs: the fuzz target drives `--input k=v` through
// readInputs and the runbook's input conversion, the whole boundary a
// person's text crosses before any stage runs.
const inputChart = `
version: 1
runbook: inputs
honesty: []
inputs:
  s:   {type: string}
  n:   {type: number}
  b:   {type: bool}
  l:   {type: list}
  o:   {type: object}
  d:   {type: duration}
  pin: {type: number, secret: true}
stages:
  - {id: done, set: {seen: 'true'}}
`

// secretNumberMsg is the one message a refused secret number gets; a
// value that is a piece of it can't be told apart from it, so the "never
// in the message" check skips those.
const secretNumberMsg = `input "pin": is not a number (value hidden: the input is secret)`

// FuzzInputFlag: any `--input` text ends in one given input, a refusal
// naming that input, or a usage error saying "want name=value" — never a
// panic; a secret number's value never appears in its refusal, nor in the
// record of a run it started.
func FuzzInputFlag(f *testing.F) {
	for _, s := range []string{
		"s=db-1", "s=", "s==", "s=a=b", "=x", "x", "", " =1", "n=42", "n=-1.5e3", "n= 7 ", "n=0x1F",
		"n=NaN", "n=Inf", "n=1e400", "b=true", "b=T", "b=yes", "l=[1,\"a\"]", "l=[", "l=null", "o={\"k\":1}",
		"o=[]", "o=null", "d=1h30m", "d=-5s", "d=5", "pin=1234", "pin=12ab34", "pin=00042", "unknown=1",
		"S=x", "s=\x00\xff", "l=[[[[[[[[[[[[]]]]]]]]]]]]",
	} {
		f.Add(s)
	}
	path := filepath.Join(f.TempDir(), "inputs.yaml")
	spec, err := chart.Parse(path, []byte(strings.TrimLeft(inputChart, "\n")))
	if err != nil {
		f.Fatal(err)
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, kv string) {
		given, err := readInputs("", []string{kv})
		if err != nil {
			if !strings.Contains(err.Error(), "want name=value") {
				t.Fatalf("readInputs(%q): %v: the usage error does not say what would be right", kv, err)
			}
			return
		}
		name, value, _ := strings.Cut(kv, "=")
		if len(given) != 1 || given[name] != value {
			t.Fatalf("readInputs(%q) = %#v; want {%q: %q}", kv, given, name, value)
		}
		res, err := rb.Exec(context.Background(), given)
		if err != nil {
			var ies runbook.InputErrors
			if !errors.As(err, &ies) || len(ies) == 0 {
				t.Fatalf("--input %q: error %T is not InputErrors: %v", kv, err, err)
			}
			for _, ie := range ies {
				if ie.Input != name || ie.Msg == "" {
					t.Fatalf("--input %q: the refusal %v does not name the input %q", kv, ie, name)
				}
				if name == "pin" && value != "" && !strings.Contains(secretNumberMsg, value) && strings.Contains(ie.Error(), value) {
					t.Fatalf("--input %q: the secret's value is in the refusal: %v", kv, ie)
				}
			}
			return
		}
		rec := res.Record
		if rec.Status != "completed" {
			t.Fatalf("--input %q: status %s, want completed (%+v)", kv, rec.Status, rec.Error)
		}
		if _, ok := rec.Inputs.Given[name]; !ok {
			t.Fatalf("--input %q: the record's given inputs %v do not hold %q", kv, rec.Inputs.Given, name)
		}
		switch name {
		case "s":
			if rec.State["s"] != value {
				t.Fatalf("--input %q: state s = %#v; a string input arrives as written", kv, rec.State["s"])
			}
		case "pin":
			if rec.Inputs.Given["pin"] != record.Masked || rec.State["pin"] != record.Masked {
				t.Fatalf("--input %q: the secret is not masked: given %#v, state %#v", kv, rec.Inputs.Given["pin"], rec.State["pin"])
			}
		}
	})
}
