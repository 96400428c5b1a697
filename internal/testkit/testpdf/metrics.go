package testpdf

// Helvetica metrics from Adobe's Helvetica AFM, in 1/1000 em.
const (
	// HelveticaAscender and HelveticaDescender are the AFM's Ascender and
	// Descender: the extent of a line of Helvetica above and below the
	// baseline. Word boxes computed by this package span them.
	HelveticaAscender  = 718
	HelveticaDescender = -207
)

// helveticaWidths holds the advance widths of Helvetica by WinAnsi code
// (Adobe's Helvetica AFM; 0 for codes WinAnsi leaves undefined).
var helveticaWidths = [256]uint16{
	// 0-31: control characters
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	// 32-127
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
	// 128-159: WinAnsi additions
	556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
	0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667,
	// 160-255: Latin-1
	278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
	400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
	667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
	722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
	556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
	556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
}

// winAnsiHigh maps WinAnsi codes 0x80-0x9F to Unicode (0: undefined).
var winAnsiHigh = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// WinAnsi returns the WinAnsi (PDF's variant of Windows-1252) code of r,
// or false when Helvetica cannot show r through WinAnsiEncoding.
func WinAnsi(r rune) (byte, bool) {
	switch {
	case r >= 0x20 && r < 0x7F, r >= 0xA0 && r <= 0xFF:
		return byte(r), true
	}
	for i, u := range winAnsiHigh {
		if u != 0 && u == r {
			return byte(0x80 + i), true
		}
	}
	return 0, false
}

// encode converts s to WinAnsi bytes. It panics on a rune WinAnsi lacks:
// testpdf builds test fixtures, and a fixture that silently differs from
// what the test asked for would make the test lie.
func encode(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		b, ok := WinAnsi(r)
		if !ok {
			panic("testpdf: rune " + string(r) + " has no WinAnsi code")
		}
		out = append(out, b)
	}
	return out
}

// RuneWidth is the Helvetica advance width of r in 1/1000 em, or 0 when
// r is not in WinAnsi.
func RuneWidth(r rune) int {
	b, ok := WinAnsi(r)
	if !ok {
		return 0
	}
	return int(helveticaWidths[b])
}

// StringWidth is the advance width in points of s set in Helvetica at size.
func StringWidth(s string, size float64) float64 {
	w := 0
	for _, r := range s {
		w += RuneWidth(r)
	}
	return float64(w) * size / 1000
}
