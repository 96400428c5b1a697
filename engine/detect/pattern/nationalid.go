package pattern

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// An idKind is one kind of personal identity, tax or social-security
// number: its validator over the compact form (upper case, separators
// removed) and what else a match needs.
type idKind struct {
	name  string
	valid func(compact string) bool
	// weak kinds have no check digit, or one that a random number passes
	// one time in ten or eleven: they are taken only with a personal
	// label on their line or the line before (see FindNationalIDs).
	weak bool
	// shapes are the groupings (lengths of the runs of letters and
	// digits between separators) that a number without a label may be
	// written in besides the compact form. A number behind a label may
	// be grouped any way.
	shapes [][]int
	// groupedOnly kinds are taken without a label only in one of their
	// shapes: their compact form is a bare run of digits that passes the
	// check too often by chance (the Spanish NSS: one 12-digit number in
	// 110).
	groupedOnly bool
}

var idKinds = []idKind{
	{name: "de-steuer-id", valid: validSteuerID, shapes: [][]int{{2, 3, 3, 3}}},
	{name: "de-id-card", valid: validIDCard},
	{name: "fr-nir", valid: validNIR, shapes: [][]int{{13, 2}, {1, 2, 2, 2, 3, 3, 2}}},
	{name: "es-dni", valid: validDNI, shapes: [][]int{{8, 1}, {2, 3, 3, 1}}},
	{name: "es-nie", valid: validNIE, shapes: [][]int{{1, 7, 1}, {8, 1}, {1, 8}}},
	{name: "es-nss", valid: validNSS, shapes: [][]int{{2, 8, 2}, {2, 10}}, groupedOnly: true},
	{name: "it-codice-fiscale", valid: validCodiceFiscale},
	{name: "nl-bsn", valid: validBSN, weak: true},
	{name: "pt-nif", valid: validNIFPerson, weak: true},
	{name: "pt-cartao-cidadao", valid: validCartaoCidadao, shapes: [][]int{{8, 1, 3}, {9, 3}, {8, 1, 2, 1}}},
	{name: "be-national-number", valid: validBelgianNRN, shapes: [][]int{{2, 2, 2, 3, 2}, {6, 3, 2}, {6, 5}}},
	{name: "at-svnr", valid: validAustrianSVNR, shapes: [][]int{{4, 6}}},
	{name: "ch-ahv", valid: validAHV, shapes: [][]int{{3, 4, 4, 2}}},
	{name: "uk-nino", valid: validNINO, weak: true},
	{name: "us-ssn", valid: validSSN, weak: true},
}

// Labels, matched case-insensitively on word boundaries (regexp syntax
// over the lower-cased text; a space stands for one or more blanks, " ?"
// for any number). Each begins with at least two literal bytes, which
// labelsByPrefix indexes (indexLabels).
// personalLabels announce a person's identity, tax or social-security
// number; companyLabels a company's VAT or registry number, which is not
// a person's ID however it validates.
var (
	personalLabels = []string{
		`steuer-? ?id(entifikations)?(-?nr\.?|-?nummer)?`, `steueridentifikationsnummer`, `identifikationsnummer`, `idnr\.?`,
		`personalausweis(nummer|-?nr\.?)?`, `ausweis(nummer|-?nr\.?)`,
		`n° ?(de )?s[ée]curit[ée] sociale`, `nº ?(de )?s[ée]curit[ée] sociale`, `no\.? ?(de )?s[ée]curit[ée] sociale`,
		`numéro (de )?s[ée]curit[ée] sociale`, `numero (de )?s[ée]curit[ée] sociale`, `sécurité sociale`, `securite sociale`,
		`nir`, `numéro insee`, `numero insee`, `n°\.? ?insee`, `nº\.? ?insee`, `dni`, `nie`, `nif`, `nuss`,
		`número de (la )?seguridad social`, `numero de (la )?seguridad social`, `seguridad social`,
		`nass`, `nss`, `naf`, `número de afiliaci[óo]n`, `numero de afiliaci[óo]n`, `n° ?(de )?afiliaci[óo]n`, `nº ?(de )?afiliaci[óo]n`,
		`afiliaci[óo]n a la seguridad social`,
		`n°\.? ?(de )?contribuinte`, `nº\.? ?(de )?contribuinte`, `número (de )?contribuinte`, `numero (de )?contribuinte`,
		`contribuinte`, `segurança social`, `seguranca social`,
		`krankenversichertennummer`, `krankenversicherungsnummer`, `versichertennummer`, `carte vitale`,
		`codice fiscale`, `cod\. ?fisc\.?`, `c\.f\.`,
		`bsn`, `burgerservicenummer`, `sofi-?nummer`,
		`cartão (de )?cidad[ãa]o`, `cartao (de )?cidad[ãa]o`,
		`rijksregisternummer`, `rijksregister`, `numéro (de|du) registre national`, `numero (de|du) registre national`,
		`registre national`, `insz`, `niss`,
		`sozialversicherungsnummer`, `versicherungsnummer`, `sv-?nr\.?`, `sv-nummer`,
		`ahv(-?nr\.?|-?nummer)?`, `avs`, `numéro avs`, `numero avs`, `n° avs`, `nº avs`,
		`social security( (number|no\.?|#))?`, `soc\. ?sec\.?( no\.?)?`, `ssn`,
		`national insurance( (number|no\.?))?`, `ni (number|no\.?)`, `nino`,
		`national id(entity)?( (number|no\.?|card))?`, `identity card( (number|no\.?))?`,
		`carte d'identit[ée]`, `carta d'identit[àa]`, `documento nacional de identidad`,
		`taxpayer identification number`,
	}
	companyLabels = []string{
		`ust\.?-? ?id(-?nr\.?|-?nummer)?`, `umsatzsteuer(-? ?id(entifikations)?(nummer|-?nr\.?)?)?`,
		`vat( (reg(istration)?\.? )?(no\.?|number|id|#))?`, `tva( intracommunautaire)?`, `n° ?tva`, `nº ?tva`,
		`p\. ?iva`, `partita iva`, `iva`, `btw(-?(nummer|nr\.?|id))?`, `kvk(-?nummer|-?nr\.?)?`, `rsin`,
		`hrb`, `hra`, `handelsregister(nummer)?`, `siren`, `siret`, `rcs`, `cif`, `nipc`, `uid(-?nr\.?|-?nummer)?`,
		`mwst(-?nr\.?)?`, `ein`, `company (no\.?|number|reg(istration)?( (no\.?|number))?)`,
		`registered in england( and wales)?( no\.?)?`, `kbo`, `bce`, `ondernemingsnummer`,
		`numéro d'entreprise`, `numero d'entreprise`, `firmenbuch(nummer)?`, `fn`, `che`,
	}
	// otherLabels announce the ordinary numbers of invoices, orders,
	// accounts, telephones, articles, cases and contracts, which a number can pass a check by chance
	// among (one 11-digit number in 150 is a valid Steuer-ID or Belgian
	// national number): behind them a number is not a NationalID.
	otherLabels = []string{
		`invoice`, `order`, `rechnung(snummer|s-?nr\.?)?`, `bestellung`, `bestellnummer`, `auftrag(snummer)?`,
		`factura`, `facture`, `factuur`, `fattura`, `fatura`, `pedido`, `commande`, `bestelling`, `ordine`,
		`customer`, `client`, `kunde`, `kundennummer`, `kunden-?nr\.?`, `klant(nummer)?`, `cliente`,
		`account`, `acct`, `konto`, `ref\.?`, `reference`, `referenz`, `référence`, `referentie`, `riferimento`,
		`policy`, `polizza`, `police`, `serial`, `ticket`, `booking`, `tracking`, `isbn`, `iban`, `bic`,
		`tel\.?`, `telephone`, `phone`, `fax`, `mobile`, `telefon`, `téléphone`, `teléfono`, `telefono`, `telefoon`, `handy`,
		`artikel(nummer|-?nr\.?)?`, `art\.-?nr\.?`, `item`, `sku`, `part`, `product`, `produkt`, `model`, `modell`,
		`lot`, `batch`, `charge`, `case`, `claim`, `dossier`, `aktenzeichen`, `az\.`, `contract`, `vertrag(snummer)?`,
		`contrat`, `contrato`, `contratto`,
	}
	// labelsByPrefix indexes the labels, each compiled alone and
	// anchored, by their first two to four literal bytes: a word is tried
	// only against the few labels that begin as it does.
	labelsByPrefix = indexLabels(map[labelKind][]string{labelPersonal: personalLabels, labelCompany: companyLabels, labelOther: otherLabels})
	// numberWords may stand between a label and its value ("SSN No.:").
	numberWordRe = regexp.MustCompile(`^[\s:#=.\-–—]*(?:(?:no|nr|n[°º]|number|nummer|num[ée]ro|n[úu]mero|num)\.?[\s:#=.\-–—]*)?`)
	// fillerRe are the words of running text between a label and its
	// value, on its line: "your SSN is 123-45-6789", "il suo codice
	// fiscale è ...", "Ihre Steuer-ID lautet ...".
	fillerRe = regexp.MustCompile(`^(?:(?:is|was|are|est|es|è|é|ist|lautet|luidt|le|la|el|il|o|de|van|of)[ :]+){1,2}`)
)

type labelKind int

const (
	labelPersonal labelKind = iota
	labelCompany
	labelOther
)

type labelPattern struct {
	re   *regexp.Regexp
	kind labelKind
}

// indexLabels compiles each label anchored ("^"), blanks as in the lists'
// doc, and files it under its literal beginning cut to four bytes.
func indexLabels(lists map[labelKind][]string) map[string][]labelPattern {
	out := map[string][]labelPattern{}
	for kind, ls := range lists {
		for _, l := range ls {
			p, _ := regexp.MustCompile(l).LiteralPrefix()
			if len(p) < 2 {
				panic("pattern: label " + l + " has no literal beginning of two bytes")
			}
			src := strings.ReplaceAll(strings.ReplaceAll(l, " ?", `\s*`), " ", `\s+`)
			key := p[:min(len(p), 4)]
			out[key] = append(out[key], labelPattern{regexp.MustCompile(`^(?:` + src + `)`), kind})
		}
	}
	return out
}

// matchLabel returns the end (relative to s) and kind of the longest
// label at the start of s, or 0.
func matchLabel(s string) (int, labelKind) {
	best, kind := 0, labelOther
	for n := 2; n <= min(len(s), 4); n++ {
		for _, lp := range labelsByPrefix[s[:n]] {
			if m := lp.re.FindStringIndex(s); m != nil && m[1] > best {
				best, kind = m[1], lp.kind
			}
		}
	}
	return best, kind
}

// PersonalLabelLen returns the length in bytes of the label of a
// person's identity, tax or social-security number (personalLabels:
// "cartão de cidadão", "codice fiscale", "steuer-id") at the start of
// lower, lower-case text, or 0. The label may end inside a word
// ("nie" of "niet"): the caller checks that it ends where a word does.
func PersonalLabelLen(lower string) int {
	if n, kind := matchLabel(lower); kind == labelPersonal {
		return n
	}
	return 0
}

// isPersonalLabel reports whether word, a word's core as written, is
// whole the label of a person's identity, tax or social-security number
// ("NASS", "BSN", "Steuer-ID", "Contribuinte"): a number after it is that
// ID, no phone number (FindPhones). A label that
// is also an ordinary word (ordinaryWordLabels: German "nie") counts only
// written with a capital, as findIDLabels reads it.
func isPersonalLabel(word string) bool {
	l := strings.ToLower(word)
	n := PersonalLabelLen(l)
	return n > 0 && n == len(l) && !(ordinaryWordLabels[l] && l == word)
}

// An idLabel is a label found in the text: bytes [start, end) and whether
// it names something else than a person's ID (a company's number, an
// invoice's, a phone's).
type idLabel struct {
	start, end int
	notID      bool
	// portuguese labels (NIF, contribuinte) also stand before the tax
	// number of a company, which the NIF check tells apart.
	portuguese bool
}

// findIDLabels finds the labels of v on the lines marked in lines, in
// order. The labels that are also ordinary words (ordinaryWordLabels)
// count only when written with a capital, as forms write them.
//
// Labels matter only next to a number, so only the lines that hold a
// candidate and the lines just above them are searched, word by word
// with the anchored expression and only at words that begin as a label
// does: one pass of the whole expression over a page's text costs a
// hundred times more.
func findIDLabels(v *view.View, lines []bool) []idLabel {
	var out []idLabel
	for k := range lines {
		if !lines[k] {
			continue
		}
		first, end := v.Line(k)
		_, lineEnd := v.LineRange(k)
		after := 0 // the end of the last label found on this line
		for j := first; j < end; j++ {
			s, ce := v.Core(j)
			for s < ce && !IsLetterByte(v.Text[s]) {
				s++ // "(SSN)": balanced brackets stay in the core
			}
			if s < after || s >= lineEnd {
				continue
			}
			n, kind := matchLabel(v.Lower[s:min(lineEnd, s+maxLabelLen)])
			if n == 0 {
				continue
			}
			e := s + n
			lw := v.Lower[s:e]
			if view.WordCharAt(v.Lower, e) || ordinaryWordLabels[lw] && lw == v.Text[s:e] {
				continue
			}
			out = append(out, idLabel{start: s, end: e, notID: kind != labelPersonal, portuguese: lw == "nif" || strings.Contains(lw, "contribuinte")})
			after = e
		}
	}
	return out
}

// maxLabelLen bounds the text a label is looked for in; the longest,
// "registered in england and wales no.", is 36 bytes.
const maxLabelLen = 64

// ordinaryWordLabels are labels that are also words of running text in
// lower case: German "nie" (never) and "ein" (a), Italian "che" (that),
// the name Nino, the Austrian "FN" and the Italian tax "iva" itself.
var ordinaryWordLabels = map[string]bool{"nie": true, "ein": true, "che": true, "nino": true, "fn": true, "iva": true}

// An idRun is a run of ASCII letters and digits in groups joined by one
// separator each (space, dot, dash or slash), on one line: the way people
// write identity numbers ("756.1234.5678.97", "1 84 12 76 451 089 46",
// "AB 12 34 56 C", "123-45-6789").
type idRun struct {
	start  int
	n      int              // groups
	ends   [maxIDGroups]int // byte end of each group
	groups [maxIDGroups]int // length of each group
	digits int
	buf    [maxIDLen]byte // the compact text, upper case
}

const (
	maxIDLen    = 16 // the longest kind, the codice fiscale
	maxIDGroups = 8
)

// scanIDRun collects the groups from t[i:], stopping past maxIDLen
// characters or maxIDGroups groups. A first group of letters only that is
// longer than three (a word) gives no run: IDs begin with a digit or with
// a short prefix of letters ("AB 12 34 56 C", "X-1234567-L").
func scanIDRun(t string, i int) idRun {
	r := idRun{start: i}
	j, l := i, 0
	for r.n < maxIDGroups {
		k, d := j, 0
		for k < len(t) && view.IsAlnumByte(t[k]) {
			if isDigitByte(t[k]) {
				d++
			}
			k++
		}
		if k == j || l+k-j > maxIDLen || view.WordCharAt(t, k) || r.n == 0 && d == 0 && k-j > 3 {
			break
		}
		r.ends[r.n], r.groups[r.n] = k, k-j
		for ; j < k; j++ {
			r.buf[l] = upperByte(t[j])
			l++
		}
		r.n++
		r.digits += d
		if k+1 < len(t) && strings.IndexByte(" .-/", t[k]) >= 0 && view.IsAlnumByte(t[k+1]) {
			j = k + 1
			continue
		}
		break
	}
	return r
}

// prefix returns the compact text of the first n groups.
func (r *idRun) prefix(n int) string {
	l := 0
	for _, g := range r.groups[:n] {
		l += g
	}
	return string(r.buf[:l])
}

// form is how the first n groups are written: their lengths and the
// separators between them ("3-2-4").
func (r *idRun) form(t string, n int) string {
	var b strings.Builder
	for g := 0; g < n; g++ {
		if g > 0 {
			b.WriteByte(t[r.ends[g-1]])
		}
		b.WriteString(strconv.Itoa(r.groups[g]))
	}
	return b.String()
}

// continues reports whether the n-th group is glued to more of a code by
// a dot, dash or slash ("756.1234.5678.97.3"): then it ends no ID.
func (r *idRun) continues(t string, n int) bool {
	e := r.ends[n-1]
	return e+1 < len(t) && strings.IndexByte(".-/", t[e]) >= 0 && view.IsAlnumByte(t[e+1])
}

// shapeOK reports whether groups, a number written without a label, is
// compact or in one of k's usual groupings.
func shapeOK(k *idKind, groups []int) bool {
	if len(groups) == 1 {
		return !k.groupedOnly
	}
	for _, s := range k.shapes {
		if slices.Equal(s, groups) {
			return true
		}
	}
	return false
}

// isCompanyNumber reports whether a value that personal label l
// announces is in fact a company's number: a Spanish CIF, or behind a
// Portuguese label a NIF of a company (NIPC: first digit 5-9).
func isCompanyNumber(c string, l *idLabel) bool {
	return validCIF(c) || l != nil && l.portuguese && validNIF(c) && !validNIFPerson(c)
}

// FindNationalIDs finds the identity, tax and social-security numbers of
// people (category NationalID; docs/behaviour.md, "National IDs"):
//
//   - a number that passes the check of one of idKinds and is written
//     compactly or in that kind's usual grouping is masked wherever it
//     stands, unless the label before it on its line (or on the line
//     before, when its own has none) is a company's (a VAT or registry
//     number is not a person's ID) or an ordinary number's (invoice,
//     order, customer, account, phone);
//   - the weak kinds (no check digit, or a 1-in-11 one: US SSN, UK NINO,
//     Dutch BSN, Portuguese NIF) need a personal label on their line or
//     heading the line before, in any grouping, or to continue the
//     column of one so taken on the line above, written the same way;
//   - the value right after a personal label (on the label's line, or
//     first on the next one when the label ends its line) is masked even
//     when no check can be made, provided it looks like an ID: at most 16
//     letters and digits, five digits or more, and not a company's number.
func FindNationalIDs(v *view.View) []page.Span {
	t := v.Text
	// The runs worth a look: every kind has five digits or more.
	var runs []idRun
	for i := 0; i < len(t); i++ {
		if !view.IsAlnumByte(t[i]) {
			continue
		}
		var r idRun
		if !view.WordCharBefore(t, i) && (i == 0 || t[i-1] != '+') && !(i > 1 && strings.IndexByte(".-/", t[i-1]) >= 0 && view.IsAlnumByte(t[i-2])) {
			r = scanIDRun(t, i)
		}
		if r.n == 0 {
			// Inside a word, glued to a longer code, or a word.
			for i < len(t) && view.IsAlnumByte(t[i]) {
				i++
			}
			continue
		}
		// A German identity card number may hold a single digit: it is
		// taken behind a personal label only (below).
		if r.digits >= 5 || r.n == 1 && r.digits > 0 && validIDCard(r.prefix(1)) {
			runs = append(runs, r)
		}
		i = r.ends[0] - 1
	}
	if len(runs) == 0 {
		return nil
	}
	lines := make([]bool, v.Lines())
	for i := range runs {
		k := v.LineOf(v.WordAt(runs[i].start))
		lines[k] = true
		lines[max(k-1, 0)] = true
	}
	labels := findIDLabels(v, lines)

	var out []page.Span
	covered := 0 // text before this offset is already masked
	emit := func(s, e int, score float32, rec string) {
		if sp, ok := v.Span(s, e, page.NationalID, score, rec); ok {
			out = append(out, sp)
			covered = e
		}
	}
	// Values behind a personal label first, so that the validated scan
	// below does not mask them a second time.
	for li, l := range labels {
		if l.notID {
			continue
		}
		s := valueStart(v, l, labels, li)
		if s < 0 || s < covered {
			continue
		}
		r := scanIDRun(t, s)
		n := labelledValue(t, &r)
		if n == 0 {
			continue
		}
		// A weak kind that passes on a part of the value ("NASS: 27
		// 2226350 05": its first nine digits are an SSN's layout) says
		// nothing of where the value ends: the label's whole value is
		// masked then.
		if name, k := validPrefix(t, &r, n, &labels[li]); k > 0 && !(kindByName(name).weak && k < n) {
			emit(s, r.ends[k-1], 0.95, "national-id/"+name)
			continue
		}
		if isCompanyNumber(r.prefix(n), &labels[li]) {
			continue
		}
		emit(s, r.ends[n-1], 0.85, "national-id/label")
	}
	labelled := len(out)

	next := 0 // runs starting before this offset are part of a match
	// The last weak ID taken next to its label: a number that passes a
	// weak kind and is written the same way on the next line is the next
	// row of its column ("Name SSN" over rows of names and numbers). The
	// kind is not compared: 123456789 is both a valid SSN and NIF.
	var column struct {
		form string
		line int
	}
	column.line = -2
	for ri := range runs {
		r := &runs[ri]
		if r.start < next || inLabelled(v, out[:labelled], r.start) {
			continue
		}
		ctx, lab := labelContext(v, labels, r.start)
		if ctx == ctxNotID {
			continue
		}
		if ctx != ctxPersonal {
			lab = nil
		}
		if r.digits < 5 && lab == nil {
			continue
		}
		line := v.Word(v.WordAt(r.start)).Line // the page's line: a gap ends a column
		name, k := validPrefix(t, r, r.n, lab)
		if k == 0 && lab == nil && line == column.line+1 {
			if n, k2 := validPrefix(t, r, r.n, &idLabel{}); k2 > 0 && kindByName(n).weak && r.form(t, k2) == column.form {
				name, k = n, k2
			}
		}
		if k == 0 {
			continue
		}
		score := float32(0.95)
		if kindByName(name).weak {
			score = 0.9
			column.form, column.line = r.form(t, k), line
		}
		next = r.ends[k-1]
		if sp, ok := v.Span(r.start, next, page.NationalID, score, "national-id/"+name); ok {
			out = append(out, sp)
		}
	}
	view.SortSpans(out)
	return out
}

// kindByName returns the kind called name (an empty kind for none).
func kindByName(name string) *idKind {
	for i := range idKinds {
		if idKinds[i].name == name {
			return &idKinds[i]
		}
	}
	return &idKind{}
}

// validPrefix returns the kind and the number of groups of the longest
// prefix of r (at most n groups) that is a valid ID, or 0. lab is the
// personal label that stands by, or nil: a label admits the weak kinds
// and any grouping.
func validPrefix(t string, r *idRun, n int, lab *idLabel) (string, int) {
	labelled := lab != nil
	for k := n; k > 0; k-- {
		if r.continues(t, k) {
			continue
		}
		c := r.prefix(k)
		if len(c) < 9 {
			break
		}
		for i := range idKinds {
			kd := &idKinds[i]
			if kd.weak && !labelled || !labelled && !shapeOK(kd, r.groups[:k]) {
				continue
			}
			// A weak kind proves too little to overrule a company's number
			// behind a personal label ("NIF: 501964843" is a company's).
			if kd.valid(c) && !(kd.weak && isCompanyNumber(c, lab)) {
				return kd.name, k
			}
		}
	}
	return "", 0
}

// labelledValue returns how many groups of r make the value behind a
// label: groups holding a digit, and short groups of capitals (the
// letters of "AB 12 34 56 C", "X-1234567-L"); 0 when what follows is no
// ID (fewer than five digits, or words).
func labelledValue(t string, r *idRun) int {
	n, digits := 0, 0
	for g, e := range r.ends[:r.n] {
		s := e - r.groups[g]
		w := t[s:e]
		d := 0
		for i := 0; i < len(w); i++ {
			if isDigitByte(w[i]) {
				d++
			}
		}
		if d == 0 && (len(w) > 3 || strings.ToUpper(w) != w) {
			break
		}
		n, digits = g+1, digits+d
	}
	// Trailing letters count only after a value that has its digits. A
	// German identity card number has its own check and may hold as few
	// as one digit ("Ausweisnummer: PP6CH9YLF6").
	if n == 1 && digits > 0 && validIDCard(r.prefix(1)) {
		return 1
	}
	if n == 0 || digits < 5 || len(r.prefix(n)) < 6 {
		return 0
	}
	return n
}

// valueStart returns where the value of label l begins: past colons,
// "No."/"Nr."/"n°" and the like, on the label's line, or first on the
// next line when nothing else follows the label on its own; -1 when
// another label or no value follows.
func valueStart(v *view.View, l idLabel, labels []idLabel, li int) int {
	m := numberWordRe.FindStringIndex(v.Lower[l.end:])
	s := l.end + m[1]
	if f := fillerRe.FindStringIndex(v.Lower[s:]); f != nil && s > l.end && v.Text[s-1] == ' ' {
		s += f[1]
	}
	if s >= len(v.Text) || !view.IsAlnumByte(v.Text[s]) {
		return -1
	}
	if li+1 < len(labels) && labels[li+1].start == s {
		return -1
	}
	return s
}

// inLabelled reports whether offset i falls within a span already found
// behind a label.
func inLabelled(v *view.View, ss []page.Span, i int) bool {
	for _, s := range ss {
		if b, e, ok := v.ByteRange(s); ok && i >= b && i < e {
			return true
		}
	}
	return false
}

const (
	ctxNone = iota
	ctxPersonal
	ctxNotID
)

// labelContext tells what stands around offset i, and which label says
// so: the last label before it on its line decides; when its line has
// none before it, the last label on the line before decides if no digit
// follows that label on its line (a form's label above its field, a
// table's column heading: "Name  SSN  Date of birth"), not if it has a
// value of its own. Without either, a personal label after the number on
// its line ("123-45-6789 (SSN)") gives ctxPersonal.
func labelContext(v *view.View, labels []idLabel, i int) (int, *idLabel) {
	w := v.WordAt(i)
	if w >= v.Len() {
		return ctxNone, nil
	}
	ln := v.LineOf(w)
	lineStart, lineEnd := v.LineRange(ln)
	prevStart, prevEnd := lineStart, lineStart
	if ln > 0 {
		prevStart, prevEnd = v.LineRange(ln - 1)
	}
	last := -1
	for j, l := range labels {
		if l.start >= prevStart && l.end <= i {
			last = j
		}
	}
	if last >= 0 {
		l := labels[last]
		if l.start >= lineStart || !strings.ContainsAny(v.Text[l.end:max(l.end, prevEnd)], "0123456789") {
			if l.notID {
				return ctxNotID, &labels[last]
			}
			return ctxPersonal, &labels[last]
		}
	}
	for j, l := range labels {
		if l.start >= lineStart && l.end <= lineEnd && !l.notID {
			return ctxPersonal, &labels[j]
		}
	}
	return ctxNone, nil
}

// ValidNationalID reports whether s passes the check of the kind of
// number named (de-steuer-id, de-id-card, fr-nir, es-dni, es-nie, es-nss,
// it-codice-fiscale, nl-bsn, pt-nif, pt-cartao-cidadao,
// be-national-number, at-svnr, ch-ahv, uk-nino, us-ssn), ignoring case,
// blanks, dots and hyphens; false for an unknown kind. The evaluation's
// document generator (engine/detect/eval) plants only numbers it accepts.
func ValidNationalID(kind, s string) bool {
	c := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '.', '-', '/':
			return -1
		}
		return r
	}, strings.ToUpper(s))
	for _, k := range idKinds {
		if k.name == kind {
			return k.valid(c)
		}
	}
	return false
}
