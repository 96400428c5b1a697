package ner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/page"
)

// TestRoutedByLine reads a page of an English line and a German one with
// two detectors over the built-in model, loaded twice (one for each
// language group); a detector with MinScore above any score reports
// nothing, so each case shows which detector read which line.
func TestRoutedByLine(t *testing.T) {
	m := builtin(t)
	m2, err := Load(Builtin, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	p := testPage(
		"Yesterday John Smith flew to Boston with his wife.",
		"Gestern hat Herr Klaus Müller in Berlin einen Vertrag unterschrieben.",
	)
	read := NewDetector(m, DetectorOptions{})
	readOther := NewDetector(m2, DetectorOptions{})
	mute := NewDetector(m, DetectorOptions{MinScore: 2})
	muteOther := NewDetector(m2, DetectorOptions{MinScore: 2})
	langs := func(codes ...string) func(int) lang.Result {
		return func(li int) lang.Result { return told(codes[li]) }
	}
	// The German line told from few trigrams, by a hair, or as text that
	// fits no language well; then hinted.
	germanIf := func(f func(*lang.Result)) func(int) lang.Result {
		return func(li int) lang.Result {
			r := told([]string{"en", "de"}[li])
			if li == 1 {
				f(&r)
			}
			return r
		}
	}
	short := germanIf(func(r *lang.Result) { r.Trigrams = 5 })
	byAHair := germanIf(func(r *lang.Result) { r.OverEnglish = 0.05 })
	noFit := germanIf(func(r *lang.Result) { r.Fit = -9.2 })
	hinted := germanIf(func(r *lang.Result) { r.Trigrams, r.Hinted = 2, true })
	persons := func(spans []page.Span) (lines []int) {
		checkSpans(t, p, spans)
		for _, s := range spans {
			if s.Category == page.Person && !slices.Contains(lines, p.Words[s.First].Line) {
				lines = append(lines, p.Words[s.First].Line)
			}
		}
		slices.Sort(lines)
		return lines
	}
	for _, c := range []struct {
		name      string
		en, other *Detector
		o         RoutedOptions
		lang      func(int) lang.Result
		want      []int // lines with a Person span
	}{
		{"english line to English", read, muteOther, RoutedOptions{}, langs("en", "de"), []int{0}},
		{"german line to Other", mute, readOther, RoutedOptions{}, langs("en", "de"), []int{1}},
		{"untold language to English", read, muteOther, RoutedOptions{}, langs("", ""), []int{0, 1}},
		{"all German: English not run", mute, readOther, RoutedOptions{}, langs("de", "de"), []int{0, 1}},
		{"short German to English", read, muteOther, RoutedOptions{Route: DefaultRouting}, short, []int{0, 1}},
		{"German by a hair to English", read, muteOther, RoutedOptions{Route: DefaultRouting}, byAHair, []int{0, 1}},
		{"German that fits badly to English", read, muteOther, RoutedOptions{Route: DefaultRouting}, noFit, []int{0, 1}},
		{"hinted German to Other", read, muteOther, RoutedOptions{Route: DefaultRouting}, hinted, []int{0}},
		{"short German to Other with no bounds", read, muteOther, RoutedOptions{}, short, []int{0}},
		{"English persons kept in German lines", read, muteOther, RoutedOptions{EnglishAlso: []page.Category{page.Person}}, langs("en", "de"), []int{0, 1}},
		{"English spans kept where Other doubts", read, muteOther, RoutedOptions{EnglishWhere: 0.05}, langs("en", "de"), []int{0, 1}},
		{"English spans not kept above any probability", read, muteOther, RoutedOptions{EnglishWhere: 1.5}, langs("en", "de"), []int{0}},
	} {
		spans, err := NewRouted(c.en, c.other, c.o).DetectLangs(context.Background(), p, c.lang)
		if err != nil {
			t.Fatal(err)
		}
		if got := persons(spans); !slices.Equal(got, c.want) {
			t.Errorf("%s: Person spans on lines %v, want %v", c.name, got, c.want)
		}
	}
	// A page all in English is read as the English detector reads it.
	want, err := read.Detect(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewRouted(read, muteOther, RoutedOptions{}).DetectLangs(context.Background(), p, langs("en", "en"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("English page: routed %v, English alone %v", got, want)
	}
}

// TestRoutedEnglishWhereReadsDoubtedWords: with EnglishWhere and
// EnglishContext, English
// reads, of the other languages' lines, only the words the second model
// doubts (with EnglishContext words around them), each run as a line of
// its own: on a German page of plain sentences and a long one with a
// name it reads one window, not the whole page's several nor the long
// line's two, and still finds the name; where no word reaches the
// probability it reads nothing.
func TestRoutedEnglishWhereReadsDoubtedWords(t *testing.T) {
	m := builtin(t)
	m2, err := Load(Builtin, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	var lines []string
	for range 8 {
		lines = append(lines, "Das Wetter war gestern sehr schön und warm, und wir sind lange draußen geblieben.")
	}
	// A line of more than a window's tokens, one name in it.
	lines = append(lines, "Gestern hat Herr Klaus Müller einen Vertrag unterschrieben"+strings.Repeat(", und das Wetter war sehr schön und warm", 8)+".")
	p := testPage(lines...)
	windows := 0
	read := NewDetector(m, DetectorOptions{ObserveWindows: func(w, _ int) { windows += w }})
	muteOther := NewDetector(m2, DetectorOptions{MinScore: 2})
	german := func(int) lang.Result { return told("de") }
	for _, c := range []struct {
		where       float32
		context     int
		windows     int
		personLines []int
	}{
		{0.1, 3, 1, []int{8}},
		{1.5, 3, 0, nil},
		{0.1, 0, 7, []int{8}}, // every line, as without EnglishContext
	} {
		windows = 0
		spans, err := NewRouted(read, muteOther, RoutedOptions{EnglishWhere: c.where, EnglishContext: c.context}).DetectLangs(context.Background(), p, german)
		if err != nil {
			t.Fatal(err)
		}
		checkSpans(t, p, spans)
		var got []int
		for _, s := range spans {
			if s.Category == page.Person && !slices.Contains(got, p.Words[s.First].Line) {
				got = append(got, p.Words[s.First].Line)
			}
		}
		if windows != c.windows || !slices.Equal(got, c.personLines) {
			t.Errorf("EnglishWhere %v, EnglishContext %d: English read %d windows, Person spans on lines %v; want %d, %v", c.where, c.context, windows, got, c.windows, c.personLines)
		}
	}
	// Reading the whole page takes several windows.
	windows = 0
	if _, err := read.Detect(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if windows < 2 {
		t.Errorf("the whole page in %d windows, want several", windows)
	}
}

// TestUnitsOfWordRuns: two runs of kept words of one line are two units
// with an NL between them, as two lines are.
func TestUnitsOfWordRuns(t *testing.T) {
	d := NewDetector(builtin(t), DetectorOptions{})
	p := testPage("Alpha beta gamma delta epsilon", "zeta eta")
	words := []bool{true, false, false, true, true, false, true}
	units := d.units(p, []bool{true, false}, words)
	var got []string
	for _, w := range windows(units, 64) {
		got = append(got, w.tokens(units)...)
	}
	if want := []string{"Alpha", NL, "delta", "epsilon"}; !slices.Equal(got, want) {
		t.Errorf("tokens %q, want %q", got, want)
	}
}

// told is what the identifier tells of a clear paragraph in code.
func told(code string) lang.Result {
	r := lang.Result{Lang: lang.Code(code), Trigrams: 120, Margin: 1, Fit: -7}
	if r.Lang != lang.English {
		r.OverEnglish = 1
	}
	return r
}

// TestDefaultRouting reads real texts with the identifier: prose in the
// six languages goes to the multilingual model; English, a line of
// English names that the identifier tells as another language by a
// hair, and text in none of the seven languages stay with English.
func TestDefaultRouting(t *testing.T) {
	for _, c := range []struct {
		text  string
		other bool
	}{
		{"Gestern hat Herr Klaus Müller in Berlin einen Vertrag unterschrieben.", true},
		{"Le tribunal a condamné la société à verser une indemnité au salarié.", true},
		{"El paciente ingresó en el hospital el 12 de marzo de 2024.", true},
		{"Il contratto è stato firmato dal direttore generale della società.", true},
		{"De gemeente heeft het verzoek van de bewoners afgewezen.", true},
		{"O contrato foi assinado pelo diretor da empresa em Lisboa.", true},
		{"Yesterday John Smith flew to Boston with his wife.", false},
		// Tagalog and Indonesian tweets of wnut16's dev split, told as Dutch.
		{"Kung totoong may feelings siya sayo , hindi na siya magtatanong kung may chance pa kasi kahit wala liligawan ka pa rin niya .", false},
		{"Minggu ketiga bulan September adalah Minggu Jomblo Nasional di Amerika .", false},
		// English names and tags told as Dutch by a hair.
		{"Arsenal VS Monaco First Leg 25 Feb in Emirates Second Leg 17 Mar in Monaco #AFC #COYG #RedArmy", false},
	} {
		res := lang.Identify(c.text)
		if got := DefaultRouting.Other(res); got != c.other {
			t.Errorf("%q (%+v): to the multilingual model %v, want %v", c.text, res, got, c.other)
		}
	}
}
