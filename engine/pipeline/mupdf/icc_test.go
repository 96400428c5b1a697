package mupdf_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/internal/shareddata"
	"github.com/redactd/redactd/internal/testkit/hostile"
	"github.com/redactd/redactd/internal/testkit/hostile/visible"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// TestTextWithoutICC: text is extracted with ICC off (rd_load_page), which
// only the characters' colours, unread, could tell; every page of the
// shared sample documents, the reader-sees corpus and the hostile PDFs
// gives the same words (text, boxes, per-character quads, lines, sources,
// fonts and their checks), image boxes and invisible text as with ICC on
// (fonts compared by identity, see fontOrder). The colour flag is left
// out: the test device sets it while the display lists are built, before
// text is extracted, ICC on; and on pages with pictures
// (QualityHosting.pdf, cupertino_usd_4-6-16.pdf) it differs between two
// loads of the same page with ICC on throughout.
func TestTextWithoutICC(t *testing.T) {
	type doc struct {
		name string
		pdf  []byte
	}
	var docs []doc
	dir := shareddata.Path("documents")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skip("shared sample documents not found")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.pdf"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc{filepath.Base(f), b})
	}
	cases, err := visible.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		docs = append(docs, doc{"visible/" + c.Name, c.PDF})
	}
	for _, c := range hostile.Documents() {
		if c.Long || !c.Document() || c.Size() > 8<<20 {
			continue
		}
		if b := c.Bytes(); bytes.HasPrefix(b, []byte("%PDF")) {
			docs = append(docs, doc{"hostile/" + c.Name, b})
		}
	}
	d := testpdf.New()
	d.AddPage(612, 792, 0).Text(72, 700, 12, "Plain text on a plain page")
	docs = append(docs, doc{"testpdf", d.Bytes()})

	load := func(b []byte, icc bool) []*mupdf.Page {
		mupdf.SetStextICC(icc)
		defer mupdf.SetStextICC(false)
		dd, err := mupdf.Open(b, mupdf.Options{MaxMemBytes: 512 << 20})
		if err != nil {
			return nil
		}
		defer dd.Close()
		var ps []*mupdf.Page
		for i := range min(dd.NumPages(), 6) {
			pg, err := dd.LoadPage(t.Context(), i)
			if err != nil {
				ps = append(ps, nil)
				continue
			}
			ps = append(ps, pg)
		}
		return ps
	}
	// A word's Font is a key made from the font's address, which differs
	// from one opening to the next: keys are compared by the order in
	// which a document's pages first use them.
	fontOrder := func(ps []*mupdf.Page) [][]page.Word {
		seen := map[uint64]uint64{}
		out := make([][]page.Word, len(ps))
		for i, p := range ps {
			if p == nil {
				continue
			}
			for _, w := range p.Words() {
				k, ok := seen[w.Font]
				if !ok {
					k = uint64(len(seen) + 1)
					seen[w.Font] = k
				}
				w.Font = k
				out[i] = append(out[i], w)
			}
		}
		return out
	}
	pages, words := 0, 0
	for _, dc := range docs {
		want, got := load(dc.pdf, true), load(dc.pdf, false)
		wantWords, gotWords := fontOrder(want), fontOrder(got)
		if len(got) != len(want) {
			t.Fatalf("%s: %d pages loaded, want %d", dc.name, len(got), len(want))
		}
		for i := range want {
			w, g := want[i], got[i]
			if (w == nil) != (g == nil) {
				t.Fatalf("%s page %d: loaded %v, want %v", dc.name, i, g != nil, w != nil)
			}
			if w == nil {
				continue
			}
			if !reflect.DeepEqual(gotWords[i], wantWords[i]) {
				t.Errorf("%s page %d: words differ with ICC off", dc.name, i)
			}
			if !reflect.DeepEqual(g.ImageRegions(), w.ImageRegions()) ||
				!reflect.DeepEqual(g.HiddenTextRegions(), w.HiddenTextRegions()) {
				t.Errorf("%s page %d with ICC off: images %v, hidden %v; want %v, %v", dc.name, i,
					g.ImageRegions(), g.HiddenTextRegions(), w.ImageRegions(), w.HiddenTextRegions())
			}
			pages++
			words += len(w.Words())
			w.Close()
			g.Close()
		}
	}
	t.Logf("%d documents, %d pages, %d words: the same", len(docs), pages, words)
	if words == 0 {
		t.Fatal("no words compared")
	}
}

// BenchmarkOpenLoadPage: a one-page text document opened and its page
// loaded, text extracted with ICC on (as before) and off.
func BenchmarkOpenLoadPage(b *testing.B) {
	d := testpdf.New()
	p := d.AddPage(612, 792, 0)
	for i := range 40 {
		p.Text(72, 740-float64(i)*16, 11, "Invoice 2026-11 for Jane Example, 12 Sample Street, Springfield")
	}
	pdf := d.Bytes()
	for _, icc := range []bool{true, false} {
		name := "icc-off"
		if icc {
			name = "icc-on"
		}
		b.Run(name, func(b *testing.B) {
			mupdf.SetStextICC(icc)
			defer mupdf.SetStextICC(false)
			for b.Loop() {
				dd, err := mupdf.Open(pdf, mupdf.Options{MaxMemBytes: 512 << 20})
				if err != nil {
					b.Fatal(err)
				}
				pg, err := dd.LoadPage(b.Context(), 0)
				if err != nil {
					b.Fatal(err)
				}
				pg.Close()
				dd.Close()
			}
		})
	}
}
