// Package page is the page model every stage of the pipeline shares:
// a page's geometry in points, its raster, and the words found on it.
//
// Coordinates are MuPDF's display space: points (1/72 inch), origin at the
// top-left corner of the page as it is shown (the page's /Rotate already
// applied), y growing downwards. A raster rendered at dpi d maps a point p
// to pixel p*d/72.
package page

import "strings"

// Source tells which producer found a word.
type Source uint8

const (
	SourceTextLayer  Source = iota // characters drawn by the page's content stream
	SourceOCR                      // recognised from pixels
	SourceFormField                // value of an AcroForm widget
	SourceAnnotation               // text of an annotation (FreeText, popup contents, ...)
	SourceImage                    // a picture found in the pixels: a face, a code (engine/visual)
)

func (s Source) String() string {
	switch s {
	case SourceTextLayer:
		return "text"
	case SourceOCR:
		return "ocr"
	case SourceFormField:
		return "form"
	case SourceAnnotation:
		return "annotation"
	case SourceImage:
		return "image"
	}
	return "unknown"
}

// Point is a position in page points.
type Point struct{ X, Y float64 }

// Rect is an axis-aligned rectangle in page points, X0 <= X1, Y0 <= Y1.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return r.X0 >= r.X1 || r.Y0 >= r.Y1 }

// Union returns the smallest rectangle containing r and s.
func (r Rect) Union(s Rect) Rect {
	if r.Empty() {
		return s
	}
	if s.Empty() {
		return r
	}
	return Rect{min(r.X0, s.X0), min(r.Y0, s.Y0), max(r.X1, s.X1), max(r.Y1, s.Y1)}
}

// Intersect returns the overlap of r and s (empty when they do not overlap).
func (r Rect) Intersect(s Rect) Rect {
	o := Rect{max(r.X0, s.X0), max(r.Y0, s.Y0), min(r.X1, s.X1), min(r.Y1, s.Y1)}
	if o.Empty() {
		return Rect{}
	}
	return o
}

// Area is the rectangle's area in square points.
func (r Rect) Area() float64 {
	if r.Empty() {
		return 0
	}
	return (r.X1 - r.X0) * (r.Y1 - r.Y0)
}

// Quad is a possibly rotated quadrilateral, as MuPDF reports character
// boxes: upper-left, upper-right, lower-left, lower-right relative to the
// text's own direction.
type Quad struct{ UL, UR, LL, LR Point }

// Bounds is the axis-aligned box around q.
func (q Quad) Bounds() Rect {
	r := Rect{q.UL.X, q.UL.Y, q.UL.X, q.UL.Y}
	for _, p := range [...]Point{q.UR, q.LL, q.LR} {
		r.X0, r.Y0 = min(r.X0, p.X), min(r.Y0, p.Y)
		r.X1, r.Y1 = max(r.X1, p.X), max(r.Y1, p.Y)
	}
	return r
}

// QuadFromRect is the unrotated quad covering r.
func QuadFromRect(r Rect) Quad {
	return Quad{UL: Point{r.X0, r.Y0}, UR: Point{r.X1, r.Y0}, LL: Point{r.X0, r.Y1}, LR: Point{r.X1, r.Y1}}
}

// Word is a run of non-space characters on one line.
type Word struct {
	Text string
	// Quad covers the whole word; Chars holds one quad per rune of Text
	// when the producer knows them (text layer, OCR time steps), so a
	// detector may mask part of a word.
	Quad  Quad
	Chars []Quad
	// Line groups words into lines: words with the same Line on a page
	// form one line, in reading order by their index in Page.Words.
	Line   int
	Source Source
	// Conf is the producer's confidence in [0,1]; 1 for the text layer.
	Conf float32
	// Font identifies the font that drew a text-layer word (the font of
	// its first character), the same for every word that font draws in
	// a document; 0 when unknown (OCR, images).
	Font uint64
	// Plain is true when that font cannot say other than what it draws:
	// a simple font with no embedded program and no ToUnicode map, whose
	// glyphs and text both follow its encoding's glyph names. Its words
	// need no check against the pixels.
	Plain bool
}

// Page is one page of a document on its way through the pipeline.
type Page struct {
	Index int     // 0-based page number in the document
	Width float64 // page width in points, rotation applied
	// Height is the page height in points, rotation applied.
	Height float64
	// Words in reading order; words of a line are contiguous.
	Words []Word
	// Raster is the page rendered at DPI, owned by the page until burnt
	// and encoded, then returned to its pool.
	Raster *Raster
	DPI    float64
	// ImageRegions are areas covered by raster images big enough to hold
	// text; the OCR stage reads them on pages that have a text layer.
	ImageRegions []Rect
	// HiddenText are the boxes of invisible (render mode 3) text: its
	// words are read from the layer but draw nothing, so they explain no
	// ink under them.
	HiddenText []Rect
}

// Lines returns the words grouped by line, as index ranges [start, end)
// into p.Words.
func (p *Page) Lines() [][2]int {
	var out [][2]int
	for i := 0; i < len(p.Words); {
		j := i + 1
		for j < len(p.Words) && p.Words[j].Line == p.Words[i].Line {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// Text returns the page's words joined with spaces and lines with newlines.
// Meant for tests and debugging; detectors build their own views.
func (p *Page) Text() string {
	var b strings.Builder
	for _, l := range p.Lines() {
		for i := l[0]; i < l[1]; i++ {
			if i > l[0] {
				b.WriteByte(' ')
			}
			b.WriteString(p.Words[i].Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// PixelRect maps a rectangle in points to pixels of a raster at dpi,
// rounded outwards and clipped to w x h.
func PixelRect(r Rect, dpi float64, w, h int) (x0, y0, x1, y1 int) {
	s := dpi / 72
	x0 = clamp(int(floor(r.X0*s)), 0, w)
	y0 = clamp(int(floor(r.Y0*s)), 0, h)
	x1 = clamp(int(ceil(r.X1*s)), 0, w)
	y1 = clamp(int(ceil(r.Y1*s)), 0, h)
	return
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

func floor(f float64) float64 {
	i := float64(int64(f))
	if i > f {
		i--
	}
	return i
}

func ceil(f float64) float64 {
	i := float64(int64(f))
	if i < f {
		i++
	}
	return i
}
