package eval

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/page"
)

// DomainCategories are the categories the service is asked for when it is
// scored on the NER corpora: the ones those corpora can judge. Person and
// Organization words are labelled; Address is judged through the place
// names (LOC) the corpora label.
var DomainCategories = []page.Category{page.Person, page.Organization, page.Address}

// DomainReport is the word-level outcome of the service on one NER
// corpus split.
type DomainReport struct {
	Records, Words int
	Person         Counts
	Organization   Counts
	// Masking ignores categories: a PER or ORG word masked under any of
	// DomainCategories is a hit, a plain word masked is a false hit.
	// Place names and ignored words count for neither.
	Masking Counts
	// Location counts place-name words: TP masked (any category), FN left.
	// Its precision is meaningless (no place is "wrongly" a place).
	Location Counts
	// PlaceOrganization counts the Organization words (also counted in
	// Organization) of mentions that are only a place name: a country
	// acting as its government ("Russia announced"), a team named by its
	// town ("beating England"). TP masked, FN left. The place rule leaves
	// a place name standing alone readable, so these words bound the
	// Organization recall that rule allows on a corpus that labels them
	// (see PlaceOrganizationTable).
	PlaceOrganization Counts
	// Examples are records the service got a word of wrong, in record
	// order, up to DomainOptions.Examples, each written as MarkedText
	// writes it.
	Examples []string
}

// DomainOptions say what EvaluateDomain runs and keeps.
type DomainOptions struct {
	// DisabledRules are passed to detect.Run (ablation; nil for none).
	DisabledRules []string
	// Examples is how many records with a missed or false word to keep
	// (DomainReport.Examples).
	Examples int
}

// EvaluateDomain runs ds through detect.Run on every record, asking for
// DomainCategories, and counts words: PER words against Person spans, ORG
// words against Organization spans, both against masking; LOC words are
// counted apart (Location) and, like ignored words, left out of the rest.
// Records are scored concurrently and their examples kept in record
// order, so two runs keep the same ones.
func EvaluateDomain(ctx context.Context, ds []detect.Detector, recs []Record, o DomainOptions) (DomainReport, error) {
	rep := DomainReport{Records: len(recs)}
	gz, err := gazetteer.Get()
	if err != nil {
		return rep, err
	}
	var mu sync.Mutex
	marked := make([]string, len(recs))
	err = parallel(ctx, len(recs), func(i int) error {
		r, err := evaluateDomainRecord(ctx, ds, gz, recs[i], o)
		if err != nil {
			return err
		}
		mu.Lock()
		rep.add(r)
		if len(r.Examples) > 0 {
			marked[i] = r.Examples[0]
		}
		mu.Unlock()
		return nil
	})
	for _, m := range marked {
		if m != "" && len(rep.Examples) < o.Examples {
			rep.Examples = append(rep.Examples, m)
		}
	}
	return rep, err
}

// evaluateDomainRecord scores one record (EvaluateDomain); gz tells the
// place names (placeOnly).
func evaluateDomainRecord(ctx context.Context, ds []detect.Detector, gz *gazetteer.Gazetteers, r Record, o DomainOptions) (DomainReport, error) {
	var rep DomainReport
	p, offs := detect.PageFromText(r.Text)
	spans, err := detect.Run(ctx, p, ds, detect.Options{Categories: DomainCategories, DisabledRules: o.DisabledRules})
	if err != nil {
		return rep, err
	}
	pred := make([]map[page.Category]bool, len(p.Words))
	for _, s := range spans {
		for w := s.First; w <= s.Last; w++ {
			if pred[w] == nil {
				pred[w] = map[page.Category]bool{}
			}
			pred[w][s.Category] = true
		}
	}
	for w, word := range p.Words {
		typ := goldType(r.Spans, offs[w], offs[w]+len(word.Text))
		masked := len(pred[w]) > 0
		if typ == "ORG" && placeOnly(gz, r, offs[w], offs[w]+len(word.Text)) {
			count(&rep.PlaceOrganization, true, masked)
		}
		switch typ {
		case "IGN":
			continue
		case "LOC":
			if masked {
				rep.Location.TP++
			} else {
				rep.Location.FN++
			}
			continue
		}
		rep.Words++
		count(&rep.Person, typ == "PER", pred[w][page.Person])
		count(&rep.Organization, typ == "ORG", pred[w][page.Organization])
		count(&rep.Masking, typ == "PER" || typ == "ORG", masked)
	}
	if o.Examples > 0 && (rep.Person.FN+rep.Organization.FN+rep.Masking.FP > 0) {
		rep.Examples = []string{MarkedText(p, offs, r, pred)}
	}
	return rep, nil
}

// MarkedText writes the words of p (read from r's text at offs) with what
// the service got wrong marked: a Person or Organization word left out of
// its category as [word]PER or [word]ORG (a * after it when another
// category masked it), a plain word masked as {word}. Place names and
// ignored words are written as they are.
func MarkedText(p *page.Page, offs []int, r Record, pred []map[page.Category]bool) string {
	var b strings.Builder
	for w, word := range p.Words {
		if w > 0 {
			b.WriteByte(' ')
		}
		typ := goldType(r.Spans, offs[w], offs[w]+len(word.Text))
		cat := map[string]page.Category{"PER": page.Person, "ORG": page.Organization}[typ]
		switch {
		case cat != "" && !pred[w][cat]:
			fmt.Fprintf(&b, "[%s]%s", word.Text, typ)
			if len(pred[w]) > 0 {
				b.WriteByte('*')
			}
		case typ == "" && len(pred[w]) > 0:
			fmt.Fprintf(&b, "{%s}", word.Text)
		default:
			b.WriteString(word.Text)
		}
	}
	return b.String()
}

// add sums the word counts of o into r (Records stays).
func (r *DomainReport) add(o DomainReport) {
	r.Words += o.Words
	r.Person.add(o.Person)
	r.Organization.add(o.Organization)
	r.Masking.add(o.Masking)
	r.Location.add(o.Location)
	r.PlaceOrganization.add(o.PlaceOrganization)
}

// placeOnly reports whether the Organization mention of r over the word
// [s, e) is only a place name: a country or a town, after an optional
// "the", that no name list knows as a first name or surname ("Washington"
// and "Jordan" are people too).
func placeOnly(gz *gazetteer.Gazetteers, r Record, s, e int) bool {
	for _, g := range r.Spans {
		if g.Category != page.Organization || g.Start >= e || s >= g.End {
			continue
		}
		t := strings.ToLower(r.Text[g.Start:g.End])
		t = strings.TrimPrefix(t, "the ")
		if !gz.Countries.Has(t) && !gz.Cities.Has(t) {
			return false
		}
		return gz.Lex[t]&(gazetteer.FirstName|gazetteer.Surname) == 0
	}
	return false
}

// evalWorkers is how many records are scored at once: the NER model
// batches the sequences of concurrent pages (models/batch), so a single
// record at a time would wait out every batch window. Results do not
// depend on batching (models/ner README), and counts are sums.
const evalWorkers = 8

// parallel calls f(0..n-1) on evalWorkers goroutines and returns the
// first error.
func parallel(ctx context.Context, n int, f func(i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next    int64 = -1
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
	)
	for range min(evalWorkers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(atomic.AddInt64(&next, 1))
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := f(i); err != nil {
					errOnce.Do(func() { first = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

func count(c *Counts, gold, hit bool) {
	switch {
	case gold && hit:
		c.TP++
	case gold:
		c.FN++
	case hit:
		c.FP++
	}
}

// goldType is the type of the word [s, e): PER or ORG when a span of
// that category overlaps it, else IGN or LOC when an ignored span does,
// else "".
func goldType(spans []Gold, s, e int) string {
	typ := ""
	for _, g := range spans {
		if g.Start >= e || s >= g.End {
			continue
		}
		switch {
		case g.Category == page.Person:
			return "PER"
		case g.Category == page.Organization:
			return "ORG"
		case g.Type == "LOC" && typ == "":
			typ = "LOC"
		default:
			typ = "IGN"
		}
	}
	return typ
}

// DomainRow is one line of the per-domain table.
type DomainRow struct {
	Name, Lang, Domain, Split string
	Report                    DomainReport
}

// OverRedaction is the share of plain words (neither Person nor
// Organization, place names and ignored words left out) the service
// masked, as the bench reports it.
func (r DomainReport) OverRedaction() float64 {
	return ratio(r.Masking.FP, r.Words-r.Masking.TP-r.Masking.FN)
}

// PlaceOrganizationTable renders, per row, how many of a corpus's
// Organization words are mentions that are only a place name, how many of
// those the service masked, and the Organization recall the rest allows:
// what the service would score if it masked every other Organization word
// and, as the place rule has it, none of these.
func PlaceOrganizationTable(rows []DomainRow) string {
	var b strings.Builder
	b.WriteString("| corpus | split | Organization words | of them a place name alone | masked | Organization R | R without those words |\n")
	b.WriteString("|---|---|---:|---:|---:|---|---|\n")
	for _, r := range rows {
		org, po := r.Report.Organization, r.Report.PlaceOrganization
		n, p := org.TP+org.FN, po.TP+po.FN
		if n == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d (%.1f%%) | %d | %.3f | %.3f |\n", r.Name, r.Split, n, p,
			100*float64(p)/float64(n), po.TP, org.Recall(), float64(n-p)/float64(n))
	}
	return b.String()
}

// DomainTable renders rows as a Markdown table: recall and precision per
// category, masking, over-redaction (the share of plain words masked)
// and the share of place names masked.
func DomainTable(rows []DomainRow) string {
	var b strings.Builder
	b.WriteString("| corpus | lang | domain | split | words | Person R / P | Organization R / P | masking R / P | over-redaction | places masked |\n")
	b.WriteString("|---|---|---|---|---:|---|---|---|---:|---:|\n")
	rp := func(c Counts) string {
		if c.TP+c.FN == 0 {
			return "–"
		}
		return fmt.Sprintf("%.3f / %.3f", c.Recall(), c.Precision())
	}
	for _, r := range rows {
		loc := "–"
		if n := r.Report.Location.TP + r.Report.Location.FN; n > 0 {
			loc = fmt.Sprintf("%.3f", r.Report.Location.Recall())
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s | %s | %s | %.3f | %s |\n", r.Name, r.Lang, r.Domain, r.Split, r.Report.Words,
			rp(r.Report.Person), rp(r.Report.Organization), rp(r.Report.Masking), r.Report.OverRedaction(), loc)
	}
	return b.String()
}
