package page

import "sync"

// Raster is an 8-bit interleaved bitmap: 1 channel (gray) or 3 (RGB),
// rows of Stride bytes. Pix is owned by whoever holds the Raster; return it
// with Release when done so the next page reuses the buffer.
type Raster struct {
	W, H     int
	Channels int
	Stride   int
	Pix      []byte
}

var rasterPool sync.Pool

// NewRaster returns a raster of w x h pixels with the given channel count,
// reusing a pooled buffer when one is large enough. Pixels are not cleared.
func NewRaster(w, h, channels int) *Raster {
	n := w * h * channels
	if v := rasterPool.Get(); v != nil {
		r := v.(*Raster)
		if cap(r.Pix) >= n {
			r.W, r.H, r.Channels, r.Stride, r.Pix = w, h, channels, w*channels, r.Pix[:n]
			return r
		}
	}
	return &Raster{W: w, H: h, Channels: channels, Stride: w * channels, Pix: make([]byte, n)}
}

// Release returns r's buffer to the pool. r must not be used afterwards.
func (r *Raster) Release() {
	if r == nil || cap(r.Pix) == 0 {
		return
	}
	rasterPool.Put(r)
}

// Bytes is the raster's size in memory, used for the pixel budget.
func (r *Raster) Bytes() int64 { return int64(r.Stride) * int64(r.H) }
