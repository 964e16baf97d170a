package plugins

import (
	"fmt"

	goversion "github.com/hashicorp/go-version"
)

// Version constraints are hashicorp/go-version's: the syntax Terraform and
// Packer users already write for their providers and plugins (">= 1.2, < 2",
// "~> 1.4"), kept by HashiCorp beside go-plugin, which this protocol rides
// on. One home: the chart loader checks a constraint's syntax with
// CheckConstraint and the host the plugin's declared version with
// VersionAllowed.

// CheckConstraint says whether c is a version constraint, and if not what
// is wrong with it.
func CheckConstraint(c string) error {
	if _, err := goversion.NewConstraint(c); err != nil {
		return fmt.Errorf("%q is not a version constraint (write one like \">= 1.2, < 2\" or \"~> 1.4\"): %v", c, err)
	}
	return nil
}

// VersionAllowed checks the version d declares against the constraint c a
// chart's plugins: map gives it ("" allows any version).
func VersionAllowed(d Description, c string) error {
	if c == "" {
		return nil
	}
	cs, err := goversion.NewConstraint(c)
	if err != nil {
		return CheckConstraint(c)
	}
	v, err := goversion.NewVersion(d.Version)
	if err != nil {
		return fmt.Errorf("declares version %q, which is not a version number, but the chart's plugins: map wants %s", d.Version, c)
	}
	if !cs.Check(v) {
		return fmt.Errorf("declares version %s, but the chart's plugins: map wants %s", d.Version, c)
	}
	return nil
}
