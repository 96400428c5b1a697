package ocr

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/kernels"
)

// Orientation: how elongated a box must be to tell horizontal from
// vertical text, how many of the longest lines the direction classifier
// sees, and how many are read both ways up when it is not clearly upright:
// orientRecFirst lines first, and orientRecLines in all unless the first
// ones' mean confidence one way beats the other by orientRecMargin (on
// the bench's scans upright lines read at about 0.99 as cut and 0.35
// turned, and the classifier is unsure of most of them).
const (
	orientAspect    = 2.0
	orientClsLines  = 8
	orientRecFirst  = 2
	orientRecLines  = 4
	orientRecMargin = 0.25
)

// recognize runs the whole pipeline on one image (a region already cut).
// Lines h.Known reports (by their quad in img) are left out.
func (e *Engine) recognize(ctx context.Context, img Image, h Hints) ([]Line, error) {
	boxes, err := e.detect(ctx, img)
	if err != nil {
		return nil, err
	}
	if boxes = unskipped(boxes, h.Known, nil); len(boxes) == 0 {
		return nil, nil
	}
	rot, known, err := e.orientation(ctx, img, boxes, h.Upright)
	if err != nil {
		return nil, err
	}
	if debugf != nil {
		debugf("image %dx%d: %d boxes, rotation %d", img.W, img.H, len(boxes), rot)
	}
	work := img
	if rot != 0 {
		work = rotateImage(img, rot)
		if boxes, err = e.detect(ctx, work); err != nil {
			return nil, err
		}
		w, ht := float64(img.W), float64(img.H)
		boxes = unskipped(boxes, h.Known, func(p Point) Point { return rot.invert(p, w, ht) })
	}
	lines, err := e.readLines(ctx, work, boxes, known)
	if err != nil {
		return nil, err
	}
	if rot != 0 {
		w, h := float64(img.W), float64(img.H)
		for i := range lines {
			lines[i].shift(func(p Point) Point { return rot.invert(p, w, h) })
		}
	}
	return lines, nil
}

// unskipped returns the boxes skip does not report, asking it about each
// box's quad mapped by back (nil: as it is) into the image skip knows.
func unskipped(boxes []detBox, skip func(Quad) bool, back func(Point) Point) []detBox {
	if skip == nil {
		return boxes
	}
	out := boxes[:0]
	for _, b := range boxes {
		q := b.r.quad()
		if back != nil {
			q = q.mapPoints(back)
		}
		if !skip(q) {
			out = append(out, b)
		}
	}
	return out
}

// orientation tells how far to turn the page clockwise for its text to be
// upright. Long boxes vote horizontal or vertical by their total length.
// A horizontal page that the direction classifier finds upright on most
// of its longest lines is taken as is; otherwise the longest lines are
// read both ways up and the recogniser's confidence decides (the
// classifier alone misjudges many Latin lines); upright (Hints.Upright)
// takes horizontal text as upright without either. known holds the lines
// read upright on the way, by box index, when no turn is needed.
func (e *Engine) orientation(ctx context.Context, img Image, boxes []detBox, upright bool) (rotation, map[int]Line, error) {
	var horiz, vert float64
	isVert := func(b detBox) bool { return math.Abs(b.r.U.Y) > math.Abs(b.r.U.X) }
	for _, b := range boxes {
		if b.r.L < orientAspect*b.r.S {
			continue
		}
		if isVert(b) {
			vert += b.r.L
		} else {
			horiz += b.r.L
		}
	}
	vertical := vert > horiz
	var cands []int
	for i, b := range boxes {
		if b.r.L >= orientAspect*b.r.S && isVert(b) == vertical {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 || (upright && !vertical) {
		return 0, nil, nil
	}
	slices.SortStableFunc(cands, func(a, b int) int { return cmp.Compare(boxes[b].r.L, boxes[a].r.L) })
	if !vertical {
		var crops []crop
		for _, i := range cands[:min(len(cands), orientClsLines)] {
			if c, ok := cropQuad(img, boxes[i].r.quad()); ok {
				crops = append(crops, c)
			}
		}
		p180, err := e.classify(ctx, crops)
		if err != nil {
			return 0, nil, err
		}
		var up, down int
		for _, p := range p180 {
			switch {
			case p > 0.7:
				down++
			case p < 0.3:
				up++
			}
		}
		if debugf != nil {
			debugf("orientation: horizontal, classifier p180 %v", p180)
		}
		if up > down {
			return 0, nil, nil
		}
	}
	// Read the longest lines both ways up, a few first.
	var lines []Line
	var idx []int
	var asIs, turned float64
	cands = cands[:min(len(cands), orientRecLines)]
	for from := 0; from < len(cands); {
		to := min(len(cands), max(from+1, orientRecFirst))
		if from > 0 {
			to = len(cands)
		}
		var jobs []*lineJob
		for _, i := range cands[from:to] {
			q := boxes[i].r.quad()
			if c, ok := cropQuad(img, q); ok {
				jobs = append(jobs, &lineJob{quad: q, c: c}, &lineJob{quad: q.flip(), c: c.flip()})
				idx = append(idx, i)
			}
		}
		read, err := e.read(ctx, jobs)
		if err != nil {
			return 0, nil, err
		}
		for k := 0; k < len(read); k += 2 {
			asIs += float64(read[k].Conf)
			turned += float64(read[k+1].Conf)
		}
		lines = append(lines, read...)
		from = to
		if n := len(lines) / 2; n > 0 && math.Abs(asIs-turned) >= orientRecMargin*float64(n) {
			break
		}
	}
	if debugf != nil {
		debugf("orientation: vertical=%v, confidence as cut %.2f, turned %.2f", vertical, asIs, turned)
	}
	// Vertical boxes are cut reading upwards (text turned 90 degrees
	// counter-clockwise), which a clockwise quarter turn makes upright.
	switch {
	case vertical && asIs >= turned:
		return 90, nil, nil
	case vertical:
		return 270, nil, nil
	case turned > asIs:
		return 180, nil, nil
	}
	// The page is upright; a line read here keeps the better of its two
	// readings by the rule readLines applies to the others.
	known := make(map[int]Line, len(idx))
	for k, i := range idx {
		known[i] = lines[2*k]
		if as, t := lines[2*k], lines[2*k+1]; as.Conf < e.prof.retryConf && t.Conf > as.Conf {
			known[i] = t
		}
	}
	return 0, known, nil
}

// rotateImage turns img clockwise by rot.
func rotateImage(img Image, rot rotation) Image {
	w, h := img.W, img.H
	if rot == 90 || rot == 270 {
		w, h = h, w
	}
	out := Image{W: w, H: h, Channels: img.Channels, Stride: w * img.Channels}
	out.Pix = make([]byte, out.Stride*h)
	kernels.Rotate(out.Pix, out.Stride, img.Pix, img.W, img.H, img.Stride, img.Channels, int(rot))
	return out
}

// lineJob is a line crop on its way through recognition.
type lineJob struct {
	quad   Quad
	c      crop
	cuts   []int // piece boundaries in crop columns
	pieces []recResp
	gs     []glyph // decoded characters and spaces
	ink    ink     // the crop's ink columns, for word gaps
}

// read recognises the jobs' crops (split into pieces where too wide) in
// shared batches and assembles each into a Line; a line where nothing
// was read has an empty Text and zero Conf.
func (e *Engine) read(ctx context.Context, jobs []*lineJob) ([]Line, error) {
	var reqs []recReq
	for _, j := range jobs {
		if e.prof.stretch {
			j.c = j.c.stretched()
		}
		j.cuts = j.c.splitPoints(e.opts.MaxLineWidth)
		for k := 1; k < len(j.cuts); k++ {
			reqs = append(reqs, recReq{c: j.c.sub(j.cuts[k-1], j.cuts[k])})
		}
	}
	resps, err := e.recognise(ctx, reqs)
	if err != nil {
		return nil, err
	}
	for _, j := range jobs {
		n := len(j.cuts) - 1
		j.pieces, resps = resps[:n], resps[n:]
		j.gs = e.glyphs(j)
		j.ink = j.c.inkProfile()
	}
	sp := spacing(jobs)
	out := make([]Line, len(jobs))
	for i, j := range jobs {
		if l, ok := lineFrom(j, tildes(hyphens(resolveMarksBelow(sp.fix(j))))); ok {
			out[i] = l
		}
	}
	return out, nil
}

// recognise reads reqs, the pieces of one read, through the batcher:
// packed into rows among themselves (see rowReq), so that what they read
// does not depend on what else the batcher holds.
func (e *Engine) recognise(ctx context.Context, reqs []recReq) ([]recResp, error) {
	rows := packRows(reqs)
	batch := make([]rowReq, len(rows))
	for i, r := range rows {
		batch[i] = rowReq{reqs: reqs, row: r}
	}
	resps, err := e.recB.DoAll(ctx, batch)
	if err != nil {
		return nil, err
	}
	out := make([]recResp, len(reqs))
	for i, r := range rows {
		for k, sl := range r.slots {
			out[sl.req] = resps[i][k]
		}
	}
	return out, nil
}

// readLines recognises every box of an upright image in reading order.
// Lines read with low confidence are read again turned 180 degrees, and
// the better reading is kept.
func (e *Engine) readLines(ctx context.Context, img Image, boxes []detBox, known map[int]Line) ([]Line, error) {
	lines := make([]Line, len(boxes))
	var jobs []*lineJob
	var idx []int
	for i, b := range boxes {
		if l, ok := known[i]; ok {
			lines[i] = l
			continue
		}
		q := b.r.quad()
		if c, ok := cropQuad(img, q); ok {
			jobs = append(jobs, &lineJob{quad: q, c: c})
			idx = append(idx, i)
		}
	}
	read, err := e.read(ctx, jobs)
	if err != nil {
		return nil, err
	}
	var retry []*lineJob
	var retryIdx []int
	for k, l := range read {
		lines[idx[k]] = l
		if l.Conf < e.prof.retryConf {
			j := jobs[k]
			retry = append(retry, &lineJob{quad: j.quad.flip(), c: j.c.flip()})
			retryIdx = append(retryIdx, idx[k])
		}
	}
	turned := make([]bool, len(lines)) // kept the reading turned over
	if len(retry) > 0 {
		again, err := e.read(ctx, retry)
		if err != nil {
			return nil, err
		}
		turned = keepTurned(lines, again, retryIdx)
		for k, l := range again {
			if i := retryIdx[k]; turned[i] {
				lines[i] = l
			}
		}
	}
	if err := e.crossRead(ctx, img, lines); err != nil {
		return nil, err
	}
	out := lines[:0]
	nTurned := 0
	for i, l := range lines {
		if debugf != nil {
			debugf("line %.0f conf=%.2f %q", l.Quad.UL, l.Conf, l.Text)
		}
		if l.Text != "" && l.Conf >= e.opts.MinConf {
			out = append(out, l)
			if turned[i] {
				nTurned++
			}
		}
	}
	if 2*nTurned > len(out) {
		// Mostly upside down (an image not turned as a whole: Hints.Upright):
		// its last line as it stands is its first.
		slices.Reverse(out)
	}
	return out, nil
}

// keepTurned reports, for each of lines (read as cut), whether its reading
// turned over, again[k] for line idx[k], is kept instead: where it is
// surer, but for a lone character on an image whose longer lines read as
// they stand. Turned over, a lone glyph is often another letter, read
// surely: "n" is "u", "h" reads "ų", and d p, b q, M W, 6 9 likewise, so
// its confidence says nothing of which way up it is; it goes the way of
// the longer lines (a name stacked one letter per line on an upright page
// read "u" and "ų" for its n and h). With no longer line read, the surer
// reading is kept.
func keepTurned(lines, again []Line, idx []int) []bool {
	turned := make([]bool, len(lines))
	lone := make([]bool, len(lines))
	for k, l := range again {
		i := idx[k]
		lone[i] = utf8.RuneCountInString(strings.TrimSpace(lines[i].Text)) == 1
		turned[i] = l.Conf > lines[i].Conf
	}
	long, longTurned := 0, 0
	for i, l := range lines {
		if utf8.RuneCountInString(strings.TrimSpace(l.Text)) > 1 {
			long++
			if turned[i] {
				longTurned++
			}
		}
	}
	if long > 0 && 2*longTurned <= long {
		for i := range turned {
			if lone[i] {
				turned[i] = false
			}
		}
	}
	return turned
}

// glyph is a decoded character placed on the line: its text, centre in
// crop columns and probability.
type glyph struct {
	text  string
	x     float64
	p     float32
	form  float32 // sym.form: how sure the mark below's form is
	space bool
}

// glyphs places a line's decoded pieces on the crop.
func (e *Engine) glyphs(j *lineJob) []glyph {
	var gs []glyph
	for k, r := range j.pieces {
		off := float64(j.cuts[k])
		if k > 0 && len(r.syms) > 0 && len(gs) > 0 && !gs[len(gs)-1].space {
			// A cut is made in a gap; a wide one separates words.
			first := off + (float64(r.syms[0].t0)+0.5)*r.stepW
			if first-gs[len(gs)-1].x > 0.6*recH {
				gs = append(gs, glyph{text: " ", x: off, space: true})
			}
		}
		for _, s := range r.syms {
			t := e.dict[s.class]
			gs = append(gs, glyph{
				text:  t,
				x:     off + (float64(s.t0+s.t1)/2+0.5)*r.stepW,
				p:     s.p,
				form:  s.form,
				space: strings.TrimSpace(t) == "",
			})
		}
	}
	return gs
}

// lineFrom builds a Line from a job's final glyphs; ok is false when
// nothing was read.
func lineFrom(j *lineJob, gs []glyph) (Line, bool) {
	var b strings.Builder
	var sum float32
	var n int
	for _, g := range gs {
		b.WriteString(g.text)
		if !g.space {
			sum += g.p
			n++
		}
	}
	text := strings.TrimSpace(b.String())
	if n == 0 || text == "" {
		return Line{}, false
	}
	return Line{
		Quad:  j.quad,
		Text:  text,
		Conf:  sum / float32(n),
		Words: words(gs, j.quad, float64(j.c.w)),
	}, true
}

// words splits glyphs at spaces. Word and character boundaries lie
// halfway between neighbouring character centres; the first word starts
// at the line's left edge and the last ends at its right edge, so the
// words cover the whole line.
func words(gs []glyph, q Quad, w float64) []Word {
	// Group non-space glyphs into words.
	var groups [][]glyph
	var cur []glyph
	for _, g := range gs {
		if g.space {
			if len(cur) > 0 {
				groups = append(groups, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, g)
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	out := make([]Word, 0, len(groups))
	for i, g := range groups {
		left, right := 0.0, w
		if i > 0 {
			prev := groups[i-1]
			left = (prev[len(prev)-1].x + g[0].x) / 2
		}
		if i < len(groups)-1 {
			right = (g[len(g)-1].x + groups[i+1][0].x) / 2
		}
		var text strings.Builder
		var sum float32
		minP := float32(1)
		chars := make([]Quad, 0, len(g))
		for k, c := range g {
			cl, cr := left, right
			if k > 0 {
				cl = (g[k-1].x + c.x) / 2
			}
			if k < len(g)-1 {
				cr = (c.x + g[k+1].x) / 2
			}
			cq := q.sub(cl/w, cr/w)
			// One quad per rune, splitting the cell if a class holds several.
			nr := utf8.RuneCountInString(c.text)
			for r := 0; r < nr; r++ {
				chars = append(chars, cq.sub(float64(r)/float64(nr), float64(r+1)/float64(nr)))
			}
			text.WriteString(c.text)
			sum += c.p
			minP = min(minP, c.p)
		}
		t := strings.TrimFunc(text.String(), unicode.IsSpace)
		if t == "" {
			continue
		}
		out = append(out, Word{
			Text:  text.String(),
			Quad:  q.sub(left/w, right/w),
			Conf:  sum / float32(len(g)),
			Chars: chars,
			minP:  minP,
		})
	}
	return out
}

// debugf, when set (by tests), traces the pipeline's decisions.
var debugf func(format string, args ...any)
