package kernels

// Photographic-content estimate.
//
// Flate with PNG predictors stores exact runs cheaply: text, line art and
// flat fills, where neighbouring pixels are mostly identical or jump from
// paper to ink. Photographs and scans are continuous-tone: neighbours
// differ by small amounts everywhere (gradients, sensor and paper noise),
// which Flate cannot compress and JPEG can. The estimate is the fraction
// of sampled horizontal neighbour pairs whose largest channel difference is
// small but not zero.

// photoMaxDiff is the largest neighbour difference counted as "tonal";
// larger jumps are edges (ink on paper), which text has plenty of.
const photoMaxDiff = 32

// photoSamples bounds the work: about this many pairs are looked at
// whatever the page size.
const photoSamples = 1 << 15

// photoGrid returns the row and column steps that sample about
// photoSamples pairs from a w x h image.
func photoGrid(w, h int) (rowStep, colStep int) {
	pairs := int64(w-1) * int64(h)
	if pairs <= photoSamples {
		return 1, 1
	}
	// Prefer many rows with a column step: text lines are horizontal.
	rows := min(h, 256)
	rowStep = max(1, h/rows)
	perRow := max(1, photoSamples/rows)
	colStep = max(1, (w-1)/perRow)
	return rowStep, colStep
}

// PhotoScoreRef is the reference for PhotoScore.
func PhotoScoreRef(pix []byte, w, h, stride, channels int) float64 {
	if w < 2 || h < 1 || channels < 1 {
		return 0
	}
	rowStep, colStep := photoGrid(w, h)
	var tonal, total int
	for y := rowStep / 2; y < h; y += rowStep {
		for x := 0; x+1 < w; x += colStep {
			d := 0
			for c := 0; c < channels; c++ {
				a := int(pix[y*stride+x*channels+c])
				b := int(pix[y*stride+(x+1)*channels+c])
				d = max(d, absInt(a-b))
			}
			total++
			if d > 0 && d <= photoMaxDiff {
				tonal++
			}
		}
	}
	return float64(tonal) / float64(total)
}

// PhotoScore estimates how photographic an image is, in [0, 1]: the
// fraction of sampled neighbour pairs that differ by a small non-zero
// amount. Rendered text pages score near 0 (a few percent from
// anti-aliased edges), photos and scans well above 0.3. It samples about
// 32768 pairs, so its cost does not depend on the page size.
func PhotoScore(pix []byte, w, h, stride, channels int) float64 {
	if w < 2 || h < 1 || channels < 1 {
		return 0
	}
	rowStep, colStep := photoGrid(w, h)
	step := colStep * channels
	var tonal, total int
	for y := rowStep / 2; y < h; y += rowStep {
		row := pix[y*stride : y*stride+w*channels]
		switch channels {
		case 1:
			for i := 0; i+1 < len(row); i += step {
				d := absInt(int(row[i]) - int(row[i+1]))
				total++
				tonal += tonalBit(d)
			}
		case 3:
			for i := 0; i+5 < len(row); i += step {
				p := row[i : i+6 : i+6]
				d := max(absInt(int(p[0])-int(p[3])), absInt(int(p[1])-int(p[4])), absInt(int(p[2])-int(p[5])))
				total++
				tonal += tonalBit(d)
			}
		default:
			for x := 0; x+1 < w; x += colStep {
				d := 0
				for c := 0; c < channels; c++ {
					d = max(d, absInt(int(row[x*channels+c])-int(row[(x+1)*channels+c])))
				}
				total++
				tonal += tonalBit(d)
			}
		}
	}
	return float64(tonal) / float64(total)
}

// tonalBit is 1 when 0 < d <= photoMaxDiff (one unsigned compare; the
// compiler emits a SETcc, not a branch).
func tonalBit(d int) int {
	if uint(d-1) < photoMaxDiff {
		return 1
	}
	return 0
}
