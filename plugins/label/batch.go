package label

// Call is one code call the runtime asks to have labelled. It is plain data
// so it crosses a plugin boundary as JSON unchanged.
type Call struct {
	Path       string     `json:"path"`
	Settlement Settlement `json:"settlement"`
	// Facts is nil when the runner filed none.
	Facts          *Facts `json:"facts,omitempty"`
	ResultWithheld bool   `json:"resultWithheld,omitempty"`
}

// Request is a batch of calls, so a run with a thousand branches pays one
// round trip to a label plugin, not a thousand.
type Request struct {
	Calls []Call `json:"calls"`
}

// Response holds one row per call, in the request's order.
type Response struct {
	Rows []Row `json:"rows"`
}

// Annotate files the script row for every call in req through [NewRow]. It
// holds no state, so an in-process call and a plugin process give the same
// rows.
func Annotate(req Request) Response {
	rows := make([]Row, 0, len(req.Calls))
	for _, c := range req.Calls {
		rows = append(rows, NewRow(c.Path, c.Settlement, c.Facts, c.ResultWithheld))
	}
	return Response{Rows: rows}
}
