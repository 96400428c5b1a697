package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
)

// places writes places_eu.txt: the names of the places GeoNames gives a
// postcode in Germany, Spain, Italy and the Netherlands (France's and
// Portugal's files are not in the shared data), lower case, with their
// accents and without. cities.txt holds towns of 15 000 people and
// more; a letter is as often written in a village ("Lequile, 4 set.
// 2020"). The rules read these only where a letter names its place: a
// dateline or a signature's place (rules/drop_place_names.go), never as
// the town of a lone place, where many are surnames too ("Bianco").
func (g *gen) places() error {
	seen := map[string]bool{}
	for _, cc := range []string{"DE", "ES", "IT", "NL"} {
		if err := eachTSV(filepath.Join(g.src, "gazetteers", "geonames_postal_codes_eu", cc+".txt"), func(rec []string) {
			if len(rec) < 3 {
				return
			}
			p := strings.ToLower(strings.Join(strings.Fields(rec[2]), " "))
			if len([]rune(p)) < 3 {
				return
			}
			seen[p] = true
			seen[gazetteer.FoldAccents(p)] = true
		}); err != nil {
			return fmt.Errorf("places_eu: %w", err)
		}
	}
	lines := make([]string, 0, len(seen))
	for p := range seen {
		lines = append(lines, p)
	}
	sort.Strings(lines)
	return g.write("places_eu.txt", []string{
		"Places with a postcode in Germany, Spain, Italy and the Netherlands (GeoNames place_name), lower case, with and without accents, one per line.",
		"source: gazetteers/geonames_postal_codes_eu (DE, ES, IT, NL): GeoNames postal codes via github.com/symerio/postal-codes-data; CC-BY-4.0, credit geonames.org",
	}, lines)
}

// eachTSV calls fn with the tab-separated fields of every line of path.
func eachTSV(path string, fn func([]string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		fn(strings.Split(sc.Text(), "\t"))
	}
	return sc.Err()
}
