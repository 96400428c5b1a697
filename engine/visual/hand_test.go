package visual

import (
	"bufio"
	"encoding/binary"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPatchesMatchRecipe cuts the recipe's golden samples
// (models/hand/train/synth.py golden: scanned ink, its box and the
// patches the training cut made of it) with Patches: what the classifier
// is given in service must be what it was trained on.
func TestPatchesMatchRecipe(t *testing.T) {
	dir := filepath.Join("testdata", "hand")
	f, err := os.Open(filepath.Join(dir, "boxes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 6 {
			t.Fatalf("boxes.txt: %q", sc.Text())
		}
		v := make([]int, 5)
		for i := range v {
			v[i], _ = strconv.Atoi(fs[i+1])
		}
		g := loadGray(t, filepath.Join(dir, fs[0]+".png"))
		got := Patches(g, Box{v[0], v[1], v[2], v[3]})
		raw, err := os.ReadFile(filepath.Join(dir, fs[0]+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != v[4] || len(raw) != v[4]*PatchH*PatchW*4 {
			t.Fatalf("%s: %d patches, the recipe cut %d", fs[0], len(got), v[4])
		}
		var diff float64
		for k, p := range got {
			for i, x := range p {
				want := math.Float32frombits(binary.LittleEndian.Uint32(raw[(k*PatchH*PatchW+i)*4:]))
				diff += math.Abs(float64(x - want))
			}
		}
		diff /= float64(len(got) * PatchH * PatchW)
		t.Logf("%s: %d patches, mean difference %.4f", fs[0], len(got), diff)
		if diff > 0.001 {
			t.Errorf("%s: the cut differs from the recipe's by %.4f a value on average", fs[0], diff)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no golden samples")
	}
}

func loadGray(t *testing.T, path string) Gray {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	g := image.NewGray(img.Bounds())
	draw.Draw(g, g.Rect, img, img.Bounds().Min, draw.Src)
	return Gray{Pix: g.Pix, W: g.Rect.Dx(), H: g.Rect.Dy(), Stride: g.Stride}
}

// TestInkCandidates: print boxes explain their ink, a long rule does not
// join the strokes on either side of it into one, specks are no
// candidate, and a filled area is none.
func TestInkCandidates(t *testing.T) {
	w, h := 600, 200
	g := Gray{Pix: make([]byte, w*h), W: w, H: h, Stride: w}
	for i := range g.Pix {
		g.Pix[i] = 250
	}
	fill := func(b Box, v byte) {
		for y := b.Y0; y < b.Y1; y++ {
			for x := b.X0; x < b.X1; x++ {
				g.Pix[y*w+x] = v
			}
		}
	}
	// Two stroke groups (a ring each), a rule under both, a solid block,
	// a printed word (explained), specks.
	ring := func(cx, cy, r int) {
		for a := 0.0; a < 2*math.Pi; a += 0.01 {
			x, y := cx+int(float64(r)*math.Cos(a)), cy+int(float64(r)*math.Sin(a))
			fill(Box{x, y, x + 3, y + 3}, 20)
		}
	}
	ring(80, 100, 30)
	ring(300, 100, 30)
	fill(Box{20, 135, 580, 137}, 0)
	fill(Box{450, 40, 520, 90}, 10)
	fill(Box{450, 150, 560, 170}, 30)
	for i := range 40 {
		g.Pix[(10+i%5*3)*w+10+i*13] = 0
	}
	got := InkCandidates(g, []Box{{445, 145, 565, 175}}, 150)
	if len(got) != 2 {
		t.Fatalf("candidates %v, want the two rings", got)
	}
	for _, b := range got {
		if b.X1-b.X0 > 80 || b.Y1-b.Y0 > 80 {
			t.Errorf("candidate %v joins more than a ring", b)
		}
	}
}

// TestMirrored: a drawn ornament that is its own mirror image scores
// near 1, the golden pen strokes (synth.py's handwriting, g0 and g2) and
// print (g1, g3) well under the pipeline's veto (0.9), and an empty patch
// 0.
func TestMirrored(t *testing.T) {
	// an ornament: two scrolls mirrored about the patch's middle
	p := make([]float32, PatchH*PatchW)
	for a := 0.0; a < 5*math.Pi; a += 0.01 {
		r := 2 + 2.2*a
		x, y := 30+r*math.Cos(a)/1.4, 16+r*math.Sin(a)/2.2
		for _, xx := range []float64{x, PatchW - 1 - x} {
			if xi, yi := int(xx), int(y); xi >= 0 && xi < PatchW && yi >= 0 && yi < PatchH {
				p[yi*PatchW+xi] = 1
			}
		}
	}
	if m := Mirrored(p); m < 0.95 {
		t.Errorf("a mirrored ornament: Mirrored %.2f, want >= 0.95", m)
	}
	if m := Mirrored(make([]float32, PatchH*PatchW)); m != 0 {
		t.Errorf("an empty patch: Mirrored %.2f, want 0", m)
	}
	dir := filepath.Join("testdata", "hand")
	for _, name := range []string{"g0", "g1", "g2", "g3"} {
		raw, err := os.ReadFile(filepath.Join(dir, name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; (k+1)*PatchH*PatchW*4 <= len(raw); k++ {
			q := make([]float32, PatchH*PatchW)
			for i := range q {
				q[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[(k*PatchH*PatchW+i)*4:]))
			}
			if m := Mirrored(q); m >= 0.9 {
				t.Errorf("%s patch %d: Mirrored %.2f, want < 0.9", name, k, m)
			} else {
				t.Logf("%s patch %d: Mirrored %.2f", name, k, m)
			}
		}
	}
}

// TestInkCandidatesBrokenRule: a box's side that a scan's noise broke
// into pieces shorter than a rule (gaps of one block) is still a rule:
// it does not join the writing beside it.
func TestInkCandidatesBrokenRule(t *testing.T) {
	w, h := 300, 240
	g := Gray{Pix: make([]byte, w*h), W: w, H: h, Stride: w}
	for i := range g.Pix {
		g.Pix[i] = 240
	}
	for a := 0.0; a < 2*math.Pi; a += 0.01 { // the writing: a ring
		x, y := 100+int(30*math.Cos(a)), 120+int(30*math.Sin(a))
		for yy := y; yy < y+3; yy++ {
			for xx := x; xx < x+3; xx++ {
				g.Pix[yy*w+xx] = 30
			}
		}
	}
	for y := 20; y < 220; y++ { // the side, 2 px, a 2 px gap every 20 px
		if y%20 < 2 {
			continue
		}
		g.Pix[y*w+140], g.Pix[y*w+141] = 0, 0
	}
	got := InkCandidates(g, nil, 150)
	if len(got) != 1 {
		t.Fatalf("candidates %v, want the ring", got)
	}
	if b := got[0]; b.Y1-b.Y0 > 70 || b.X1-b.X0 > 70 {
		t.Errorf("candidate %v: the ring joined the broken rule", b)
	}
}

// TestInkCandidatesBlurredSmallWriting: a small date written in loops
// on a noisy scan (the dev corpus's, seed 12, scan-form-1-noisy: 150
// dpi, the box's side at the left, its caption's foot at the top), its
// halo filling the gaps between the loops (0.61 of its box darker than
// the paper's threshold), is a candidate: at its core (coreLevel) it is
// inked over 0.46 of its box, a filled area over 0.9.
func TestInkCandidatesBlurredSmallWriting(t *testing.T) {
	g := loadGray(t, filepath.Join("testdata", "hand", "blurred-date.png"))
	for _, b := range InkCandidates(g, nil, 150) {
		if b.X0 <= 40 && b.X1 >= 70 && b.Y0 <= 28 && b.Y1 >= 40 && b.X1-b.X0 < 50 {
			return
		}
	}
	t.Errorf("candidates %v, want the date (about 40,26-72,42)", InkCandidates(g, nil, 150))
}

// TestBelowCaption: a form's caption OCR did not read ("Signature of the
// applicant", 7 pt, on the dev corpus's noisy scan, seed 13,
// scan-form-1-noisy, 150 dpi) joined to the signature under it, the
// box's side cut with them, is parted from the signature: the ink under
// it starts below the caption's line and right of the side. Writing
// with no caption over it (the golden pen strokes) is not parted.
func TestBelowCaption(t *testing.T) {
	g := loadGray(t, filepath.Join("testdata", "hand", "caption-signature.png"))
	var cand Box
	for _, b := range InkCandidates(g, nil, 150) {
		if b.X1-b.X0 > 100 {
			cand = b
		}
	}
	if cand.Y0 > 34 || cand.Y1 < 140 {
		t.Fatalf("candidates %v, want the caption and the signature in one", InkCandidates(g, nil, 150))
	}
	cand.X0 = 22 // the box's side (x 25-26) cut with them
	b, ok := BelowCaption(g, cand, 150)
	if !ok || b.Y0 < 43 || b.Y1 < 138 || b.X0 <= 27 {
		t.Errorf("BelowCaption(%v) = %v, %v; want the signature under y 43, right of the side", cand, b, ok)
	}
	for _, name := range []string{"g0", "g2"} {
		g := loadGray(t, filepath.Join("testdata", "hand", name+".png"))
		for _, c := range InkCandidates(g, nil, 150) {
			if b, ok := BelowCaption(g, c, 150); ok {
				t.Errorf("%s: candidate %v parted at %v: no caption there", name, c, b)
			}
		}
	}
}
