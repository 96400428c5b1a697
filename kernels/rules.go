package kernels

// Rules: long thin runs in a mask of ink.
//
// A form's rules, table borders and comb-box walls are runs of ink far
// longer than they are thick; letters are not (a "1" or an "l" is a few
// strokes wide for its height, a dash as long as a letter). The page's
// ink map leaves them out so that a form's grid does not join its text
// into one component (engine/pipeline), and the recogniser's input has
// them painted out so that a boxed "1" does not read as "Ļ" (models/ocr).
// Both find them here.

// RuleSpec says which runs ThinRuns marks, in cells of the mask: a
// horizontal run of at least MinH cells where the ink is at most Thick
// cells tall; a vertical run of at least MinV cells where it is at most
// Thick cells wide; and a vertical run of at least MinWall cells (a box's
// wall, shorter than a free-standing rule) that meets, within Thick
// cells of one of its ends, a horizontal run of at least MinH cells. A
// MinWall of 0 or at least MinV marks no walls apart.
type RuleSpec struct {
	MinH, MinV, MinWall, Thick int
	// Crossings marks too where such a horizontal run crosses such a
	// vertical one, most of which is at most Thick wide (a box's
	// corners, where a row of boxes meets its walls); a solid area, all
	// of whose runs are long both ways, is no crossing.
	Crossings bool
}

// ThinRunsRef is the reference for ThinRuns: every run measured again
// from every cell.
func ThinRunsRef(out, mask []bool, w, h int, s RuleSpec) {
	hrun := func(x, y int) int {
		a, b := x, x
		for a > 0 && mask[y*w+a-1] {
			a--
		}
		for b < w-1 && mask[y*w+b+1] {
			b++
		}
		return b - a + 1
	}
	vspan := func(x, y int) (int, int) {
		a, b := y, y
		for a > 0 && mask[(a-1)*w+x] {
			a--
		}
		for b < h-1 && mask[(b+1)*w+x] {
			b++
		}
		return a, b
	}
	for y := range h {
		for x := range w {
			i := y*w + x
			out[i] = false
			if !mask[i] {
				continue
			}
			a, b := vspan(x, y)
			vr, hr := b-a+1, hrun(x, y)
			thin := 0
			for k := a; k <= b; k++ {
				if hrun(x, k) <= s.Thick {
					thin++
				}
			}
			wall := false
			if s.MinWall > 0 && vr >= s.MinWall {
				for k := a; k <= b; k++ {
					if (k-a <= s.Thick || b-k <= s.Thick) && hrun(x, k) >= s.MinH {
						wall = true
					}
				}
			}
			vertical := vr >= s.MinV || wall
			switch {
			case hr >= s.MinH && vr <= s.Thick:
				out[i] = true
			case hr <= s.Thick && vertical:
				out[i] = true
			case s.Crossings && hr >= s.MinH && vertical && 2*thin >= vr:
				out[i] = true
			}
		}
	}
}

// ThinRuns marks in out (w*h cells, row-major, like mask) the cells of
// mask that lie on a rule by s, and clears the others. hrun, when at
// least w*h long, is used as scratch; otherwise one is allocated. Runs
// are counted up to 65535 cells.
func ThinRuns(out, mask []bool, w, h int, s RuleSpec, hrun []uint16) {
	n := w * h
	if len(hrun) < n {
		hrun = make([]uint16, n)
	}
	hrun = hrun[:n]
	// Horizontal run lengths through each cell.
	for y := range h {
		row, hr := mask[y*w:(y+1)*w], hrun[y*w:(y+1)*w]
		for x := 0; x < w; {
			if !row[x] {
				hr[x] = 0
				x++
				continue
			}
			e := x
			for e < w && row[e] {
				e++
			}
			l := uint16(min(e-x, 65535))
			for k := x; k < e; k++ {
				hr[k] = l
			}
			x = e
		}
	}
	minH, thick := clampRun(s.MinH), clampRun(s.Thick)
	walls := s.MinWall > 0 && s.MinWall < s.MinV
	// Vertical runs, column by column, decide each cell.
	for x := range w {
		for y := 0; y < h; {
			i := y*w + x
			if !mask[i] {
				out[i] = false
				y++
				continue
			}
			e := y
			for e < h && mask[e*w+x] {
				e++
			}
			vr := e - y
			vertical := vr >= s.MinV
			if !vertical && walls && vr >= s.MinWall {
				// A wall: a long horizontal run near either end.
				for k := y; k < e && !vertical; k++ {
					if k-y > s.Thick && e-1-k > s.Thick {
						k = e - 1 - s.Thick - 1 // skip to the lower end
						continue
					}
					vertical = hrun[k*w+x] >= minH
				}
			}
			crossing := false
			if vertical && s.Crossings {
				thin := 0
				for k := y; k < e; k++ {
					if hrun[k*w+x] <= thick {
						thin++
					}
				}
				crossing = 2*thin >= vr
			}
			for k := y; k < e; k++ {
				hr := hrun[k*w+x]
				out[k*w+x] = (hr >= minH && (vr <= s.Thick || crossing)) || (hr <= thick && vertical)
			}
			y = e
		}
	}
}

func clampRun(v int) uint16 { return uint16(min(max(v, 0), 65535)) }
