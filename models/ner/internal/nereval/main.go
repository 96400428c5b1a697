// Command nereval scores the NER detector (model, windows, span mapping:
// everything the pipeline runs) on presidio-research's generated
// evaluation set, at the level that matters for redaction: which words get
// masked with which category.
//
// Each example's text becomes a page (lines split at newlines, words at
// white space); gold spans map PERSON to Person, ORGANIZATION to
// Organization, ADDRESS and LOCATION to Address. A word is gold for a
// category when a gold span covers part of it, predicted when a detected
// span does. The report also gives span recall: the share of gold spans
// with at least one word masked under their category.
//
// It then scores what the service masks: the pattern recognizers and the
// NER detector together through detect.Run (merge and growth included),
// exactly as engine/pipeline wires them, for all eight categories.
//
// Finally it scores the held-out test splits of the public NER corpora
// (the sentences the recipe kept out of training, eval.HeldOut) at word
// level for Person and Organization, twice: the NER detector alone, and
// the whole detection stack as the service runs it, in every language
// (eval.HeldOut, eval.Languages), and the same table on the dev splits.
//
// Usage: go run ./models/ner/internal/nereval [-model DIR] [-data FILE] [-ner-data DIR] [-merge manifest.json]
// With -merge the scores are written into the manifest under
// scores.go_detector_presidio_generated_large,
// scores.service_presidio_generated_large and scores.heldout_words.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/detect"
	"github.com/redactd/redactd/engine/detect/eval"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/pipeline"
	"github.com/redactd/redactd/models/ner"
	"github.com/redactd/redactd/models/ort"

	"github.com/redactd/redactd/internal/shareddata"
)

type example struct {
	Text  string `json:"full_text"`
	Spans []struct {
		Type  string `json:"entity_type"`
		Start int    `json:"start_position"`
		End   int    `json:"end_position"`
	} `json:"spans"`
}

var categories = map[string]page.Category{
	"PERSON": page.Person, "ORGANIZATION": page.Organization, "ADDRESS": page.Address, "LOCATION": page.Address,
}

type counts struct{ TP, FP, FN, Spans, SpansHit int }

type prf struct {
	P       float64 `json:"p"`
	R       float64 `json:"r"`
	F1      float64 `json:"f1"`
	F2      float64 `json:"f2"`
	Support int     `json:"support_words"`
	// SpanRecall is the share of gold spans with a word masked under
	// their category.
	SpanRecall float64 `json:"span_recall"`
}

func main() {
	modelDir := flag.String("model", ner.Builtin, "model directory, or builtin")
	data := flag.String("data", shareddata.Path("pii", "presidio_research", "generated_large.json"), "presidio-research generated JSON")
	merge := flag.String("merge", "", "manifest.json to write the scores into")
	threads := flag.Int("threads", 1, "ONNX Runtime intra-op threads")
	nerData := flag.String("ner-data", shareddata.Path("ner"), "folder of the NER corpora (held-out splits)")
	small := flag.String("small", shareddata.Path("pii", "presidio_research", "generated_small.json"), "presidio-research generated_small JSON (held out)")
	tableOnly := flag.String("table", "", "only print the per-domain table of the service on this split of every corpus: test or dev")
	disable := flag.String("disable", "", "with -table: rules of detect.Rules to switch off (comma-separated names, as -ablate prints them)")
	ablate := flag.Bool("ablate", false, "with -table: print what each rule of detect.Rules adds and costs per corpus instead")
	placeOrgs := flag.Bool("place-orgs", false, "with -table: print, per corpus, the Organization words of mentions that are only a place name and the recall the place rule leaves instead")
	only := flag.String("only", "", "with -table: only these corpora (comma-separated names; the generated sets always)")
	langs := flag.String("lang", "", "with -table: only the corpora in these languages (comma-separated ISO 639-1 codes: en, de, fr, es, it, nl, pt; the generated sets always)")
	addFloorsOut := flag.String("add-floors", "", "with -table test: add floors (scores less a margin) to this file for the figures that have none, keeping every floor it has")
	figuresOut := flag.String("figures", "", "with -table: also write the table's figures (the gate's names: corpus/person_r, ...) as JSON to this file, to compare two models or settings")
	floorsOut := flag.String("write-floors", "", "with -table test: write the gate's floors (scores less a margin) to this file")
	raiseFloorsOut := flag.String("raise-floors", "", "with -table test: raise the floors in this file to today's scores less the margin where that is higher, and add missing ones; no floor falls")
	pages := flag.Int("pages", 1, "with -table: lay up to this many consecutive sentences of one document on a page (1: sentence by sentence, as the gate scores)")
	paragraphs := flag.Bool("paragraphs", false, "with -table and -pages: lay each sentence out as a paragraph of its own, a blank line between two (eval.Paragraphs)")
	printed := flag.Bool("printed", false, "with -table: write the corpora's text as printed, punctuation against its word (eval.Detokenize)")
	upper := flag.Bool("upper", false, "with -table: write the corpora's text in capitals (eval.Uppercase)")
	entityProb := flag.Float64("entity-prob", ner.DefaultEntityProb, "decoding's recall bias (the service's ner-entity-prob); tune it with -table dev")
	personProb := flag.Float64("person-prob", ner.DefaultPersonProb, "the same for person labels alone (the service's ner-person-prob)")
	generated := flag.Bool("generated", false, "with -table: score only the documents the project generates in each language (eval.Generated)")
	examples := flag.Int("examples", 0, "with -table: print this many missed and false words per category of the sets scored on every category (generated documents, de-identification corpora, presidio-research's sets), and this many records with a missed or false word of every NER corpus, marked ([word]PER missed, {word} masked though plain)")
	multi := flag.String("multi", ner.BuiltinMultilingual, "the second model, for the blocks in the six other languages (ner.Routed; the service's ner-model-multilingual): builtin-multilingual, builtin, a directory, or off (-model reads every block)")
	multiEntity := flag.Float64("multi-entity-prob", ner.DefaultEntityProb, "with -multi: the second model's ner-entity-prob")
	multiPerson := flag.Float64("multi-person-prob", ner.DefaultMultilingualPersonProb, "with -multi: the second model's ner-person-prob (the service's ner-multilingual-person-prob)")
	multiAlso := flag.String("multi-english-also", "", "with -multi: categories of the English model's spans also kept in the other languages' blocks (comma-separated: Person,Organization,Address)")
	multiWhere := flag.Float64("multi-english-where", 0, "with -multi: keep the English model's spans in the other languages' blocks where the second model gives a word at least this entity probability")
	multiContext := flag.Int("multi-english-context", 0, "with -multi-english-where: the English model reads, of the other languages' blocks, only the words the second model gives that probability, with this many words on each side (0: every line)")
	multiRoute := flag.String("multi-route", routingFlag(ner.DefaultRouting), "with -multi: the blocks the second model reads, as MIN_TRIGRAMS,MIN_OVER_ENGLISH,MIN_FIT (ner.Routing; 0,0,0: every block told as one of the six languages)")
	flag.Parse()
	log.SetFlags(0)

	b, err := os.ReadFile(*data)
	if err != nil {
		log.Fatal(err)
	}
	var exs []example
	if err := json.Unmarshal(b, &exs); err != nil {
		log.Fatalf("%s: %v", *data, err)
	}
	if err := ort.Init(ort.Options{Threads: *threads}); err != nil {
		log.Fatal(err)
	}
	m, err := ner.Load(*modelDir, ner.Options{EntityProb: float32(*entityProb), PersonProb: float32(*personProb)})
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	var rt routing
	if !ner.Off(*multi) {
		o, err := ner.Load(*multi, ner.Options{EntityProb: float32(*multiEntity), PersonProb: float32(*multiPerson)})
		if err != nil {
			log.Fatal(err)
		}
		defer o.Close()
		if rt.opts.Route, err = parseRouting(*multiRoute); err != nil {
			log.Fatalf("-multi-route: %v", err)
		}
		rt.to, rt.opts.EnglishWhere = o, float32(*multiWhere)
		rt.opts.EnglishContext = *multiContext
		for _, c := range strings.Split(*multiAlso, ",") {
			if c = strings.TrimSpace(c); c != "" {
				rt.opts.EnglishAlso = append(rt.opts.EnglishAlso, page.Category(c))
			}
		}
	}
	if *tableOnly != "" {
		if *tableOnly != "test" && *tableOnly != "dev" {
			log.Fatalf("-table %q: want test or dev", *tableOnly)
		}
		o := tableOptions{root: *nerData, large: *data, small: *small, dev: *tableOnly == "dev", only: *only, langs: *langs, pages: *pages, paragraphs: *paragraphs, printed: *printed, upper: *upper,
			generatedOnly: *generated, examples: *examples, routing: rt}
		if *disable != "" {
			o.disabled = strings.Split(*disable, ",")
			known := map[string]bool{}
			for _, r := range detect.Rules {
				known[r.Name] = true
			}
			for _, n := range o.disabled {
				if !known[n] {
					log.Fatalf("-disable: no rule %q in detect.Rules", n)
				}
			}
		}
		if *ablate {
			out, err := ablation(m, o)
			if err != nil {
				log.Fatal(err)
			}
			fmt.Print(out)
			return
		}
		tab, err := domainTables(m, o)
		if err != nil {
			log.Fatal(err)
		}
		if *placeOrgs {
			fmt.Print(eval.PlaceOrganizationTable(tab.rows))
			return
		}
		fmt.Print(tab.markdown())
		if *figuresOut != "" {
			if err := writeFigures(*figuresOut, tab); err != nil {
				log.Fatal(err)
			}
		}
		writing := *floorsOut != "" || *addFloorsOut != "" || *raiseFloorsOut != ""
		if !writing && (o.dev || o.only != "" || o.langs != "" || o.pages > 1 || o.printed || o.upper || o.generatedOnly) {
			return
		}
		if writing && (o.dev || o.only != "" || o.langs != "" || o.printed || o.upper || o.generatedOnly) {
			log.Fatal("-write-floors, -add-floors and -raise-floors need -table test and every corpus")
		}
		var gate tables
		if o.pages == 1 && o.examples == 0 {
			gate, err = gateLayouts(m, o, tab) // tab is the gate's sentence part: not scored twice
		} else {
			gate, err = gateTables(m, o)
		}
		if err != nil {
			log.Fatal(err)
		}
		if *floorsOut != "" {
			if err := writeFloors(*floorsOut, gate); err != nil {
				log.Fatal(err)
			}
		}
		if *addFloorsOut != "" {
			added, err := addFloors(*addFloorsOut, gate)
			if err != nil {
				log.Fatal(err)
			}
			log.Printf("added %d floors to %s", added, *addFloorsOut)
		}
		if *raiseFloorsOut != "" {
			raised, added, err := raiseFloors(*raiseFloorsOut, gate)
			if err != nil {
				log.Fatal(err)
			}
			log.Printf("raised %d floors and added %d in %s", raised, added, *raiseFloorsOut)
		}
		if f, err := readFloors(filepath.Join("models", "ner", "internal", "nereval", floorsFile)); err == nil {
			fmt.Print("\nScores and the floors TestHeldOutFloors holds them to (corpus@pages: the test split laid out as pages of ",
				gatePages, " sentences):\n\n", floorsMarkdown(gate, f))
			if bad := checkFloors(gate, f); len(bad) > 0 {
				fmt.Printf("\n%d figures fail the gate:\n\n", len(bad))
				for _, b := range bad {
					fmt.Println("-", b)
				}
			}
		}
		return
	}

	out := map[string]any{"examples": len(exs), "data": sharedName(*data), "model": m.Manifest().Name + " " + m.Manifest().Version}
	for _, mode := range []struct {
		name string
		opts ner.DetectorOptions
	}{{"default", ner.DetectorOptions{}}, {"locations_as_address", ner.DetectorOptions{Locations: true}}} {
		res, err := evaluate(m, ner.NewDetector(m, mode.opts), exs)
		if err != nil {
			log.Fatal(err)
		}
		out[mode.name] = res
	}
	svc, err := serviceScores(m, rt, *data)
	if err != nil {
		log.Fatal(err)
	}
	held, err := heldOutScores(m, *nerData)
	if err != nil {
		log.Fatal(err)
	}
	to := tableOptions{root: *nerData, large: *data, small: *small, routing: rt}
	tab, err := domainTables(m, to)
	if err != nil {
		log.Fatal(err)
	}
	to.pages = gatePages
	paged, err := domainTables(m, to)
	if err != nil {
		log.Fatal(err)
	}
	to.pages, to.dev = 1, true
	dev, err := domainTables(m, to)
	if err != nil {
		log.Fatal(err)
	}
	enc, _ := json.MarshalIndent(map[string]any{"ner": out, "service": svc, "heldout": held, "domains": tab.json(),
		"domains_pages": paged.json(), "domains_dev": dev.json()}, "", " ")
	fmt.Println(string(enc))
	fmt.Print(tab.markdown(), paged.markdown(), dev.markdown())
	if *merge != "" {
		if err := mergeInto(*merge, map[string]any{
			"go_detector_presidio_generated_large": out,
			"service_presidio_generated_large":     svc,
			"heldout_words":                        held,
			"service_domains_test":                 tab.json(),
			"service_domains_test_pages":           paged.json(),
			"service_domains_dev":                  dev.json(),
		}); err != nil {
			log.Fatal(err)
		}
	}
}

// catScore is one category's word-level figures in the service report.
type catScore struct {
	P       float64 `json:"p"`
	R       float64 `json:"r"`
	F2      float64 `json:"f2"`
	Support int     `json:"support_words"`
}

func catOf(c eval.Counts) catScore {
	return catScore{P: round(c.Precision()), R: round(c.Recall()), F2: round(c.F2()), Support: c.TP + c.FN}
}

// serviceScores runs the recognizers and the NER detector through
// detect.Run on every record, as the pipeline does, and scores masked
// words per category and overall ("masking": was a PII word masked under
// any category).
func serviceScores(m *ner.Model, rt routing, data string) (map[string]any, error) {
	recs, err := eval.LoadPresidio(data)
	if err != nil {
		return nil, err
	}
	ds, err := rt.detectors(m)
	if err != nil {
		return nil, err
	}
	res, err := wordScores(ds, recs, nil)
	if err != nil {
		return nil, err
	}
	res["what"] = "word-level precision/recall/F2 of what the service masks (recognizers + NER + merge + growth, engine/detect.Run), all categories"
	return res, nil
}

// routing is the second model of the service's stack: when set (-multi),
// to reads the blocks in the six other languages instead of the model
// scored (ner.Routed, opts).
type routing struct {
	to   *ner.Model
	opts ner.RoutedOptions
}

// detectors are the detectors engine/pipeline runs on a page, with m as
// the model scored.
func (r routing) detectors(m *ner.Model) ([]detect.Detector, error) {
	return pipeline.DetectorsByLang(m, r.to, r.opts, nil)
}

// wordScores runs ds through detect.Run on recs and returns per-category,
// micro and masking word-level scores over cats (nil: all).
func wordScores(ds []detect.Detector, recs []eval.Record, cats []page.Category) (map[string]any, error) {
	rep, err := eval.Evaluate(context.Background(), ds, recs, eval.Options{Categories: cats})
	if err != nil {
		return nil, err
	}
	per := map[string]catScore{}
	for c, k := range rep.PerCategory {
		per[string(c)] = catOf(k)
	}
	return map[string]any{
		"records":    rep.Records,
		"categories": per,
		"micro":      catOf(rep.Micro),
		"masking":    catOf(rep.Masking),
	}, nil
}

// heldOutScores scores the NER detector alone on every held-out split of
// the NER corpora under root for Person and Organization (locations left
// out of the counts, eval.HeldOut). What the whole service masks there is
// domainTables' business.
func heldOutScores(m *ner.Model, root string) (map[string]any, error) {
	splits, err := eval.HeldOut(root)
	if err != nil {
		return nil, err
	}
	alone := []detect.Detector{ner.NewDetector(m, ner.DetectorOptions{})}
	out := map[string]any{
		"what": "word-level precision/recall/F2 for Person and Organization on the held-out test splits of the NER corpora (the sentences models/ner/train/corpora.py keeps out of training, and the corpora never trained on); ner: the NER detector alone; the service's figures are in service_domains_test; locations not counted",
	}
	for _, s := range splits {
		n, err := wordScores(alone, s.Records, eval.NERCategories)
		if err != nil {
			return nil, err
		}
		out[s.Name] = map[string]any{"split": s.Source, "ner": n}
	}
	return out, nil
}

// evaluate runs the detector on every example and scores masked words.
func evaluate(m *ner.Model, d *ner.Detector, exs []example) (map[string]prf, error) {
	c := map[page.Category]*counts{page.Person: {}, page.Organization: {}, page.Address: {}}
	ctx := context.Background()
	for _, ex := range exs {
		p, offs := textPage(ex.Text)
		gold := make([]map[page.Category]bool, len(p.Words))
		pred := make([]map[page.Category]bool, len(p.Words))
		for i := range p.Words {
			gold[i], pred[i] = map[page.Category]bool{}, map[page.Category]bool{}
		}
		type goldSpan struct {
			cat   page.Category
			words []int
		}
		var gspans []goldSpan
		for _, s := range ex.Spans {
			cat, ok := categories[s.Type]
			if !ok {
				continue
			}
			g := goldSpan{cat: cat}
			for i, o := range offs {
				if o[0] < s.End && o[1] > s.Start {
					gold[i][cat] = true
					g.words = append(g.words, i)
				}
			}
			if len(g.words) > 0 {
				gspans = append(gspans, g)
			}
		}
		spans, err := d.Detect(ctx, p)
		if err != nil {
			return nil, err
		}
		for _, s := range spans {
			for i := s.First; i <= s.Last; i++ {
				pred[i][s.Category] = true
			}
		}
		for i := range p.Words {
			for cat, k := range c {
				switch {
				case gold[i][cat] && pred[i][cat]:
					k.TP++
				case pred[i][cat]:
					k.FP++
				case gold[i][cat]:
					k.FN++
				}
			}
		}
		for _, g := range gspans {
			c[g.cat].Spans++
			for _, w := range g.words {
				if pred[w][g.cat] {
					c[g.cat].SpansHit++
					break
				}
			}
		}
	}
	res := map[string]prf{}
	var tot counts
	for cat, k := range c {
		res[string(cat)] = score(*k)
		tot.TP, tot.FP, tot.FN, tot.Spans, tot.SpansHit = tot.TP+k.TP, tot.FP+k.FP, tot.FN+k.FN, tot.Spans+k.Spans, tot.SpansHit+k.SpansHit
	}
	res["micro"] = score(tot)
	return res, nil
}

func score(k counts) prf {
	var r prf
	if k.TP+k.FP > 0 {
		r.P = round(float64(k.TP) / float64(k.TP+k.FP))
	}
	if k.TP+k.FN > 0 {
		r.R = round(float64(k.TP) / float64(k.TP+k.FN))
	}
	if r.P+r.R > 0 {
		r.F1 = round(2 * r.P * r.R / (r.P + r.R))
		r.F2 = round(5 * r.P * r.R / (4*r.P + r.R))
	}
	if k.Spans > 0 {
		r.SpanRecall = round(float64(k.SpansHit) / float64(k.Spans))
	}
	r.Support = k.TP + k.FN
	return r
}

func round(f float64) float64 { return float64(int(f*10000+0.5)) / 10000 }

// textPage lays text out as a page: a line per newline, words split at
// white space; offs gives each word's [start, end) in text, in runes
// (presidio positions are Python string indices, i.e. code points).
func textPage(text string) (*page.Page, [][2]int) {
	p := &page.Page{Width: 612, Height: 792}
	var offs [][2]int
	pos := 0
	for li, line := range strings.Split(text, "\n") {
		runes := []rune(line)
		for i := 0; i < len(runes); {
			if unicode.IsSpace(runes[i]) {
				i++
				continue
			}
			j := i
			for j < len(runes) && !unicode.IsSpace(runes[j]) {
				j++
			}
			p.Words = append(p.Words, page.Word{Text: string(runes[i:j]), Line: li, Conf: 1})
			offs = append(offs, [2]int{pos + i, pos + j})
			i = j
		}
		pos += utf8.RuneCountInString(line) + 1
	}
	return p, offs
}

// addF2 adds "f2" (recall weighted twice as much as precision, the
// figure redaction is judged by) wherever a score has "p" and "r": the
// Python evaluation of the held-out splits writes P, R and F1 only.
func addF2(v any) {
	switch x := v.(type) {
	case map[string]any:
		p, okP := x["p"].(float64)
		r, okR := x["r"].(float64)
		if okP && okR {
			f2 := 0.0
			if 4*p+r > 0 {
				f2 = 5 * p * r / (4*p + r)
			}
			x["f2"] = round(f2)
		}
		for _, e := range x {
			addF2(e)
		}
	case []any:
		for _, e := range x {
			addF2(e)
		}
	}
}

// mergeInto writes the scores into manifest.json, keeping everything else.
func mergeInto(path string, scores map[string]any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var man map[string]any
	if err := json.Unmarshal(b, &man); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	s, _ := man["scores"].(map[string]any)
	if s == nil {
		s = map[string]any{}
	}
	for k, v := range scores {
		s[k] = v
	}
	addF2(s)
	man["scores"] = s
	out, err := json.MarshalIndent(man, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(out, '\n'), 0o644)
}

// sharedName names a file of the shared data folder as the manifest
// records it: relative to $REDACTD_SHARED_DATA, so the manifest holds no
// path of the machine that scored the model. A file elsewhere keeps its
// path.
func sharedName(path string) string {
	dir, err := filepath.Abs(shareddata.Dir())
	if err != nil {
		return path
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return "$" + shareddata.Env + "/" + filepath.ToSlash(rel)
}

// routingFlag writes rt as -multi-route reads it.
func routingFlag(rt ner.Routing) string {
	return fmt.Sprintf("%d,%g,%g", rt.MinTrigrams, rt.MinOverEnglish, rt.MinFit)
}

// parseRouting reads -multi-route: MIN_TRIGRAMS,MIN_OVER_ENGLISH,MIN_FIT.
func parseRouting(s string) (ner.Routing, error) {
	var rt ner.Routing
	f := strings.Split(s, ",")
	if len(f) != 3 {
		return rt, fmt.Errorf("%q: want three numbers, MIN_TRIGRAMS,MIN_OVER_ENGLISH,MIN_FIT", s)
	}
	var err error
	if rt.MinTrigrams, err = strconv.Atoi(strings.TrimSpace(f[0])); err != nil {
		return rt, err
	}
	if rt.MinOverEnglish, err = strconv.ParseFloat(strings.TrimSpace(f[1]), 64); err != nil {
		return rt, err
	}
	if rt.MinFit, err = strconv.ParseFloat(strings.TrimSpace(f[2]), 64); err != nil {
		return rt, err
	}
	return rt, nil
}
