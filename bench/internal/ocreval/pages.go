package ocreval

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
)

// Page is a PDF page rendered to a PNG, with the lines of its text layer
// as truth, in the PNG's pixels.
type Page struct {
	Name  string // file under the documents folder and 1-based page number
	PNG   string
	W, H  int
	Lines []Line
	// Dropped counts text-layer lines left out of the truth: not
	// horizontal, drawn twice, or without ink on the render (hidden or
	// white text, popup contents).
	Dropped int
}

// Chars is the number of truth characters on the page.
func (p *Page) Chars() int {
	n := 0
	for _, l := range p.Lines {
		n += len([]rune(l.Text()))
	}
	return n
}

// Spec says which pages to take and how to render them.
type Spec struct {
	Dir    string  // documents, searched recursively for *.pdf
	Out    string  // folder the PNGs are written to
	DPI    float64 // render resolution
	Pages  int     // most pages in all
	PerDoc int     // most pages from one document (default 3)
	// MinWords is the fewest plausible words a page's text layer must
	// have to be used (default 40).
	MinWords int
}

// Selection thresholds of a usable text layer.
const (
	minGoodShare  = 0.85 // of the words, plausible ones (see plausible)
	minVowelShare = 0.75 // of the words of 4+ letters, with a vowel
	minLatinShare = 0.95 // of the letters, Latin script
	minInk        = 0.02 // share of ink pixels in a truth line's box (see ink)
	inkContrast   = 40   // gray levels between ink and its ground
)

// Prepare finds the PDFs under spec.Dir in name order, takes from each
// its first pages with a usable text layer (up to PerDoc), interleaves
// the documents (one page of each in turn, so no long document fills the
// set) up to spec.Pages, and renders each page once to a gray PNG.
func Prepare(ctx context.Context, spec Spec) ([]*Page, error) {
	if spec.PerDoc <= 0 {
		spec.PerDoc = 3
	}
	if spec.MinWords <= 0 {
		spec.MinWords = 40
	}
	var paths []string
	err := filepath.WalkDir(spec.Dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && strings.EqualFold(filepath.Ext(p), ".pdf") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("ocr pages: %w", err)
	}
	sort.Strings(paths)
	type cand struct {
		path string
		idx  int
	}
	perDoc := make([][]cand, 0, len(paths))
	for _, p := range paths {
		idx, err := usablePages(ctx, p, spec.PerDoc, spec.MinWords)
		if err != nil {
			return nil, err
		}
		var cs []cand
		for _, i := range idx {
			cs = append(cs, cand{p, i})
		}
		perDoc = append(perDoc, cs)
	}
	var chosen []cand
	for round := 0; round < spec.PerDoc && len(chosen) < spec.Pages; round++ {
		for _, cs := range perDoc {
			if round < len(cs) && len(chosen) < spec.Pages {
				chosen = append(chosen, cs[round])
			}
		}
	}
	if err := os.MkdirAll(spec.Out, 0o755); err != nil {
		return nil, err
	}
	out := make([]*Page, 0, len(chosen))
	for i, c := range chosen {
		rel, _ := filepath.Rel(spec.Dir, c.path)
		pg := &Page{Name: fmt.Sprintf("%s p%d", rel, c.idx+1), PNG: filepath.Join(spec.Out, fmt.Sprintf("page-%02d.png", i))}
		if err := render(ctx, c.path, c.idx, spec.DPI, pg); err != nil {
			return nil, fmt.Errorf("ocr pages: %s: %w", pg.Name, err)
		}
		out = append(out, pg)
	}
	return out, nil
}

// usablePages returns the indices of the first (up to limit) pages of the
// PDF at path whose text layer is usable. A file MuPDF cannot open has
// none.
func usablePages(ctx context.Context, path string, limit, minWords int) ([]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := mupdf.Open(data, mupdf.Options{})
	if err != nil {
		return nil, nil
	}
	defer doc.Close()
	var out []int
	for i := 0; i < doc.NumPages() && len(out) < limit; i++ {
		p, err := doc.LoadPage(ctx, i)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		words := p.Words()
		p.Close()
		if Usable(words, minWords) {
			out = append(out, i)
		}
	}
	return out, nil
}

// Usable reports whether a text layer can serve as OCR truth: at least
// minWords plausible horizontal words, most words plausible, most longer
// words with a vowel (text mapped through a broken font encoding reads as
// consonant soup) and nearly all letters Latin (the systems compared read
// English).
func Usable(words []page.Word, minWords int) bool {
	var n, good, long, vowel, letters, latin int
	for _, w := range words {
		if !horizontal(w.Quad) {
			continue
		}
		n++
		if plausible(w.Text) {
			good++
		}
		l := 0
		for _, r := range w.Text {
			if unicode.IsLetter(r) {
				l++
				letters++
				if unicode.Is(unicode.Latin, r) {
					latin++
				}
			}
		}
		if l >= 4 {
			long++
			if strings.ContainsAny(strings.ToLower(w.Text), "aeiouyàáâäèéêëìíîïòóôöùúûü") {
				vowel++
			}
		}
	}
	return good >= minWords &&
		float64(good) >= minGoodShare*float64(n) &&
		float64(vowel) >= minVowelShare*float64(long) &&
		float64(latin) >= minLatinShare*float64(letters)
}

// plausible reports whether a word is mostly letters and digits, without
// replacement, control or private-use characters.
func plausible(s string) bool {
	n, alnum := 0, 0
	for _, r := range s {
		n++
		switch {
		case r == unicode.ReplacementChar || unicode.IsControl(r) || unicode.Is(unicode.Co, r):
			return false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			alnum++
		}
	}
	return n > 0 && 2*alnum >= n
}

// horizontal reports whether a word runs left to right on a level
// baseline (rotated words are left out of the truth).
func horizontal(q page.Quad) bool {
	dx, dy := q.UR.X-q.UL.X, q.UR.Y-q.UL.Y
	return dx > 0 && math.Abs(dy) <= 0.1*dx+0.5
}

// render draws page idx of the PDF at path to pg.PNG in gray and fills
// pg's size and truth lines.
func render(ctx context.Context, path string, idx int, dpi float64, pg *Page) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc, err := mupdf.Open(data, mupdf.Options{})
	if err != nil {
		return err
	}
	defer doc.Close()
	p, err := doc.LoadPage(ctx, idx)
	if err != nil {
		return err
	}
	defer p.Close()
	r, err := p.Render(ctx, dpi, 64_000_000)
	if err != nil {
		return err
	}
	gray := toGray(r)
	r.Release()
	pg.W, pg.H = gray.Rect.Dx(), gray.Rect.Dy()
	pg.Lines, pg.Dropped = truthLines(p.Words(), dpi/72, gray)
	f, err := os.Create(pg.PNG)
	if err != nil {
		return err
	}
	if err := png.Encode(f, gray); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// toGray returns r as a gray image (luma of RGB).
func toGray(r *page.Raster) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, r.W, r.H))
	for y := range r.H {
		row := r.Pix[y*r.Stride:]
		out := g.Pix[y*g.Stride : y*g.Stride+r.W]
		if r.Channels == 1 {
			copy(out, row[:r.W])
			continue
		}
		for x := range r.W {
			c := row[x*r.Channels:]
			out[x] = uint8((299*uint32(c[0]) + 587*uint32(c[1]) + 114*uint32(c[2]) + 500) / 1000)
		}
	}
	return g
}

// truthLines groups the page's words (MuPDF's reading order, words of a
// line contiguous) into lines in pixels at scale pixels per point. Rotated
// words and repeats of a word at the same place (fake bold) are left out,
// and so are lines with no ink under them on the render.
func truthLines(words []page.Word, scale float64, g *image.Gray) (lines []Line, dropped int) {
	var kept []Word
	for i, w := range words {
		if !horizontal(w.Quad) {
			if i == 0 || words[i-1].Line != w.Line {
				dropped++ // counted once per line it starts
			}
			continue
		}
		b := w.Quad.Bounds()
		tw := Word{Text: w.Text, Box: Box{b.X0 * scale, b.Y0 * scale, b.X1 * scale, b.Y1 * scale}}
		if dup(kept, tw) {
			continue
		}
		kept = append(kept, tw)
		if i > 0 && words[i-1].Line == w.Line && words[i-1].Source == w.Source && len(lines) > 0 {
			l := &lines[len(lines)-1]
			l.Words = append(l.Words, tw)
			l.Box = l.Box.union(tw.Box)
			continue
		}
		lines = append(lines, Line{Words: []Word{tw}, Box: tw.Box})
	}
	out := lines[:0]
	for _, l := range lines {
		if ink(g, l.Box) < minInk {
			dropped++
			continue
		}
		sortWords(l.Words)
		out = append(out, l)
	}
	return out, dropped
}

// dup reports whether w repeats a word already kept at the same place.
func dup(kept []Word, w Word) bool {
	for i := len(kept) - 1; i >= 0 && i >= len(kept)-200; i-- {
		if kept[i].Text == w.Text && kept[i].Box.iou(w.Box) > 0.5 {
			return true
		}
	}
	return false
}

// ink is the share of pixels of g inside b that stand out from the box's
// background (its most common gray level) by more than inkContrast:
// text of any colour on any plain ground has some; hidden text, or text
// painted in the colour of its ground, has none.
func ink(g *image.Gray, b Box) float64 {
	r := image.Rect(int(b.X0), int(b.Y0), int(math.Ceil(b.X1)), int(math.Ceil(b.Y1))).Intersect(g.Rect)
	if r.Empty() {
		return 0
	}
	var hist [256]int
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for _, v := range g.Pix[y*g.Stride+r.Min.X : y*g.Stride+r.Max.X] {
			hist[v]++
		}
	}
	bg := 0
	for v := range hist {
		if hist[v] > hist[bg] {
			bg = v
		}
	}
	n := 0
	for v, c := range hist {
		if v < bg-inkContrast || v > bg+inkContrast {
			n += c
		}
	}
	return float64(n) / float64(r.Dx()*r.Dy())
}

func sortWords(ws []Word) {
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].Box.cx() < ws[j].Box.cx() })
}
