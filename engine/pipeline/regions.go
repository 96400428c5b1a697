package pipeline

import (
	"context"
	"encoding/binary"
	"hash/fnv"

	"github.com/redactd/redactd/engine/page"
)

// The ink a page's text layer does not explain is read by OCR region by
// region. Documents repeat such regions page after page (a letterhead, a
// logo with a name, a signature block in the footer), drawn by the same
// content at the same place, so their pixels are identical. A region's
// reading depends only on its pixels (it is read on synthetic white
// paper: ocrAdapter.Recognize), so a document reads each distinct region
// once and the other pages take the words, moved to where their copy is.
// Every region is read, once per distinct content. Its reading leaves out
// the lines trusted words explain (inkMap) and takes the page's
// orientation (ReadHints), so its key holds which of its blocks are
// unexplained, and that orientation, as well as its pixels.

// regionKey identifies a region's content: its size and every pixel,
// hashed (FNV-1a, 128 bits). Two regions with one key have the same
// pixels, with a chance of collision far below that of a hardware error.
type regionKey [16]byte

func keyOf(r *page.Raster, reg PixelRect, ink *inkMap, upright bool) regionKey {
	h := fnv.New128a()
	if ink != nil {
		h.Write(ink.appendBits(nil, reg))
	}
	if upright {
		h.Write([]byte{1})
	}
	var hdr [12]byte
	binary.LittleEndian.PutUint32(hdr[0:], uint32(reg.X1-reg.X0))
	binary.LittleEndian.PutUint32(hdr[4:], uint32(reg.Y1-reg.Y0))
	binary.LittleEndian.PutUint32(hdr[8:], uint32(r.Channels))
	h.Write(hdr[:])
	ch := r.Channels
	for y := reg.Y0; y < reg.Y1; y++ {
		h.Write(r.Pix[y*r.Stride+reg.X0*ch : y*r.Stride+reg.X1*ch])
	}
	var k regionKey
	h.Sum(k[:0])
	return k
}

// regionReading is one distinct region's words, in pixels relative to
// the region's top-left corner, read by the first page that met it;
// other pages wait for done.
type regionReading struct {
	done  chan struct{}
	words []page.Word
	err   error
}

// readRegion returns the words OCR reads in reg of r (in raster pixels)
// with hints h, reading each distinct region content (its pixels and, in
// ink, its unexplained blocks) once per document; reused reports whether
// the reading came from another page's copy.
func (p *Pipeline) readRegion(ctx context.Context, r *page.Raster, reg PixelRect, doc *docState, ink *inkMap, h ReadHints) (words []page.Word, reused bool, err error) {
	reg = PixelRect{max(reg.X0, 0), max(reg.Y0, 0), min(reg.X1, r.W), min(reg.Y1, r.H)}
	if reg.Empty() {
		return nil, false, nil
	}
	k := keyOf(r, reg, ink, h.Upright)
	doc.mu.Lock()
	rr, seen := doc.regions[k]
	if !seen {
		rr = &regionReading{done: make(chan struct{})}
		doc.regions[k] = rr
	}
	doc.mu.Unlock()
	if seen {
		select {
		case <-rr.done:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
		if rr.err != nil {
			// The first reader failed (its page is in error); read again.
			w, err := p.deps.OCR.Recognize(ctx, r, reg, h)
			return w, false, err
		}
		return moveWords(rr.words, float64(reg.X0), float64(reg.Y0)), true, nil
	}
	w, err := p.deps.OCR.Recognize(ctx, r, reg, h)
	rr.words, rr.err = moveWords(w, -float64(reg.X0), -float64(reg.Y0)), err
	close(rr.done)
	return w, false, err
}

// moveWords returns copies of words shifted by (dx, dy) pixels.
func moveWords(words []page.Word, dx, dy float64) []page.Word {
	out := make([]page.Word, len(words))
	for i, w := range words {
		w.Quad = shiftQuad(w.Quad, dx, dy)
		if len(w.Chars) > 0 {
			cs := make([]page.Quad, len(w.Chars))
			for k, c := range w.Chars {
				cs[k] = shiftQuad(c, dx, dy)
			}
			w.Chars = cs
		}
		out[i] = w
	}
	return out
}

func shiftQuad(q page.Quad, dx, dy float64) page.Quad {
	pt := func(p page.Point) page.Point { return page.Point{X: p.X + dx, Y: p.Y + dy} }
	return page.Quad{UL: pt(q.UL), UR: pt(q.UR), LL: pt(q.LL), LR: pt(q.LR)}
}
