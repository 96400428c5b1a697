package gazetteer

import (
	"runtime"
	"testing"
)

func TestLoad(t *testing.T) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	z, err := Get()
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	t.Logf("gazetteers hold %.1f MiB", float64(m1.HeapAlloc-m0.HeapAlloc)/(1<<20))
	for _, c := range []struct {
		name string
		set  interface{ Has(string) bool }
		in   []string
		out  []string
	}{
		{"first names", z.FirstNames, []string{"james", "mary", "will", "may"}, []string{"the", "x"}},
		{"surnames", z.Surnames, []string{"smith", "johnson", "chen"}, []string{"the"}},
		{"common", z.Common, []string{"will", "may", "the", "street", "grace"}, []string{"smith", "chen"}},
		{"prose", z.Prose, []string{"furthermore", "firstly", "moreover", "laden"}, []string{"will", "the", "smith", "london"}},
		{"cities", z.Cities, []string{"berlin", "paris", "montréal", "montreal", "new york city"}, []string{"smith"}},
		{"countries", z.Countries, []string{"germany", "iran", "russia", "united states"}, []string{"berlin"}},
		{"titles", z.Titles, []string{"mr", "mrs", "dr", "herr", "mme"}, []string{"st", "general"}},
		{"legal forms", z.LegalForms, []string{"gmbh", "llc", "inc", "sa", "spa", "bv", "ltd", "ag"}, []string{"is", "the"}},
		{"gb outward", z.GBOutward, []string{"SW1A", "M1", "EC1A"}, []string{"ZZ9"}},
		{"ca fsa", z.CAFSA, []string{"T2P", "M5V"}, []string{"Z9Z"}},
		{"street suffix", z.StreetSuffix, []string{"street", "st", "avenue", "ave", "straße", "straat"}, []string{"by", "is"}},
		{"number after", z.NumberAfter, []string{"straße", "u.", "utca", "straat", "vej"}, []string{"street", "str", "st", "park"}},
		{"street prefix", z.StreetPrefix, []string{"rue", "via", "calle", "rua"}, []string{"street"}},
		{"units", z.Units, []string{"apt", "suite", "unit"}, []string{"door"}},
		{"po boxes", z.POBoxes, []string{"po box", "p.o. box", "postfach"}, []string{"box"}},
	} {
		for _, w := range c.in {
			if !c.set.Has(w) {
				t.Errorf("%s: %q missing", c.name, w)
			}
		}
		for _, w := range c.out {
			if c.set.Has(w) {
				t.Errorf("%s: %q present", c.name, w)
			}
		}
	}
	if z.USZip3["606"] != "IL" || z.USZip3["100"] != "NY" {
		t.Errorf("zip3: 606=%q 100=%q", z.USZip3["606"], z.USZip3["100"])
	}
	if r := z.FirstNames.Rank("james"); r < 0 || r > 10 {
		t.Errorf("rank of james %d", r)
	}
	if !z.Is("smith", Surname) || z.Is("smith", Common) || !z.Is("berlin", City) || !z.Is("new", MultiStart) || !z.Is("furthermore", Prose) || z.Is("will", Prose) {
		t.Errorf("Lex flags wrong: smith %b berlin %b new %b", z.Lex["smith"], z.Lex["berlin"], z.Lex["new"])
	}
	if len(z.StreetCompound) == 0 || len(z.StreetCompound[0]) < len(z.StreetCompound[len(z.StreetCompound)-1]) {
		t.Errorf("compound street types not longest first")
	}
}

// TestLegalFormsNormalised checks that every stored legal form is a fixed
// point of NormLegal, which the generator and the recognizer share.
func TestLegalFormsNormalised(t *testing.T) {
	z, err := Get()
	if err != nil {
		t.Fatal(err)
	}
	for f := range z.LegalForms {
		if NormLegal(f) != f {
			t.Errorf("legal form %q normalises to %q", f, NormLegal(f))
		}
	}
	for in, want := range map[string]string{"S.p.A.": "spa", "GmbH & Co. KG": "gmbh&cokg", "Pty. Ltd.": "ptyltd", "inc": "inc"} {
		if got := NormLegal(in); got != want {
			t.Errorf("NormLegal(%q) = %q want %q", in, got, want)
		}
	}
}

// TestLowerCase: words of common_words.txt and prose_words.txt are
// written in lower case; names and places are not.
func TestLowerCase(t *testing.T) {
	z, err := Get()
	if err != nil {
		t.Fatal(err)
	}
	for w, want := range map[string]bool{"the": true, "report": true, "written": true, "maria": false, "garcia": false, "london": false} {
		if got := z.LowerCase(w); got != want {
			t.Errorf("LowerCase(%q) = %v, want %v", w, got, want)
		}
	}
}
