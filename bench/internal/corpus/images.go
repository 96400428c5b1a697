package corpus

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
)

// ScanDPI is the resolution of the scanned corpus, a common office
// scanner setting.
const ScanDPI = 200

// Scans turns text documents into scanned ones: every page rendered by
// MuPDF at ScanDPI, turned by up to 1.5 degrees, noised, stored as a gray
// JPEG in an image-only PDF of the same page size. The truth follows the
// rotation.
func Scans(ctx context.Context, src []*Doc, seed uint64) ([]*Doc, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5ca7))
	var out []*Doc
	for i, d := range src {
		pages, err := renderGray(ctx, d.Data, ScanDPI)
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", d.Name, err)
		}
		doc := &Doc{Name: fmt.Sprintf("scan-%03d.pdf", i), ContentType: "application/pdf", Pages: len(pages), Labelled: d.Labelled}
		var jp []jpegPage
		for j, g := range pages {
			rot := newRotation((rng.Float64()*2-1)*1.5, g.w, g.h, g.w, g.h)
			data, err := encodeJPEG(scanImage(g, rot, rng), 75)
			if err != nil {
				return nil, err
			}
			jp = append(jp, jpegPage{JPEG: data, W: g.w, H: g.h, Gray: true,
				WPt: float64(g.w) * 72 / ScanDPI, HPt: float64(g.h) * 72 / ScanDPI})
			derive(d, j, doc, rot.truth)
		}
		doc.Data = imagePDF(jp)
		out = append(out, doc)
	}
	return out, nil
}

// PhotoDPI is the resolution pages are rendered at for the photo corpus.
const PhotoDPI = 150

// Photos makes n single-page images from the pages of src, in turn: even
// ones as JPEG phone photos (page turned up to 3 degrees on a desk,
// uneven light, noise), odd ones as clean gray PNGs, as a screenshot or a
// scanning app would save them.
func Photos(ctx context.Context, src []*Doc, n int, seed uint64) ([]*Doc, error) {
	rng := rand.New(rand.NewPCG(seed, 0xf070))
	type ref struct{ doc, page int }
	var refs []ref
	for di, d := range src {
		for pi := range d.Pages {
			refs = append(refs, ref{di, pi})
		}
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("photos: no source pages")
	}
	var (
		out    []*Doc
		cached = -1
		pages  []grayPage
	)
	for i := range n {
		di, pi := refs[i%len(refs)].doc, refs[i%len(refs)].page
		d := src[di]
		if cached != di {
			var err error
			if pages, err = renderGray(ctx, d.Data, PhotoDPI); err != nil {
				return nil, fmt.Errorf("photo %s: %w", d.Name, err)
			}
			cached = di
		}
		g := pages[pi]
		base := strings.TrimSuffix(d.Name, ".pdf")
		doc := &Doc{Pages: 1, Labelled: d.Labelled}
		if i%2 == 0 {
			ow, oh := g.w*110/100, g.h*110/100
			rot := newRotation((rng.Float64()*2-1)*3, g.w, g.h, ow, oh)
			data, err := encodeJPEG(photoImage(g, rot, ow, oh, rng), 85)
			if err != nil {
				return nil, err
			}
			doc.Name, doc.ContentType, doc.Data = fmt.Sprintf("photo-%03d-%s-p%d.jpg", i, base, pi+1), "image/jpeg", data
			derive(d, pi, doc, rot.truth)
		} else {
			data, err := encodePNG(g)
			if err != nil {
				return nil, err
			}
			doc.Name, doc.ContentType, doc.Data = fmt.Sprintf("photo-%03d-%s-p%d.png", i, base, pi+1), "image/png", data
			derive(d, pi, doc, func(p Point) Point { return p })
		}
		out = append(out, doc)
	}
	return out, nil
}

// derive appends page pi of src to dst's truth, mapping its boxes through
// f and copying the entities on it.
func derive(src *Doc, pi int, dst *Doc, f func(Point) Point) {
	remap := map[int]int{}
	words := make([]Word, 0, len(src.Truth[pi]))
	for _, w := range src.Truth[pi] {
		for j := range w.Quad {
			w.Quad[j] = f(w.Quad[j])
		}
		if w.Entity >= 0 {
			e, ok := remap[w.Entity]
			if !ok {
				e = len(dst.Entities)
				remap[w.Entity] = e
				ent := src.Entities[w.Entity]
				ent.Page = len(dst.Truth)
				dst.Entities = append(dst.Entities, ent)
			}
			w.Entity = e
		}
		words = append(words, w)
	}
	dst.Truth = append(dst.Truth, words)
}
