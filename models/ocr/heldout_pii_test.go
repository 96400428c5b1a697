package ocr

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/text/unicode/norm"

	"github.com/redactd/redactd/internal/shareddata"
)

// The held-out PII evaluation (issue 48): pages of the kinds of words
// redaction masks, read by both recognisers, scored per kind of word.
//
// What keeps it disjoint from the recogniser's recipe (models/ocr/train):
//
//   - names: the shared popular_names_by_country lists (forenames and
//     surnames of European countries), keeping only names none of whose
//     words is in the recipe's name lists (train/names_eu.txt,
//     FakeNameGenerator's identities; heldOutRecipeWords);
//   - street lines: usaddress_labeled's us50 test file (real US
//     addresses), and European lines built from held-out surnames with
//     GeoNames postal codes and places (DE ES IT NL) that are not in
//     world-cities (which the recipe draws its cities from);
//   - organizations: probablepeople's chicago_businesses (real business
//     names with their legal forms, most in capitals) and held-out
//     surnames with European legal forms;
//   - dates, phone numbers, IBANs and e-mails: drawn here, in Go, with
//     their own seed and formats (the recipe draws its own in Python);
//     the IBANs' check digits are computed, the e-mails built from the
//     held-out names;
//   - faces: the Go family (Regular, Medium, Bold, Italic, Mono), which
//     no recogniser was trained on (the recipe's faces are Debian's
//     DejaVu, Liberation, Crosextra, URW base35 and Noto).
//
// The recipe never reads popular_names_by_country, usaddress_labeled,
// geonames_postal_codes_eu or probablepeople_names. Words such as
// "Road", "Calle" or "GmbH" are common to any document and are not
// excluded.

// piiKinds are the kinds of word scored, in report order.
var piiKinds = []string{"name", "diacritic name", "street", "organization", "date", "phone", "iban", "email"}

// piiLine is one line of a held-out page: a label and the value scored.
type piiLine struct {
	kind, label, value string
}

func (l piiLine) text() string { return l.label + " " + l.value }

// heldOutFaces are the evaluation's faces (golang.org/x/image's Go fonts).
var heldOutFaces = []struct {
	name string
	ttf  []byte
}{
	{"Go Regular", goregular.TTF}, {"Go Medium", gomedium.TTF}, {"Go Bold", gobold.TTF},
	{"Go Italic", goitalic.TTF}, {"Go Mono", gomono.TTF},
}

// heldOutConds are the scan conditions: a clean 200-dpi render and a
// noisy 150-dpi one turned 1.2° and stored as a JPEG of quality 75 (as
// the bench's scan corpus is).
var heldOutConds = []struct {
	name       string
	dpi, noise float64
	skew       float64
	jpeg       int // JPEG quality of a round trip; 0 for none
}{
	{"clean", 200, 0, 0, 0},
	{"noisy", 150, 20, 1.2, 75},
}

// heldOutRecipeWords is every name word the recipe trains on:
// train/names_eu.txt and FakeNameGenerator's identities.
func heldOutRecipeWords(t *testing.T) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	b, err := os.ReadFile("train/names_eu.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Split(line, "\t")
		if strings.HasPrefix(line, "#") || len(f) != 3 {
			continue
		}
		for _, w := range strings.FieldsFunc(f[1]+"|"+f[2], func(r rune) bool { return r == '|' || r == ' ' }) {
			seen[strings.ToLower(w)] = true
		}
	}
	rows := readCSV(t, shareddata.Path("pii", "presidio_research_generator_data", "FakeNameGenerator.com_3000.csv"))
	for _, r := range rows {
		for _, c := range r {
			for _, w := range strings.Fields(strings.TrimPrefix(c, "\ufeff")) {
				seen[strings.ToLower(w)] = true
			}
		}
	}
	return seen
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("shared data: %v (set REDACTD_SHARED_DATA)", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// heldOutCountries are the European countries whose names are drawn.
var heldOutCountries = map[string]bool{
	"AL": true, "AT": true, "BA": true, "BE": true, "CH": true, "CZ": true, "DE": true, "DK": true, "EE": true,
	"ES": true, "FI": true, "FO": true, "FR": true, "GB": true, "HR": true, "HU": true, "IE": true, "IS": true,
	"IT": true, "LT": true, "LU": true, "LV": true, "MD": true, "ME": true, "MT": true, "NL": true, "NO": true,
	"PL": true, "PT": true, "RO": true, "RS": true, "SI": true, "SK": true, "TR": true, "XK": true,
}

// latinName reports whether s is a name in Latin letters (with spaces,
// hyphens and apostrophes).
func latinName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(unicode.Is(unicode.Latin, r) || r == ' ' || r == '-' || r == '\'') {
			return false
		}
	}
	return true
}

func hasMark(s string) bool {
	for _, r := range s {
		if r > 0x7f && unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// heldOutSet is the held-out text: names by country, and the lines of
// every kind.
type heldOutSet struct {
	given, surname map[string][]string // by country
	countries      []string
	plainSurnames  []string
	streets        []string // us50 street lines
	postal         [][3]string
	orgs           []string
}

func loadHeldOut(t *testing.T) *heldOutSet {
	t.Helper()
	seen := heldOutRecipeWords(t)
	ok := func(n string) bool {
		if !latinName(n) {
			return false
		}
		for _, w := range strings.FieldsFunc(n, func(r rune) bool { return r == ' ' || r == '-' }) {
			if seen[strings.ToLower(w)] || len([]rune(w)) < 2 {
				return false
			}
		}
		return true
	}
	s := &heldOutSet{given: map[string][]string{}, surname: map[string][]string{}}
	dir := shareddata.Path("gazetteers", "popular_names_by_country")
	for _, r := range readCSV(t, dir+"/common-forenames-by-country.csv")[1:] {
		if len(r) > 10 && heldOutCountries[r[0]] && ok(r[10]) {
			s.given[r[0]] = append(s.given[r[0]], norm.NFC.String(r[10]))
		}
	}
	for _, r := range readCSV(t, dir+"/common-surnames-by-country.csv")[1:] {
		if len(r) > 4 && heldOutCountries[r[0]] && ok(r[4]) {
			s.surname[r[0]] = append(s.surname[r[0]], norm.NFC.String(r[4]))
		}
	}
	for c := range heldOutCountries {
		if len(s.given[c]) > 0 && len(s.surname[c]) > 0 {
			s.countries = append(s.countries, c)
			for _, n := range s.surname[c] {
				if !hasMark(n) {
					s.plainSurnames = append(s.plainSurnames, n)
				}
			}
		}
	}
	sort.Strings(s.countries)
	sort.Strings(s.plainSurnames)

	// us50 test addresses: the tagged text without its tags.
	b, err := os.ReadFile(shareddata.Path("pii", "usaddress_labeled", "us50_test_tagged.xml"))
	if err != nil {
		t.Skipf("shared data: %v", err)
	}
	tag := regexp.MustCompile(`<[^>]+>`)
	for _, m := range regexp.MustCompile(`<AddressString>(.*?)</AddressString>`).FindAllStringSubmatch(string(b), -1) {
		line := strings.Join(strings.Fields(tag.ReplaceAllString(m[1], "")), " ")
		line = strings.NewReplacer("&amp;", "&", "&apos;", "'", "&quot;", "\"").Replace(line)
		if len(line) >= 12 && len(line) <= 60 && strings.ContainsAny(line, "0123456789") {
			s.streets = append(s.streets, line)
		}
	}

	cities := map[string]bool{}
	for _, r := range readCSV(t, shareddata.Path("gazetteers", "world_cities", "world-cities.csv")) {
		for _, c := range r[:min(3, len(r))] {
			cities[strings.ToLower(c)] = true
		}
	}
	for _, cc := range []string{"DE", "ES", "IT", "NL"} {
		f, err := os.Open(shareddata.Path("gazetteers", "geonames_postal_codes_eu", cc+".txt"))
		if err != nil {
			t.Skipf("shared data: %v", err)
		}
		sc := bufio.NewScanner(f)
		n := 0
		for sc.Scan() {
			r := strings.Split(sc.Text(), "\t")
			if len(r) < 3 || cities[strings.ToLower(r[2])] || !latinName(r[2]) || len(r[2]) > 24 {
				continue
			}
			if n++; n%7 == 0 { // thin out neighbouring postcodes
				s.postal = append(s.postal, [3]string{cc, r[1], r[2]})
			}
		}
		f.Close()
	}

	// Chicago business names that end in a legal form.
	legal := regexp.MustCompile(`(?i)\b(LLC|L\.L\.C\.|INC\.?|CORP\.?|CORPORATION|LTD\.?|CO\.|COMPANY|L\.P\.|LP|PLLC)$`)
	for _, r := range readCSV(t, shareddata.Path("pii", "probablepeople_names", "chicago_businesses.csv")) {
		if len(r) == 0 {
			continue
		}
		n := strings.Join(strings.Fields(r[0]), " ")
		if len(n) >= 8 && len(n) <= 48 && legal.MatchString(n) && !strings.ContainsAny(n, "\"") {
			s.orgs = append(s.orgs, n)
		}
	}
	if len(s.countries) < 10 || len(s.streets) < 100 || len(s.postal) < 100 || len(s.orgs) < 100 {
		t.Fatalf("held-out sources too small: %d countries, %d streets, %d postal, %d orgs",
			len(s.countries), len(s.streets), len(s.postal), len(s.orgs))
	}
	return s
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// person draws a held-out name; marked asks for one with a letter outside
// ASCII.
func (s *heldOutSet) person(r *rand.Rand, marked bool) string {
	for range 1000 {
		c := pick(r, s.countries)
		n := pick(r, s.given[c]) + " " + pick(r, s.surname[c])
		if hasMark(n) == marked {
			return n
		}
	}
	panic("no name")
}

var euLegal = []string{"GmbH", "AG", "S.A.", "S.L.", "S.r.l.", "S.p.A.", "B.V.", "N.V.", "Sp. z o.o.", "s.r.o.", "Kft.", "A/S", "AB", "Oy", "SARL", "Ltd", "GmbH & Co. KG"}
var euTrade = []string{"Bau", "Logistik", "Handel", "Transporte", "Consulting", "Immobilien", "Metaal", "Servizi", "Holding", "Partners", "Elektro", "Group"}

var months = map[string][]string{
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	"de": {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
}

func (s *heldOutSet) line(r *rand.Rand, kind string) piiLine {
	switch kind {
	case "name":
		return piiLine{kind, pick(r, []string{"Name:", "Patient:", "Contact:", "Signed by"}), s.person(r, false)}
	case "diacritic name":
		return piiLine{kind, pick(r, []string{"Name:", "Employee:", "Tenant:", "Witness:"}), s.person(r, true)}
	case "street":
		if r.IntN(2) == 0 {
			return piiLine{kind, "Address:", pick(r, s.streets)}
		}
		p := pick(r, s.postal)
		sn := pick(r, s.plainSurnames)
		no := fmt.Sprint(1 + r.IntN(180))
		var v string
		switch p[0] {
		case "DE":
			v = sn + pick(r, []string{"straße ", "str. ", "weg ", "allee "}) + no + ", " + p[1] + " " + p[2]
		case "NL":
			v = sn + pick(r, []string{"straat ", "laan ", "weg "}) + no + ", " + p[1] + " " + p[2]
		case "ES":
			v = pick(r, []string{"Calle ", "C/ ", "Avda. "}) + sn + " " + no + ", " + p[1] + " " + p[2]
		default:
			v = pick(r, []string{"Via ", "V.le ", "Piazza "}) + sn + " " + no + ", " + p[1] + " " + p[2]
		}
		return piiLine{kind, "Address:", v}
	case "organization":
		if r.IntN(2) == 0 {
			return piiLine{kind, "Company:", pick(r, s.orgs)}
		}
		return piiLine{kind, "Company:", pick(r, s.plainSurnames) + " " + pick(r, euTrade) + " " + pick(r, euLegal)}
	case "date":
		d, m, y := 1+r.IntN(28), 1+r.IntN(12), 1940+r.IntN(85)
		var v string
		switch r.IntN(5) {
		case 0:
			v = fmt.Sprintf("%02d/%02d/%d", d, m, y)
		case 1:
			v = fmt.Sprintf("%02d.%02d.%d", d, m, y)
		case 2:
			v = fmt.Sprintf("%d-%02d-%02d", y, m, d)
		case 3:
			v = fmt.Sprintf("%d %s %d", d, months["en"][m-1], y)
		default:
			l := pick(r, []string{"de", "fr"})
			sep := " "
			if l == "de" {
				sep = ". "
			}
			v = fmt.Sprintf("%d%s%s %d", d, sep, months[l][m-1], y)
		}
		return piiLine{kind, pick(r, []string{"Date of birth:", "Born", "Issued"}), v}
	case "phone":
		dig := func(n int) string {
			var b strings.Builder
			for range n {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
			return b.String()
		}
		var v string
		switch r.IntN(5) {
		case 0:
			v = "+49 " + dig(3) + " " + dig(7)
		case 1:
			v = "+33 " + fmt.Sprint(1+r.IntN(9)) + " " + dig(2) + " " + dig(2) + " " + dig(2) + " " + dig(2)
		case 2:
			v = "(" + fmt.Sprint(200+r.IntN(700)) + ") " + dig(3) + "-" + dig(4)
		case 3:
			v = "+44 " + dig(4) + " " + dig(6)
		default:
			v = "0" + dig(3) + " " + dig(3) + " " + dig(3)
		}
		return piiLine{kind, pick(r, []string{"Tel.", "Phone:", "Mobile:"}), v}
	case "iban":
		return piiLine{kind, "IBAN", heldOutIBAN(r)}
	case "email":
		g, sn := "", ""
		for {
			n := strings.Fields(s.person(r, false))
			g, sn = strings.ToLower(n[0]), strings.ToLower(n[len(n)-1])
			if !strings.ContainsAny(g+sn, "'") {
				break
			}
		}
		dom := pick(r, []string{"mail.example", "post.test", "kanzlei-test.de", "example.org", "inbox.example.eu"})
		var v string
		switch r.IntN(3) {
		case 0:
			v = g + "." + sn + "@" + dom
		case 1:
			v = g[:1] + sn + fmt.Sprint(r.IntN(100)) + "@" + dom
		default:
			v = sn + "_" + g + "@" + dom
		}
		return piiLine{kind, "E-mail:", v}
	}
	panic(kind)
}

// heldOutIBAN is an IBAN with valid check digits, in groups of four.
func heldOutIBAN(r *rand.Rand) string {
	cc := pick(r, []string{"DE", "FR", "NL", "ES", "IT", "PL", "AT", "BE"})
	n := map[string]int{"DE": 18, "FR": 23, "NL": 14, "ES": 20, "IT": 23, "PL": 24, "AT": 16, "BE": 12}[cc]
	var bban strings.Builder
	for i := range n {
		if cc == "NL" && i == 0 {
			bban.WriteString(pick(r, []string{"ABNA", "INGB", "RABO", "SNSB", "TRIO", "KNAB", "BUNQ"}))
		}
		if cc == "NL" && i < 4 {
			continue
		}
		if cc == "IT" && i == 0 {
			bban.WriteByte(byte('A' + r.IntN(26)))
		} else {
			bban.WriteByte(byte('0' + r.IntN(10)))
		}
	}
	rearr := bban.String() + cc + "00"
	mod := 0
	for _, c := range rearr {
		if c >= 'A' {
			v := int(c-'A') + 10
			mod = (mod*100 + v) % 97
		} else {
			mod = (mod*10 + int(c-'0')) % 97
		}
	}
	full := fmt.Sprintf("%s%02d%s", cc, 98-mod, bban.String())
	var g []string
	for i := 0; i < len(full); i += 4 {
		g = append(g, full[i:min(i+4, len(full))])
	}
	return strings.Join(g, " ")
}

// heldOutPage is one page of the evaluation: its lines, face and scan.
type heldOutPage struct {
	face, cond string
	lines      []piiLine
	img        Image
	truth      [][]truthWord
}

// Two draws of pages from the same sources: the dev pages (seed 0), whose
// misses the rules of cross.go and marks.go were written from, and the
// gate's test pages (seeds 1 and 2, twice as many), whose misses nobody
// read while writing them. The test pages are what the gate judges.
var (
	heldOutDevSeeds  = []uint64{0}
	heldOutGateSeeds = []uint64{1, 2}
)

// heldOutLinesPerKind is how many lines of each kind a page holds.
const heldOutLinesPerKind = 6

// heldOutPages draws the evaluation's pages: every face in every
// condition, each page with its own lines (seeded by its place).
func heldOutPages(t *testing.T, seeds []uint64) []heldOutPage {
	t.Helper()
	s := loadHeldOut(t)
	var pages []heldOutPage
	for _, seed := range seeds {
		pages = append(pages, heldOutDraw(t, s, seed)...)
	}
	return pages
}

// heldOutDraw draws one set of pages: every face in every condition.
func heldOutDraw(t *testing.T, s *heldOutSet, seed uint64) []heldOutPage {
	t.Helper()
	var pages []heldOutPage
	for fi, f := range heldOutFaces {
		for ci, c := range heldOutConds {
			r := rand.New(rand.NewPCG(4800+uint64(fi)+1000*seed, uint64(ci)))
			var lines []piiLine
			for range heldOutLinesPerKind {
				for _, k := range piiKinds {
					lines = append(lines, s.line(r, k))
				}
			}
			r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
			var text []string
			for _, l := range lines {
				text = append(text, l.text())
			}
			text = namesWithGlyphs(t, f.ttf, text)
			if len(text) != len(lines) {
				t.Fatalf("%s lacks glyphs of %d lines", f.name, len(lines)-len(text))
			}
			img, truth := renderPage(t, pageSpec{lines: text, dpi: c.dpi, pt: 10.5, noise: c.noise, skew: c.skew,
				margin: 0.6, seed: 4800 + uint64(10*fi+ci) + 1000*seed, ttf: f.ttf})
			if c.jpeg > 0 {
				img = jpegRoundTrip(t, img, c.jpeg)
			}
			pages = append(pages, heldOutPage{face: f.name, cond: c.name, lines: lines, img: img, truth: truth})
		}
	}
	return pages
}

// piiTrim strips the punctuation a word carries beside it in a line.
func piiTrim(w string) string { return strings.Trim(w, ",;:") }

// wordMiss is one value word a recogniser did not read.
type wordMiss struct {
	kind, face, cond, want, line, got string
}

// piiScore counts value words read exactly per kind, with the misses.
type piiScore struct {
	found, total map[string]int
	misses       []wordMiss
}

func (s piiScore) rate(kind string) float64 {
	return float64(s.found[kind]) / float64(max(s.total[kind], 1))
}

func (s piiScore) all() (int, int) {
	f, n := 0, 0
	for _, k := range piiKinds {
		f += s.found[k]
		n += s.total[k]
	}
	return f, n
}

// scoreHeldOut reads the pages with e and scores each line's value words:
// a value word counts when the recognised words of its line (every read
// line whose centre lies in the true line's band) hold it exactly.
func scoreHeldOut(t *testing.T, e *Engine, pages []heldOutPage) piiScore {
	t.Helper()
	s := piiScore{found: map[string]int{}, total: map[string]int{}}
	for _, p := range pages {
		read, err := e.Recognize(context.Background(), p.img, image.Rectangle{})
		if err != nil {
			t.Fatal(err)
		}
		got := assignLines(read, p.truth)
		for i, l := range p.lines {
			have := map[string]int{}
			for _, w := range strings.Fields(got[i]) {
				have[piiTrim(w)]++
			}
			for _, w := range strings.Fields(l.value) {
				w = piiTrim(w)
				if w == "" {
					continue
				}
				s.total[l.kind]++
				if have[w] > 0 {
					have[w]--
					s.found[l.kind]++
				} else {
					s.misses = append(s.misses, wordMiss{l.kind, p.face, p.cond, w, l.text(), got[i]})
				}
			}
		}
	}
	return s
}

// assignLines gives each true line the text of the read lines whose
// vertical centre falls in its band (halfway to its neighbours), in
// left-to-right order.
func assignLines(read []Line, truth [][]truthWord) []string {
	mid := make([]float64, len(truth))
	for i, ws := range truth {
		var y float64
		for _, w := range ws {
			y += (w.quad.UL.Y + w.quad.LL.Y + w.quad.UR.Y + w.quad.LR.Y) / 4
		}
		mid[i] = y / float64(max(len(ws), 1))
	}
	type part struct {
		x    float64
		text string
	}
	parts := make([][]part, len(truth))
	for _, l := range read {
		y := (l.Quad.UL.Y + l.Quad.LL.Y + l.Quad.UR.Y + l.Quad.LR.Y) / 4
		best, bd := -1, 0.0
		for i, m := range mid {
			if d := math.Abs(y - m); best < 0 || d < bd {
				best, bd = i, d
			}
		}
		if best >= 0 {
			parts[best] = append(parts[best], part{l.Quad.UL.X, l.Text})
		}
	}
	out := make([]string, len(truth))
	for i, ps := range parts {
		slices.SortFunc(ps, func(a, b part) int {
			if a.x < b.x {
				return -1
			}
			return 1
		})
		var b []string
		for _, p := range ps {
			b = append(b, p.text)
		}
		out[i] = strings.Join(b, " ")
	}
	return out
}

// latinAlone names redactd-latin without cross-reading in the reports.
const latinAlone = ModelLatin + " alone"

// heldOutSystems are the readers scored: PP-OCRv4, redactd-latin alone
// and redactd-latin as it runs by default (cross-reading doubtful lines
// with PP-OCRv4, cross.go).
var heldOutSystems = []struct {
	name string
	opts Options
}{
	{ModelPPOCRv4, Options{Model: ModelPPOCRv4, Charset: CharsetLatin}},
	{latinAlone, Options{Model: ModelLatin, Charset: CharsetLatin, NoCrossRead: true}},
	{ModelLatin, Options{Model: ModelLatin, Charset: CharsetLatin}},
}

// heldOutReport logs the table of every reader, per kind, with clean and
// noisy apart.
func heldOutReport(t *testing.T, scores map[string]piiScore, pages []heldOutPage) {
	t.Helper()
	var b strings.Builder
	b.WriteString("\n| kind |")
	for _, s := range heldOutSystems {
		fmt.Fprintf(&b, " %s |", s.name)
	}
	for _, s := range heldOutSystems {
		fmt.Fprintf(&b, " %s clean / noisy |", s.name)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", 2*len(heldOutSystems)) + "\n")
	cond := func(s piiScore, kind, c string) string {
		miss := 0
		for _, m := range s.misses {
			if m.kind == kind && m.cond == c {
				miss++
			}
		}
		n := s.total[kind] / len(heldOutConds)
		return fmt.Sprintf("%.3f", float64(n-miss)/float64(max(n, 1)))
	}
	for _, k := range piiKinds {
		fmt.Fprintf(&b, "| %s |", k)
		for _, sy := range heldOutSystems {
			s := scores[sy.name]
			fmt.Fprintf(&b, " %.3f (%d/%d) |", s.rate(k), s.found[k], s.total[k])
		}
		for _, sy := range heldOutSystems {
			s := scores[sy.name]
			fmt.Fprintf(&b, " %s / %s |", cond(s, k, "clean"), cond(s, k, "noisy"))
		}
		b.WriteString("\n")
	}
	b.WriteString("| all PII words |")
	for _, sy := range heldOutSystems {
		f, n := scores[sy.name].all()
		fmt.Fprintf(&b, " %.3f (%d/%d) |", float64(f)/float64(n), f, n)
	}
	b.WriteString(strings.Repeat(" |", len(heldOutSystems)) + "\n")
	t.Logf("held-out PII words read exactly (%d pages: %d faces x %d scans x %d draws):%s", len(pages), len(heldOutFaces), len(heldOutConds), len(pages)/len(heldOutFaces)/len(heldOutConds), b.String())
	if *verbose {
		for _, sy := range heldOutSystems {
			for _, x := range scores[sy.name].misses {
				t.Logf("%s miss [%s/%s/%s] %q in %q read %q", sy.name, x.kind, x.face, x.cond, x.want, x.line, x.got)
			}
		}
	}
}

// heldOutScores reads the held-out pages with every reader.
func heldOutScores(t *testing.T, seeds []uint64) (map[string]piiScore, []heldOutPage) {
	t.Helper()
	pages := heldOutPages(t, seeds)
	scores := map[string]piiScore{}
	for _, s := range heldOutSystems {
		e := testEngineWith(t, s.opts)
		if s.name == ModelLatin && !e.CrossReads() {
			t.Fatalf("%s does not cross-read: PP-OCRv4's recogniser is not installed", ModelLatin)
		}
		scores[s.name] = scoreHeldOut(t, e, pages)
	}
	heldOutReport(t, scores, pages)
	return scores, pages
}

// jpegRoundTrip stores a gray page as a JPEG of quality q and decodes it.
func jpegRoundTrip(t *testing.T, img Image, q int) Image {
	t.Helper()
	g := &image.Gray{Pix: img.Pix, Stride: img.Stride, Rect: image.Rect(0, 0, img.W, img.H)}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, g, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	d, err := jpeg.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	out, ok := d.(*image.Gray)
	if !ok {
		t.Fatalf("jpeg decoded as %T", d)
	}
	return Image{W: img.W, H: img.H, Channels: 1, Stride: out.Stride, Pix: out.Pix}
}

// foldMarks is s without its marks (crossFold).
func foldMarks(s string) string { return crossFold(s) }

// missCause says why a value word was not read: where the line's reading
// lost it (segmentation: the line, or the spaces between words) or which
// characters were read wrong (recognition).
func missCause(m wordMiss) (cause, detail string) {
	got := strings.Fields(m.got)
	if len(got) == 0 {
		return "segmentation: line not read", ""
	}
	for i := range got {
		got[i] = piiTrim(got[i])
	}
	for i := 0; i+1 < len(got); i++ {
		for j := i + 2; j <= min(len(got), i+4); j++ {
			if strings.Join(got[i:j], "") == m.want {
				return "segmentation: space inside the word", ""
			}
		}
	}
	best, bd := "", 1e9
	for _, g := range got {
		if d := cer(g, m.want); d < bd {
			best, bd = g, d
		}
	}
	for _, g := range got {
		if len(g) > len(m.want) && strings.Contains(g, m.want) {
			return "segmentation: glued to a neighbour", ""
		}
	}
	switch {
	case strings.ReplaceAll(best, "–", "-") == m.want:
		return "recognition: hyphen read as a dash", ""
	case foldMarks(best) == foldMarks(m.want):
		return "recognition: marks (letter with another or no mark)", m.want + " → " + best
	case strings.EqualFold(best, m.want):
		return "recognition: case", m.want + " → " + best
	}
	// One substitution, insertion or deletion: name it.
	w, g := []rune(m.want), []rune(best)
	if len(w) == len(g) {
		var diff []string
		for i := range w {
			if w[i] != g[i] {
				diff = append(diff, string(w[i])+"→"+string(g[i]))
			}
		}
		if len(diff) <= 2 {
			return "recognition: characters swapped", strings.Join(diff, " ")
		}
	}
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsPunct(r) || unicode.IsSymbol(r) {
				return -1
			}
			return r
		}, s)
	}
	if strip(best) == strip(m.want) {
		return "recognition: punctuation dropped or added", m.want + " → " + best
	}
	return "recognition: other", m.want + " → " + best
}

// heldOutCauses logs the misses of each recogniser by cause, with the
// characters swapped, and by face and length.
func heldOutCauses(t *testing.T, scores map[string]piiScore) {
	t.Helper()
	for _, sy := range heldOutSystems {
		model := sy.name
		s := scores[model]
		causes, details, faces, lengths := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
		for _, m := range s.misses {
			c, d := missCause(m)
			causes[c]++
			if d != "" && !strings.Contains(c, "other") {
				details[d]++
			}
			faces[m.face+" "+m.cond]++
			n := len([]rune(m.want))
			switch {
			case n <= 4:
				lengths["1-4"]++
			case n <= 8:
				lengths["5-8"]++
			case n <= 14:
				lengths["9-14"]++
			default:
				lengths["15+"]++
			}
		}
		t.Logf("%s: %d value words missed\n  by cause: %s\n  by face and scan: %s\n  by length (characters): %s\n  what was read: %s",
			model, len(s.misses), counts(causes, 0), counts(faces, 0), counts(lengths, 0), counts(details, 12))
	}
}

// counts formats a tally, largest first, the first n (all when n is 0).
func counts(m map[string]int, n int) string {
	type kv struct {
		k string
		v int
	}
	var xs []kv
	for k, v := range m {
		xs = append(xs, kv{k, v})
	}
	slices.SortFunc(xs, func(a, b kv) int {
		if a.v != b.v {
			return b.v - a.v
		}
		return strings.Compare(a.k, b.k)
	})
	if n > 0 && len(xs) > n {
		xs = xs[:n]
	}
	var out []string
	for _, x := range xs {
		out = append(out, fmt.Sprintf("%s %d", x.k, x.v))
	}
	return strings.Join(out, "; ")
}

// heldOutGateDiacritics is the share of held-out diacritic names the
// default recogniser must read exactly (the 98%).
const heldOutGateDiacritics = 0.98

// heldOutGate makes TestHeldOutPIIWords the gate, on the test
// pages (`make -C models/ocr gate`): the default recogniser reads at
// least as many value words of every kind as PP-OCRv4, and ≥ 98% of the
// diacritic name words.
var heldOutGate = flag.Bool("ocr.heldout-gate", false, "hold TestHeldOutPIIWords to the held-out gate (issue 48)")

// heldOutFloors are the default recogniser's word accuracies on the dev
// pages when cross-reading came (cross.go), less two words of each kind:
// a regression floor, not the gate (floors only rise). Measured: names
// 120/120, diacritic names 118/120, street 360/363, organization
// 206/207, date 122/122, phone 210/210, IBAN 361/362, e-mail 58/60.
var heldOutFloors = map[string]float64{
	"name": 118.0 / 120, "diacritic name": 116.0 / 120, "street": 358.0 / 363, "organization": 204.0 / 207,
	"date": 120.0 / 122, "phone": 208.0 / 210, "iban": 359.0 / 362, "email": 56.0 / 60,
}

// TestHeldOutPIIWords reads the held-out PII pages with PP-OCRv4 and
// redactd-latin (alone and cross-reading) and reports the table per kind
// of word, clean and noisy, and where the words were lost. By default it
// reads the dev pages and holds the default recogniser to its floors;
// with -ocr.heldout-gate (make -C models/ocr gate) it reads the test
// pages and is the gate: per kind at least PP-OCRv4's words, and
// diacritic name words >= 98%.
func TestHeldOutPIIWords(t *testing.T) {
	if testing.Short() {
		t.Skip("reads ten pages with three readers")
	}
	seeds := heldOutDevSeeds
	if *heldOutGate {
		seeds = heldOutGateSeeds
	}
	scores, _ := heldOutScores(t, seeds)
	heldOutCauses(t, scores)
	def, pp := scores[DefaultModel], scores[ModelPPOCRv4]
	if !*heldOutGate {
		for _, k := range piiKinds {
			if f, ok := heldOutFloors[k]; ok && def.rate(k) < f {
				t.Errorf("%s reads %.3f of the held-out %s words, its floor is %.3f", DefaultModel, def.rate(k), k, f)
			}
		}
		return
	}
	if DefaultModel == ModelPPOCRv4 {
		return
	}
	for _, k := range piiKinds {
		if def.found[k] < pp.found[k] {
			t.Errorf("gate: %s reads %d of %d held-out %s words, fewer than %s's %d", DefaultModel, def.found[k], def.total[k], k, ModelPPOCRv4, pp.found[k])
		}
	}
	if r := def.rate("diacritic name"); r < heldOutGateDiacritics {
		t.Errorf("gate: %s reads %.1f%% of the held-out diacritic name words, the gate is %.0f%%", DefaultModel, 100*r, 100*heldOutGateDiacritics)
	}
}
