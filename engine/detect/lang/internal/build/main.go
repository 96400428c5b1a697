// Command build counts the character trigrams of openly licensed text in
// the shared data (shared/data/ner) per language and writes the profiles
// engine/detect/lang embeds: `go generate ./engine/detect/lang` or
// `go run ./engine/detect/lang/internal/build -out engine/detect/lang/profiles.txt`.
//
// The text is drawn from parts of the corpora that no held-out test split
// reads (eval.HeldOut and eval.Languages): training sections, dev parts
// and files left for training, so the accuracy the tests report on the
// test splits is held out. Each source is read up to maxChars
// characters, so that no one source makes a profile, and each profile keeps
// its top trigrams.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/internal/shareddata"
)

// maxChars caps the text read from one source.
const maxChars = 200_000

// top is how many trigrams a profile keeps.
const top = 4000

// source is one file of text: CoNLL-like columns (tok, sep, strip),
// CoNLL-U comments ("# text = " lines give the sentence as written) or
// raw text, with the sentences kept (nil: all).
type source struct {
	path    string
	licence string
	format  string // "conll", "ud" or "raw"
	tok     int
	sep     string
	strip   string
	keep    func(i int) bool
	note    string
}

func every4(r int) func(int) bool { return func(i int) bool { return i%4 == r } }

func sources(code lang.Code) []source {
	switch code {
	case lang.English:
		return []source{
			{path: "uner_english_ewt/en_ewt-ud-dev.iob2", licence: "CC-BY-SA-4.0", format: "ud", note: "dev"},
			{path: "europarl_ner_en/en-europarl.test.conll02", licence: "Europarl terms", format: "conll", sep: "\t", keep: every4(3), note: "sentences 4n+3 (the dev part)"},
		}
	case lang.German:
		return []source{
			{path: "europarl_ner_de/de-europarl.test.conll02", licence: "Europarl terms", format: "conll", sep: "\t", keep: every4(3), note: "sentences 4n+3 (the dev part)"},
			{path: "germeval2014_de/NER-de-dev.tsv", licence: "CC-BY-4.0", format: "conll", tok: 1, sep: "\t", note: "dev"},
			{path: "europeana_de/enp_DE.lft.bio", licence: "CC0-1.0", format: "conll", sep: " ", note: "lft (left for training)"},
		}
	case lang.French:
		return []source{
			{path: "icdar_europeana_fr/train.txt", licence: "CC0-1.0", format: "conll", sep: "\t", note: "train"},
			{path: "obtic_7romans_fr/Germinal.conll", licence: "MIT (declared), text public domain", format: "conll", sep: " ", note: "a novel left for training"},
		}
	case lang.Spanish:
		return []source{
			{path: "europarl_ner_es/es-europarl.test.conll02", licence: "Europarl terms", format: "conll", sep: "\t", keep: every4(3), note: "sentences 4n+3 (the dev part)"},
			{path: "meddocan_es/train", licence: "CC-BY-4.0", format: "raw", note: "train/*.txt"},
		}
	case lang.Italian:
		// The only Italian text in the shared data.
		return []source{
			{path: "europarl_ner_it/it-europarl.test.conll02", licence: "Europarl terms", format: "conll", sep: "\t", keep: every4(3), note: "sentences 4n+3 (the dev part)"},
		}
	case lang.Dutch:
		return []source{
			{path: "wikiann_nl/train", licence: "text from Wikipedia (CC-BY-SA-3.0)", format: "conll", sep: "\t", strip: "nl:", note: "train"},
			{path: "icdar_europeana_nl/train.txt", licence: "CC0-1.0", format: "conll", sep: "\t", note: "train"},
		}
	case lang.Portuguese:
		return []source{
			{path: "uner_portuguese_bosque/pt_bosque-ud-train.iob2", licence: "CC-BY-SA-4.0", format: "ud", note: "train"},
			{path: "lener_br/train.conll", licence: "MIT", format: "conll", sep: " ", note: "train"},
		}
	}
	return nil
}

func main() {
	out := flag.String("out", "profiles.txt", "file to write")
	root := flag.String("data", shareddata.Path("ner"), "folder of the NER corpora")
	flag.Parse()
	log.SetFlags(0)
	var b strings.Builder
	b.WriteString("# Character trigram profiles of engine/detect/lang, written by\n")
	b.WriteString("# engine/detect/lang/internal/build from shared/data/ner (parts no held-out test split reads):\n")
	var body strings.Builder
	for _, code := range lang.Codes {
		counts := map[uint64]int{}
		total, chars := 0, 0
		for _, s := range sources(code) {
			fmt.Fprintf(&b, "#   %s: %s (%s), %s\n", code, s.path, s.note, s.licence)
			sents, err := read(filepath.Join(*root, s.path), s)
			if err != nil {
				log.Fatal(err)
			}
			n := 0
			for _, t := range sents {
				if n >= maxChars {
					break
				}
				n += len(t)
				lang.Trigrams(t, 1<<30, func(k uint64) { counts[k]++; total++ })
			}
			chars += n
		}
		type kv struct {
			k uint64
			n int
		}
		var all []kv
		for k, n := range counts {
			all = append(all, kv{k, n})
		}
		sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n || all[i].n == all[j].n && all[i].k < all[j].k })
		if len(all) > top {
			all = all[:top]
		}
		fmt.Fprintf(&body, "=%s %d\n", code, total)
		for _, e := range all {
			fmt.Fprintf(&body, "%s %d\n", lang.Unpack(e.k), e.n)
		}
		log.Printf("%s: %d characters, %d trigrams, %d distinct, %d kept", code, chars, total, len(counts), len(all))
	}
	fmt.Fprintf(&b, "# Each language's text capped at %d characters a source; the %d most frequent trigrams kept.\n", maxChars, top)
	b.WriteString("# Format: \"=CODE TOTAL\" (trigrams counted), then \"TRIGRAM COUNT\"; '_' marks a word's edge.\n")
	b.WriteString(body.String())
	if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

// read returns the sentences of a source, in file order.
func read(path string, s source) ([]string, error) {
	if s.format == "raw" {
		files, err := filepath.Glob(filepath.Join(path, "*.txt"))
		if err != nil || len(files) == 0 {
			return nil, fmt.Errorf("%s: no text files", path)
		}
		sort.Strings(files)
		var out []string
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			for _, l := range strings.Split(string(b), "\n") {
				if strings.TrimSpace(l) != "" {
					out = append(out, l)
				}
			}
		}
		return out, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out, toks []string
	i := 0
	end := func() {
		if len(toks) > 0 && (s.keep == nil || s.keep(i)) {
			out = append(out, strings.Join(toks, " "))
		}
		if len(toks) > 0 {
			i++
		}
		toks = nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if s.format == "ud" {
			if t, ok := strings.CutPrefix(line, "# text = "); ok {
				toks = append(toks, t)
				end()
			}
			continue
		}
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "-DOCSTART-") {
			continue
		}
		if strings.TrimSpace(line) == "" {
			end()
			continue
		}
		fs := strings.Split(line, s.sep)
		if len(fs) > s.tok {
			toks = append(toks, strings.TrimPrefix(fs[s.tok], s.strip))
		}
		if len(toks) >= 40 { // files without sentence breaks (Europeana)
			end()
		}
	}
	end()
	return out, sc.Err()
}
