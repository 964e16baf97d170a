// Package jsonschema validates JSON documents against schemas written in a
// closed subset of JSON Schema draft 2020-12: the subset runbook's own
// schemas use (runbook/record.schema.json). It exists so that checking a
// record costs nothing at program start: it does no work at package init,
// and a schema is compiled only when Compile is called.
//
// It owns one rule, which keywords a schema may use. Compile refuses, with
// an error naming the keyword and its schema location, every keyword it
// does not implement, so an edit to a schema can never be silently
// unchecked:
//
//	keyword                     applies to   a violation reads
//	type (a name or a list)     any          got string, want integer
//	const                       any          got 2, want 1
//	enum                        any          "x" is not one of ["a","b"]
//	minimum, maximum            numbers      got -3, want at least 0
//	minLength, maxLength        strings      has 0 characters, want at least 1
//	pattern                     strings      "abc" does not match ^a+$
//	minItems, maxItems          arrays       has 0 items, want at least 1
//	items                       arrays       (each element, at its own location)
//	required                    objects      missing required property "index"
//	properties                  objects      (each named property, at its location)
//	additionalProperties        objects      property "x" is not allowed (when false)
//	allOf                       any          (each schema's own problems)
//	anyOf                       any          matches none of anyOf's 2 schemas (0: …; 1: …)
//	oneOf                       any          matches oneOf's schemas 0 and 1; want exactly one
//	$ref, $defs                 any          (the referenced schema's problems)
//	false (the boolean schema)  any          no value is allowed here
//
// Annotations are accepted and ignored: $schema (only at the root, and only
// draft 2020-12), $id (only at the root), title, description, $comment,
// default, examples.
//
// It does NOT implement, and so refuses: remote and relative $ref (only
// "#" and "#/json/pointer" within the one schema), $anchor, $dynamicRef,
// $dynamicAnchor, $id below the root, $vocabulary, format, prefixItems,
// contains, uniqueItems, patternProperties, propertyNames,
// dependentRequired, dependentSchemas, not, if/then/else,
// unevaluatedItems, unevaluatedProperties, exclusiveMinimum,
// exclusiveMaximum, multipleOf and content*.
//
// Numbers are compared exactly, as decimals, never as float64: 1e2 and
// 100.0 are integers, 1.5 is not, and 0.1 == 0.10. pattern is Go's RE2
// syntax (package regexp), unanchored, as the reference implementation
// (github.com/santhosh-tekuri/jsonschema/v6, a test-only dependency that
// the tests cross-check this package against) uses by default. minLength
// and maxLength count Unicode code points.
//
// @example
//
//	sch, err := jsonschema.Compile([]byte(`{"type":"object","required":["index"],
//	    "properties":{"index":{"type":"integer","minimum":0}}}`))
//	problems, err := sch.Validate([]byte(`{"index":"0"}`))
//	// problems[0].String() == `/index: got string, want integer`
//	problems, err = sch.Validate([]byte(`{}`))
//	// problems[0].String() == `/: missing required property "index"`
package jsonschema
