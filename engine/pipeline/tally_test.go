package pipeline

import (
	"fmt"
	"sort"
	"strings"
)

// tally counts, per key, the targets of a corpus test found and all,
// for the recall tables of TestPicturesCorpus and TestHandCorpus.
type tally map[string]*struct{ found, all int }

// add counts one target under key, found or not.
func (t tally) add(key string, found bool) {
	s := t[key]
	if s == nil {
		s = &struct{ found, all int }{}
		t[key] = s
	}
	s.all++
	if found {
		s.found++
	}
}

// rate is key's found over all, 0 when nothing was counted.
func (t tally) rate(key string) float64 {
	s := t[key]
	if s == nil || s.all == 0 {
		return 0
	}
	return float64(s.found) / float64(s.all)
}

// table is the tally as a Markdown table, keys sorted, under the column
// names head (what was counted) and rate.
func (t tally) table(head, rate string) string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "\n| %s | found | of | %s |\n|---|---|---|---|\n", head, rate)
	for _, k := range keys {
		fmt.Fprintf(&b, "| %s | %d | %d | %.2f |\n", k, t[k].found, t[k].all, t.rate(k))
	}
	return b.String()
}
