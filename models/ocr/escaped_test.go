package ocr

import (
	"context"
	"image"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// escapedLines are text as exports, logs and JSON dumps print it: quotes
// and apostrophes escaped with a backslash, items joined by "\,", Windows
// paths and account names. Each line's names are the words between the
// brackets of escapedNames. None of the lines is from presidio's files.
var escapedLines = []struct{ line, names string }{
	{`Priya: \"Is this Tomasz\'s desk?\" Aldo: \"No, it\'s Helga\'s.\"`, "Priya Tomasz Aldo Helga"},
	{`Witness: \"I saw Marguerite Ostby at the gate\"`, "Marguerite Ostby"},
	{`He wrote: \"Call Desmond\'s office before noon\" and left.`, "Desmond"},
	{`Ferdinand said: \"Rosalind\'s car is outside.\"`, "Ferdinand Rosalind"},
	{`\'Osvaldo Brightwater\' was listed as next of kin`, "Osvaldo Brightwater"},
	{`Saved to C:\Users\rhiannon\Documents\Quigley.pdf`, "rhiannon Quigley"},
	{`Login FINANCE\ingrid.castellanos at 09:14\,from 10.2.7.41`, "ingrid castellanos"},
	{`Cornelius Abernathy\,17 Wexford Road\,Tel 0161 496 0732`, "Cornelius Abernathy"},
	{`Note: \"Ask Bartholomew or Yolanda, not Leopold\"`, "Bartholomew Yolanda Leopold"},
	{`Minutes by \'Ottoline Fairweather\'\, approved by Sebastian`, "Ottoline Fairweather Sebastian"},
}

// escapedNamesRead renders escapedLines in the gate fonts (11 pt, 200
// dpi, gray noise) and counts the names found in a recognised line as a
// word of their own: with no letter joined on either side, so a backslash
// read as a letter ("HelgaVs", "Vingrid") loses the name, as it loses it
// for NER.
func escapedNamesRead(t *testing.T, e *Engine) nameScore {
	t.Helper()
	lines := escapedLinesText()
	var s nameScore
	eachGateFont(t, func(i int, face string, ttf []byte) {
		img, _ := renderPage(t, pageSpec{lines: lines, dpi: 200, pt: 11, noise: 10, margin: 0.7, seed: uint64(80 + i), ttf: ttf})
		read, err := e.Recognize(context.Background(), img, image.Rectangle{})
		if err != nil {
			t.Fatal(err)
		}
		if *verbose {
			t.Logf("%s read:\n%s", face, pageText(read))
		}
		text := pageText(read)
		for _, l := range escapedLines {
			for _, n := range strings.Fields(l.names) {
				s.total++
				if hasWord(text, n) {
					s.exact++
				} else {
					s.missed = append(s.missed, face+": "+n)
				}
			}
		}
	})
	return s
}

// hasWord reports whether w occurs in text with no letter or digit
// joined on either side.
func hasWord(text, w string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(text[:j])
		after, _ := utf8.DecodeRuneInString(text[j+len(w):])
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		i = j + 1
	}
}

// isWordRune is false for utf8.RuneError, what the decoders give at
// either end of the text.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// escapedMinRead is redactd-latin's floor on escapedLines' names: its
// score when the lines were written (134 of 138) less two names.
const escapedMinRead = 0.955

// TestEscapedTextKeepsNames reads backslash-escaped text with both
// recognisers and reports both. Presidio's templates print quotes escaped
// (\"I\'m Jane\'s daughter\"), and a recogniser that reads the backslash as
// a letter ("JaneVs") hides the name from NER on a scan: the project's
// recogniser, trained on such text (train/texts.py escaped), must keep
// escapedMinRead of the names as words, and more of them than PP-OCRv4.
func TestEscapedTextKeepsNames(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a dozen pages with two recognisers")
	}
	scores := map[string]nameScore{}
	for _, m := range []string{ModelPPOCRv4, ModelLatin} {
		s := escapedNamesRead(t, testEngineWith(t, Options{Model: m, Charset: CharsetLatin}))
		scores[m] = s
		t.Logf("%s: %d of %d names in escaped text read as words (%.1f%%)", m, s.exact, s.total, 100*s.rate())
		if *verbose {
			t.Logf("%s missed: %s", m, strings.Join(s.missed, "; "))
		}
	}
	l, p := scores[ModelLatin], scores[ModelPPOCRv4]
	if l.rate() < escapedMinRead {
		t.Errorf("%s keeps %.1f%% of the names in escaped text, its floor is %.1f%%; missed: %s", ModelLatin, 100*l.rate(), 100*escapedMinRead, strings.Join(l.missed, "; "))
	}
	if l.exact <= p.exact {
		t.Errorf("%s keeps %d names in escaped text, no more than %s's %d", ModelLatin, l.exact, ModelPPOCRv4, p.exact)
	}
	if l.total < 4*len(escapedLines) {
		t.Errorf("only %d names drawn: fonts missing?", l.total)
	}
}

func escapedLinesText() []string {
	var out []string
	for _, l := range escapedLines {
		out = append(out, l.line)
	}
	return out
}
