package pdfout

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// ErrUnsafe wraps every error Verify returns for a file that is not a
// clean image-only PDF as this package writes it.
var ErrUnsafe = errors.New("pdfout: output failed verification")

// Keys that, anywhere in the file, mean content other than page images:
// named so the error says what was found.
var forbiddenKeys = map[string]string{
	"Font": "a font", "FontDescriptor": "a font", "FontFile": "an embedded font",
	"FontFile2": "an embedded font", "FontFile3": "an embedded font",
	"Info": "a document information dictionary", "ID": "a file identifier",
	"Metadata": "XMP metadata", "Annots": "annotations", "AcroForm": "a form",
	"JavaScript": "JavaScript", "JS": "JavaScript", "EmbeddedFile": "an embedded file",
	"EmbeddedFiles": "embedded files", "Names": "a name tree", "OpenAction": "an open action",
	"AA": "additional actions", "URI": "a link", "Outlines": "outlines (bookmarks)",
	"Encrypt": "encryption", "Prev": "a previous revision (incremental update)",
	"XRefStm": "a cross-reference stream", "Launch": "a launch action",
	"SubmitForm": "a form action", "XFA": "an XFA form", "PieceInfo": "private data",
	"StructTreeRoot": "a structure tree (tagged text)", "ActualText": "replacement text",
	"OCProperties": "optional content", "Threads": "article threads",
	"Dests": "named destinations", "Collection": "a portfolio",
}

// Name values that mark an object as something other than page images,
// whatever key holds them (/Type, /Subtype, /S).
var forbiddenNames = map[string]string{
	"EmbeddedFile": "an embedded file", "Filespec": "a file specification",
	"JavaScript": "JavaScript", "Launch": "a launch action", "URI": "a link",
	"Annot": "an annotation", "Widget": "a form field", "Font": "a font",
	"Metadata": "XMP metadata", "XML": "XMP metadata", "Sig": "a signature",
	"Action": "an action", "Outlines": "outlines (bookmarks)", "Form": "a form XObject",
	"Pattern": "a pattern", "ObjStm": "an object stream", "XRef": "a cross-reference stream",
}

// object is one indirect object as found in the file.
type object struct {
	num       int64
	off       int64
	dict      value
	stream    bool
	dataOff   int64
	dataLen   int64
	reachedBy string // role given by the first reference to it
}

// maxContentStream bounds the page content stream Verify reads; ours is
// one short line.
const maxContentStream = 4 << 10

// Verify checks that pdf (size bytes) is an image-only PDF in exactly the
// shape Writer produces, before a document is released: one revision, a
// cross-reference table that matches the objects, and nothing but the
// catalog, the page tree, pages, image XObjects and content streams that
// only draw those images. It rejects fonts, text operators, metadata,
// /Info, /ID, annotations, forms, actions, JavaScript, attachments,
// outlines, strings of any kind, unreferenced objects and data after
// %%EOF. Stream data of images is not decoded; only its first bytes are
// checked against the declared filter. Errors wrap ErrUnsafe and say what
// was found and where.
func Verify(pdf io.ReaderAt, size int64) error {
	if err := verify(pdf, size); err != nil {
		return fmt.Errorf("%w: %w", ErrUnsafe, err)
	}
	return nil
}

func verify(r io.ReaderAt, size int64) error {
	s := newScanner(r, size)
	hdr, err := s.readAt(0, int(min(int64(len(Header)), max(size, 0))))
	if err != nil {
		return err
	}
	if !bytes.Equal(hdr, []byte(Header)) {
		return s.errorf(0, "header is not %q", Header[:8])
	}
	s.pos = int64(len(Header))

	objs := map[int64]*object{}
	var order []*object
	for {
		t, err := s.next()
		if err != nil {
			return err
		}
		if t.kind == tKeyword && t.s == "xref" {
			s.unread(t)
			break
		}
		if t.kind != tInt {
			return s.errorf(t.pos, "want an object or the xref table")
		}
		o, err := parseObject(s, t)
		if err != nil {
			return err
		}
		if objs[o.num] != nil {
			return s.errorf(o.off, "object %d defined twice (incremental update?)", o.num)
		}
		objs[o.num] = o
		order = append(order, o)
	}
	xrefTok, _ := s.next()
	xrefOff := xrefTok.pos
	if err := checkXref(s, objs, len(order)); err != nil {
		return err
	}
	root, err := checkTrailer(s, len(order)+1, xrefOff)
	if err != nil {
		return err
	}
	return checkTree(s, objs, order, root)
}

// parseObject reads "N 0 obj << ... >> [stream ... endstream] endobj";
// t is the object number token.
func parseObject(s *scanner, t token) (*object, error) {
	if t.i <= 0 || t.i > 1<<30 {
		return nil, s.errorf(t.pos, "bad object number %d", t.i)
	}
	o := &object{num: t.i, off: t.pos}
	gen, err := s.expectInt("generation number")
	if err != nil {
		return nil, err
	}
	if gen.i != 0 {
		return nil, s.errorf(gen.pos, "object %d has generation %d (the writer uses 0)", o.num, gen.i)
	}
	if _, err := s.expectKeyword("obj"); err != nil {
		return nil, err
	}
	if o.dict, err = s.parseValue(0); err != nil {
		return nil, err
	}
	if o.dict.kind != vDict {
		return nil, s.errorf(o.dict.pos, "object %d is a %s, not a dictionary", o.num, o.dict.kind)
	}
	if err := checkForbidden(s, o.num, o.dict); err != nil {
		return nil, err
	}
	kw, err := s.next()
	if err != nil {
		return nil, err
	}
	if kw.kind == tKeyword && kw.s == "endobj" {
		return o, nil
	}
	if kw.kind != tKeyword || kw.s != "stream" {
		return nil, s.errorf(kw.pos, "object %d: want stream or endobj", o.num)
	}
	// "stream" is followed by an end-of-line, then exactly /Length bytes.
	if c, ok, err := s.peekByte(); err != nil {
		return nil, err
	} else if ok && c == '\r' {
		s.pos++
	}
	if c, ok, err := s.peekByte(); err != nil {
		return nil, err
	} else if !ok || c != '\n' {
		return nil, s.errorf(s.pos, "object %d: no end of line after stream", o.num)
	}
	s.pos++
	ln, ok := o.dict.dict["Length"]
	if !ok || ln.kind != vInt || ln.i < 0 {
		return nil, s.errorf(o.dict.pos, "object %d: stream without a direct /Length", o.num)
	}
	if ln.i > s.size-s.pos {
		return nil, s.errorf(s.pos, "object %d: stream of %d bytes runs past the end of the file", o.num, ln.i)
	}
	o.stream, o.dataOff, o.dataLen = true, s.pos, ln.i
	s.pos += ln.i
	s.pending = nil
	// Exactly one end-of-line, then endstream: /Length must be exact.
	end, err := s.readAt(s.pos, int(min(11, s.size-s.pos)))
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(end, []byte("\nendstream")) && !bytes.HasPrefix(end, []byte("\r\nendstream")) {
		return nil, s.errorf(s.pos, "object %d: stream /Length %d is not followed by endstream", o.num, ln.i)
	}
	if _, err := s.expectKeyword("endstream"); err != nil {
		return nil, err
	}
	if _, err := s.expectKeyword("endobj"); err != nil {
		return nil, err
	}
	return o, nil
}

// checkForbidden walks a dictionary and everything inside it.
func checkForbidden(s *scanner, num int64, v value) error {
	switch v.kind {
	case vDict:
		for _, k := range v.keys {
			if what, bad := forbiddenKeys[k]; bad {
				return s.errorf(v.dict[k].pos, "object %d contains /%s: %s", num, k, what)
			}
			if err := checkForbidden(s, num, v.dict[k]); err != nil {
				return err
			}
		}
	case vArray:
		for _, e := range v.arr {
			if err := checkForbidden(s, num, e); err != nil {
				return err
			}
		}
	case vName:
		if what, bad := forbiddenNames[v.name]; bad {
			return s.errorf(v.pos, "object %d contains /%s: %s", num, v.name, what)
		}
	}
	return nil
}

// checkXref reads the cross-reference table and compares every entry with
// where the object really is.
func checkXref(s *scanner, objs map[int64]*object, n int) error {
	first, err := s.expectInt("first object number of the xref section")
	if err != nil {
		return err
	}
	count, err := s.expectInt("xref entry count")
	if err != nil {
		return err
	}
	if first.i != 0 || count.i != int64(n)+1 {
		return s.errorf(first.pos, "xref section %d %d, want 0 %d", first.i, count.i, n+1)
	}
	// Entries are fixed 20-byte lines right after the subsection header.
	if err := s.skipSpace(); err != nil {
		return err
	}
	for i := int64(0); i <= int64(n); i++ {
		pos := s.pos
		e, err := s.readAt(pos, 20)
		if err != nil {
			return err
		}
		s.pos += 20
		want := "0000000000 65535 f"
		if i > 0 {
			o := objs[i]
			if o == nil {
				return s.errorf(pos, "xref entry %d names a missing object", i)
			}
			want = fmt.Sprintf("%010d 00000 n", o.off)
		}
		if string(e[:18]) != want || !(e[18] == ' ' && (e[19] == '\n' || e[19] == '\r') || e[18] == '\r' && e[19] == '\n') {
			return s.errorf(pos, "xref entry %d is %q, want %q", i, printable(e), want)
		}
	}
	return nil
}

// checkTrailer reads the trailer and the end of the file, returning the
// catalog's object number.
func checkTrailer(s *scanner, size int, xrefOff int64) (int64, error) {
	if _, err := s.expectKeyword("trailer"); err != nil {
		return 0, err
	}
	d, err := s.parseValue(0)
	if err != nil {
		return 0, err
	}
	if d.kind != vDict {
		return 0, s.errorf(d.pos, "trailer is not a dictionary")
	}
	if err := checkForbidden(s, 0, d); err != nil {
		return 0, err
	}
	if err := onlyKeys(s, "trailer", d, "Size", "Root"); err != nil {
		return 0, err
	}
	if sz := d.dict["Size"]; sz.kind != vInt || sz.i != int64(size) {
		return 0, s.errorf(d.pos, "trailer /Size is not %d", size)
	}
	root := d.dict["Root"]
	if root.kind != vRef {
		return 0, s.errorf(d.pos, "trailer /Root is not a reference")
	}
	if _, err := s.expectKeyword("startxref"); err != nil {
		return 0, err
	}
	sx, err := s.expectInt("xref offset")
	if err != nil {
		return 0, err
	}
	if sx.i != xrefOff {
		return 0, s.errorf(sx.pos, "startxref %d, but the xref table is at %d", sx.i, xrefOff)
	}
	if err := s.skipSpace(); err != nil {
		return 0, err
	}
	eof, err := s.readAt(s.pos, int(min(5, s.size-s.pos)))
	if err != nil {
		return 0, err
	}
	if string(eof) != "%%EOF" {
		return 0, s.errorf(s.pos, "no %%%%EOF after startxref")
	}
	s.pos += 5
	if rest := s.size - s.pos; rest > 0 {
		tail, err := s.readAt(s.pos, int(min(rest, 2)))
		if err != nil {
			return 0, err
		}
		if string(tail) == "\n" || string(tail) == "\r\n" || (rest == 1 && tail[0] == '\r') {
			return root.i, nil
		}
		return 0, tailError(s)
	}
	return root.i, nil
}

// tailError describes data after the first %%EOF.
func tailError(s *scanner) error {
	rest := s.size - s.pos
	tail, err := s.readAt(s.pos, int(min(rest, 1<<20)))
	if err != nil {
		return err
	}
	if bytes.Contains(tail, []byte("%%EOF")) || bytes.Contains(tail, []byte("xref")) {
		return s.errorf(s.pos, "%d bytes after %%%%EOF holding another revision (incremental update)", rest)
	}
	return s.errorf(s.pos, "%d bytes of trailing data after %%%%EOF", rest)
}

// onlyKeys rejects keys outside allowed.
func onlyKeys(s *scanner, what string, d value, allowed ...string) error {
	for _, k := range d.keys {
		if !slices.Contains(allowed, k) {
			return s.errorf(d.dict[k].pos, "unexpected key /%s in %s", printable([]byte(k)), what)
		}
	}
	return nil
}

// wantName checks that d[key] is the name want.
func wantName(s *scanner, what string, d value, key string, want ...string) (string, error) {
	v, ok := d.dict[key]
	if !ok {
		return "", s.errorf(d.pos, "%s has no /%s", what, key)
	}
	if v.kind != vName || !slices.Contains(want, v.name) {
		return "", s.errorf(v.pos, "%s: /%s is not %v", what, key, want)
	}
	return v.name, nil
}

// wantInt checks that d[key] is an integer in lo..hi.
func wantInt(s *scanner, what string, d value, key string, lo, hi int64) (int64, error) {
	v, ok := d.dict[key]
	if !ok {
		return 0, s.errorf(d.pos, "%s has no /%s", what, key)
	}
	if v.kind != vInt || v.i < lo || v.i > hi {
		return 0, s.errorf(v.pos, "%s: /%s is not an integer in %d..%d", what, key, lo, hi)
	}
	return v.i, nil
}

// tree walks the document from the catalog and gives each object its role.
type tree struct {
	s    *scanner
	objs map[int64]*object
}

// claim resolves a reference and records that it is used as role; an
// object may be used once.
func (t *tree) claim(v value, role, from string) (*object, error) {
	if v.kind != vRef {
		return nil, t.s.errorf(v.pos, "%s: %s is a %s, not a reference", from, role, v.kind)
	}
	o := t.objs[v.i]
	if o == nil {
		return nil, t.s.errorf(v.pos, "%s: %s refers to missing object %d", from, role, v.i)
	}
	if o.reachedBy != "" {
		return nil, t.s.errorf(v.pos, "%s: object %d used again as %s (already %s)", from, v.i, role, o.reachedBy)
	}
	o.reachedBy = role
	return o, nil
}

func checkTree(s *scanner, objs map[int64]*object, order []*object, root int64) error {
	t := &tree{s: s, objs: objs}
	cat, err := t.claim(value{kind: vRef, i: root}, "catalog", "trailer")
	if err != nil {
		return err
	}
	what := fmt.Sprintf("catalog (object %d)", cat.num)
	if err := t.plain(cat, what, "Type", "Pages"); err != nil {
		return err
	}
	if _, err := wantName(s, what, cat.dict, "Type", "Catalog"); err != nil {
		return err
	}
	pages, err := t.claim(cat.dict.dict["Pages"], "page tree", what)
	if err != nil {
		return err
	}
	what = fmt.Sprintf("page tree (object %d)", pages.num)
	if err := t.plain(pages, what, "Type", "Kids", "Count"); err != nil {
		return err
	}
	if _, err := wantName(s, what, pages.dict, "Type", "Pages"); err != nil {
		return err
	}
	kids := pages.dict.dict["Kids"]
	if kids.kind != vArray || len(kids.arr) == 0 {
		return s.errorf(pages.dict.pos, "%s: /Kids is not a non-empty array", what)
	}
	if _, err := wantInt(s, what, pages.dict, "Count", int64(len(kids.arr)), int64(len(kids.arr))); err != nil {
		return err
	}
	for i, k := range kids.arr {
		p, err := t.claim(k, fmt.Sprintf("page %d", i+1), what)
		if err != nil {
			return err
		}
		if err := t.page(p, pages.num, i+1); err != nil {
			return err
		}
	}
	for _, o := range order {
		if o.reachedBy == "" {
			return s.errorf(o.off, "object %d is not part of any page", o.num)
		}
	}
	return nil
}

// plain checks a non-stream object's keys.
func (t *tree) plain(o *object, what string, keys ...string) error {
	if o.stream {
		return t.s.errorf(o.off, "%s is a stream", what)
	}
	return onlyKeys(t.s, what, o.dict, keys...)
}

func (t *tree) page(p *object, parent int64, n int) error {
	s := t.s
	what := fmt.Sprintf("page %d (object %d)", n, p.num)
	if err := t.plain(p, what, "Type", "Parent", "MediaBox", "Resources", "Contents"); err != nil {
		return err
	}
	d := p.dict
	if _, err := wantName(s, what, d, "Type", "Page"); err != nil {
		return err
	}
	if par := d.dict["Parent"]; par.kind != vRef || par.i != parent {
		return s.errorf(d.pos, "%s: /Parent is not the page tree", what)
	}
	mb := d.dict["MediaBox"]
	if mb.kind != vArray || len(mb.arr) != 4 {
		return s.errorf(d.pos, "%s: /MediaBox is not an array of 4 numbers", what)
	}
	for i, v := range mb.arr {
		if !v.isNumber() || (i < 2 && v.f != 0) || (i >= 2 && !(v.f > 0 && v.f <= maxPagePt)) {
			return s.errorf(mb.pos, "%s: /MediaBox is not [0 0 width height]", what)
		}
	}
	res := d.dict["Resources"]
	if res.kind != vDict {
		return s.errorf(d.pos, "%s: /Resources is not a dictionary", what)
	}
	if err := onlyKeys(s, what+" resources", res, "XObject"); err != nil {
		return err
	}
	xo := res.dict["XObject"]
	if xo.kind != vDict || len(xo.keys) == 0 {
		return s.errorf(res.pos, "%s: no image in /Resources /XObject", what)
	}
	for _, name := range xo.keys {
		img, err := t.claim(xo.dict[name], "image /"+name+" of "+what, what)
		if err != nil {
			return err
		}
		if err := t.image(img, fmt.Sprintf("image /%s of %s (object %d)", name, what, img.num)); err != nil {
			return err
		}
	}
	c, err := t.claim(d.dict["Contents"], "content stream of "+what, what)
	if err != nil {
		return err
	}
	return t.content(c, what, xo)
}

func (t *tree) image(o *object, what string) error {
	s := t.s
	d := o.dict
	if !o.stream {
		return s.errorf(o.off, "%s is not a stream", what)
	}
	if err := onlyKeys(s, what, d, "Type", "Subtype", "Width", "Height", "ColorSpace",
		"BitsPerComponent", "Filter", "DecodeParms", "Length"); err != nil {
		return err
	}
	if _, ok := d.dict["Type"]; ok {
		if _, err := wantName(s, what, d, "Type", "XObject"); err != nil {
			return err
		}
	}
	if _, err := wantName(s, what, d, "Subtype", "Image"); err != nil {
		return err
	}
	w, err := wantInt(s, what, d, "Width", 1, 1<<24)
	if err != nil {
		return err
	}
	if _, err := wantInt(s, what, d, "Height", 1, 1<<24); err != nil {
		return err
	}
	cs, err := wantName(s, what, d, "ColorSpace", "DeviceGray", "DeviceRGB")
	if err != nil {
		return err
	}
	bpc, err := wantInt(s, what, d, "BitsPerComponent", 4, 8)
	if err != nil {
		return err
	}
	filter, err := wantName(s, what, d, "Filter", "FlateDecode", "DCTDecode")
	if err != nil {
		return err
	}
	if bpc != 8 && (bpc != 4 || filter != "FlateDecode") {
		return s.errorf(d.pos, "%s: %d bits per component with %s", what, bpc, filter)
	}
	head, err := s.readAt(o.dataOff, int(min(2, o.dataLen)))
	if err != nil {
		return err
	}
	if filter == "DCTDecode" {
		if _, ok := d.dict["DecodeParms"]; ok {
			return s.errorf(d.pos, "%s: /DecodeParms with DCTDecode", what)
		}
		if !bytes.Equal(head, []byte{0xFF, 0xD8}) {
			return s.errorf(o.dataOff, "%s: stream is not a JPEG", what)
		}
		return nil
	}
	if len(head) < 2 || head[0]&0x0F != 8 || (int(head[0])<<8|int(head[1]))%31 != 0 || head[1]&0x20 != 0 {
		return s.errorf(o.dataOff, "%s: stream is not zlib data", what)
	}
	dp, ok := d.dict["DecodeParms"]
	if !ok {
		return nil
	}
	if dp.kind != vDict {
		return s.errorf(d.pos, "%s: /DecodeParms is not a dictionary", what)
	}
	pw := what + " /DecodeParms"
	if err := onlyKeys(s, pw, dp, "Predictor", "Colors", "BitsPerComponent", "Columns"); err != nil {
		return err
	}
	colors := int64(3)
	if cs == "DeviceGray" {
		colors = 1
	}
	if _, err := wantInt(s, pw, dp, "Predictor", 15, 15); err != nil {
		return err
	}
	if _, err := wantInt(s, pw, dp, "Colors", colors, colors); err != nil {
		return err
	}
	if _, err := wantInt(s, pw, dp, "BitsPerComponent", bpc, bpc); err != nil {
		return err
	}
	_, err = wantInt(s, pw, dp, "Columns", w, w)
	return err
}

// content checks that a page's content stream only saves and restores the
// graphics state, sets the matrix and draws the page's images.
func (t *tree) content(o *object, page string, xobjects value) error {
	s := t.s
	what := "content stream of " + page
	if !o.stream {
		return s.errorf(o.off, "%s is not a stream", what)
	}
	if err := onlyKeys(s, what, o.dict, "Length"); err != nil {
		return err
	}
	if o.dataLen > maxContentStream {
		return s.errorf(o.dataOff, "%s is %d bytes long (the writer's is one line)", what, o.dataLen)
	}
	data, err := s.readAt(o.dataOff, int(o.dataLen))
	if err != nil {
		return err
	}
	cs := newScanner(bytes.NewReader(data), int64(len(data)))
	var operands []value
	depth, draws := 0, 0
	for {
		tok, err := cs.next()
		if err != nil {
			return s.errorf(o.dataOff, "%s: %v", what, err)
		}
		switch tok.kind {
		case tEOF:
			if depth != 0 {
				return s.errorf(o.dataOff, "%s: unbalanced q/Q", what)
			}
			if draws == 0 {
				return s.errorf(o.dataOff, "%s draws nothing", what)
			}
			return nil
		case tInt, tReal:
			operands = append(operands, value{kind: vReal, f: tok.f})
		case tName:
			operands = append(operands, value{kind: vName, name: tok.s})
		case tKeyword:
			if err := contentOp(tok.s, operands, &depth, xobjects); err != nil {
				return s.errorf(o.dataOff+tok.pos, "%s: %v", what, err)
			}
			if tok.s == "Do" {
				draws++
			}
			operands = operands[:0]
		default:
			return s.errorf(o.dataOff+tok.pos, "%s: unexpected token", what)
		}
		if len(operands) > 6 {
			return s.errorf(o.dataOff+tok.pos, "%s: too many operands", what)
		}
	}
}

// textOperators are named in errors: text drawn in a content stream is
// what a redacted page must never contain.
var textOperators = map[string]bool{
	"BT": true, "ET": true, "Tj": true, "TJ": true, "'": true, "\"": true, "Tf": true,
	"Td": true, "TD": true, "Tm": true, "T*": true, "Tc": true, "Tw": true, "Tz": true,
	"TL": true, "Tr": true, "Ts": true,
}

func contentOp(op string, args []value, depth *int, xobjects value) error {
	switch op {
	case "q":
		if len(args) != 0 {
			return errors.New("operands before q")
		}
		*depth++
		if *depth > 4 {
			return errors.New("q nested too deep")
		}
	case "Q":
		if len(args) != 0 || *depth == 0 {
			return errors.New("unbalanced Q")
		}
		*depth--
	case "cm":
		if len(args) != 6 || slices.ContainsFunc(args, func(v value) bool { return v.kind != vReal }) {
			return errors.New("operator cm needs 6 numbers")
		}
	case "Do":
		if len(args) != 1 || args[0].kind != vName {
			return errors.New("operator Do needs one name")
		}
		if _, ok := xobjects.dict[args[0].name]; !ok {
			return fmt.Errorf("operator Do draws /%s, which is not among the page's images", printable([]byte(args[0].name)))
		}
	default:
		if textOperators[op] {
			return fmt.Errorf("text operator %s", printable([]byte(op)))
		}
		return fmt.Errorf("operator %s is not allowed", printable([]byte(op)))
	}
	return nil
}

// VerifyFile is Verify on the file at path: the job service's output gate
// (a document is released only when its output passes).
func VerifyFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	return Verify(f, st.Size())
}
