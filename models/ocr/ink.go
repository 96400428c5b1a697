package ocr

import (
	"image"

	"github.com/redactd/redactd/kernels"
)

// The detector looks only at the part of a page that holds something:
// its cost grows with the area it is given, and margins, gaps and the
// empty end of a document's last page hold nothing to read. The page's
// scale is kept, so the detector sees the same pixels as before and finds
// the same boxes; only blank paper is left out.
const (
	inkBlock = 4  // block side over which pixels are averaged (see kernels.InkBlocks)
	inkTol   = 24 // a block whose mean is this far from the paper holds ink
	// inkMargin is the blank border kept around the ink, as a share of
	// the page's longest side (the detector needs context at the edges).
	inkMargin = 0.02
	// inkMinCut is the least share of the area a crop must remove to be
	// worth a detector input of its own size.
	inkMinCut = 0.1
)

// inkBounds returns the part of img to run the detector on: the bounding
// box of the blocks that differ from the paper, with a margin, or the
// whole image when that leaves out little or nothing is found (a blank
// or faint page is read whole rather than skipped).
func inkBounds(img Image) image.Rectangle {
	full := image.Rect(0, 0, img.W, img.H)
	gw, gh := (img.W+inkBlock-1)/inkBlock, (img.H+inkBlock-1)/inkBlock
	blocks := make([]uint8, gw*gh)
	kernels.InkBlocks(blocks, img.Pix, img.W, img.H, img.Stride, img.Channels, paperLevel(img), inkBlock)
	x0, y0, x1, y1 := gw, gh, -1, -1
	for by := range gh {
		row := blocks[by*gw : (by+1)*gw]
		for bx, d := range row {
			if d > inkTol {
				x0, x1 = min(x0, bx), max(x1, bx)
				y0, y1 = min(y0, by), max(y1, by)
			}
		}
	}
	if x1 < 0 {
		return full
	}
	m := int(inkMargin * float64(max(img.W, img.H)))
	r := image.Rect(x0*inkBlock-m, y0*inkBlock-m, (x1+1)*inkBlock+m, (y1+1)*inkBlock+m).Intersect(full)
	if float64(r.Dx()*r.Dy()) > (1-inkMinCut)*float64(img.W*img.H) {
		return full
	}
	return r
}

// paperLevel is the colour of img's paper, whatever its shade: the most
// common value of each channel on a 256 x 256 grid, counted with its
// neighbours within 4 levels.
func paperLevel(img Image) [4]uint8 {
	return kernels.PaperLevel(img.Pix, img.W, img.H, img.Stride, img.Channels, 256, 4)
}
