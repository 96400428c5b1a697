package ocr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Letters with a mark below: Romanian writes s and t with a comma below
// (ș ț), Turkish writes s with a cedilla (ş), and Romanian text typed on
// older systems, and many fonts, draw the comma as a cedilla. In the Go
// fonts the two forms of Ș differ by 7 pixels at 11 pt and 200 dpi, less
// than a scan's noise, so no recogniser can tell them apart from the
// pixels alone. Two steps read them as the letter of the word's language:
//
//   - ctcDecode adds the probabilities of the two forms (markTwins), so
//     a letter whose mass is split between them is not lost to the blank
//     or read twice ("Grațţiela"); of the two, the form with more mass
//     over the letter's steps is kept;
//   - resolveMarksBelow then writes the comma form in a Romanian word and
//     the cedilla form in a Turkish one (markLanguage); where the word
//     and its line say nothing, a word read with both forms ("Şimșek":
//     no language writes one word so) takes the form of the letter the
//     recogniser was surest of (sym.form), and a word with one form keeps
//     the recogniser's choice.
//
// The included and excluded terms fold ş ţ to ș ț anyway
// (engine/terms), so this changes what a reader of the text sees, not
// what is masked.
var markPairs = [][2]string{{"ș", "ş"}, {"ț", "ţ"}, {"Ș", "Ş"}, {"Ț", "Ţ"}}

// markTwins returns, for each class of dict, the class of the same letter
// with the other mark below, or -1; nil when dict has no such pair.
func markTwins(dict []string) []int32 {
	idx := make(map[string]int32, len(dict))
	for i, c := range dict {
		idx[c] = int32(i)
	}
	var twin []int32
	for _, p := range markPairs {
		a, okA := idx[p[0]]
		b, okB := idx[p[1]]
		if !okA || !okB {
			continue
		}
		if twin == nil {
			twin = make([]int32, len(dict))
			for i := range twin {
				twin[i] = -1
			}
		}
		twin[a], twin[b] = b, a
	}
	return twin
}

// lang is what a word's letters say about the language of its marks
// below.
type lang uint8

const (
	langNone lang = iota
	langRomanian
	langTurkish
	langBoth
)

// markLanguage reads a word's letters: ă and a t with a mark below are
// Romanian (Turkish has neither); ç ğ ı İ ö ü are Turkish (Romanian has
// none). â and î are left out: both languages write them.
func markLanguage(word string) lang {
	var l lang
	for _, r := range word {
		switch r {
		case 'ă', 'Ă', 'ț', 'Ț', 'ţ', 'Ţ':
			l |= langRomanian
		case 'ç', 'Ç', 'ğ', 'Ğ', 'ı', 'İ', 'ö', 'Ö', 'ü', 'Ü':
			l |= langTurkish
		}
	}
	return l
}

// markForm maps each letter with a mark below to its comma and cedilla
// forms.
var markForm = func() map[string][2]string {
	m := map[string][2]string{}
	for _, p := range markPairs {
		m[p[0]], m[p[1]] = p, p
	}
	return m
}()

// resolveMarksBelow rewrites the letters with a mark below of a line's
// glyphs in the form of their word's language; a word whose letters say
// nothing takes its line's, when the line says one language.
func resolveMarksBelow(gs []glyph) []glyph {
	has := false
	for _, g := range gs {
		if _, ok := markForm[g.text]; ok {
			has = true
			break
		}
	}
	if !has {
		return gs
	}
	type word struct {
		from, to int
		lang     lang
	}
	var ws []word
	var line lang
	for i := 0; i < len(gs); {
		if gs[i].space {
			i++
			continue
		}
		j := i
		var b strings.Builder
		for j < len(gs) && !gs[j].space {
			b.WriteString(gs[j].text)
			j++
		}
		l := markLanguage(b.String())
		line |= l
		ws = append(ws, word{i, j, l})
		i = j
	}
	for _, w := range ws {
		l := w.lang
		if l == langNone {
			l = line
		}
		var form int
		switch l {
		case langRomanian:
			form = 0
		case langTurkish:
			form = 1
		default:
			f, mixed := surestForm(gs[w.from:w.to])
			if !mixed {
				continue
			}
			form = f
		}
		for k := w.from; k < w.to; k++ {
			if f, ok := markForm[gs[k].text]; ok {
				gs[k].text = f[form]
			}
		}
	}
	return gs
}

// surestForm returns the form (0 comma, 1 cedilla) of the letter with a
// mark below in gs that the recogniser was surest of, and whether gs
// holds both forms.
func surestForm(gs []glyph) (form int, mixed bool) {
	seen := [2]bool{}
	best := float32(-1)
	for _, g := range gs {
		f, ok := markForm[g.text]
		if !ok {
			continue
		}
		k := 0
		if g.text == f[1] {
			k = 1
		}
		seen[k] = true
		if g.form > best {
			best, form = g.form, k
		}
	}
	return form, seen[0] && seen[1]
}

// hyphens writes a dash read between two letters, with no space on either
// side, as the hyphen it is ("kanzlei–test.de", "E–mail"), and one
// between runs of three or more digits ("880–1247", a phone number):
// redactd-latin reads many hyphens as en dashes, which breaks e-mail
// addresses, hyphenated names and phone numbers. A dash in a range of
// years ("1990–1995") or of short numbers ("10–12") stays.
func hyphens(gs []glyph) []glyph {
	is := func(i int, f func(rune) bool) bool {
		if i < 0 || i >= len(gs) || gs[i].space {
			return false
		}
		r, _ := utf8.DecodeRuneInString(gs[i].text)
		return f(r)
	}
	digits := func(i, step int) int {
		n := 0
		for ; is(i, unicode.IsDigit); i += step {
			n++
		}
		return n
	}
	century := func(i int) bool { return gs[i].text == "1" || gs[i].text == "2" }
	for i := range gs {
		if gs[i].text != "–" {
			continue
		}
		if is(i-1, unicode.IsLetter) && is(i+1, unicode.IsLetter) {
			gs[i].text = "-"
			continue
		}
		l, r := digits(i-1, -1), digits(i+1, 1)
		years := l == 4 && r == 4 && century(i-4) && century(i+1)
		if l >= 3 && r >= 3 && !years {
			gs[i].text = "-"
		}
	}
	return gs
}

// tildes writes ĩ ũ (Ĩ Ũ), which no European language writes and which
// redactd-latin's set holds only as part of Latin Extended-A, as the ī ū
// (Ī Ū) of Latvian and Lithuanian that it reads them for ("Emĩls").
func tildes(gs []glyph) []glyph {
	for i := range gs {
		switch gs[i].text {
		case "ĩ":
			gs[i].text = "ī"
		case "Ĩ":
			gs[i].text = "Ī"
		case "ũ":
			gs[i].text = "ū"
		case "Ũ":
			gs[i].text = "Ū"
		}
	}
	return gs
}
