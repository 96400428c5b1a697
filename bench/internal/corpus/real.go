package corpus

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/redactd/redactd/engine/imagein"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
)

// Real loads up to limit (0: all) PDF, PNG and JPEG files found under
// dir, in name order. Their personal data is not labelled; the words
// MuPDF extracts from each PDF page become unlabelled truth, so the
// scorer can say how much of the text got masked. Files MuPDF (or the
// image decoder) cannot open are kept: the service must answer them with
// an error, and the report counts those.
func Real(ctx context.Context, dir string, limit int) ([]*Doc, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && contentType(p) != "" {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("real documents: %w", err)
	}
	sort.Strings(paths)
	if limit > 0 && len(paths) > limit {
		paths = paths[:limit]
	}
	var out []*Doc
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("real documents: %w", err)
		}
		rel, _ := filepath.Rel(dir, p)
		d := &Doc{Name: strings.ReplaceAll(rel, string(filepath.Separator), "_"), ContentType: contentType(p), Data: data, Pages: 1}
		if d.ContentType == "application/pdf" {
			d.Truth, d.Pages = pdfWords(ctx, data)
		} else if img, err := imagein.Open(data, 1<<30, 1); err == nil {
			d.Pages = img.NumPages()
		}
		out = append(out, d)
	}
	return out, nil
}

func contentType(p string) string {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".pdf":
		return "application/pdf"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	}
	return ""
}

// pdfWords returns the words of every page in normalised coordinates and
// the page count (1 when MuPDF cannot open the file).
func pdfWords(ctx context.Context, data []byte) ([][]Word, int) {
	doc, err := mupdf.Open(data, mupdf.Options{})
	if err != nil {
		return nil, 1
	}
	defer doc.Close()
	out := make([][]Word, doc.NumPages())
	for i := range out {
		p, err := doc.LoadPage(ctx, i)
		if err != nil {
			continue
		}
		w, h := p.Width(), p.Height()
		n := func(q page.Point) Point { return Point{q.X / w, q.Y / h} }
		for _, wd := range p.Words() {
			q := wd.Quad
			out[i] = append(out[i], Word{Text: wd.Text, Entity: -1,
				Quad: Quad{n(q.UL), n(q.UR), n(q.LR), n(q.LL)}})
		}
		p.Close()
	}
	return out, len(out)
}
