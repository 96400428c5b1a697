package imagein

import "github.com/redactd/redactd/engine/page"

// orientedSize is the displayed size of a w x h image with EXIF
// orientation o: orientations 5 to 8 turn it on its side.
func orientedSize(w, h, o int) (int, int) {
	if o >= 5 && o <= 8 {
		return h, w
	}
	return w, h
}

// orient returns r turned upright for EXIF orientation o (1 or 0 is
// upright; 2-8 mirror and rotate as the EXIF specification lists them).
// r is released when a new raster is made.
func orient(r *page.Raster, o int) *page.Raster {
	if o < 2 || o > 8 {
		return r
	}
	w, h := r.W, r.H
	dw, dh := orientedSize(w, h, o)
	out := page.NewRaster(dw, dh, r.Channels)
	ch := r.Channels
	for sy := range h {
		src := r.Pix[sy*r.Stride : sy*r.Stride+w*ch]
		for sx := range w {
			var dx, dy int
			switch o {
			case 2: // mirrored
				dx, dy = w-1-sx, sy
			case 3: // upside down
				dx, dy = w-1-sx, h-1-sy
			case 4: // mirrored upside down
				dx, dy = sx, h-1-sy
			case 5: // transposed
				dx, dy = sy, sx
			case 6: // needs 90 degrees clockwise
				dx, dy = h-1-sy, sx
			case 7: // transversed
				dx, dy = h-1-sy, w-1-sx
			case 8: // needs 90 degrees anticlockwise
				dx, dy = sy, w-1-sx
			}
			copy(out.Pix[dy*out.Stride+dx*ch:dy*out.Stride+dx*ch+ch], src[sx*ch:sx*ch+ch])
		}
	}
	r.Release()
	return out
}
