package layout

import "unicode"

// Invisible reports whether r draws nothing a reader sees and carries no
// letter: format characters (category Cf: zero-width space, ZWNJ, ZWJ,
// word joiner, soft hyphen, BOM, the bidi controls and the rest),
// variation selectors and the other default-ignorable code points. Such
// characters inside a word hide it from detectors while the page shows
// it whole, so the builder drops them, boxes and all.
func Invisible(r rune) bool {
	if r < 0xAD { // the first of them: soft hyphen
		return false
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || r == 0x034F // combining grapheme joiner
}

// homoglyphs maps Cyrillic and Greek letters to the Latin letters they
// are drawn like in common fonts.
var homoglyphs = map[rune]rune{
	// Cyrillic
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P',
	'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԛ': 'Q', 'Ԝ': 'W',
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i',
	'ј': 'j', 'ѕ': 's', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l',
	// Greek
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M',
	'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	'ο': 'o', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'ρ': 'p', 'υ': 'u',
}

// foldHomoglyphs decides how the word of glyphs o is folded: its
// Cyrillic and Greek look-alikes become Latin only when it holds a Latin
// letter and no Cyrillic or Greek letter that is not a look-alike. A real
// Russian or Greek word has no Latin letter, and a word that mixes
// scripts with letters that look like nothing Latin is left alone, so no
// genuine word changes; a Latin name or address with a planted "а" or
// "Ο" reads as the page shows it.
func (b *Builder) foldHomoglyphs(o []int32, vertical bool) bool {
	latin, other := false, false
	for _, i := range o {
		g := &b.recs[i]
		if g.dropped || g.used && !vertical {
			continue
		}
		switch r := g.r; {
		case r < 0x80:
			latin = latin || 'a' <= r|0x20 && r|0x20 <= 'z'
		case unicode.Is(unicode.Latin, r) && r < 0xFF00:
			latin = true
		case unicode.In(r, unicode.Cyrillic, unicode.Greek) && unicode.IsLetter(r):
			if _, ok := homoglyphs[r]; !ok {
				other = true
			}
		}
	}
	return latin && !other
}

// foldRune folds r: fullwidth ASCII letters, digits and the signs of
// addresses and numbers (@ . + - _) always become ASCII (what NFKC does:
// a phone number in fullwidth digits is a phone number); look-alikes
// when homo is set.
func foldRune(r rune, homo bool) rune {
	if r < 0x370 { // below Greek
		return r
	}
	switch {
	case r >= '０' && r <= '９', r >= 'Ａ' && r <= 'Ｚ', r >= 'ａ' && r <= 'ｚ',
		r == '＠', r == '．', r == '＋', r == '－', r == '＿':
		return r - 0xFEE0
	}
	if homo {
		if l, ok := homoglyphs[r]; ok {
			return l
		}
	}
	return r
}
