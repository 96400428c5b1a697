package eval

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/redactd/redactd/engine/detect/pattern"
	"github.com/redactd/redactd/engine/page"
)

// Generated documents (issue 46): letters, invoices, HR and medical
// records, decisions and contracts the project writes itself in each
// language, with planted PII of every category, so that the national
// formats of phone numbers, dates, addresses, identity numbers, legal
// forms and titles are measured where no public corpus labels them.
//
// Names come from popular_names_by_country, postcodes and their towns
// from geonames_postal_codes_eu (DE, ES, IT, NL) and geonames_postal_codes
// (GB, US), towns from world_cities where GeoNames has no file (FR, PT;
// their postcodes are written in the national format); identity numbers
// are drawn at random until pattern.ValidNationalID accepts them; IBANs
// get their mod-97 check digits. The templates, street names, sector
// words and labels are written here. GeneratedDevSeed is the one to tune
// on; GeneratedTestSeed only reports.
const (
	GeneratedDevSeed  = 1
	GeneratedTestSeed = 2
	// GeneratedDocs is how many documents each language's set holds.
	GeneratedDocs = 120
)

// GeneratedLangs are the languages of the generated sets.
var GeneratedLangs = []string{"en", "de", "fr", "es", "it", "nl", "pt"}

// Generated returns n documents in lang, drawn with seed, from the
// gazetteers under root (shared/data/gazetteers). Each document is one
// record; gold spans cover the planted PII (a title is part of its
// person's span, a label is not part of its value).
func Generated(root, lang string, seed uint64, n int) ([]Record, error) {
	l, ok := genLangs[lang]
	if !ok {
		return nil, fmt.Errorf("eval: no generated documents in %q", lang)
	}
	src, err := loadGenSources(root, l)
	if err != nil {
		return nil, err
	}
	g := &gen{l: l, src: src, r: rand.New(rand.NewPCG(seed, uint64(len(lang))*7919+uint64(lang[0])))}
	out := make([]Record, 0, n)
	for i := range n {
		t := l.templates[i%len(l.templates)]
		out = append(out, g.doc(t, fmt.Sprintf("generated_%s#%d", lang, i)))
	}
	return out, nil
}

type genSources struct {
	firstM, firstF, last []string
	places               []genPlace // postcode, town, region code
}

type genPlace struct{ code, town, region string }

func loadGenSources(root string, l *genLang) (*genSources, error) {
	s := &genSources{}
	names := filepath.Join(root, "popular_names_by_country")
	if err := readCSV(filepath.Join(names, "common-forenames-by-country.csv"), func(h map[string]int, row []string) {
		if !l.isCountry(row[h["Country"]]) {
			return
		}
		n := row[h["Localized Name"]]
		if !plainName(n) {
			return
		}
		if row[h["Gender"]] == "F" {
			s.firstF = append(s.firstF, n)
		} else {
			s.firstM = append(s.firstM, n)
		}
	}); err != nil {
		return nil, err
	}
	if err := readCSV(filepath.Join(names, "common-surnames-by-country.csv"), func(h map[string]int, row []string) {
		if n := row[h["Localized Name"]]; l.isCountry(row[h["Country"]]) && plainName(n) {
			s.last = append(s.last, n)
		}
	}); err != nil {
		return nil, err
	}
	if len(s.firstM) == 0 || len(s.firstF) == 0 || len(s.last) == 0 {
		return nil, fmt.Errorf("eval: no names for %v in %s", l.countries, names)
	}
	if l.geonames != "" {
		f, err := os.Open(filepath.Join(root, l.geonames))
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			p := strings.Split(sc.Text(), "\t")
			if len(p) > 6 && p[1] != "" && p[2] != "" && !strings.ContainsAny(p[2], "()/,") {
				region := ""
				if l.regionCol > 0 && len(p) > l.regionCol {
					region = p[l.regionCol]
				}
				s.places = append(s.places, genPlace{p[1], p[2], region})
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
	} else {
		if err := readCSV(filepath.Join(root, "world_cities", "world-cities.csv"), func(h map[string]int, row []string) {
			if row[h["country"]] == l.worldCountry && plainName(row[h["name"]]) {
				s.places = append(s.places, genPlace{"", row[h["name"]], ""})
			}
		}); err != nil {
			return nil, err
		}
	}
	if len(s.places) == 0 {
		return nil, fmt.Errorf("eval: no places for %v", l.countries)
	}
	return s, nil
}

// plainName keeps names of letters (a hyphen, an apostrophe or a blank
// inside), as a document would print them.
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && r != '-' && r != '\'' && r != ' ' {
			return false
		}
	}
	return unicode.IsUpper([]rune(s)[0])
}

func readCSV(path string, row func(h map[string]int, row []string)) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return fmt.Errorf("eval: %s: %w", path, err)
	}
	h := map[string]int{}
	for i, c := range head {
		h[strings.TrimPrefix(c, "\ufeff")] = i
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("eval: %s: %w", path, err)
		}
		if len(rec) == len(head) {
			row(h, rec)
		}
	}
}

// gen writes one document from a template: text with slots in braces,
// each slot one piece of PII (or a plain word drawn from a list).
type gen struct {
	l   *genLang
	src *genSources
	r   *rand.Rand
	b   strings.Builder
	g   []Gold
	// the document's person, for slots that repeat them
	first, last string
	female      bool
}

func (g *gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) plain(s string) { g.b.WriteString(s) }

func (g *gen) ent(s string, c page.Category) {
	s = norm.NFC.String(s)
	start := g.b.Len()
	g.b.WriteString(s)
	g.g = append(g.g, Gold{Start: start, End: g.b.Len(), Type: string(c), Category: c})
}

func (g *gen) person() {
	g.female = g.r.IntN(2) == 0
	if g.female {
		g.first = g.pick(g.src.firstF)
	} else {
		g.first = g.pick(g.src.firstM)
	}
	g.last = g.pick(g.src.last)
	if g.l.twoSurnames && g.r.IntN(2) == 0 {
		g.last += " " + g.pick(g.src.last)
	}
}

func (g *gen) title() string {
	if g.female {
		return g.pick(g.l.titlesF)
	}
	return g.pick(g.l.titlesM)
}

func (g *gen) doc(t, name string) Record {
	g.b.Reset()
	g.g = nil
	g.person()
	for t != "" {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			g.plain(t)
			break
		}
		g.plain(t[:i])
		j := strings.IndexByte(t[i:], '}')
		g.slot(t[i+1 : i+j])
		t = t[i+j+1:]
	}
	return Record{Text: g.b.String(), Spans: g.g, Doc: name}
}

func (g *gen) slot(s string) {
	l := g.l
	switch s {
	case "P": // the document's person, full name
		g.ent(g.first+" "+g.last, page.Person)
	case "PT": // with a title
		g.ent(g.title()+" "+g.first+" "+g.last, page.Person)
	case "PL": // title and surname (a salutation)
		g.ent(g.title()+" "+g.last, page.Person)
	case "Q": // another person
		f, la, fem := g.first, g.last, g.female
		g.person()
		if g.r.IntN(2) == 0 {
			g.ent(g.title()+" "+g.first+" "+g.last, page.Person)
		} else {
			g.ent(g.first+" "+g.last, page.Person)
		}
		g.first, g.last, g.female = f, la, fem
	case "A": // an address on one line
		street, town := g.address()
		g.ent(street+", "+town, page.Address)
	case "A2": // an address block on two lines
		street, town := g.address()
		g.ent(street+"\n"+town, page.Address)
	case "C": // a town alone (not PII)
		g.plain(g.src.places[g.r.IntN(len(g.src.places))].town)
	case "T":
		g.ent(l.phone(g), page.PhoneNumber)
	case "D":
		g.ent(l.date(g, 2015+g.r.IntN(12)), page.Date)
	case "DOB":
		g.ent(l.date(g, 1940+g.r.IntN(65)), page.Date)
	case "N":
		k := l.ids[g.r.IntN(len(l.ids))]
		g.plain(g.pick(k.labels) + " ")
		g.ent(nationalID(g.r, k), page.NationalID)
	case "I":
		g.ent(iban(g.r), page.IBAN)
	case "E":
		g.ent(g.email(), page.Email)
	case "O":
		g.ent(l.org(g), page.Organization)
	case "M":
		g.plain(l.money(g))
	case "REF":
		g.plain(fmt.Sprintf("%d/%04d", 2015+g.r.IntN(12), g.r.IntN(10000)))
	default:
		panic("eval: unknown slot " + s)
	}
}

func (g *gen) address() (street, town string) {
	p := g.src.places[g.r.IntN(len(g.src.places))]
	street = g.l.street(g)
	code := p.code
	if g.l.postcode != nil {
		code = g.l.postcode(g, code)
	}
	switch g.l.code {
	case "it":
		town = code + " " + p.town
		if p.region != "" && g.r.IntN(2) == 0 {
			town += " (" + p.region + ")"
		}
	case "en":
		if p.region != "" { // US
			town = p.town + ", " + p.region + " " + code
		} else {
			town = p.town + " " + code
		}
	default:
		town = code + " " + p.town
	}
	return street, town
}

func (g *gen) email() string {
	ascii := func(s string) string {
		var b strings.Builder
		for _, r := range norm.NFD.String(strings.ToLower(s)) {
			switch {
			case r >= 'a' && r <= 'z':
				b.WriteRune(r)
			case r == 'ß':
				b.WriteString("ss")
			}
		}
		return b.String()
	}
	last := strings.ReplaceAll(g.last, " ", "")
	if g.l.twoSurnames {
		last = strings.Fields(g.last)[0]
	}
	first, last := ascii(g.first), ascii(last)
	var local string
	switch g.r.IntN(3) {
	case 0:
		local = first + "." + last
	case 1:
		local = first[:1] + last
	default:
		local = last + "." + first
	}
	return local + "@" + g.pick(g.l.mailDomains)
}

// idKind is how a kind of national ID is drawn and printed: a template
// of character classes (9 a digit, A a letter, X a letter or digit, any
// other byte itself; the last check places are filled by search), the
// labels written before it, and how it is grouped.
type idKind struct {
	kind   string
	tmpl   string
	labels []string
	group  func(c string) string
}

// nationalID draws numbers of k until one passes pattern.ValidNationalID,
// trying every value of its last character.
func nationalID(r *rand.Rand, k idKind) string {
	const digits, letters = "0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for range 200000 {
		b := []byte(k.tmpl)
		for i, c := range b {
			switch c {
			case '9':
				b[i] = digits[r.IntN(10)]
			case 'A':
				b[i] = letters[r.IntN(26)]
			case 'X':
				b[i] = (digits + letters)[r.IntN(36)]
			}
		}
		last := digits
		if k.tmpl[len(k.tmpl)-1] == 'A' {
			last = letters
		}
		for i := 0; i < len(last); i++ {
			b[len(b)-1] = last[i]
			if pattern.ValidNationalID(k.kind, string(b)) {
				if k.group != nil {
					return k.group(string(b))
				}
				return string(b)
			}
		}
	}
	panic("eval: no valid " + k.kind + " drawn from " + k.tmpl)
}

// groups splits c into runs of the lengths given, joined by sep.
func groups(sep string, n ...int) func(string) string {
	return func(c string) string {
		var parts []string
		for _, k := range n {
			if k > len(c) {
				k = len(c)
			}
			if k > 0 {
				parts, c = append(parts, c[:k]), c[k:]
			}
		}
		if c != "" {
			parts = append(parts, c)
		}
		return strings.Join(parts, sep)
	}
}

// ibanCountries are the IBANs planted: each country's BBAN as a template
// (9 a digit, A a letter).
var ibanCountries = []struct{ cc, bban string }{
	{"DE", "999999999999999999"}, {"FR", "99999999999999999999999"}, {"ES", "99999999999999999999"},
	{"IT", "A9999999999AAAAAAAAAAAA"}, {"NL", "AAAA9999999999"}, {"PT", "999999999999999999999"},
	{"BE", "999999999999"}, {"AT", "9999999999999999"}, {"GB", "AAAA99999999999999"}, {"CH", "99999999999999999"},
}

func iban(r *rand.Rand) string {
	c := ibanCountries[r.IntN(len(ibanCountries))]
	b := []byte(c.bban)
	for i, x := range b {
		switch x {
		case '9':
			b[i] = byte('0' + r.IntN(10))
		case 'A':
			b[i] = byte('A' + r.IntN(26))
		}
	}
	// ISO 13616: check digits make BBAN + CC + "00" mod 97 equal 1.
	rearranged := string(b) + c.cc + "00"
	m := 0
	for _, ch := range rearranged {
		if ch >= 'A' && ch <= 'Z' {
			m = (m*100 + int(ch-'A'+10)) % 97
		} else {
			m = (m*10 + int(ch-'0')) % 97
		}
	}
	s := fmt.Sprintf("%s%02d%s", c.cc, 98-m, b)
	if r.IntN(3) == 0 {
		return s
	}
	return groups(" ", 4, 4, 4, 4, 4, 4, 4, 4)(s)
}
