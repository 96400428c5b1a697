package ocr

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// combForm draws, at dpi on a gray page with scanner noise, each of rows
// one character per box (boxes 26 x 24 pt, 12-pt Go Regular centred in
// them, a space an empty box) in black rules 0.8 pt thick, rows 50 pt
// apart, and below them a line of text and a table of six ruled columns
// of uneven widths (22 to 54 pt, a box's shape): what CombRows must not
// take for combs. It returns the page and
// each row's boxes (walls included).
func combForm(t *testing.T, rows []string, dpi float64) (Image, [][]image.Rectangle) {
	t.Helper()
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 12, DPI: dpi, Hinting: font.HintingNone})
	if err != nil {
		t.Fatal(err)
	}
	defer face.Close()
	px := func(pt float64) int { return int(math.Round(pt * dpi / 72)) }
	w, h := px(612), px(60+50*float64(len(rows))+160)
	canvas := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(color.Gray{245}), image.Point{}, draw.Src)
	ink := image.NewUniform(color.Gray{20})
	th := max(2, px(0.8))
	rect := func(x0, y0, x1, y1 int) { draw.Draw(canvas, image.Rect(x0, y0, x1, y1), ink, image.Point{}, draw.Src) }
	d := &font.Drawer{Dst: canvas, Src: ink, Face: face}
	var boxes [][]image.Rectangle
	for i, row := range rows {
		x0, y0 := px(24), px(40+50*float64(i))
		cell, boxH := px(26), px(24)
		n := len(row)
		rect(x0, y0, x0+n*cell+th, y0+th)
		rect(x0, y0+boxH, x0+n*cell+th, y0+boxH+th)
		var bs []image.Rectangle
		for k := 0; k <= n; k++ {
			rect(x0+k*cell, y0, x0+k*cell+th, y0+boxH+th)
		}
		for k, r := range row {
			bs = append(bs, image.Rect(x0+k*cell, y0, x0+(k+1)*cell+th, y0+boxH+th))
			if r == ' ' {
				continue
			}
			adv := d.MeasureString(string(r))
			d.Dot = fixed.Point26_6{X: fixed.I(x0+k*cell+cell/2) - adv/2, Y: fixed.I(y0 + px(17))}
			d.DrawString(string(r))
		}
		boxes = append(boxes, bs)
	}
	// Ordinary text, and a table's ruled columns of uneven widths.
	y := px(40 + 50*float64(len(rows)) + 20)
	d.Dot = fixed.Point26_6{X: fixed.I(px(24)), Y: fixed.I(y)}
	d.DrawString("Please return this form to the branch by 14 March.")
	ty := y + px(20)
	cols := []float64{24, 50, 90, 112, 160, 182, 236}
	rect(px(24), ty, px(236)+th, ty+th)
	rect(px(24), ty+px(20), px(236)+th, ty+px(20)+th)
	for _, c := range cols {
		rect(px(c), ty, px(c)+th, ty+px(20)+th)
	}
	for k, s := range []string{"No", "1", "Qty", "2", "Total", "9"} {
		d.Dot = fixed.Point26_6{X: fixed.I(px(cols[k]) + px(4)), Y: fixed.I(ty + px(15))}
		d.DrawString(s)
	}
	r := rand.New(rand.NewPCG(7, 42))
	for i, v := range canvas.Pix {
		canvas.Pix[i] = byte(math.Max(0, math.Min(255, float64(v)+r.NormFloat64()*6)))
	}
	return Image{W: w, H: h, Channels: 1, Stride: canvas.Stride, Pix: canvas.Pix}, boxes
}

var combRowsText = []string{"TOBIAS KILBRIDE", "01632 960471", "14/03/1986", "GB33BUKB20201555555555"}

// turned is img turned deg degrees (clockwise) about its centre, paper
// where it shows no page: a form askew on the scanner's glass.
func turned(img Image, deg float64) Image {
	c, s := math.Cos(deg*math.Pi/180), math.Sin(deg*math.Pi/180)
	out := Image{W: img.W, H: img.H, Channels: 1, Stride: img.W, Pix: make([]byte, img.W*img.H)}
	cx, cy := float64(img.W)/2, float64(img.H)/2
	for y := range img.H {
		for x := range img.W {
			// The source of (x, y), bilinear.
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := cx+c*dx+s*dy, cy-s*dx+c*dy
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			px := func(x, y int) float64 {
				if x < 0 || y < 0 || x >= img.W || y >= img.H {
					return 245
				}
				return float64(img.Pix[y*img.Stride+x])
			}
			v := (px(x0, y0)*(1-fx)+px(x0+1, y0)*fx)*(1-fy) + (px(x0, y0+1)*(1-fx)+px(x0+1, y0+1)*fx)*fy
			out.Pix[y*out.Stride+x] = byte(math.Round(v))
		}
	}
	return out
}

// TestCombRows: at the dpis scans are read at, each ruled row of boxes
// is found, box for box (each cell inside its box, walls left out); the
// table's ruled columns and the text are not combs. The form turned up
// to a degree either way on the glass gives the same rows and boxes.
func TestCombRows(t *testing.T) {
	for _, deg := range []float64{0.6, -1} {
		img, boxes := combForm(t, combRowsText, 150)
		rows := CombRows(turned(img, deg), 150)
		if len(rows) != len(boxes) {
			t.Fatalf("turned %v degrees: %d comb rows, want %d", deg, len(rows), len(boxes))
		}
		for i, row := range rows {
			if len(row.Cells) != len(boxes[i]) {
				t.Errorf("turned %v degrees, row %d: %d cells, want %d", deg, i, len(row.Cells), len(boxes[i]))
			}
		}
	}
	for _, dpi := range []float64{150, 200, 300} {
		img, boxes := combForm(t, combRowsText, dpi)
		rows := CombRows(img, dpi)
		if len(rows) != len(boxes) {
			t.Fatalf("%v dpi: %d comb rows, want %d", dpi, len(rows), len(boxes))
		}
		for i, row := range rows {
			if len(row.Cells) != len(boxes[i]) {
				t.Errorf("%v dpi row %d: %d cells, want %d", dpi, i, len(row.Cells), len(boxes[i]))
				continue
			}
			for k, c := range row.Cells {
				b := boxes[i][k]
				if !c.In(b) || c.Dx() < b.Dx()*3/4 || c.Dy() < b.Dy()*3/4 {
					t.Errorf("%v dpi row %d cell %d: %v, its box %v", dpi, i, k, c, b)
				}
			}
		}
	}
}

// TestReadCombReadsBoxedPrint: our recogniser reads a 150-dpi scan of
// boxed print in black walls poorly as a page; each comb row read by
// ReadComb gives every box's character, on the form turned a degree on
// the glass too, and its boxes' quads lie on the page as turned.
func TestReadCombReadsBoxedPrint(t *testing.T) {
	for _, deg := range []float64{0, 1} {
		readBoxedPrint(t, deg)
	}
}

func readBoxedPrint(t *testing.T, deg float64) {
	e := testEngine(t)
	img, boxes := combForm(t, combRowsText, 150)
	img = turned(img, deg)
	rows := CombRows(img, 150)
	if len(rows) != len(combRowsText) {
		t.Fatalf("%d comb rows, want %d", len(rows), len(combRowsText))
	}
	lines, err := e.Recognize(context.Background(), img, image.Rectangle{})
	if err != nil {
		t.Fatal(err)
	}
	var page []string
	for _, l := range lines {
		page = append(page, l.Text)
	}
	t.Logf("read as a page: %q", page)
	for i, row := range rows {
		cells, conf, err := e.ReadComb(context.Background(), img, row)
		if err != nil {
			t.Fatal(err)
		}
		want := combRowsText[i]
		for k, c := range cells {
			if w := strings.TrimSpace(want[k : k+1]); c != w {
				t.Errorf("turned %v degrees: row %q box %d: read %q, want %q (all: %q, confidence %.2f)", deg, want, k, c, w, cells, conf)
			}
		}
		// Each box's quad: its centre where the box's turned to.
		for k := range row.Cells {
			x0, y0, x1, y1 := row.Quad(k).Bounds()
			b := boxes[i][k]
			a := deg * math.Pi / 180
			cx, cy := float64(img.W)/2, float64(img.H)/2
			bx, by := float64(b.Min.X+b.Max.X)/2-cx, float64(b.Min.Y+b.Max.Y)/2-cy
			wx, wy := cx+math.Cos(a)*bx-math.Sin(a)*by, cy+math.Sin(a)*bx+math.Cos(a)*by
			if math.Abs((x0+x1)/2-wx) > 4 || math.Abs((y0+y1)/2-wy) > 4 {
				t.Errorf("turned %v degrees: row %q box %d: quad centre (%.0f, %.0f), want (%.0f, %.0f)", deg, want, k, (x0+x1)/2, (y0+y1)/2, wx, wy)
			}
		}
	}
}
