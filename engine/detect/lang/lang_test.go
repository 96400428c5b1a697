package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/detect/lang"
)

// TestContractLanguages: the languages the request contract accepts as a
// hint (contract.Languages, a leaf that may not import this package) are
// exactly the ones identified here, in the same order.
func TestContractLanguages(t *testing.T) {
	var codes []string
	for _, c := range lang.Codes {
		codes = append(codes, string(c))
	}
	if strings.Join(codes, ",") != strings.Join(contract.Languages, ",") {
		t.Errorf("contract.Languages = %v, lang.Codes = %v", contract.Languages, codes)
	}
}

// TestIdentify runs the cases in testdata/identify (pebble's datadriven
// format): "identify" with a text, expecting its language code, or
// "unknown". `go test -run TestIdentify ./engine/detect/lang -rewrite`
// rewrites the expectations from what the code does (read the diff).
func TestIdentify(t *testing.T) {
	datadriven.RunTest(t, "testdata/identify", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "identify" {
			d.Fatalf(t, "unknown command %q", d.Cmd)
		}
		var out []string
		for _, line := range strings.Split(d.Input, "\n") {
			r := lang.Identify(line)
			c := string(r.Lang)
			if r.Lang == lang.Unknown {
				c = "unknown"
			}
			out = append(out, c)
		}
		return strings.Join(out, "\n") + "\n"
	})
}

// TestTrigrams checks how a text is cut: letters only, lower-cased, each
// word padded with '_', and at most max trigrams.
func TestTrigrams(t *testing.T) {
	var got []string
	lang.Trigrams("Straße, 12 a!", 100, func(k uint64) { got = append(got, lang.Unpack(k)) })
	if want := "_st str tra raß aße ße_ _a_"; strings.Join(got, " ") != want {
		t.Errorf("trigrams %q, want %q", strings.Join(got, " "), want)
	}
	n := 0
	lang.Trigrams(strings.Repeat("word ", 100), 7, func(uint64) { n++ })
	if n != 7 {
		t.Errorf("%d trigrams read, want 7", n)
	}
}

// TestIdentifyAllocs checks that Identify allocates nothing once the
// profiles are loaded.
func TestIdentifyAllocs(t *testing.T) {
	lang.Identify("warm up")
	if n := testing.AllocsPerRun(100, func() { lang.Identify(block) }); n != 0 {
		t.Errorf("Identify allocates %v times a call", n)
	}
}

// block is a paragraph of about 120 words, the size of a page block.
var block = strings.Repeat("Der Mieter verpflichtet sich, die Wohnung in einem ordnungsgemäßen Zustand zu halten und Schäden unverzüglich dem Vermieter anzuzeigen. ", 7)

// BenchmarkIdentify measures one block (about 120 words: maxTrigrams
// caps the work) and one line of a few words.
func BenchmarkIdentify(b *testing.B) {
	for _, c := range []struct{ name, text string }{
		{"block", block},
		{"line", "Sehr geehrte Frau Müller,"},
		{"long", strings.Repeat(block, 20)},
	} {
		b.Run(c.name, func(b *testing.B) {
			lang.Identify(c.text)
			b.SetBytes(int64(len(c.text)))
			for range b.N {
				lang.Identify(c.text)
			}
			b.ReportMetric(float64(lang.Identify(c.text).Trigrams), "trigrams")
		})
	}
}

func ExampleIdentify() {
	r := lang.Identify("Le contrat a été signé par les deux parties le 1er avril.")
	fmt.Println(r.Lang)
	// Output: fr
}

// TestHint checks when a caller's hint replaces what Identify tells: only
// where Identify is not sure (fewer than SureTrigrams trigrams, or
// Unknown); a sure result, an empty hint and an unknown code change
// nothing.
func TestHint(t *testing.T) {
	long := lang.Identify("The parties agree that this contract is governed by the laws of England and Wales.")
	short := lang.Identify("Anlage 3")
	none := lang.Identify("Tel.:")
	if !long.Sure() || short.Sure() || none.Sure() || none.Lang != lang.Unknown {
		t.Fatalf("sure: long %+v short %+v none %+v", long, short, none)
	}
	for _, c := range []struct {
		name   string
		r      lang.Result
		hint   lang.Code
		want   lang.Code
		hinted bool
	}{
		{"sure keeps its own", long, lang.German, lang.English, false},
		{"short takes the hint", short, lang.Italian, lang.Italian, true},
		{"unknown takes the hint", none, lang.Dutch, lang.Dutch, true},
		{"no hint", short, lang.Unknown, short.Lang, false},
		{"invalid hint", none, lang.Code("xx"), lang.Unknown, false},
	} {
		got := lang.Hint(c.r, c.hint)
		if got.Lang != c.want || got.Hinted != c.hinted || got.Trigrams != c.r.Trigrams {
			t.Errorf("%s: Hint(%+v, %q) = %+v, want %q hinted %v", c.name, c.r, c.hint, got, c.want, c.hinted)
		}
	}
}

// TestFigures: OverEnglish and Fit tell clear prose in a language from a
// text English comes close on and from a text in none of the seven.
func TestFigures(t *testing.T) {
	en := lang.Identify("Yesterday John Smith flew to Boston with his wife and their two children.")
	de := lang.Identify("Gestern hat Herr Klaus Müller in Berlin einen Vertrag mit der Firma unterschrieben.")
	tl := lang.Identify("Kung maka Hoy naman tong kapatid ko ! Sus may pangalan ako Koya !") // Tagalog
	if en.Lang != lang.English || en.OverEnglish != 0 {
		t.Errorf("English: %+v, want en with OverEnglish 0", en)
	}
	if de.Lang != lang.German || de.OverEnglish < 0.5 || de.Fit < -7.5 {
		t.Errorf("German: %+v, want de with OverEnglish >= 0.5 and Fit >= -7.5", de)
	}
	if tl.Fit > de.Fit-0.5 {
		t.Errorf("Tagalog fits %.2f, German %.2f: want Tagalog at least 0.5 worse", tl.Fit, de.Fit)
	}
}

// TestVote: a document's language is the one told on most trigrams of its
// blocks, when it holds voteShare (0.6) of them and they are
// SureTrigrams in all; a hinted result does not vote.
func TestVote(t *testing.T) {
	de := lang.Result{Lang: lang.German, Trigrams: 40}
	shortDE := lang.Result{Lang: lang.German, Trigrams: 12}
	en := lang.Result{Lang: lang.English, Trigrams: 20}
	fr := lang.Result{Lang: lang.French, Trigrams: 30}
	none := lang.Result{Lang: lang.Unknown}
	for _, c := range []struct {
		name string
		rs   []lang.Result
		want lang.Code
	}{
		{"one sure block", []lang.Result{de, none}, lang.German},
		{"short blocks together", []lang.Result{shortDE, shortDE, shortDE}, lang.German},
		{"majority", []lang.Result{de, shortDE, en}, lang.German},
		{"no clear majority", []lang.Result{de, fr}, lang.Unknown},
		{"too few trigrams", []lang.Result{shortDE, none}, lang.Unknown},
		{"hinted does not vote", []lang.Result{lang.Hint(shortDE, lang.French), lang.Hint(shortDE, lang.French), shortDE}, lang.Unknown},
		{"nothing", nil, lang.Unknown},
	} {
		if got := lang.Vote(c.rs); got != c.want {
			t.Errorf("%s: Vote = %q, want %q", c.name, got, c.want)
		}
	}
}
