package imagein

import (
	"image"
	"image/color"

	"github.com/redactd/redactd/engine/page"
)

// toRGB copies any decoded image into a pooled RGB raster. Transparent
// pixels are composited over white, the colour of paper, so a PNG with an
// alpha channel prints as it looks in a viewer. The common decoder output
// types have direct loops; the rest go through color models.
func toRGB(img image.Image) *page.Raster {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	r := page.NewRaster(w, h, 3)
	switch m := img.(type) {
	case *image.Gray:
		for y := range h {
			src := m.Pix[(b.Min.Y+y-m.Rect.Min.Y)*m.Stride+(b.Min.X-m.Rect.Min.X):][:w]
			dst := r.Pix[y*r.Stride : y*r.Stride+3*w]
			for x, v := range src {
				dst[3*x], dst[3*x+1], dst[3*x+2] = v, v, v
			}
		}
	case *image.YCbCr:
		for y := range h {
			dst := r.Pix[y*r.Stride : y*r.Stride+3*w]
			for x := range w {
				yi := m.YOffset(b.Min.X+x, b.Min.Y+y)
				ci := m.COffset(b.Min.X+x, b.Min.Y+y)
				dst[3*x], dst[3*x+1], dst[3*x+2] = color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
			}
		}
	case *image.RGBA:
		for y := range h {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*w]
			dst := r.Pix[y*r.Stride : y*r.Stride+3*w]
			for x := range w {
				// Premultiplied: over white adds the missing coverage.
				s := src[4*x : 4*x+4 : 4*x+4]
				k := 255 - s[3]
				dst[3*x], dst[3*x+1], dst[3*x+2] = sat(s[0], k), sat(s[1], k), sat(s[2], k)
			}
		}
	case *image.NRGBA:
		for y := range h {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*w]
			dst := r.Pix[y*r.Stride : y*r.Stride+3*w]
			for x := range w {
				s := src[4*x : 4*x+4 : 4*x+4]
				a := uint32(s[3])
				dst[3*x], dst[3*x+1], dst[3*x+2] = overWhite(s[0], a), overWhite(s[1], a), overWhite(s[2], a)
			}
		}
	case *image.Paletted:
		var pal [256][3]byte
		for i := range pal {
			pal[i] = [3]byte{255, 255, 255}
			if i < len(m.Palette) {
				pal[i] = rgbOverWhite(m.Palette[i])
			}
		}
		for y := range h {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:w]
			dst := r.Pix[y*r.Stride : y*r.Stride+3*w]
			for x, i := range src {
				c := pal[i]
				dst[3*x], dst[3*x+1], dst[3*x+2] = c[0], c[1], c[2]
			}
		}
	case *image.Gray16:
		for y := range h {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:2*w]
			dst := r.Pix[y*r.Stride : y*r.Stride+3*w]
			for x := range w {
				v := src[2*x] // high byte, as color.Gray16 -> 8 bits does
				dst[3*x], dst[3*x+1], dst[3*x+2] = v, v, v
			}
		}
	case *image.NRGBA64:
		for y := range h {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:8*w]
			dst := r.Pix[y*r.Stride : y*r.Stride+3*w]
			for x := range w {
				s := src[8*x : 8*x+8 : 8*x+8]
				a := uint32(s[6])
				dst[3*x], dst[3*x+1], dst[3*x+2] = overWhite(s[0], a), overWhite(s[2], a), overWhite(s[4], a)
			}
		}
	default:
		for y := range h {
			dst := r.Pix[y*r.Stride : y*r.Stride+3*w]
			for x := range w {
				c := rgbOverWhite(img.At(b.Min.X+x, b.Min.Y+y))
				dst[3*x], dst[3*x+1], dst[3*x+2] = c[0], c[1], c[2]
			}
		}
	}
	return r
}

// sat adds with saturation (premultiplied values never overflow, but a
// corrupt image might).
func sat(v, k byte) byte {
	s := uint16(v) + uint16(k)
	if s > 255 {
		return 255
	}
	return byte(s)
}

// overWhite composites a non-premultiplied channel with alpha a over white.
func overWhite(c byte, a uint32) byte {
	return byte((uint32(c)*a + 255*(255-a) + 127) / 255)
}

// rgbOverWhite converts any colour to 8-bit RGB over white.
func rgbOverWhite(c color.Color) [3]byte {
	r, g, b, a := c.RGBA() // premultiplied, 16-bit
	k := 0xFFFF - a
	return [3]byte{byte((r + k) >> 8), byte((g + k) >> 8), byte((b + k) >> 8)}
}
