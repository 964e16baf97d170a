package rules

// ReadsWholeEnv reports an expression that uses $env as a value (`$env`,
// `$env[k]` with k computed): it may read any scope key, so a check of the
// names it reads (Roots, Idents) cannot bound what it reads.
func (e *Expr) ReadsWholeEnv() bool { return e.wholeEnv }
