package report

import (
	"fmt"
	"strings"
	"time"
)

// ocrSection writes the OCR comparison: one row per system, each page's
// error rate by system, and the method.
func (r *Report) ocrSection(p func(string, ...any)) {
	o := r.OCR
	if o == nil {
		return
	}
	p("## OCR accuracy and speed")
	p("")
	if o.Err != "" {
		p("Not run: %s.", o.Err)
		p("")
		return
	}
	p("redactd's OCR and Tesseract read the same %d clean %g-dpi gray PNG renders of real PDF pages, one system after the other on this %d-CPU machine (1-minute load average %s → %s; other work on the machine shares the CPUs). Truth is each page's text layer. Pages/s is pages over the wall time from the first PNG read to the last page recognised (the target's measure); CPU s/page is the processor time used per page (the bench's own for redactd, Tesseract's processes' for Tesseract), which other work on the machine barely changes.",
		len(o.Pages), o.DPI, r.Machine.CPUs, o.LoadStart, o.LoadEnd)
	p("")
	p("| system | version | pages | wall | pages/s | pages/s/core | CPU s/page | CER | word recall | truth characters | words outside truth lines | how it was run |")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, s := range o.Systems {
		ver := s.Version
		if ver == "" {
			ver = "-"
		}
		switch {
		case s.Missing != "":
			p("| %s | - | - | - | missing: %s | - | - | - | - | - | - | %s |", s.Name, s.Missing, s.How)
		case s.Err != "":
			p("| %s | %s | - | - | failed: %s | - | - | - | - | - | - | %s |", s.Name, ver, s.Err, s.How)
		default:
			p("| %s | %s | %d | %s | %s | %s | %.2f | %s | %s | %d | %d | %s |", s.Name, ver, s.Pages, s.Wall.Round(10*time.Millisecond),
				Rate(s.PagesPerSec()), Rate(s.PagesPerSec()/float64(max(r.Machine.CPUs, 1))), s.CPU.Seconds()/float64(max(s.Pages, 1)),
				pct2(s.CER), pct(s.WordRecall), s.Chars, s.Extra, s.How)
		}
	}
	p("")
	if len(o.Systems) >= 2 && o.Systems[0].PagesPerSec() > 0 && o.Systems[1].PagesPerSec() > 0 {
		a, b := o.Systems[0], o.Systems[1]
		p("%s ÷ %s: %.2fx the pages/s, at a CER of %s against %s.", a.Name, b.Name, a.PagesPerSec()/b.PagesPerSec(), pct2(a.CER), pct2(b.CER))
		p("")
	}

	names := make([]string, len(o.Systems))
	for i, s := range o.Systems {
		names[i] = "CER " + s.Name
	}
	p("By page:")
	p("")
	p("| page | truth lines | truth characters | %s |", strings.Join(names, " | "))
	p("|---|---|---|%s", strings.Repeat("---|", len(names)))
	for _, pg := range o.Pages {
		cells := make([]string, len(pg.CER))
		for i, v := range pg.CER {
			cells[i] = pct(v)
		}
		p("| %s | %d | %d | %s |", pg.Name, pg.Lines, pg.Chars, strings.Join(cells, " | "))
	}
	p("")
	p("Method:")
	p("")
	p("- **Pages**: the PDFs under `documents/` of the shared data, in name order; from each, its first pages (up to 3) whose text layer is usable: at least 40 plausible horizontal words (half or more of their characters letters or digits, no replacement, control or private-use characters), plausible words at least 85%% of all, a vowel in at least 75%% of the words of 4+ letters (a font with a broken encoding gives consonant soup), at least 95%% of letters Latin. Pages are taken one per document in turn up to the set's size (pages with many punctuation-only words, such as leader dots, fall out). Each is rendered once by MuPDF (engine/pipeline/mupdf) at %g dpi, gray, to PNG; both systems read those files.", o.DPI)
	p("- **Truth**: the words MuPDF extracts from the page, grouped into its lines, boxes scaled to the render's pixels. Left out: rotated or upside-down words, a word repeated at the same place (fake bold), and lines with no ink under them on the render (hidden or same-colour text): %d lines in all.", o.Dropped)
	p("- **Matching**: each system word goes to the truth line whose box, padded by half the line's height sideways and a quarter of it up and down, holds the word's centre (the vertically nearest when several do); a line's words are joined left to right with single spaces. So the order a system reads lines in does not matter, and words read outside every truth line (logos, pictures without a text layer) are counted apart, not as errors.")
	p("- **Normalisation**, on both sides: NFKC (ligatures, full-width forms, no-break spaces), typographic quotes, dashes and minus to ASCII, two apostrophes read as a double quote, soft hyphens dropped, bullets to one symbol, whitespace collapsed; case kept.")
	p("- **CER** = Σ Levenshtein(truth line, system line) ÷ Σ truth line length, in characters (runes), spaces between words included. **Word recall** = share of truth words (normalised) found exactly among the system's words on the same line.")
	p("- **redactd**: models/ocr in the bench's process, loaded as the server loads it by default (ONNX Runtime on the CPU, intra-op threads = CPUs, default options), one unmeasured call on part of the first page first; model loading is not timed. **Tesseract**: the Debian package with its English model, one process per page, so each page pays its start-up, as a redactor calling it would.")
	p("")
}

// pct2 formats a rate as a percentage with two decimals.
func pct2(f float64) string {
	if f != f { // NaN
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*f)
}
