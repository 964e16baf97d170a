package record

import "fmt"

// Unfinished says, for a reader of the saved record (runbook explain),
// that the run it holds did not finish in this file: it failed, was
// cancelled or timed out (Ended), or paused at an ask: stage — answered
// since into another file (Resumed), or not yet. "" for a run that
// completed here. Without it, explain of a paused record printed "The
// state as of commit 1, key by key" as the state a run ended in, nothing
// said of the question, of the answer a person gave since, nor of the file
// that holds what the run did after it.
func (rr *RunRecord) Unfinished() string {
	if rr == nil || rr.Result == nil {
		return ""
	}
	r := rr.Result
	if ended := r.Ended(); ended != "" {
		at, why := "", ""
		if r.Error != nil {
			if r.Error.Stage != "" {
				at = fmt.Sprintf(" at stage %s", r.Error.Stage)
			}
			if r.Error.Message != "" {
				why = ": " + r.Error.Message
			}
		}
		return fmt.Sprintf("The run %s%s before it finished%s. This record holds what it did before it stopped.", ended, at, why)
	}
	if r.Status != "paused" {
		return ""
	}
	asked := "The run paused"
	if p := r.Pause; p != nil {
		asked = fmt.Sprintf("The run paused at %s to ask %q", p.Stage, p.Question)
	}
	switch m := rr.Resumed; {
	case m != nil && m.Into != "":
		return fmt.Sprintf("%s, and was resumed by %s at %s into %s. This record holds the run up to its question: the answer, and what the run did after it, are in %s.", asked, m.By, m.At, m.Into, m.Into)
	case m != nil:
		return fmt.Sprintf("%s, and was resumed by %s at %s. This record holds the run up to its question: the answer, and what the run did after it, are not in it.", asked, m.By, m.At)
	}
	return asked + ", and this record holds no answer to it: it holds the run up to its question."
}
