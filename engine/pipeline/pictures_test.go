package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/testkit/hostile/pictures"
)

// covered is the share of r (a 20 x 20 grid of points) inside masks of
// category c.
func covered(r page.Rect, masks []contract.Mask, c page.Category) float64 {
	in := 0
	for i := range 20 {
		for j := range 20 {
			x := r.X0 + (float64(i)+0.5)*(r.X1-r.X0)/20
			y := r.Y0 + (float64(j)+0.5)*(r.Y1-r.Y0)/20
			for _, m := range masks {
				if m.Category == c && x >= m.Box.X0 && x <= m.Box.X1 && y >= m.Box.Y0 && y <= m.Box.Y1 {
					in++
					break
				}
			}
		}
	}
	return float64(in) / 400
}

// TestPicturesCorpus runs the generated corpus of faces and codes
// (internal/testkit/hostile/pictures) through the pipeline with the real
// recognizers, and scores each target on the masks and on the output's
// pixels: a face is found when masks of category Face cover 90% of its
// hand-drawn head and the output is dark there; a code holding PII, when
// Barcode masks cover 90% of it; a code holding nothing personal must be
// read and not masked. Targets: faces 0.95 (the cameraman, turned to his
// viewfinder, counted apart), codes holding PII 1.00, clean codes kept.
func TestPicturesCorpus(t *testing.T) {
	cases, err := pictures.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	p := newTestPipeline(t)
	clean := p.metrics.visualFound.WithLabelValues("code_clean")
	scores := tally{}
	count := scores.add
	var misses []string
	for _, c := range cases {
		cleanBefore := testutil.ToFloat64(clean)
		r, err := process(t, p, c.Doc, contract.Options{Categories: page.DefaultCategories})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		var faceMasks int
		for _, m := range r.res.Masks {
			if m.Category == page.Face {
				faceMasks++
			}
			if m.Category.Visual() && m.Source != "image" {
				t.Errorf("%s: %s mask with source %q", c.Name, m.Category, m.Source)
			}
		}
		_, _, out := outputPage(t, r.out, 0, 72)
		for _, tg := range c.Masked {
			if c.PNG {
				tg = pictures.ScaleScan(tg, r.res.Pages[0].Width)
			}
			cov := covered(tg.Box, r.res.Masks, tg.Category)
			dark := darkFraction(out, 72, tg.Box)
			ok := cov >= 0.9 && dark >= 0.85
			key := string(tg.Category)
			if tg.Hard {
				key += " (turned away)"
			} else if tg.Category == page.Barcode {
				key += " holding PII"
			}
			count(key, ok)
			if !ok {
				misses = append(misses, fmt.Sprintf("%s: %s covered %.2f dark %.2f", c.Name, tg.Category, cov, dark))
			}
		}
		// A clean code counts as kept only when it was read and left: one
		// never found would pass unmasked whatever it held.
		read := int(testutil.ToFloat64(clean) - cleanBefore)
		for i, tg := range c.Kept {
			cov := covered(tg.Box, r.res.Masks, page.Barcode)
			count("Barcode clean, read and kept", cov < 0.1 && i < read)
			if cov >= 0.1 || i >= read {
				misses = append(misses, fmt.Sprintf("%s: clean code masked (%.2f) or not read (%d of %d read)", c.Name, cov, read, len(c.Kept)))
			}
		}
		// A false face: a Face mask beyond the one photo of the case.
		if strings.HasPrefix(c.Name, "code-") && faceMasks > 0 {
			misses = append(misses, fmt.Sprintf("%s: %d Face masks on a page with no face", c.Name, faceMasks))
			count("Face false (code pages)", false)
		}
	}
	t.Log(scores.table("target", "rate"))
	slices.Sort(misses)
	for _, m := range misses {
		t.Log("miss: " + m)
	}
	rate := scores.rate
	if r := rate("Face"); r < 0.95 {
		t.Errorf("Face recall %.2f, want >= 0.95", r)
	}
	if r := rate("Barcode holding PII"); r < 1 {
		t.Errorf("recall of codes holding PII %.2f, want 1.00", r)
	}
	if r := rate("Barcode clean, read and kept"); r < 1 {
		t.Errorf("clean codes kept %.2f, want 1.00", r)
	}
	if s := scores["Face false (code pages)"]; s != nil {
		t.Errorf("%d code pages with a Face mask", s.all)
	}
}
