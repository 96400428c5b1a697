package main

import (
	"fmt"
	"path/filepath"
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
		recs, err := readTSV(filepath.Join(g.src, "gazetteers", "geonames_postal_codes_eu", cc+".txt"))
		if err != nil {
			return fmt.Errorf("places_eu: %w", err)
		}
		for _, rec := range recs {
			if len(rec) < 3 {
				continue
			}
			p := strings.ToLower(strings.Join(strings.Fields(rec[2]), " "))
			if len([]rune(p)) < 3 {
				continue
			}
			seen[p] = true
			seen[gazetteer.FoldAccents(p)] = true
		}
	}
	return g.write("places_eu.txt", []string{
		"Places with a postcode in Germany, Spain, Italy and the Netherlands (GeoNames place_name), lower case, with and without accents, one per line.",
		"source: gazetteers/geonames_postal_codes_eu (DE, ES, IT, NL): GeoNames postal codes via github.com/symerio/postal-codes-data; CC-BY-4.0, credit geonames.org",
	}, sortedKeys(seen))
}
