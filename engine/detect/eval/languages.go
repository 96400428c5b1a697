package eval

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/internal/shareddata/smartdata"
)

// Languages reads the NER corpora in German, French, Spanish, Italian,
// Dutch and Portuguese under root (shared/data/ner) and returns their
// test and dev splits, as HeldOut does for English (issue 46). No model
// has been trained on any of them; the splits below are fixed now so that
// the multilingual work trains on neither:
//
//   - wikiann_{de,fr,nl,pt}: the shipped test and dev files, sentences
//     4n only (2,500 of 10,000 each: silver labels, and the gate's run
//     time);
//   - icdar_europeana_{fr,nl}: the shipped test.txt and dev.txt (the same
//     newspapers as europeana_{fr,nl}, which are not read);
//   - europeana_de: the Austrian National Library's file (onb) is the
//     test, the Berlin State Library's (sbb) the dev, the Tessmann
//     Library's (lft) is left for training; the files have no sentence
//     boundaries, so a sentence ends at ".", "!" or "?" (columns.segment);
//   - germeval2014_de: NER-de-test.tsv and NER-de-dev.tsv, outer labels;
//     OTH and derivations ("deutsche", LOCderiv) are plain words, a word a
//     name is part of ("EU-Mitglied", ORGpart) counts for nothing;
//   - smartdata_de: test.json.gz, and documents 4n+3 of train.json.gz as
//     dev; a line of a document is a record;
//   - uner_german_pud, uner_portuguese_pud: test only;
//     uner_portuguese_bosque: test and dev; the words Universal
//     Dependencies splits are joined back as a reader sees them ("de a"
//     is "da", "in dem" is "im": columns.contract);
//   - lener_br: test.conll and dev.conll (PESSOA, ORGANIZACAO, LOCAL;
//     dates and law and case references are plain words);
//   - meddocan_es: test/ and dev/, a line of a report is a record, its 22
//     PHI types mapped to categories by meddocanTypes;
//   - obtic_7romans_fr: Madame Bovary is the test, Bel-Ami the dev, the
//     five other novels are left for training;
//   - europarl_ner_{de,es,it} (test only as published): sentences 4n,
//     4n+1 and 4n+2 are the test, 4n+3 the dev, as English Europarl.
func Languages(root string) ([]Split, error) {
	ud := columns{tok: 1, tag: 2, sep: "\t", comments: true}
	udPT, udDE := ud, ud
	udPT.contract, udDE.contract = contractionsPT, contractionsDE
	tsv := columns{tok: 0, tag: 1, sep: "\t"}
	space := columns{tok: 0, tag: 1, sep: " "}
	notEvery4 := func(i int) bool { return i%4 != 3 }
	wikiann := func(lang string) spec {
		return spec{"wikiann_" + lang, "encyclopaedic", columns{tok: 0, tag: 1, sep: "\t", strip: lang + ":"},
			part{[]string{"wikiann_" + lang + "/test"}, "test, sentences 4n", every(4, 0)},
			part{[]string{"wikiann_" + lang + "/dev"}, "dev, sentences 4n", every(4, 0)}, true}
	}
	europarl := func(lang string) spec {
		f := fmt.Sprintf("europarl_ner_%s/%s-europarl.test.conll02", lang, lang)
		return spec{"europarl_ner_" + lang, "parliament", tsv,
			part{[]string{f}, "sentences 4n, 4n+1, 4n+2", notEvery4}, part{[]string{f}, "sentences 4n+3", every(4, 3)}, true}
	}
	icdar := func(lang string) spec {
		d := "icdar_europeana_" + lang
		return spec{d, "newspapers (OCR)", tsv, part{[]string{d + "/test.txt"}, "test.txt", nil},
			part{[]string{d + "/dev.txt"}, "dev.txt", nil}, false}
	}
	byLang := []struct {
		lang  string
		specs []spec
	}{
		{"de", []spec{
			wikiann("de"),
			{"europeana_de", "newspapers (OCR)", columns{tok: 0, tag: 1, comments: true, fold: true, segment: true},
				part{[]string{"europeana_de/enp_DE.onb.bio"}, "onb (Austrian National Library)", nil},
				part{[]string{"europeana_de/enp_DE.sbb.bio"}, "sbb (Berlin State Library)", nil}, false},
			{"germeval2014_de", "news", columns{tok: 1, tag: 2, sep: "\t", comments: true},
				part{[]string{"germeval2014_de/NER-de-test.tsv"}, "NER-de-test", nil},
				part{[]string{"germeval2014_de/NER-de-dev.tsv"}, "NER-de-dev", nil}, false},
			{"uner_german_pud", "news", udDE, part{[]string{"uner_german_pud/de_pud-ud-test.iob2"}, "test", nil}, part{}, false},
			europarl("de"),
		}},
		{"fr", []spec{
			wikiann("fr"), icdar("fr"),
			{"obtic_7romans_fr", "fiction", space, part{[]string{"obtic_7romans_fr/MadameBovary.conll"}, "Madame Bovary", nil},
				part{[]string{"obtic_7romans_fr/BelAmi.conll"}, "Bel-Ami", nil}, false},
		}},
		{"es", []spec{europarl("es")}},
		{"it", []spec{europarl("it")}},
		{"nl", []spec{wikiann("nl"), icdar("nl")}},
		{"pt", []spec{
			wikiann("pt"),
			{"uner_portuguese_bosque", "news", udPT, part{[]string{"uner_portuguese_bosque/pt_bosque-ud-test.iob2"}, "test", nil},
				part{[]string{"uner_portuguese_bosque/pt_bosque-ud-dev.iob2"}, "dev", nil}, false},
			{"uner_portuguese_pud", "news", udPT, part{[]string{"uner_portuguese_pud/pt_pud-ud-test.iob2"}, "test", nil}, part{}, false},
			{"lener_br", "legal", space, part{[]string{"lener_br/test.conll"}, "test", nil},
				part{[]string{"lener_br/dev.conll"}, "dev", nil}, false},
		}},
	}
	var out []Split
	for _, l := range byLang {
		sp, err := readSpecs(root, l.lang, l.specs)
		if err != nil {
			return nil, err
		}
		out = append(out, sp...)
		var more []Split
		switch l.lang {
		case "de":
			s, err := readSmartData(root)
			if err != nil {
				return nil, err
			}
			more = append(more, s)
		case "es":
			s, err := readMeddocan(root)
			if err != nil {
				return nil, err
			}
			more = append(more, s)
		}
		out = append(out, more...)
	}
	return out, nil
}

// readSmartData reads SmartData (internal/shareddata/smartdata):
// test.json.gz is the test, documents 4n+3 of train.json.gz the dev.
func readSmartData(root string) (Split, error) {
	sp := Split{Name: "smartdata_de", Lang: "de", Domain: "news, RSS, tweets", Source: "test.json.gz",
		DevSource: "train.json.gz, documents 4n+3"}
	for _, p := range []struct {
		file string
		keep func(int) bool
		dst  *[]Record
	}{{"test.json.gz", nil, &sp.Records}, {"train.json.gz", every(4, 3), &sp.Dev}} {
		err := smartdata.Read(filepath.Join(root, "smartdata_de", p.file), func(i int, d smartdata.Doc) error {
			if p.keep != nil && !p.keep(i) {
				return nil
			}
			var gold []Gold
			for _, m := range d.Mentions {
				if typ, ok := smartdata.Types[m.Type]; ok {
					gold = append(gold, Gold{Start: m.Start, End: m.End, Type: typ, Category: nerCategory[typ]})
				}
			}
			*p.dst = append(*p.dst, lineRecords(d.Text, gold, fmt.Sprintf("%s#%d", p.file, i))...)
			return nil
		})
		if err != nil {
			return sp, fmt.Errorf("eval: %w", err)
		}
	}
	return sp, nil
}

// lineRecords cuts text into one record per non-blank line, keeping the
// parts of the gold spans inside each line (trimmed of white space).
func lineRecords(text string, gold []Gold, doc string) []Record {
	var out []Record
	start := 0
	for start <= len(text) {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		if line := text[start:end]; strings.TrimSpace(line) != "" {
			r := Record{Text: line, Doc: doc}
			for _, g := range gold {
				s, e := max(g.Start, start), min(g.End, end)
				for s < e {
					r, n := utf8.DecodeRuneInString(text[s:e])
					if !unicode.IsSpace(r) {
						break
					}
					s += n
				}
				for e > s {
					r, n := utf8.DecodeLastRuneInString(text[s:e])
					if !unicode.IsSpace(r) {
						break
					}
					e -= n
				}
				if s < e {
					g.Start, g.End = s-start, e-start
					r.Spans = append(r.Spans, g)
				}
			}
			out = append(out, r)
		}
		start = end + 1
	}
	return out
}

// meddocanTypes maps MEDDOCAN's PHI types to a type (PER, ORG or LOC for
// the per-domain table; the PHI type itself otherwise) and the category
// the service masks them under. A type with no category counts neither
// for nor against the service: a relative named by relation ("su
// madre", FAMILIARES_SUJETO_ASISTENCIA), age, sex, profession, a town or
// country alone (a place name alone is not a postal address), and the
// record, licence, contact and employment numbers, which are not a
// person's identity, tax or social-security number. The insurance number
// (ID_ASEGURAMIENTO, Spain's social-security number) is a NationalID.
var meddocanTypes = map[string]struct {
	typ string
	cat page.Category
}{
	"NOMBRE_SUJETO_ASISTENCIA":          {"PER", page.Person},
	"NOMBRE_PERSONAL_SANITARIO":         {"PER", page.Person},
	"FAMILIARES_SUJETO_ASISTENCIA":      {"IGN", ""},
	"HOSPITAL":                          {"ORG", page.Organization},
	"INSTITUCION":                       {"ORG", page.Organization},
	"CENTRO_SALUD":                      {"ORG", page.Organization},
	"CALLE":                             {"LOC", page.Address},
	"TERRITORIO":                        {"LOC", ""},
	"PAIS":                              {"LOC", ""},
	"FECHAS":                            {"DATE", page.Date},
	"CORREO_ELECTRONICO":                {"EMAIL", page.Email},
	"NUMERO_TELEFONO":                   {"PHONE", page.PhoneNumber},
	"NUMERO_FAX":                        {"PHONE", page.PhoneNumber},
	"ID_ASEGURAMIENTO":                  {"NATIONALID", page.NationalID},
	"ID_SUJETO_ASISTENCIA":              {"IGN", ""},
	"ID_CONTACTO_ASISTENCIAL":           {"IGN", ""},
	"ID_TITULACION_PERSONAL_SANITARIO":  {"IGN", ""},
	"ID_EMPLEO_PERSONAL_SANITARIO":      {"IGN", ""},
	"EDAD_SUJETO_ASISTENCIA":            {"IGN", ""},
	"SEXO_SUJETO_ASISTENCIA":            {"IGN", ""},
	"PROFESION":                         {"IGN", ""},
	"OTROS_SUJETO_ASISTENCIA":           {"IGN", ""},
	"NUMERO_BENEF_PLAN_SALUD":           {"IGN", ""},
	"URL_WEB":                           {"IGN", ""},
	"DIREC_PROT_INTERNET":               {"IGN", ""},
	"IDENTIF_VEHICULOS_NRSERIE_PRODUCT": {"IGN", ""},
	"IDENTIF_DISPOSITIVOS_NRSERIE_PROD": {"IGN", ""},
}

// readMeddocan reads MEDDOCAN's BRAT files (test/ and dev/): a line of a
// report is a record.
func readMeddocan(root string) (Split, error) {
	sp := Split{Name: "meddocan_es", Lang: "es", Domain: "clinical", Source: "test", DevSource: "dev"}
	for _, p := range []struct {
		dir string
		dst *[]Record
	}{{"test", &sp.Records}, {"dev", &sp.Dev}} {
		files, err := sortedGlob(filepath.Join(root, "meddocan_es", p.dir, "*.txt"))
		if err != nil {
			return sp, err
		}
		for _, f := range files {
			recs, err := readBrat(f)
			if err != nil {
				return sp, err
			}
			*p.dst = append(*p.dst, recs...)
		}
	}
	return sp, nil
}

// readBrat reads one MEDDOCAN report (f.txt) and its annotations (f.ann,
// offsets in characters) as line records.
func readBrat(txtPath string) ([]Record, error) {
	b, err := os.ReadFile(txtPath)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("eval: %s: not UTF-8", txtPath)
	}
	text := string(b)
	at := runeOffsets(text)
	annPath := strings.TrimSuffix(txtPath, ".txt") + ".ann"
	f, err := os.Open(annPath)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	var gold []Gold
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 2 || !strings.HasPrefix(fs[0], "T") {
			continue
		}
		// "TYPE start end"; a discontinuous span ("s1 e1;s2 e2") keeps
		// its first and last offsets.
		head := strings.Fields(strings.ReplaceAll(fs[1], ";", " "))
		if len(head) < 3 {
			return nil, fmt.Errorf("eval: %s: bad line %q", annPath, sc.Text())
		}
		s, err1 := strconv.Atoi(head[1])
		e, err2 := strconv.Atoi(head[len(head)-1])
		if err1 != nil || err2 != nil || s < 0 || e <= s || e >= len(at) {
			return nil, fmt.Errorf("eval: %s: bad offsets in %q", annPath, sc.Text())
		}
		m, ok := meddocanTypes[head[0]]
		if !ok {
			return nil, fmt.Errorf("eval: %s: unknown PHI type %s", annPath, head[0])
		}
		gold = append(gold, Gold{Start: at[s], End: at[e], Type: m.typ, Category: m.cat})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", annPath, err)
	}
	return lineRecords(text, gold, filepath.Base(txtPath)), nil
}
