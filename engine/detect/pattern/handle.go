package pattern

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// FindHandles finds social-media user handles ("@Theory_Versa", "RT
// @jsmith:", "(.@acme_support)"): an '@' that starts a word, or follows
// opening punctuation, and 1-30 letters, digits and underscores that start
// with a letter or underscore. A handle names an account, nearly always a
// person's, and finds that person as surely as an e-mail address, so it is
// masked as a Person (docs/behaviour.md, "Category decisions"). Not a handle: an '@'
// inside a word (an e-mail address, the e-mail recognizer's business),
// "@ noon" (a lone '@' for "at"), "@5pm" (a time), a handle that goes on
// with ".word" or another '@' (a domain or address).
func FindHandles(v *view.View) []page.Span {
	return spansAround(v, "@", handleAt, page.Person, 0.6, "handle")
}

// handleAt returns the handle whose '@' is t[at], as the byte range
// [at, e) of t, or false (FindHandles says what is no handle).
func handleAt(t string, at int) (int, int, bool) {
	if r, _ := utf8.DecodeLastRuneInString(t[:at]); at > 0 && !handleMayFollow(r) {
		return 0, 0, false
	}
	e := at + 1
	for e < len(t) && e-at-1 < maxHandle && isHandleByte(t[e]) {
		e++
	}
	if e == at+1 || t[at+1] >= '0' && t[at+1] <= '9' || e < len(t) && isHandleByte(t[e]) ||
		e < len(t) && t[e] == '@' || e+1 < len(t) && t[e] == '.' && isHandleByte(t[e+1]) {
		return 0, 0, false
	}
	return at, e, true
}

// maxHandle is the longest handle taken: Twitter allows 15 characters,
// other networks up to 30.
const maxHandle = 30

func isHandleByte(b byte) bool { return view.IsAlnumByte(b) || b == '_' }

// handleMayFollow reports whether a handle's '@' may come right after r:
// white space or punctuation that opens or separates ("(", "“", ".@user"
// is how a reply is made public), never a letter, a digit or a rune of an
// e-mail address's local part ("_", "-", "+", "%").
func handleMayFollow(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || r == '\n' || r == '\t' || strings.IndexByte("([{\"'.:,;>", byte(r)) >= 0
	}
	return unicode.IsSpace(r) || unicode.IsPunct(r)
}
