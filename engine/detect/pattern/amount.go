package pattern

import (
	"regexp"
	"strings"

	"github.com/redactd/redactd/engine/detect/view"
)

// IsAmount reports whether word w is money or a rate: a currency sign
// (alone or with digits), a percentage, or a decimal amount.
func IsAmount(w string) bool {
	w = strings.Trim(w, "()[]:;")
	if strings.ContainsAny(w, "€$£¥") {
		return w == "€" || w == "$" || w == "£" || w == "¥" || view.HasDigit(w)
	}
	if strings.HasSuffix(w, "%") {
		return view.HasDigit(w)
	}
	return decimalAmount.MatchString(strings.TrimRight(w, ".,"))
}

var (
	// decimalAmount is a number with two decimals, thousands grouped or
	// not: "5,39", "399,00", "1.234,56", "4.11".
	decimalAmount = regexp.MustCompile(`^[+-]?\d{1,3}(?:[.,' ]?\d{3})*[.,]\d{2}$`)
)
