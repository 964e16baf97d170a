package assessment

// Request is one call of the assessment stage: the run's summary and the
// runbook's standingLine mode. Plain data, so the runtime can make the same
// call in-process or over a plugin connection and get the same bytes.
type Request struct {
	Summary Summary `json:"summary"`
	When    When    `json:"when,omitempty"`
}

// Response is the stage's answer: the standing as data, and whether its
// line is appended after the result.
type Response struct {
	Assessment Assessment `json:"assessment"`
	Said       bool       `json:"said"`
}

// Annotate assesses req.Summary and says whether the line is appended under
// req.When. It is the stage's one entry point; it reads only req and never
// edits the result it is about.
func Annotate(req Request) Response {
	a := Assess(req.Summary)
	return Response{Assessment: a, Said: Said(req.When, a.Standing)}
}
