package ocr

import "testing"

// glyphsOf turns text into one glyph per rune, spaces marked.
func glyphsOf(s string) []glyph {
	var gs []glyph
	for _, r := range s {
		gs = append(gs, glyph{text: string(r), space: r == ' '})
	}
	return gs
}

func TestResolveMarksBelow(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// A Romanian word (ă, or a t with a mark below) takes the comma.
		{"Pătraşcu", "Pătrașcu"},
		{"Ţurcanu", "Țurcanu"},
		{"Graţiela", "Grațiela"},
		// A Turkish word (ç ğ ı İ ö ü) takes the cedilla.
		{"Çelikbaș", "Çelikbaş"},
		{"Gülșen Öztürk", "Gülşen Öztürk"},
		// A word that says nothing takes its line's language...
		{"Ştefan Ţurcanu", "Ștefan Țurcanu"},
		{"Șahin Yılmaz", "Şahin Yılmaz"},
		// ...unless the line says both or nothing: the recogniser's
		// choice stays.
		{"Şahin", "Şahin"},
		{"Știrbu", "Știrbu"},
		{"Şahin Ţurcanu Yılmaz", "Şahin Țurcanu Yılmaz"},
		// Each word of a mixed line follows its own letters.
		{"Pătraşcu Çelikbaș", "Pătrașcu Çelikbaş"},
		// â and î belong to both languages.
		{"Şâmî", "Şâmî"},
		// No mark below: nothing changes.
		{"Müller Straße", "Müller Straße"},
	} {
		if got := joined(resolveMarksBelow(glyphsOf(c.in))); got != c.want {
			t.Errorf("resolveMarksBelow(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMixedMarksBelow: a word read with both forms of the mark below,
// with nothing in it or its line to tell the language, takes the form of
// the letter the recogniser was surest of; a word with one form keeps it
// however unsure.
func TestMixedMarksBelow(t *testing.T) {
	withForms := func(s string, forms map[int]float32) []glyph {
		gs := glyphsOf(s)
		for i, f := range forms {
			gs[i].form = f
		}
		return gs
	}
	for _, c := range []struct {
		in    string
		forms map[int]float32 // glyph index: sym.form
		want  string
	}{
		{"Şimșek", map[int]float32{0: 0.9, 3: 0.6}, "Şimşek"},
		{"Şimșek", map[int]float32{0: 0.55, 3: 0.8}, "Șimșek"},
		{"Șimșek", map[int]float32{0: 0.55, 3: 0.51}, "Șimșek"},
		{"Roşca", map[int]float32{2: 0.5}, "Roşca"},
		// The line's language still decides first.
		{"Şimșek Yılmaz", map[int]float32{0: 0.55, 3: 0.8}, "Şimşek Yılmaz"},
	} {
		if got := joined(resolveMarksBelow(withForms(c.in, c.forms))); got != c.want {
			t.Errorf("resolveMarksBelow(%q, forms %v) = %q, want %q", c.in, c.forms, got, c.want)
		}
	}
}

func TestMarkTwins(t *testing.T) {
	dict := []string{"", "s", "ș", "ş", "T", "Ț", "ț", " "}
	twin := markTwins(dict)
	want := []int32{-1, -1, 3, 2, -1, -1, -1, -1} // Ţ and ţ are absent: Ț and ț have no twin
	for i := range want {
		if twin[i] != want[i] {
			t.Errorf("twin of %q = %d, want %d", dict[i], twin[i], want[i])
		}
	}
	if markTwins([]string{"", "a", "b"}) != nil {
		t.Error("a dictionary without pairs has twins")
	}
}

// TestCTCDecodeTwins: a letter whose probability is split between its two
// marks below beats the blank and a plain letter on their sum, is read
// once, and takes the form with more mass over its steps.
func TestCTCDecodeTwins(t *testing.T) {
	// Classes: 0 blank, 1 'a', 2 'ș', 3 'ş'.
	const classes = 4
	dict := []string{"", "a", "ș", "ş"}
	rows := [][classes]float32{
		{0.1, 0.8, 0.05, 0.05}, // a
		{0.4, 0.0, 0.35, 0.25}, // blank alone, the pair summed: ș ş
		{0.3, 0.0, 0.2, 0.5},   // the pair again: ş has more mass over both steps
		{0.9, 0.1, 0.0, 0.0},   // blank
		{0.28, 0.32, 0.2, 0.2}, // the pair beats 'a' on its sum; a tie keeps ș
	}
	var probs []float32
	for _, r := range rows {
		probs = append(probs, r[:]...)
	}
	got := ctcDecode(probs, classes, markTwins(dict))
	want := []sym{{class: 1, t0: 0, t1: 0, p: 0.8}, {class: 3, t1: 2, t0: 1, p: 0.7, form: 0.75 / 1.3}, {class: 2, t0: 4, t1: 4, p: 0.4, form: 0.5}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].class != want[i].class || got[i].t0 != want[i].t0 || got[i].t1 != want[i].t1 || got[i].p < want[i].p-1e-6 || got[i].p > want[i].p+1e-6 ||
			got[i].form < want[i].form-1e-6 || got[i].form > want[i].form+1e-6 {
			t.Errorf("sym %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// Without twins the same steps read "a", then ş at step 2 and 'a' at
	// step 4 (the blank wins step 1).
	plain := ctcDecode(probs, classes, nil)
	if len(plain) != 3 || plain[1].class != 3 || plain[2].class != 1 {
		t.Errorf("without twins: %+v", plain)
	}
}
