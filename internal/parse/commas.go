package parse

import "strings"

// CommaReadings is what to say of a number whose comma is followed by
// three digits ("1,500"), decimal the expression that reads it with a
// decimal comma (float(replace(x, ",", "."))): such a comma is a decimal
// comma where the command writes German or French numbers and a
// thousands group where it writes C's or English ones, rsync --stats's
// counts among them, and no text says which. A guard against a mass
// delete told only the decimal reading read rsync's 1,500 deleted files
// as 1.5, under a limit of 100 (rules
// TestCommaThenThreeDigitsHintGivesBothReadings). The one home of this
// judgement: a rule's reason (rules) and a regex group cut at the comma
// (cutNumber) say it alike.
func CommaReadings(decimal string) string {
	thousands := strings.Replace(decimal, `",", "."`, `",", ""`, 1)
	return "a comma followed by three digits is a decimal comma where the command writes German or French numbers (de_DE's 1,500 is one and a half) and groups thousands where it writes C's or English ones (rsync --stats, printf \"%'d\": 1,500 is fifteen hundred), and no text says which: have the command print no grouping (rsync --no-h, LC_ALL=C for a locale's decimal comma), or say which it is, " + thousands + " for thousands, " + decimal + " for a decimal comma"
}
