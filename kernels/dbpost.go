package kernels

import (
	"math"
	"slices"
)

// Kernels of DB (differentiable binarisation) text-detection
// post-processing: thresholding the probability map into 8-connected
// components, and the mean probability inside a quadrilateral (the box
// score). ComponentsRef (flood fill) and QuadMeanRef (per-pixel inside
// test) are the plain references; Components labels horizontal runs with
// union-find and QuadMean sums one span per row.

// Run is a horizontal run of foreground pixels X0..X1-1 on row Y.
type Run struct{ Y, X0, X1 int32 }

// Component is one 8-connected region of pixels above the threshold.
type Component struct {
	Runs                   []Run // sorted by Y, then X0
	Area                   int
	MinX, MinY, MaxX, MaxY int // inclusive pixel bounds
}

// ComponentsRef returns the 8-connected components of prob > thresh on a
// w x h map, ordered by their first pixel in raster order, skipping those
// smaller than minArea pixels.
func ComponentsRef(prob []float32, w, h int, thresh float32, minArea int) []Component {
	seen := make([]bool, w*h)
	var out []Component
	var stack []int
	for start := range prob[:w*h] {
		if seen[start] || !(prob[start] > thresh) {
			continue
		}
		var pix []int
		seen[start] = true
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pix = append(pix, p)
			x, y := p%w, p/w
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					q := ny*w + nx
					if !seen[q] && prob[q] > thresh {
						seen[q] = true
						stack = append(stack, q)
					}
				}
			}
		}
		if len(pix) < minArea {
			continue
		}
		out = append(out, componentFromPixels(pix, w))
	}
	return out
}

func componentFromPixels(pix []int, w int) Component {
	slices.Sort(pix)
	c := Component{Area: len(pix), MinX: math.MaxInt, MinY: math.MaxInt, MaxX: -1, MaxY: -1}
	for _, p := range pix {
		x, y := p%w, p/w
		c.MinX, c.MinY = min(c.MinX, x), min(c.MinY, y)
		c.MaxX, c.MaxY = max(c.MaxX, x), max(c.MaxY, y)
		if n := len(c.Runs); n > 0 && c.Runs[n-1].Y == int32(y) && c.Runs[n-1].X1 == int32(x) {
			c.Runs[n-1].X1++
			continue
		}
		c.Runs = append(c.Runs, Run{int32(y), int32(x), int32(x + 1)})
	}
	return c
}

// Components is ComponentsRef by run-length labelling: each row's runs are
// found in one pass and united with the runs of the row above that touch
// them (8-connectivity: overlapping or diagonal), so the work is
// proportional to the map plus the number of runs.
func Components(prob []float32, w, h int, thresh float32, minArea int) []Component {
	runs := make([]Run, 0, 4*h)
	parent := make([]int32, 0, 4*h)
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int32) {
		ra, rb := find(a), find(b)
		if ra == rb {
			return
		}
		// Keep the earlier run as root so labels follow raster order.
		if ra < rb {
			parent[rb] = ra
		} else {
			parent[ra] = rb
		}
	}
	prevStart, prevEnd := 0, 0 // runs of the previous row: runs[prevStart:prevEnd]
	for y := 0; y < h; y++ {
		row := prob[y*w : y*w+w : y*w+w]
		curStart := len(runs)
		for x := 0; x < w; {
			if !(row[x] > thresh) {
				x++
				continue
			}
			x0 := x
			for x < w && row[x] > thresh {
				x++
			}
			id := int32(len(runs))
			runs = append(runs, Run{int32(y), int32(x0), int32(x)})
			parent = append(parent, id)
			// Runs above touching columns x0-1..x connect. Runs ending
			// before x0-1 cannot touch this run or any later one.
			for prevStart < prevEnd && runs[prevStart].X1 < int32(x0) {
				prevStart++
			}
			for k := prevStart; k < prevEnd && runs[k].X0 <= int32(x); k++ {
				union(int32(k), id)
			}
		}
		prevStart, prevEnd = curStart, len(runs)
	}
	// Gather runs by root; roots in increasing order are components in
	// raster order of their first pixel. One backing array holds every
	// component's runs.
	comp := make([]int32, len(runs))  // run -> component
	index := make([]int32, len(runs)) // root -> component index + 1
	var counts []int32
	for i := range runs {
		r := find(int32(i))
		if index[r] == 0 {
			counts = append(counts, 0)
			index[r] = int32(len(counts))
		}
		ci := index[r] - 1
		comp[i] = ci
		counts[ci]++
	}
	out := make([]Component, len(counts))
	all := make([]Run, len(runs))
	off := 0
	for ci, n := range counts {
		out[ci] = Component{Runs: all[off : off : off+int(n)], MinX: math.MaxInt, MinY: math.MaxInt, MaxX: -1, MaxY: -1}
		off += int(n)
	}
	for i, run := range runs {
		c := &out[comp[i]]
		c.Runs = append(c.Runs, run)
		c.Area += int(run.X1 - run.X0)
		c.MinX, c.MaxX = min(c.MinX, int(run.X0)), max(c.MaxX, int(run.X1)-1)
		c.MinY, c.MaxY = min(c.MinY, int(run.Y)), max(c.MaxY, int(run.Y))
	}
	if minArea > 1 {
		out = slices.DeleteFunc(out, func(c Component) bool { return c.Area < minArea })
	}
	return out
}

// QuadMeanRef is the mean of prob (w x h) over the pixels whose centres
// lie inside the convex polygon pts (clockwise or counter-clockwise, in
// pixel coordinates where pixel (x, y) covers [x, x+1) x [y, y+1)); 0 when
// no pixel centre is inside.
func QuadMeanRef(prob []float32, w, h int, pts [][2]float64) float64 {
	var sum float64
	var n int
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if insideConvex(pts, float64(x)+0.5, float64(y)+0.5) {
				sum += float64(prob[y*w+x])
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func insideConvex(pts [][2]float64, px, py float64) bool {
	var pos, neg bool
	for i := range pts {
		a, b := pts[i], pts[(i+1)%len(pts)]
		cr := (b[0]-a[0])*(py-a[1]) - (b[1]-a[1])*(px-a[0])
		if cr > 0 {
			pos = true
		} else if cr < 0 {
			neg = true
		}
		if pos && neg {
			return false
		}
	}
	return true
}

// QuadMean is QuadMeanRef computed row by row: the polygon's edges give
// the span of pixel centres inside it on each row, which is summed
// directly.
func QuadMean(prob []float32, w, h int, pts [][2]float64) float64 {
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		minY, maxY = math.Min(minY, p[1]), math.Max(maxY, p[1])
	}
	y0 := max(int(math.Ceil(minY-0.5)), 0)
	y1 := min(int(math.Floor(maxY-0.5)), h-1)
	var sum float64
	var n int
	for y := y0; y <= y1; y++ {
		cy := float64(y) + 0.5
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range pts {
			a, b := pts[i], pts[(i+1)%len(pts)]
			if (a[1] > cy) == (b[1] > cy) && a[1] != cy && b[1] != cy {
				continue
			}
			if a[1] == b[1] { // horizontal edge on this row
				lo, hi = math.Min(lo, math.Min(a[0], b[0])), math.Max(hi, math.Max(a[0], b[0]))
				continue
			}
			t := (cy - a[1]) / (b[1] - a[1])
			if t < 0 || t > 1 {
				continue
			}
			x := a[0] + t*(b[0]-a[0])
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if lo > hi {
			continue
		}
		// Pixel centres x+0.5 within [lo, hi].
		x0 := max(int(math.Ceil(lo-0.5)), 0)
		x1 := min(int(math.Floor(hi-0.5)), w-1)
		row := prob[y*w:]
		for x := x0; x <= x1; x++ {
			sum += float64(row[x])
		}
		if x1 >= x0 {
			n += x1 - x0 + 1
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
