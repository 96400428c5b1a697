package gazetteer

import (
	"sync"
	"unicode/utf8"
)

// endings counts how many words of each lower-case list (LowerDE ...
// LowerPT) and of the name lists (FirstName, Surname) end in each
// ending of endingMin to endingMax letters. The words of a language share
// its derivational endings ("-ção", "-ivo", "-ología", "-ment"); a
// surname seldom has one, so an ending tells an unknown capitalised word
// of running text from a name no list holds (CommonEnding).
type endings struct {
	lower map[uint32]map[string]int
	names map[string]int
}

// endingMin and endingMax bound the endings counted, in letters.
const endingMin, endingMax = 3, 4

// lazyEndings counts the endings of a Gazetteers' Lex on first use
// (CommonEnding); Lex does not change after load.
type lazyEndings struct {
	once sync.Once
	e    *endings
}

// endingsOf returns the endings of z.Lex, counted once.
func (z *Gazetteers) endingsOf() *endings {
	if z.ends == nil {
		return countEndings(z.Lex) // a Gazetteers not made by load
	}
	z.ends.once.Do(func() { z.ends.e = countEndings(z.Lex) })
	return z.ends.e
}

// countEndings counts the endings of the words of lex.
func countEndings(lex map[string]uint32) *endings {
	e := &endings{lower: map[uint32]map[string]int{}, names: map[string]int{}}
	for _, l := range lowerFiles {
		e.lower[l.flag] = map[string]int{}
	}
	for w, f := range lex {
		named := f&(FirstName|Surname) != 0
		for k := endingMin; k <= endingMax; k++ {
			end, ok := ending(w, k)
			if !ok {
				break
			}
			if named {
				e.names[end]++
				continue
			}
			for _, l := range lowerFiles {
				if f&l.flag != 0 {
					e.lower[l.flag][end]++
				}
			}
		}
	}
	return e
}

// ending returns the last k letters of w, when w has more than k.
func ending(w string, k int) (string, bool) {
	i := len(w)
	for n := 0; n < k; n++ {
		if i == 0 {
			return "", false
		}
		_, size := utf8.DecodeLastRuneInString(w[:i])
		i -= size
	}
	return w[i:], i > 0
}

// CommonEnding reports whether w (lower case), a word no list holds,
// ends like the ordinary words of the language whose lower-case list is
// lf rather than like a name: some ending of 3 or 4 letters that at least
// endingWords words of that list share and that those words hold more
// than endingRatio times as often as the name lists (counted with one
// more name). "executivo" (-ivo: 166 Portuguese words, 7 names),
// "apelação" and "oncología" end so; "duroy", "boisrenard" (-ard: 54
// French words, 547 names) and "laroche" (-che: 139 and 115) do not.
// The counts come from the lists embedded here (their shares were read on
// the dev splits, docs/languages.md).
func (z *Gazetteers) CommonEnding(lf uint32, w string) bool {
	e := z.endingsOf()
	low := e.lower[lf]
	if low == nil {
		return false
	}
	for k := endingMin; k <= endingMax; k++ {
		end, ok := ending(w, k)
		if !ok {
			return false
		}
		if n := low[end]; n >= endingWords && float64(n) > endingRatio*float64(e.names[end]+1) {
			return true
		}
	}
	return false
}

// endingWords and endingRatio are CommonEnding's thresholds.
const (
	endingWords = 5
	endingRatio = 2
)
