package sdktest

import "testing"

// Rebind is res reporting to t (TestExpectationsFail counts the reports).
func Rebind(res *Result, t testing.TB) *Result { c := *res; c.t = t; return &c }
