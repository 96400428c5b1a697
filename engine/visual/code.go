package visual

import (
	"image"
	"math"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/aztec"
	"github.com/makiuchi-d/gozxing/datamatrix"
	multiqr "github.com/makiuchi-d/gozxing/multi/qrcode"
	qrdetector "github.com/makiuchi-d/gozxing/multi/qrcode/detector"
	"github.com/makiuchi-d/gozxing/oned"
)

// Code is a code found in an image: its box in the image's pixels, its
// format (gozxing's name: QR_CODE, DATA_MATRIX, AZTEC, CODE_128, ...), and
// its decoded text, which Decoded says there is. A code found but not
// decoded (a QR code's three finder patterns with no readable content)
// has Decoded false. Text is personal data: it is given to detection and
// never logged or reported.
type Code struct {
	Box     Box
	Format  string
	Text    string
	Decoded bool
}

// maxCodesPerReader bounds the codes one reader takes from an image: each
// found code is blanked and the image read again.
const maxCodesPerReader = 8

// FindCodes decodes the codes in g: QR codes (several at once), then Data
// Matrix, Aztec and linear codes one at a time, each found code blanked
// before the next reading; then QR codes found by their finder patterns
// that did not decode. gozxing v0.1.1 has no PDF417 reader: PDF417
// symbols are found by their patterns (FindPDF417) and not decoded.
func FindCodes(g Gray) []Code {
	if g.W < 16 || g.H < 16 {
		return nil
	}
	// A private copy: found codes are painted white in it.
	im := image.NewGray(image.Rect(0, 0, g.W, g.H))
	for y := 0; y < g.H; y++ {
		copy(im.Pix[y*im.Stride:y*im.Stride+g.W], g.Pix[y*g.Stride:y*g.Stride+g.W])
	}
	hints := map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_TRY_HARDER: true}
	var out []Code
	found := func(text string, format gozxing.BarcodeFormat, pts []gozxing.ResultPoint) {
		b := codeBox(im, format, pts)
		out = append(out, Code{Box: b, Format: format.String(), Text: text, Decoded: true})
		blank(im, b)
	}
	bmp := func() *gozxing.BinaryBitmap {
		b, _ := gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(gozxing.NewLuminanceSourceFromImage(im)))
		return b
	}

	if b := bmp(); b != nil {
		if rs, err := multiqr.NewQRCodeMultiReader().DecodeMultiple(b, hints); err == nil {
			for _, r := range rs {
				found(r.GetText(), r.GetBarcodeFormat(), r.GetResultPoints())
			}
		}
	}
	// Data Matrix and Aztec detectors look outwards from the image's
	// centre for the white rectangle around one code, so they are run on
	// each candidate (inkBlobs: a compact patch of dense ink) cut out
	// with a margin of paper, and on the whole image.
	tiles := append([]image.Rectangle{im.Rect}, inkBlobs(im)...)
	for _, rd := range []gozxing.Reader{datamatrix.NewDataMatrixReader(), aztec.NewAztecReader()} {
		for _, tile := range tiles {
			sub := im.SubImage(tile).(*image.Gray)
			b, _ := gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(gozxing.NewLuminanceSourceFromImage(sub)))
			if b == nil {
				continue
			}
			r, err := rd.Decode(b, hints)
			if err != nil {
				continue
			}
			pts := r.GetResultPoints()
			moved := make([]gozxing.ResultPoint, len(pts))
			for i, p := range pts {
				moved[i] = gozxing.NewResultPoint(p.GetX()+float64(tile.Min.X), p.GetY()+float64(tile.Min.Y))
			}
			found(r.GetText(), r.GetBarcodeFormat(), moved)
		}
	}
	// Linear codes are read on the image cut at mid gray: the hybrid
	// binarizer's local thresholds misjudge the anti-aliased edges of
	// bars two pixels wide (a Code 128 rendered at 150 dpi from a PDF).
	for _, rd := range []gozxing.Reader{oned.NewCode128Reader(), oned.NewCode39Reader(), oned.NewCode93Reader(),
		oned.NewMultiFormatUPCEANReader(nil), oned.NewITFReader(), oned.NewCodaBarReader()} {
		for range maxCodesPerReader {
			b, _ := gozxing.NewBinaryBitmap(gozxing.NewGlobalHistgramBinarizer(gozxing.NewLuminanceSourceFromImage(midGray(im))))
			if b == nil {
				break
			}
			r, err := rd.Decode(b, hints)
			if err != nil {
				break
			}
			found(r.GetText(), r.GetBarcodeFormat(), r.GetResultPoints())
		}
	}
	// PDF417 symbols, found by their start and stop patterns and never
	// decoded (pdf417.go).
	for _, b := range FindPDF417(midGray(im)) {
		out = append(out, Code{Box: b, Format: "PDF_417"})
		blank(im, b)
	}
	// QR codes whose finder patterns stand but whose content does not
	// decode (damaged, partly covered, too small to sample).
	if b := bmp(); b != nil {
		if m, err := b.GetBlackMatrix(); err == nil {
			if rs, err := qrdetector.NewMultiDetector(m).DetectMulti(hints); err == nil {
				for _, r := range rs {
					bx := codeBox(im, gozxing.BarcodeFormat_QR_CODE, r.GetPoints())
					if bx.X1-bx.X0 < 16 || bx.Y1-bx.Y0 < 16 {
						continue
					}
					out = append(out, Code{Box: bx, Format: gozxing.BarcodeFormat_QR_CODE.String()})
				}
			}
		}
	}
	return out
}

// codeBox is the box a code covers, from the points its reader reports:
// a QR code's finder centres (3.5 modules in from its edges, on a side of
// at least 21 modules), a matrix code's corners, a linear code's two ends
// on the row it was read on (its bars then followed up and down).
func codeBox(im *image.Gray, format gozxing.BarcodeFormat, pts []gozxing.ResultPoint) Box {
	if len(pts) == 0 {
		return Box{}
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, y0 = min(x0, p.GetX()), min(y0, p.GetY())
		x1, y1 = max(x1, p.GetX()), max(y1, p.GetY())
	}
	w, h := im.Rect.Dx(), im.Rect.Dy()
	var b Box
	switch format {
	case gozxing.BarcodeFormat_QR_CODE:
		// Finder centres to edges: 3.5 of at most 14 modules between
		// centres, plus a module of margin.
		m := max(x1-x0, y1-y0) * 4.5 / 14
		b = Box{int(x0 - m), int(y0 - m), int(math.Ceil(x1 + m)), int(math.Ceil(y1 + m))}
	case gozxing.BarcodeFormat_DATA_MATRIX, gozxing.BarcodeFormat_AZTEC:
		m := max(x1-x0, y1-y0) * 0.15
		if format == gozxing.BarcodeFormat_AZTEC {
			// Aztec reports its bullseye's corners: the symbol is up to
			// about three times wider.
			m = max(x1-x0, y1-y0) * 1.2
		}
		b = Box{int(x0 - m), int(y0 - m), int(math.Ceil(x1 + m)), int(math.Ceil(y1 + m))}
	default:
		// A linear code: read along one row; follow its bars up and down
		// while the row's pattern holds.
		b = linearBox(im, int(x0), int(math.Ceil(x1)), int((y0+y1)/2))
	}
	return clip(b, w, h)
}

// linearBox follows a linear code read on row y between x0 and x1 up and
// down while rows keep at least 85% of that row's dark and light pixels.
func linearBox(im *image.Gray, x0, x1, y int) Box {
	w, h := im.Rect.Dx(), im.Rect.Dy()
	x0, x1 = max(x0, 0), min(x1, w-1)
	y = min(max(y, 0), h-1)
	if x1 <= x0 {
		return Box{}
	}
	dark := func(x, y int) bool { return im.Pix[y*im.Stride+x] < 128 }
	same := func(yy int) bool {
		n := 0
		for x := x0; x <= x1; x++ {
			if dark(x, yy) == dark(x, y) {
				n++
			}
		}
		return n*100 >= 85*(x1-x0+1)
	}
	top, bot := y, y
	for top > 0 && same(top-1) {
		top--
	}
	for bot < h-1 && same(bot+1) {
		bot++
	}
	// Quiet zones and the printed digits under the bars: a margin of a
	// tenth of the width each side and a fifth below.
	mx := (x1 - x0) / 10
	return Box{x0 - mx, top - 2, x1 + mx, bot + (x1-x0)/5}
}

func blank(im *image.Gray, b Box) {
	for y := b.Y0; y < b.Y1; y++ {
		row := im.Pix[y*im.Stride:]
		for x := b.X0; x < b.X1; x++ {
			row[x] = 255
		}
	}
}

// blobBlock is the side of inkBlobs' blocks, in pixels.
const blobBlock = 8

// inkBlobs returns the boxes, with a margin of two blocks, of the
// 4-connected patches of blocks holding dark pixels (under 128) that are
// 3 to 64 blocks on a side and no more than twice as long as wide: the
// shapes a matrix code can have. At most 64 are returned, largest first
// dropped last.
func inkBlobs(im *image.Gray) []image.Rectangle {
	bw, bh := (im.Rect.Dx()+blobBlock-1)/blobBlock, (im.Rect.Dy()+blobBlock-1)/blobBlock
	ink := make([]bool, bw*bh)
	for y := 0; y < im.Rect.Dy(); y++ {
		row := im.Pix[y*im.Stride : y*im.Stride+im.Rect.Dx()]
		for x, v := range row {
			if v < 128 {
				ink[(y/blobBlock)*bw+x/blobBlock] = true
			}
		}
	}
	seen := make([]bool, len(ink))
	var out []image.Rectangle
	var stack []int
	for i := range ink {
		if !ink[i] || seen[i] {
			continue
		}
		x0, y0, x1, y1 := i%bw, i/bw, i%bw, i/bw
		stack = append(stack[:0], i)
		seen[i] = true
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := j%bw, j/bw
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			for _, n := range [4]int{j - 1, j + 1, j - bw, j + bw} {
				if n < 0 || n >= len(ink) || seen[n] || !ink[n] || (n == j-1 && x == 0) || (n == j+1 && x == bw-1) {
					continue
				}
				seen[n] = true
				stack = append(stack, n)
			}
		}
		w, h := x1-x0+1, y1-y0+1
		if w < 3 || h < 3 || w > 64 || h > 64 || w > 2*h || h > 2*w {
			continue
		}
		r := image.Rect((x0-2)*blobBlock, (y0-2)*blobBlock, (x1+3)*blobBlock, (y1+3)*blobBlock).Intersect(im.Rect)
		out = append(out, r)
		if len(out) == 64 {
			break
		}
	}
	return out
}

// midGray is im cut at mid gray: black under 128, white from it.
func midGray(im *image.Gray) *image.Gray {
	out := image.NewGray(im.Rect)
	for i, v := range im.Pix {
		if v >= 128 {
			out.Pix[i] = 255
		}
	}
	return out
}
