package ocr

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func near(a, b Point, tol float64) bool { return dist(a, b) <= tol }

func TestMinAreaRectOfRotatedRectangle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 100 {
		want := rect{
			C: Point{r.Float64() * 500, r.Float64() * 500},
			L: 20 + r.Float64()*300, S: 5 + r.Float64()*15,
		}
		a := (r.Float64() - 0.5) * math.Pi / 3 // within ±30 degrees of horizontal
		want.U = Point{math.Cos(a), math.Sin(a)}
		q := want.quad()
		// Points inside plus the corners.
		pts := []Point{q.UL, q.UR, q.LL, q.LR}
		for range 50 {
			pts = append(pts, lerp(lerp(q.UL, q.UR, r.Float64()), lerp(q.LL, q.LR, r.Float64()), r.Float64()))
		}
		got := minAreaRect(convexHull(pts))
		if math.Abs(got.L-want.L) > 1e-6 || math.Abs(got.S-want.S) > 1e-6 || !near(got.C, want.C, 1e-6) {
			t.Fatalf("got %+v, want %+v", got, want)
		}
		gq := got.quad()
		if !near(gq.UL, q.UL, 1e-6) || !near(gq.LR, q.LR, 1e-6) {
			t.Fatalf("corners %v, want %v", gq, q)
		}
	}
}

func TestCanonicalOrientation(t *testing.T) {
	for _, c := range []struct {
		name string
		in   rect
		u    Point
		l, s float64
	}{
		{"horizontal, axis given backwards", rect{U: Point{-1, 0}, L: 100, S: 10}, Point{1, 0}, 100, 10},
		{"horizontal, short axis given", rect{U: Point{0, 1}, L: 10, S: 100}, Point{1, 0}, 100, 10},
		{"vertical reads upwards", rect{U: Point{0, 1}, L: 100, S: 10}, Point{0, -1}, 100, 10},
		{"squarish vertical read across", rect{U: Point{0, 1}, L: 12, S: 10}, Point{1, 0}, 10, 12},
	} {
		got := canonical(c.in)
		if !near(got.U, c.u, 1e-12) || got.L != c.l || got.S != c.s {
			t.Errorf("%s: got U %v L %v S %v", c.name, got.U, got.L, got.S)
		}
	}
	// Text along +x has its lower edge at larger y.
	q := rect{C: Point{50, 50}, U: Point{1, 0}, L: 100, S: 10}.quad()
	if q.UL != (Point{0, 45}) || q.LR != (Point{100, 55}) {
		t.Errorf("quad %v", q)
	}
}

func TestRotationRoundTrip(t *testing.T) {
	const w, h = 300, 200
	for _, rot := range []rotation{0, 90, 180, 270} {
		for _, p := range []Point{{0, 0}, {300, 0}, {10, 190}, {150.5, 99.25}} {
			q := rot.apply(p, w, h)
			if back := rot.invert(q, w, h); !near(back, p, 1e-9) {
				t.Errorf("rotation %d: %v -> %v -> %v", rot, p, q, back)
			}
		}
	}
	// Clockwise quarter turn: the top-left corner goes to the top right.
	if got := rotation(90).apply(Point{0, 0}, w, h); got != (Point{h, 0}) {
		t.Errorf("90: %v", got)
	}
}

func TestQuadSubAndFlip(t *testing.T) {
	q := Quad{UL: Point{0, 0}, UR: Point{100, 0}, LL: Point{0, 10}, LR: Point{100, 10}}
	s := q.sub(0.25, 0.5)
	if s.UL != (Point{25, 0}) || s.LR != (Point{50, 10}) {
		t.Errorf("sub %v", s)
	}
	f := q.flip()
	if f.UL != q.LR || f.flip() != q {
		t.Errorf("flip %v", f)
	}
	if q.Width() != 100 || q.Height() != 10 {
		t.Errorf("size %v x %v", q.Width(), q.Height())
	}
}

func TestDetSize(t *testing.T) {
	for _, c := range []struct{ w, h, max, ww, wh int }{
		{1700, 2200, 1536, 1184, 1536},
		{100, 50, 1536, 96, 64},
		{10, 10, 1536, 32, 32},
		{4000, 100, 1536, 1536, 32},
	} {
		if w, h := detSize(c.w, c.h, detScale(c.w, c.h, c.max)); w != c.ww || h != c.wh {
			t.Errorf("detSize(%d,%d,%d) = %d,%d want %d,%d", c.w, c.h, c.max, w, h, c.ww, c.wh)
		}
	}
}

func TestCTCDecode(t *testing.T) {
	// Classes: 0 blank, 1 'a', 2 'b'. Steps: a a blank a b b blank.
	best := []int{1, 1, 0, 1, 2, 2, 0}
	const classes = 3
	probs := make([]float32, len(best)*classes)
	for t, c := range best {
		for k := range classes {
			probs[t*classes+k] = 0.1
		}
		probs[t*classes+c] = 0.8
	}
	probs[1*classes+1] = 0.9 // the repeat keeps its best probability
	got := ctcDecode(probs, classes, nil)
	want := []sym{{class: 1, t0: 0, t1: 1, p: 0.9}, {class: 1, t0: 3, t1: 3, p: 0.8}, {class: 2, t0: 4, t1: 5, p: 0.8}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sym %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestLoadDict(t *testing.T) {
	p := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(p, []byte("a\r\nb\nc"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := loadDict(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 5 || d[0] != "" || d[1] != "a" || d[3] != "c" || d[4] != " " {
		t.Fatalf("dict %q", d)
	}
	empty := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadDict(empty); err == nil {
		t.Error("empty dictionary accepted")
	}
	if _, err := loadDict(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("missing dictionary accepted")
	}
}

// stripes makes a crop with dark glyph columns at the given ranges.
func stripes(w int, inked [][2]int) crop {
	pix := make([]byte, w*recH)
	for i := range pix {
		pix[i] = 240
	}
	for _, r := range inked {
		for y := 10; y < 38; y++ {
			for x := r[0]; x < r[1]; x++ {
				pix[y*w+x] = 20
			}
		}
	}
	return crop{pix: pix, w: w, ch: 1}
}

func TestSplitPointsCutInGaps(t *testing.T) {
	// Glyphs 14 wide every 20 columns: gaps at 14..19 of each period.
	var inked [][2]int
	for x := 0; x+14 <= 1000; x += 20 {
		inked = append(inked, [2]int{x, x + 14})
	}
	c := stripes(1000, inked)
	cuts := c.splitPoints(320)
	if cuts[0] != 0 || cuts[len(cuts)-1] != 1000 {
		t.Fatalf("cuts %v", cuts)
	}
	for k := 1; k < len(cuts); k++ {
		if cuts[k]-cuts[k-1] > 320 {
			t.Errorf("piece %d is %d wide", k, cuts[k]-cuts[k-1])
		}
		if k < len(cuts)-1 {
			if (cuts[k]-1)%20 < 14 && cuts[k]%20 < 14 {
				t.Errorf("cut %d at column %d falls inside a glyph", k, cuts[k])
			}
		}
	}
	if got := stripes(300, nil).splitPoints(320); len(got) != 2 {
		t.Errorf("narrow crop split: %v", got)
	}
}

// spacedLine lays out glyphs of 16 columns with the given blank after
// each (ink height 28), and puts a recogniser space after glyph i for
// each i in spaceAfter. It returns the line and its crop's ink columns.
func spacedLine(text string, gaps []int, spaceAfter ...int) ([]glyph, [][2]int, int) {
	var inked [][2]int
	var gs []glyph
	x := 5
	for i, r := range text {
		inked = append(inked, [2]int{x, x + 16})
		gs = append(gs, glyph{text: string(r), x: float64(x) + 8, p: 1})
		if slices.Contains(spaceAfter, i) {
			gs = append(gs, glyph{text: " ", x: float64(x) + 16 + float64(gaps[i])/2, space: true})
		}
		x += 16 + gaps[i]
	}
	return gs, inked, x + 5
}

func joined(gs []glyph) string {
	var b strings.Builder
	for _, g := range gs {
		b.WriteString(g.text)
	}
	return b.String()
}

func TestSpacesFix(t *testing.T) {
	// Letter gaps 3 columns (0.11 ink heights), word gaps 12 (0.43).
	// "ab cd ef gh": the recogniser gave spaces after b and d, missed the
	// one after f, and put one between g and h, where the gap is narrow.
	gs, inked, w := spacedLine("abcdefgh", []int{3, 12, 3, 12, 3, 12, 3, 3}, 1, 3, 6)
	// A doubled space after b.
	gs = append(gs[:3], append([]glyph{{text: " ", x: gs[2].x + 1, space: true}}, gs[3:]...)...)
	j := &lineJob{gs: gs, ink: stripes(w, inked).inkProfile()}
	if !j.ink.ok {
		t.Fatal("ink not found")
	}
	sp := spacing([]*lineJob{j, j}) // two lines' worth of spaces
	// The recogniser's own spaces are kept, even the narrow one: dropping
	// spaces by the gap took real ones out wherever the gap measure
	// failed (see the note in spaces.go).
	if got := joined(sp.fix(j)); got != "ab cd ef g h" {
		t.Errorf("fixed text %q (threshold %+v)", got, sp)
	}
	// Without clear ink nothing changes.
	flat := &lineJob{gs: gs, ink: stripes(w, nil).inkProfile()}
	if got := sp.fix(flat); len(got) != len(gs) {
		t.Error("glyphs changed on a blank crop")
	}
}

// TestSpacesBarIgnoresOneNarrowSpace checks that one space the recogniser
// put at a narrow gap (under half the median space) does not lower the bar
// for the page: monospaced print, where a narrow letter leaves gaps of
// 0.29 ink heights and words are 0.71 apart, stays whole.
func TestSpacesBarIgnoresOneNarrowSpace(t *testing.T) {
	var jobs []*lineJob
	for i := range 6 {
		// "ABI CD EF": 8 columns beside the I, 20 between words. The
		// first line has a false space after the I.
		after := []int{2, 4}
		if i == 0 {
			after = append(after, 1)
		}
		gs, inked, w := spacedLine("ABICDEF", []int{3, 8, 20, 3, 20, 3, 3}, after...)
		jobs = append(jobs, &lineJob{gs: gs, ink: stripes(w, inked).inkProfile()})
	}
	// Another line of the page: the recogniser read "ABICDEF" whole.
	gs, inked, w := spacedLine("ABICDEF", []int{3, 8, 20, 3, 20, 3, 3})
	bare := &lineJob{gs: gs, ink: stripes(w, inked).inkProfile()}
	jobs = append(jobs, bare)
	sp := spacing(jobs)
	if got := joined(sp.fix(bare)); got != "ABI CD EF" {
		t.Errorf("fixed text %q, want %q (threshold %+v)", got, "ABI CD EF", sp)
	}
}

// TestSpacesBesideAt checks that a space the recogniser put inside an
// e-mail address, where the glyphs almost touch, goes, while the space
// before the address stays: "mail jo a@b" reads "mail joa@b".
func TestSpacesBesideAt(t *testing.T) {
	gs, inked, w := spacedLine("mailjoa@b", []int{3, 3, 3, 12, 3, 3, 3, 3, 3}, 3, 5)
	j := &lineJob{gs: gs, ink: stripes(w, inked).inkProfile()}
	sp := spacing([]*lineJob{j, j, j})
	if got := joined(sp.fix(j)); got != "mail joa@b" {
		t.Errorf("fixed text %q, want %q (thresholds %+v)", got, "mail joa@b", sp)
	}
}

// TestSpacesOverRule checks that a rule under the words (a table's cell
// border, an underline) does not hide the gaps between them.
func TestSpacesOverRule(t *testing.T) {
	gs, inked, w := spacedLine("abcdefgh", []int{3, 12, 3, 12, 3, 12, 3, 3}, 1, 3)
	c := stripes(w, inked)
	for y := 40; y < 42; y++ { // two rows of ink across the crop
		for x := range w {
			c.pix[y*w+x] = 20
		}
	}
	j := &lineJob{gs: gs, ink: c.inkProfile()}
	if !j.ink.ok {
		t.Fatal("ink not found")
	}
	if g := j.ink.gap(gs[7], gs[8]); g < 0.4 { // f and g
		t.Fatalf("gap between f and g over the rule is %.2f ink heights, want 0.43", g)
	}
	sp := spacing([]*lineJob{j, j})
	if got := joined(sp.fix(j)); got != "ab cd ef gh" {
		t.Errorf("fixed text %q (threshold %+v)", got, sp)
	}
}

// TestSpacesNarrowGlyphs checks that a narrow glyph in a wide cell (a
// tabular "1") does not get spaces inserted beside it, while dropped
// spaces after a word, and after punctuation, are still put back.
func TestSpacesNarrowGlyphs(t *testing.T) {
	// Ink height 28. A digit's ink fills its cell of 16 columns, a "1"
	// has 4 columns in the middle of one; a comma has a cell of its own
	// width, 4. The recogniser read "201512,ab": no spaces.
	var inked [][2]int
	var gs []glyph
	x := 5
	add := func(text string, cell, ink, gap int) {
		pad := (cell - ink) / 2
		inked = append(inked, [2]int{x + pad, x + pad + ink})
		gs = append(gs, glyph{text: text, x: float64(x) + float64(cell)/2, p: 1})
		x += cell + gap
	}
	add("2", 16, 16, 3)
	add("0", 16, 16, 3)
	add("1", 16, 4, 3) // 9 blank columns either side: 0.32 ink heights
	add("5", 16, 16, 12)
	add("1", 16, 4, 3) // 18 blank columns before it
	add("2", 16, 16, 3)
	add(",", 4, 4, 10) // 10 blank columns after it
	add("a", 16, 16, 3)
	add("b", 16, 16, 3)
	j := &lineJob{gs: gs, ink: stripes(x+5, inked).inkProfile()}
	if !j.ink.ok {
		t.Fatal("ink not found")
	}
	sp := spaces{insert: 0.3}
	if g := j.ink.gap(gs[1], gs[2]); g <= sp.insert {
		t.Fatalf("blank beside the 1 is %.2f ink heights, want over %.2f for the test to mean anything", g, sp.insert)
	}
	var text string
	for _, g := range sp.fix(j) {
		text += g.text
	}
	if text != "2015 12, ab" {
		t.Errorf("fixed text %q, want %q", text, "2015 12, ab")
	}
}

func TestWordsCoverLineAndSplitChars(t *testing.T) {
	q := Quad{UL: Point{0, 0}, UR: Point{200, 0}, LL: Point{0, 20}, LR: Point{200, 20}}
	gs := []glyph{
		{text: "a", x: 20, p: 1}, {text: "b", x: 40, p: 0.5},
		{text: " ", x: 60, space: true},
		{text: "c", x: 100, p: 1},
	}
	ws := words(gs, q, 200)
	if len(ws) != 2 || ws[0].Text != "ab" || ws[1].Text != "c" {
		t.Fatalf("words %+v", ws)
	}
	if ws[0].Quad.UL.X != 0 || ws[0].Quad.UR.X != 70 || ws[1].Quad.UL.X != 70 || ws[1].Quad.UR.X != 200 {
		t.Errorf("word spans %v %v", ws[0].Quad, ws[1].Quad)
	}
	if ws[0].Conf != 0.75 || len(ws[0].Chars) != 2 || ws[0].Chars[0].UR.X != 30 {
		t.Errorf("word 0: conf %v chars %v", ws[0].Conf, ws[0].Chars)
	}
}
