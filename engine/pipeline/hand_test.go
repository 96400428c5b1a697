package pipeline

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/testkit/hostile/pictures"
)

// handDumpCase names the document being processed in dumped patches.
var handDumpCase string

var handSeed = flag.Uint64("hand.seed", pictures.HandSeed, "the seed of the handwriting corpus TestHandCorpus scores (another for a dev corpus to tune on)")

var handWhy = flag.Bool("hand.why", false, "log, for each piece missed, the candidates over it (score, threshold, label), the share of its ink in candidates and in print, and the words over it")

var handDump = flag.String("hand.dump", "", "write every patch the handwriting classifier scores, as a PNG named by its score, under this folder")

// dumpHand is the real classifier, its patches written out as it scores
// them (for looking at what it is given and what it says).
type dumpHand struct {
	Hand
	dir  string
	name string
	n    *int
}

func (d dumpHand) Score(ps [][]float32) ([]float32, error) {
	sc, err := d.Hand.Score(ps)
	if err != nil {
		return sc, err
	}
	for i, p := range ps {
		img := image.NewGray(image.Rect(0, 0, 128, 32))
		for k, v := range p {
			img.Pix[k] = uint8(255 - 255*v)
		}
		*d.n++
		f, err := os.Create(filepath.Join(d.dir, fmt.Sprintf("%.3f-%s-%s-%05d.png", sc[i], d.name, handDumpCase, *d.n)))
		if err == nil {
			_ = png.Encode(f, img)
			f.Close()
		}
	}
	return sc, nil
}

// handPipeline is the full pipeline, its classifier's patches dumped
// when -hand.dump is set.
func handPipeline(t *testing.T) *Pipeline {
	full := sharedFullPipeline(t)
	if *handDump == "" {
		return full
	}
	if err := os.MkdirAll(*handDump, 0o755); err != nil {
		t.Fatal(err)
	}
	p, _ := pipelineWith(t, full, defaultSettings(t), full.deps.OCR)
	p.deps.Hand = dumpHand{full.deps.Hand, *handDump, t.Name(), new(int)}
	return p
}

// handOpts asks for every default category and Signature.
func handOpts() contract.Options {
	return contract.Options{Categories: append(slices.Clone(page.DefaultCategories), page.Signature)}
}

// inkCovered is the share of t's ink points inside Signature masks, and
// the share of them dark in the output raster (out, at dpi).
func inkCovered(t pictures.HandTarget, masks []contract.Mask, out *page.Raster, dpi float64) (cov, dark float64) {
	in, dk := 0, 0
	for _, p := range t.Ink {
		for _, m := range masks {
			if m.Category == page.Signature && p.X >= m.Box.X0 && p.X <= m.Box.X1 && p.Y >= m.Box.Y0 && p.Y <= m.Box.Y1 {
				in++
				break
			}
		}
		x, y := int(p.X*dpi/72), int(p.Y*dpi/72)
		if x >= 0 && y >= 0 && x < out.W && y < out.H {
			o := y*out.Stride + x*out.Channels
			if int(out.Pix[o])+int(out.Pix[o+out.Channels-1]) < 128 {
				dk++
			}
		}
	}
	n := float64(max(len(t.Ink), 1))
	return float64(in) / n, float64(dk) / n
}

// TestHandCorpus runs the generated handwriting corpus (signatures on
// contracts as images and as vector pen traces, forms with a name, a
// date and initials written in, letters with a handwritten note; the
// same printed, signed and scanned, clean and noisy) through the whole
// pipeline (OCR on, the real classifier) and scores each piece of
// handwriting: found when Signature masks cover 90% of its ink and the
// output is dark at 85% of it. The target is 0.90; the floors
// are below. It also counts Signature masks that touch no handwriting
// (false masks on the corpus's print, rules and boxes): at most one.
func TestHandCorpus(t *testing.T) {
	cases, err := pictures.HandCorpus(*handSeed)
	if err != nil {
		t.Fatal(err)
	}
	p := handPipeline(t)
	scores := tally{}
	count := scores.add
	var misses []string
	falseMasks := 0
	start := time.Now()
	type traced struct {
		pg    *page.Page
		print []page.Rect
		cands []HandCandidate
	}
	var tr []traced
	if *handWhy {
		handTrace = func(pg *page.Page, print []page.Rect, cands []HandCandidate) {
			tr = append(tr, traced{pg, print, cands})
		}
		defer func() { handTrace = nil }()
	}
	for _, c := range cases {
		handDumpCase = c.Name
		tr = tr[:0]
		r, err := process(t, p, c.Doc, handOpts())
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		_, _, out := outputPage(t, r.out, 0, 72)
		var targets []pictures.HandTarget
		for _, tg := range c.Targets {
			if c.PNG {
				tg = pictures.HandScale(tg, r.res.Pages[0].Width)
			}
			targets = append(targets, tg)
			cov, dark := inkCovered(tg, r.res.Masks, out, 72)
			ok := cov >= 0.9 && dark >= 0.85
			count(tg.Kind, ok)
			if c.PNG {
				count("(on scans)", ok)
			}
			count("(all)", ok)
			if !ok {
				misses = append(misses, fmt.Sprintf("%s: %s at %.0f,%.0f-%.0f,%.0f covered %.2f dark %.2f", c.Name, tg.Kind, tg.Box.X0, tg.Box.Y0, tg.Box.X1, tg.Box.Y1, cov, dark))
				for _, x := range tr {
					misses = append(misses, whyMissed(c.Name, tg, x.pg, x.print, x.cands)...)
				}
			}
		}
		for _, m := range r.res.Masks {
			if m.Category != page.Signature {
				continue
			}
			if testing.Verbose() && *handDump != "" {
				t.Logf("%s: Signature mask %.0f,%.0f-%.0f,%.0f (%.2f)", c.Name, m.Box.X0, m.Box.Y0, m.Box.X1, m.Box.Y1, m.Score)
			}
			hit := false
			for _, tg := range targets {
				if m.Box.X0 < tg.Box.X1 && tg.Box.X0 < m.Box.X1 && m.Box.Y0 < tg.Box.Y1 && tg.Box.Y0 < m.Box.Y1 {
					hit = true
				}
			}
			if !hit {
				falseMasks++
				misses = append(misses, fmt.Sprintf("%s: false Signature mask %.0f,%.0f-%.0f,%.0f (%.2f)", c.Name, m.Box.X0, m.Box.Y0, m.Box.X1, m.Box.Y1, m.Score))
			}
		}
	}
	t.Log(scores.table("handwriting", "recall") + fmt.Sprintf("\n%d cases in %v; %d Signature masks touching no handwriting\n",
		len(cases), time.Since(start).Round(time.Millisecond), falseMasks))
	slices.Sort(misses)
	for _, m := range misses {
		t.Log("miss: " + m)
	}
	rate := scores.rate
	// Floors: what the shipped models measure (63 of 68, 17 of 21 on the
	// scans; none false), a little under. Before the scanned-form
	// training data, the caption and misread-word rules and the rule
	// bridging (h30) it was 60 and 14. The target is 0.90 on
	// both; the scans miss it (a date of a few letters in a form's box,
	// an unlabelled signature on a noisy scan scored under
	// handThreshold, a box's frame cut with the writing in it).
	if r := rate("(all)"); r < 0.92 {
		t.Errorf("handwriting recall %.2f, want >= 0.92", r)
	}
	if r := rate("(on scans)"); r < 0.80 {
		t.Errorf("handwriting recall on scans %.2f, want >= 0.80", r)
	}
	if falseMasks > 1 {
		t.Errorf("%d Signature masks touching no handwriting, want at most 1", falseMasks)
	}
}

// whyMissed says, for a missed piece tg, how much of its ink the
// candidates and the print boxes hold, the candidates over it and the
// words read over it (TestHandCorpus -hand.why).
func whyMissed(name string, tg pictures.HandTarget, pg *page.Page, print []page.Rect, cands []HandCandidate) []string {
	in := func(p page.Point, r page.Rect) bool { return p.X >= r.X0 && p.X <= r.X1 && p.Y >= r.Y0 && p.Y <= r.Y1 }
	inCand, inPrint := 0, 0
	for _, p := range tg.Ink {
		for _, c := range cands {
			if c.Dropped == "" && in(p, c.Box) {
				inCand++
				break
			}
		}
		for _, b := range print {
			if in(p, b) {
				inPrint++
				break
			}
		}
	}
	n := float64(max(len(tg.Ink), 1))
	over := func(a page.Rect) bool {
		return a.X0 < tg.Box.X1 && tg.Box.X0 < a.X1 && a.Y0 < tg.Box.Y1 && tg.Box.Y0 < a.Y1
	}
	out := []string{fmt.Sprintf("%s:   why: ink in candidates %.2f, in print %.2f", name, float64(inCand)/n, float64(inPrint)/n)}
	area := tg.Box
	for _, c := range cands {
		if over(c.Box) {
			area = page.Rect{X0: min(area.X0, c.Box.X0), Y0: min(area.Y0, c.Box.Y0), X1: max(area.X1, c.Box.X1), Y1: max(area.Y1, c.Box.Y1)}
			out = append(out, fmt.Sprintf("%s:   why: candidate %.0f,%.0f-%.0f,%.0f score %.3f thr %.2f label %v taken %v %s", name, c.Box.X0, c.Box.Y0, c.Box.X1, c.Box.Y1, c.Score, c.Thr, c.Label, c.Taken, c.Dropped))
		}
	}
	for _, w := range pg.Words {
		if b := w.Quad.Bounds(); b.X0 < area.X1 && area.X0 < b.X1 && b.Y0 < area.Y1 && area.Y0 < b.Y1 {
			out = append(out, fmt.Sprintf("%s:   why: word %q conf %.2f at %.0f,%.0f-%.0f,%.0f", name, w.Text, w.Conf, b.X0, b.Y0, b.X1, b.Y1))
		}
	}
	return out
}

// realSignatures are the handwriting the shared real documents do hold,
// in page fractions (x0, y0, x1, y1): the Flipkart invoice's authorised
// signatory signed it, in its PDF (an image) and in its PNG. A Signature
// mask centred there is true; any other is false.
var realSignatures = map[string][4]float64{
	"FlipkartInvoice.pdf": {0.77, 0.40, 0.89, 0.49},
	"FlipkartInvoice.png": {0.82, 0.81, 0.95, 0.95},
}

// TestSharedDocumentsNoFalseSignatures runs the whole pipeline (OCR on,
// the real classifier), asking for Signature only, over every page of
// the shared real documents (invoices, public records, forms: logos,
// stamps, charts, hatched fields, letterheads, scans). Their only
// handwriting is realSignatures; every other Signature mask is false.
// The target is 2% of the pages; the shipped model has one
// (1.3%: a second mask on the Flipkart invoice's page; the two pages of
// a character-sheet template's ornaments the model before it flagged are
// clean), and no more may get one. The real documents are only
// measured here: nothing was chosen on them. It also says whether the real signatures were
// found, and the stage's time.
func TestSharedDocumentsNoFalseSignatures(t *testing.T) {
	paths := sharedDocumentsAndImages(t)
	p := handPipeline(t)
	pages, flagged, real, realFound := 0, 0, 0, 0
	var spent time.Duration
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		handDumpCase = filepath.Base(path)
		r, err := process(t, p, data, contract.Options{Categories: []page.Category{page.Signature}})
		if err != nil {
			t.Logf("%s: %v", filepath.Base(path), err)
			continue
		}
		spent += r.res.Timings["visual"]
		pages += r.res.PageCount
		sig, hasReal := realSignatures[filepath.Base(path)]
		if hasReal {
			real++
		}
		found := false
		byPage := map[int]int{}
		for _, m := range r.res.Masks {
			if m.Category != page.Signature {
				continue
			}
			if hasReal && m.Page == 0 {
				pw, ph := r.res.Pages[0].Width, r.res.Pages[0].Height
				cx, cy := (m.Box.X0+m.Box.X1)/2/pw, (m.Box.Y0+m.Box.Y1)/2/ph
				if cx >= sig[0] && cx <= sig[2] && cy >= sig[1] && cy <= sig[3] {
					found = true
					continue
				}
			}
			byPage[m.Page]++
		}
		if found {
			realFound++
		}
		for pg, n := range byPage {
			flagged++
			t.Logf("false Signature: %s page %d (%d masks)", filepath.Base(path), pg+1, n)
		}
	}
	t.Logf("%d pages, %d with a false Signature mask (%.1f%%); real signatures found %d of %d; visual stage %v",
		pages, flagged, 100*float64(flagged)/float64(max(pages, 1)), realFound, real, spent.Round(time.Millisecond))
	if flagged > 1 {
		t.Errorf("%d of %d pages have a false Signature mask, want at most 1", flagged, pages)
	}
	if realFound < real {
		t.Errorf("real signatures found %d of %d", realFound, real)
	}
}
