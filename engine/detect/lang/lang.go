// Package lang tells the language of a block of text among the seven the
// service redacts: English, German, French, Spanish, Italian, Dutch and
// Portuguese (issue 46). It is a naive Bayes classifier over character
// trigrams of lower-cased words (each word padded with '_' at both ends,
// so "_de" and "en_" carry the word edges), with one profile per language:
// the most frequent trigrams of openly licensed text from the shared
// data, counted by the recipe in internal/build and embedded as
// profiles.txt (its header lists the sources).
//
// Identify reads at most maxTrigrams trigrams of a text, so a block costs
// a few microseconds whatever its length (BenchmarkIdentify). It
// allocates nothing.
package lang

import (
	"bufio"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

//go:generate go run ./internal/build -out profiles.txt

// Code is an ISO 639-1 language code; "" when unknown.
type Code string

// The languages Identify tells apart.
const (
	English    Code = "en"
	German     Code = "de"
	French     Code = "fr"
	Spanish    Code = "es"
	Italian    Code = "it"
	Dutch      Code = "nl"
	Portuguese Code = "pt"
	Unknown    Code = ""
)

// Codes are the languages of the profiles, in their order in profiles.txt.
var Codes = []Code{English, German, French, Spanish, Italian, Dutch, Portuguese}

const nLang = 7

// maxTrigrams is how many trigrams of a text Identify reads: a
// paragraph's worth, enough to tell these languages apart with no
// measurable error, and a bound on a long block's cost.
const maxTrigrams = 600

// minTrigrams is the fewest trigrams Identify decides on: a text with
// fewer letters ("Tel.", "ID:") is Unknown.
const minTrigrams = 4

// Result is what Identify tells of a text.
type Result struct {
	Lang Code
	// Trigrams is how many trigrams were read.
	Trigrams int
	// Margin is the best language's mean log-likelihood per trigram less
	// the runner-up's: 0 when undecided, about 1 on a clear sentence.
	Margin float64
	// OverEnglish is the best language's mean log-likelihood per trigram
	// less English's: 0 when Lang is English, small where English came
	// close (a tweet, a line of names), about 1 on a clear sentence in
	// another language.
	OverEnglish float64
	// Fit is the best language's mean log-likelihood per trigram: about
	// -7 on prose in one of the seven languages, under -8.5 on most text
	// in none of them (Tagalog, Indonesian), which Identify must still
	// give one of its seven.
	Fit float64
	// Hinted is set when Lang is the caller's hint (Hint), not what the
	// trigrams told.
	Hinted bool
}

// SureTrigrams is the fewest trigrams on which Identify is trusted over
// a caller's hint (Sure, Hint): about six words. On the dev splits of the
// six other languages (eval.Languages, WikiANN left out), records of
// 30-34 trigrams are told right 0.986 of the time, 25-29 0.958, 20-24
// 0.927, 10-14 0.872 and 0-4 0.176.
const SureTrigrams = 30

// Sure reports whether r is trusted over a hint: a language was told
// from at least SureTrigrams trigrams.
func (r Result) Sure() bool { return r.Lang != Unknown && r.Trigrams >= SureTrigrams }

// Valid reports whether c is one of Codes.
func Valid(c Code) bool { return index(c) >= 0 }

// Hint returns r with hint as its language when r is not Sure: a short
// line or heading, or a text with too few letters to tell. A sure result
// keeps its own language, so a document that mixes languages (an English
// annex to a German contract) is still read block by block. An Unknown or
// invalid hint changes nothing.
func Hint(r Result, hint Code) Result {
	if hint == Unknown || !Valid(hint) || r.Sure() {
		return r
	}
	r.Lang, r.Hinted = hint, true
	return r
}

// Vote returns the language of a document from what Identify told of its
// blocks: the language told on most trigrams, when it holds at least
// voteShare of the trigrams of the told blocks and they are at least
// SureTrigrams in all; else Unknown. A page of headlines, form fields
// and short lines in one language is told surely by the vote where no
// block alone is (a headline over a German article; issue 46).
func Vote(rs []Result) Code {
	var told [nLang]int
	total := 0
	for _, r := range rs {
		if i := index(r.Lang); i >= 0 && !r.Hinted {
			told[i] += r.Trigrams
			total += r.Trigrams
		}
	}
	best := 0
	for i := range told {
		if told[i] > told[best] {
			best = i
		}
	}
	if total < SureTrigrams || float64(told[best]) < voteShare*float64(total) {
		return Unknown
	}
	return Codes[best]
}

// voteShare is the share of a document's trigrams its language must be
// told on (Vote).
const voteShare = 0.6

//go:embed profiles.txt
var profilesText string

type model struct {
	logp  map[uint64][nLang]float32
	floor [nLang]float32 // the log-probability of a trigram a profile lacks
}

var (
	loadOnce sync.Once
	loaded   *model
	loadErr  error
)

func get() *model {
	loadOnce.Do(func() { loaded, loadErr = parse(profilesText) })
	if loadErr != nil {
		panic("lang: embedded profiles.txt: " + loadErr.Error())
	}
	return loaded
}

// A trigram a profile does not list has a count under the profile's
// last (its K-th) count: the floor gives it half of that, so that a small
// profile (Italian) and a large one weigh a trigram they lack alike.
const floorShare = 0.5

// parse reads profiles.txt: "# " comment lines, then per language a line
// "=CODE TOTAL" (the trigrams counted) followed by "TRIGRAM COUNT" lines.
func parse(text string) (*model, error) {
	counts := map[uint64][nLang]int{}
	var totals, last [nLang]int // trigrams counted, the smallest count listed
	cur := -1
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: %q", n, line)
		}
		v, err := strconv.Atoi(f[1])
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("line %d: count %q", n, f[1])
		}
		if strings.HasPrefix(f[0], "=") {
			cur = index(Code(f[0][1:]))
			if cur < 0 {
				return nil, fmt.Errorf("line %d: unknown language %q", n, f[0][1:])
			}
			totals[cur] = v
			continue
		}
		key, ok := pack(f[0])
		if cur < 0 || !ok {
			return nil, fmt.Errorf("line %d: trigram %q", n, f[0])
		}
		c := counts[key]
		c[cur] = v
		counts[key] = c
		if last[cur] == 0 || v < last[cur] {
			last[cur] = v
		}
	}
	m := &model{logp: make(map[uint64][nLang]float32, len(counts))}
	for l, t := range totals {
		if t == 0 {
			return nil, fmt.Errorf("no profile for %s", Codes[l])
		}
		m.floor[l] = float32(math.Log(floorShare * float64(last[l]) / float64(t)))
	}
	for k, c := range counts {
		var lp [nLang]float32
		for l := range lp {
			lp[l] = m.floor[l]
			if c[l] > 0 {
				lp[l] = float32(math.Log(float64(c[l]) / float64(totals[l])))
			}
		}
		m.logp[k] = lp
	}
	return m, nil
}

func index(c Code) int {
	for i, k := range Codes {
		if k == c {
			return i
		}
	}
	return -1
}

// pack turns a three-rune trigram into its key.
func pack(s string) (uint64, bool) {
	var k uint64
	n := 0
	for _, r := range s {
		k = k<<21 | uint64(r)
		n++
	}
	return k, n == 3
}

// Identify returns the language of text, Unknown when it has fewer than
// minTrigrams trigrams.
func Identify(text string) Result {
	m := get()
	var score [nLang]float64
	n := 0
	Trigrams(text, maxTrigrams, func(k uint64) {
		n++
		lp, ok := m.logp[k]
		if !ok {
			lp = m.floor
		}
		for l := range score {
			score[l] += float64(lp[l])
		}
	})
	if n < minTrigrams {
		return Result{Trigrams: n}
	}
	best, second := 0, -1
	for l := 1; l < nLang; l++ {
		switch {
		case score[l] > score[best]:
			best, second = l, best
		case second < 0 || score[l] > score[second]:
			second = l
		}
	}
	return Result{Lang: Codes[best], Trigrams: n, Margin: (score[best] - score[second]) / float64(n),
		OverEnglish: (score[best] - score[0]) / float64(n), Fit: score[best] / float64(n)}
}

// Trigrams calls f with the key of each of the first max trigrams of
// text's words: runs of letters, lower-cased, padded with '_'. The build
// recipe counts with it, so profiles and texts are cut the same way.
func Trigrams(text string, max int, f func(key uint64)) {
	const edge = uint64('_')
	n := 0
	var a, b uint64 // the two runes before the current one; 0: none
	inWord := false
	emit := func(c uint64) {
		if a != 0 && b != 0 && n < max {
			f(a<<42 | b<<21 | c)
			n++
		}
		a, b = b, c
	}
	for i := 0; i < len(text) && n < max; {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		i += size
		if unicode.IsLetter(r) {
			if !inWord {
				a, b, inWord = 0, edge, true
			}
			emit(uint64(unicode.ToLower(r)))
			continue
		}
		if inWord {
			emit(edge)
			inWord = false
		}
	}
	if inWord {
		emit(edge)
	}
}

// Unpack returns the trigram of a key (for the build recipe and tests).
func Unpack(k uint64) string {
	const mask = 1<<21 - 1
	return string([]rune{rune(k >> 42 & mask), rune(k >> 21 & mask), rune(k & mask)})
}
