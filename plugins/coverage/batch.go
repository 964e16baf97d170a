package coverage

// StageResult is one stage result the runtime hands over: the stage path
// and the value as the stage returned it (JSON-shaped).
type StageResult struct {
	Path  string `json:"path"`
	Value any    `json:"value"`
}

// Request is a batch of stage results, so a run with a thousand branches
// pays one round trip to a coverage plugin, not a thousand. It is plain
// data that crosses a plugin boundary as JSON unchanged.
type Request struct {
	Results []StageResult `json:"results"`
}

// Served is the answer for one stage result: the value to write to the
// scope ([Serve]), whether it differs from what the stage returned, and
// what [Read] found (Status and Declared are empty for ordinary data).
type Served struct {
	Path     string        `json:"path"`
	Value    any           `json:"value"`
	Changed  bool          `json:"changed,omitempty"`
	Status   string        `json:"status,omitempty"`
	Declared []Declaration `json:"declared,omitempty"`
}

// Response holds one Served per result, in the request's order, and the
// warnings — at most one per stage path.
type Response struct {
	Results  []Served  `json:"results"`
	Warnings []Warning `json:"warnings,omitempty"`
}

// Annotator answers requests for one run, keeping the one-warning-per-stage
// memory across them. The zero value is ready; keep one per run.
type Annotator struct {
	once OncePerStage
}

// Annotate reads and serves every result in req.
func (a *Annotator) Annotate(req Request) Response {
	resp := Response{Results: make([]Served, 0, len(req.Results))}
	sink := func(w Warning) { resp.Warnings = append(resp.Warnings, w) }
	for _, r := range req.Results {
		s := Served{Path: r.Path}
		if reading, ok := Read(r.Value, a.once.For(r.Path, sink)); ok {
			s.Status, s.Declared = reading.Status, reading.Declared
		}
		s.Value, s.Changed = Serve(r.Value)
		resp.Results = append(resp.Results, s)
	}
	return resp
}

// Annotate answers one request on its own: one warning per stage path
// within it. A runtime that sends several requests in a run should keep an
// [Annotator] instead.
func Annotate(req Request) Response {
	var a Annotator
	return a.Annotate(req)
}
