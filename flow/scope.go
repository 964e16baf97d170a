package flow

// Scope is a stage's view of the run's state: reads are tracked, writes are
// staged until the stage commits.
type Scope struct {
}
