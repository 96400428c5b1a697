package kernels

import "image/color"

// RGBToYCbCrRef is the reference for RGBToYCbCr: image/color's conversion,
// pixel by pixel.
func RGBToYCbCrRef(yp, cbp, crp []byte, dstStride int, src []byte, srcStride, w, h int) {
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*srcStride + 3*x
			j := y*dstStride + x
			yp[j], cbp[j], crp[j] = color.RGBToYCbCr(src[i], src[i+1], src[i+2])
		}
	}
}

// RGBToYCbCr converts interleaved RGB to three full-resolution planes
// (JFIF YCbCr, as image/jpeg expects in an image.YCbCr with 4:4:4
// subsampling), bit-identical to image/color.RGBToYCbCr. JPEG-encoding a
// page from planes avoids image/jpeg's per-pixel interface calls.
func RGBToYCbCr(yp, cbp, crp []byte, dstStride int, src []byte, srcStride, w, h int) {
	if w <= 0 || h <= 0 {
		return
	}
	for y := 0; y < h; y++ {
		s := src[y*srcStride : y*srcStride+3*w]
		o := y * dstStride
		py, pb, pr := yp[o:o+w], cbp[o:o+w], crp[o:o+w]
		for x := range py {
			if 3*x+2 >= len(s) || x >= len(pb) || x >= len(pr) {
				break
			}
			r, g, b := int32(s[3*x]), int32(s[3*x+1]), int32(s[3*x+2])
			py[x] = uint8((19595*r + 38470*g + 7471*b + 1<<15) >> 16)
			pb[x] = clampShift16(-11056*r - 21712*g + 32768*b + 257<<15)
			pr[x] = clampShift16(32768*r - 27440*g - 5328*b + 257<<15)
		}
	}
}

// clampShift16 returns v>>16 clamped to [0, 255], as image/color does.
func clampShift16(v int32) uint8 {
	if uint32(v)&0xff000000 == 0 {
		return uint8(v >> 16)
	}
	return uint8(^(v >> 31))
}
