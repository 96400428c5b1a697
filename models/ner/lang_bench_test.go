package ner

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/detect/lang"
	"github.com/redactd/redactd/engine/page"
)

// langBenchText is running text of a letter or a decision in each
// language the service redacts (written for this benchmark), for the NER
// cost of a page per language (issue 46: a non-English page may cost at
// most 1.5x an English one).
var langBenchText = map[string]string{
	"en": "Dear Mr Thomas Walker, thank you for your letter of 12 March. We have reviewed the documents you sent to our office in Manchester and will contact you if anything is missing. The contract between Northwind Logistics Ltd and the tenant ends on 30 June; the deposit will be returned to the account given in the annex. Please call Sarah Mitchell at the number above with any question.",
	"de": "Sehr geehrter Herr Thomas Becker, vielen Dank für Ihr Schreiben vom 12. März. Wir haben die Unterlagen, die Sie an unser Büro in Stuttgart geschickt haben, geprüft und melden uns, falls etwas fehlt. Der Vertrag zwischen der Nordwind Logistik GmbH und dem Mieter endet am 30. Juni; die Kaution wird auf das in der Anlage genannte Konto überwiesen. Bei Fragen wenden Sie sich bitte an Frau Sabine Müller.",
	"fr": "Monsieur Thomas Lefèvre, nous vous remercions de votre courrier du 12 mars. Nous avons examiné les documents envoyés à notre bureau de Lyon et nous vous contacterons si une pièce manque. Le contrat entre la société Nordvent Logistique SARL et le locataire prend fin le 30 juin ; le dépôt de garantie sera versé sur le compte indiqué en annexe. Pour toute question, veuillez appeler Madame Sophie Martin.",
	"es": "Estimado señor Tomás García, le agradecemos su carta del 12 de marzo. Hemos revisado los documentos que envió a nuestra oficina de Valencia y nos pondremos en contacto con usted si falta algo. El contrato entre Vientonorte Logística S.L. y el arrendatario termina el 30 de junio; la fianza se devolverá a la cuenta indicada en el anexo. Para cualquier consulta, llame a la señora Lucía Fernández.",
	"it": "Gentile signor Tommaso Rossi, la ringraziamo per la sua lettera del 12 marzo. Abbiamo esaminato i documenti inviati al nostro ufficio di Torino e la contatteremo se manca qualcosa. Il contratto tra Ventonord Logistica S.r.l. e il conduttore termina il 30 giugno; il deposito cauzionale sarà restituito sul conto indicato in allegato. Per qualsiasi domanda chiami la signora Giulia Bianchi.",
	"nl": "Geachte heer Thomas de Vries, hartelijk dank voor uw brief van 12 maart. Wij hebben de documenten die u naar ons kantoor in Utrecht hebt gestuurd bekeken en nemen contact met u op als er iets ontbreekt. Het contract tussen Noordwind Logistiek B.V. en de huurder eindigt op 30 juni; de borg wordt teruggestort op de rekening in de bijlage. Bel bij vragen mevrouw Anna Jansen.",
	"pt": "Exmo. Senhor Tomás Ferreira, agradecemos a sua carta de 12 de março. Analisámos os documentos que enviou para o nosso escritório em Braga e entraremos em contacto se faltar alguma coisa. O contrato entre a Ventonorte Logística Lda. e o arrendatário termina a 30 de junho; a caução será devolvida para a conta indicada no anexo. Para qualquer dúvida, contacte a Senhora Ana Sousa.",
}

// langPage lays text out as a page of 48 lines of at most 80 bytes.
func langPage(text string) *page.Page {
	var lines []string
	line := ""
	for len(lines) < 48 {
		for _, w := range strings.Fields(text) {
			if len(line)+len(w) > 80 {
				lines = append(lines, line)
				line = ""
			}
			line = strings.TrimSpace(line + " " + w)
		}
	}
	return testPage(lines[:48]...)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDetectPageLang is the NER detector's cost of a page of running
// text per language, as CPU time (cpu-ms/page: the process's user and
// system time, which a busy machine does not inflate as it does wall
// time) and tokens per page. NER_BENCH_MODEL names a model directory to
// measure instead of the built-in one (the shipped model before a change,
// say).
func BenchmarkDetectPageLang(b *testing.B) {
	m := builtin(b)
	if dir := os.Getenv("NER_BENCH_MODEL"); dir != "" {
		var err error
		if m, err = Load(dir, Options{}); err != nil {
			b.Fatal(err)
		}
		defer m.Close()
	}
	d := NewDetector(m, DetectorOptions{LowerCase: func(w string) bool { return len(w) < 4 }})
	for _, lang := range []string{"en", "de", "fr", "es", "it", "nl", "pt"} {
		b.Run(lang, func(b *testing.B) {
			p := langPage(langBenchText[lang])
			tokens := 0
			for _, w := range p.Words {
				tokens += len(Tokenize(w.Text))
			}
			ctx := context.Background()
			c0 := cpuTime()
			for b.Loop() {
				if _, err := d.Detect(ctx, p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/page")
			b.ReportMetric(float64(tokens), "tokens/page")
		})
	}
}

// vmRSS is the process's resident memory in bytes (/proc/self/status), 0
// where it cannot be read.
func vmRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			var kb int64
			for _, c := range f[1] {
				kb = kb*10 + int64(c-'0')
			}
			return kb << 10
		}
	}
	return 0
}

// BenchmarkDetectPageLangRouted is BenchmarkDetectPageLang through
// Routed: English pages read by the built-in model, the others by a
// second model (NER_BENCH_MULTI, a model directory or builtin; the
// embedded multilingual model, the service's default, when unset),
// alone or (NER_BENCH_WHERE set, a probability) with the English model's
// spans kept where the second one gives an entity probability of at
// least it, which reads the
// non-English lines with both (with NER_BENCH_CONTEXT, words of context:
// English reads only the words to which the second model gives that
// probability; en-windows/page is how many windows English read). rss-MB
// is what loading the second model and reading a page with it added to
// the process's resident memory.
func BenchmarkDetectPageLangRouted(b *testing.B) {
	m := builtin(b)
	dir := os.Getenv("NER_BENCH_MULTI")
	if dir == "" {
		dir = BuiltinMultilingual
	}
	rss0 := vmRSS()
	m2, err := Load(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer m2.Close()
	var o RoutedOptions
	if w := os.Getenv("NER_BENCH_WHERE"); w != "" {
		var x float64
		if _, err := fmt.Sscan(w, &x); err != nil {
			b.Fatal(err)
		}
		o.EnglishWhere = float32(x)
	}
	if c := os.Getenv("NER_BENCH_CONTEXT"); c != "" {
		if _, err := fmt.Sscan(c, &o.EnglishContext); err != nil {
			b.Fatal(err)
		}
	}
	lc := DetectorOptions{LowerCase: func(w string) bool { return len(w) < 4 }}
	enWindows := 0
	enOpts := lc
	enOpts.ObserveWindows = func(w, _ int) { enWindows += w }
	r := NewRouted(NewDetector(m, enOpts), NewDetector(m2, lc), o)
	ctx := context.Background()
	if _, err := r.DetectLangs(ctx, langPage(langBenchText["de"]), func(int) lang.Result { return told("de") }); err != nil {
		b.Fatal(err)
	}
	rss := float64(vmRSS()-rss0) / (1 << 20)
	for _, code := range []string{"en", "de", "fr", "es", "it", "nl", "pt"} {
		b.Run(code, func(b *testing.B) {
			p := langPage(langBenchText[code])
			langs := func(int) lang.Result { return told(code) }
			c0 := cpuTime()
			enWindows = 0
			for b.Loop() {
				if _, err := r.DetectLangs(ctx, p, langs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/page")
			b.ReportMetric(rss, "rss-MB")
			b.ReportMetric(float64(enWindows)/float64(b.N), "en-windows/page")
		})
	}
}
