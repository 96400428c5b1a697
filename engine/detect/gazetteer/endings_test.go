package gazetteer

import "testing"

// TestCommonEnding checks the endings of ordinary words against names'
// with the embedded lists: derivational endings of Portuguese, Spanish and
// French words are common, a surname's ending is not.
func TestCommonEnding(t *testing.T) {
	z, err := Get()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lf   uint32
		w    string
		want bool
	}{
		{LowerPT, "executivo", true},   // -ivo
		{LowerPT, "apelação", true},    // -ção
		{LowerES, "oncología", true},   // -gía
		{LowerFR, "duroy", false},      // no French word ends so
		{LowerFR, "boisrenard", false}, // -ard: names more often
		{LowerFR, "laroche", false},    // -che: words and names alike
		{LowerNL, "jonckheer", false},
		{0, "executivo", false}, // English has no lower-case list here
		{LowerPT, "ab", false},  // too short for any ending
	} {
		if got := z.CommonEnding(c.lf, c.w); got != c.want {
			t.Errorf("CommonEnding(%#x, %q) = %v, want %v", c.lf, c.w, got, c.want)
		}
	}
}

// TestEndingCounts checks the counting on a small lexicon: an ending is
// common where the list's words hold it more than twice as often as the
// names (with one more name) and at least endingWords times.
func TestEndingCounts(t *testing.T) {
	lex := map[string]uint32{"nação": LowerPT, "ração": LowerPT, "canção": LowerPT, "lição": LowerPT, "missão": LowerPT,
		"paixão": LowerPT, "função": LowerPT, "simão": Surname | FirstName}
	z := &Gazetteers{Lex: lex}
	if !z.CommonEnding(LowerPT, "apelação") { // -ção: 5 words, no name
		t.Error("apelação: want a common ending")
	}
	if z.CommonEnding(LowerPT, "falcão") { // -cão, -lcão: no word of the list
		t.Error("falcão: want no common ending")
	}
	if z.CommonEnding(LowerFR, "apelação") {
		t.Error("apelação in French: no French words here")
	}
}
