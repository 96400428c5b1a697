// Command gendocs writes generated documents (engine/detect/eval.Generated)
// as JSON lines for the NER recipe (models/ner/train/corpora.py
// load_generated): {"lang", "text", "spans": [{"start", "end", "category"}]}
// with byte offsets into text. The recipe draws them with its own seed
// (train.sh: 46), never GeneratedDevSeed or GeneratedTestSeed, so the
// documents it trains on are not the ones the evaluation reads (the
// templates are shared: see docs/languages.md, "Generated documents").
//
//	go run ./models/ner/internal/gendocs -langs de,fr,es,it,nl,pt -n 1500 -seed 46 -out docs.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/redactd/redactd/engine/detect/eval"
)

type span struct {
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Category string `json:"category"`
}

type doc struct {
	Lang  string `json:"lang"`
	Text  string `json:"text"`
	Spans []span `json:"spans"`
}

func main() {
	data := flag.String("data", "", "shared data folder (default $REDACTD_SHARED_DATA or ../shared/data)")
	langs := flag.String("langs", "de,fr,es,it,nl,pt", "languages, comma-separated")
	n := flag.Int("n", 1000, "documents per language")
	seed := flag.Uint64("seed", 46, "seed (not eval.GeneratedDevSeed or eval.GeneratedTestSeed)")
	out := flag.String("out", "", "output file (JSON lines)")
	flag.Parse()
	if err := run(*data, *langs, *n, *seed, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run(data, langs string, n int, seed uint64, out string) error {
	if seed == eval.GeneratedDevSeed || seed == eval.GeneratedTestSeed {
		return fmt.Errorf("seed %d is an evaluation seed", seed)
	}
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	if data == "" {
		data = os.Getenv("REDACTD_SHARED_DATA")
	}
	if data == "" {
		data = filepath.Join("..", "shared", "data")
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, lang := range strings.Split(langs, ",") {
		recs, err := eval.Generated(filepath.Join(data, "gazetteers"), lang, seed, n)
		if err != nil {
			f.Close()
			return err
		}
		for _, r := range recs {
			d := doc{Lang: lang, Text: r.Text}
			for _, g := range r.Spans {
				d.Spans = append(d.Spans, span{g.Start, g.End, string(g.Category)})
			}
			if err := enc.Encode(d); err != nil {
				f.Close()
				return err
			}
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
