// Package qparam reads the numbers of query parameters (and of path
// segments that name a number), the one way the API and the editor read
// them: plain decimal digits within explicit bounds. Signs, exponents,
// hexadecimal, underscores, "NaN" and "Inf" are not numbers here, so no
// value that strconv would turn into NaN, an infinity or an out-of-range
// figure ever reaches a handler.
//
// Each rule has one wording, used by every caller: "must be an integer
// between MIN and MAX" and "must be a number between MIN and MAX".
package qparam

import (
	"fmt"
	"math"
	"strconv"

	"github.com/valyala/fasthttp"
)

// maxLen bounds a value before it is parsed: no bound a caller sets
// needs more digits.
const maxLen = 24

// Error is a parameter that breaks its rule. Error() is "name: rule",
// the text the API's error body and the editor's carry.
type Error struct {
	Name string
	Rule string
}

func (e *Error) Error() string { return e.Name + ": " + e.Rule }

// Int is an integer parameter in [Min, Max].
type Int struct {
	Name     string
	Min, Max int64
}

// Rule is the wording of every Int failure.
func (p Int) Rule() string {
	return fmt.Sprintf("must be an integer between %d and %d", p.Min, p.Max)
}

// Parse reads v: decimal digits only, within the bounds.
func (p Int) Parse(v []byte) (int64, error) {
	if !digits(v) {
		return 0, p.err()
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || n < p.Min || n > p.Max {
		return 0, p.err()
	}
	return n, nil
}

// From reads the parameter from args: def when absent; a present value,
// even an empty one, must follow the rule.
func (p Int) From(args *fasthttp.Args, def int64) (int64, error) {
	if !args.Has(p.Name) {
		return def, nil
	}
	return p.Parse(args.Peek(p.Name))
}

func (p Int) err() error { return &Error{Name: p.Name, Rule: p.Rule()} }

// Number is a decimal parameter in [Min, Max]: digits with an optional
// fraction ("72", "1.5"); never NaN nor an infinity.
type Number struct {
	Name     string
	Min, Max float64
}

// Rule is the wording of every Number failure.
func (p Number) Rule() string {
	return fmt.Sprintf("must be a number between %g and %g", p.Min, p.Max)
}

// Parse reads v: digits, optionally a '.' and more digits, within the
// bounds.
func (p Number) Parse(v []byte) (float64, error) {
	whole, frac := v, []byte(nil)
	for i, c := range v {
		if c == '.' {
			whole, frac = v[:i], v[i+1:]
			if !digits(frac) {
				return 0, p.err()
			}
			break
		}
	}
	if !digits(whole) || len(v) > maxLen {
		return 0, p.err()
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < p.Min || f > p.Max {
		return 0, p.err()
	}
	return f, nil
}

// From reads the parameter from args: def when absent; a present value,
// even an empty one, must follow the rule.
func (p Number) From(args *fasthttp.Args, def float64) (float64, error) {
	if !args.Has(p.Name) {
		return def, nil
	}
	return p.Parse(args.Peek(p.Name))
}

func (p Number) err() error { return &Error{Name: p.Name, Rule: p.Rule()} }

// digits reports whether v is 1 to maxLen ASCII decimal digits.
func digits(v []byte) bool {
	if len(v) == 0 || len(v) > maxLen {
		return false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
