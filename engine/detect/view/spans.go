package view

import (
	"slices"

	"github.com/redactd/redactd/engine/page"
)

// pos is a position between runes: word w, rune r; end positions of whole
// words use r = maxRune.
type pos struct{ w, r int }

const maxRune = int(^uint(0) >> 1)

func spanStart(s page.Span) pos { return pos{s.First, s.Start} }

func spanEnd(s page.Span) pos {
	if s.End == 0 {
		return pos{s.Last, maxRune}
	}
	return pos{s.Last, s.End}
}

// Overlap reports whether a and b share at least one rune of one word.
func Overlap(a, b page.Span) bool {
	return spanStart(a).less(spanEnd(b)) && spanStart(b).less(spanEnd(a))
}

// Merge joins overlapping spans of the same category into their union,
// keeping the highest score and the name of the detector that gave it.
// Spans of different categories are left alone. The result is sorted.
func Merge(ss []page.Span) []page.Span {
	if len(ss) < 2 {
		return ss
	}
	// Category first, then position: overlapping spans of a category
	// become neighbours.
	slices.SortFunc(ss, func(a, b page.Span) int {
		if a.Category != b.Category {
			if a.Category < b.Category {
				return -1
			}
			return 1
		}
		return comparePos(a, b)
	})
	out := ss[:0]
	for _, s := range ss {
		if n := len(out); n > 0 && out[n-1].Category == s.Category && Overlap(out[n-1], s) {
			m := &out[n-1]
			if spanEnd(*m).less(spanEnd(s)) {
				m.Last, m.End = s.Last, s.End
			}
			if s.Score > m.Score {
				m.Score, m.Recognizer = s.Score, s.Recognizer
			}
			continue
		}
		out = append(out, s)
	}
	SortSpans(out)
	return out
}

// SortSpans orders spans by start, then end, then category.
func SortSpans(ss []page.Span) {
	slices.SortFunc(ss, func(a, b page.Span) int {
		if c := comparePos(a, b); c != 0 {
			return c
		}
		switch {
		case a.Category < b.Category:
			return -1
		case a.Category > b.Category:
			return 1
		}
		return 0
	})
}

// comparePos orders spans by start, then end.
func comparePos(a, b page.Span) int {
	as, bs := spanStart(a), spanStart(b)
	if as != bs {
		if as.less(bs) {
			return -1
		}
		return 1
	}
	ae, be := spanEnd(a), spanEnd(b)
	if ae != be {
		if ae.less(be) {
			return -1
		}
		return 1
	}
	return 0
}

func (a pos) less(b pos) bool { return a.w < b.w || a.w == b.w && a.r < b.r }
