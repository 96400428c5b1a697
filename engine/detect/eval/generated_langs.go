package eval

import (
	"fmt"
	"slices"
	"strings"
)

// genLang is what the generator knows of one language: where its names
// and places come from, its national formats and its documents.
type genLang struct {
	code         string
	countries    []string // popular_names_by_country codes
	geonames     string   // postcode file under the gazetteers, or ""
	regionCol    int      // GeoNames column of the region code to print, or 0
	worldCountry string   // world_cities country when geonames is ""
	twoSurnames  bool     // Spanish and Portuguese: one or two surnames
	titlesM      []string
	titlesF      []string
	mailDomains  []string
	ids          []idKind
	months       []string // full month names, January first
	monthsAbbr   []string
	dateFormats  []string // d, dd, m, mm, M (name), Mab (abbreviation), yyyy, o (ordinal day)
	ordinal      func(d int) string
	phones       []string // # a digit; other bytes as written
	streets      func(g *gen) string
	postcode     func(g *gen, code string) string
	orgs         []string // S a surname, F a legal form
	forms        []string
	moneyFmt     string
	templates    []string
}

func (l *genLang) isCountry(c string) bool { return slices.Contains(l.countries, c) }

func (l *genLang) phone(g *gen) string { return fill(g, g.pick(l.phones)) }

func (l *genLang) street(g *gen) string { return l.streets(g) }

// fill replaces each # of t with a random digit.
func fill(g *gen, t string) string {
	b := []byte(t)
	for i, c := range b {
		if c == '#' {
			b[i] = byte('0' + g.r.IntN(10))
		}
	}
	return string(b)
}

func (l *genLang) date(g *gen, year int) string {
	d, m := 1+g.r.IntN(28), g.r.IntN(12)
	if g.r.IntN(8) == 0 {
		d = 1 // ordinals: "1er", "1º"
	}
	f := g.pick(l.dateFormats)
	day := fmt.Sprint(d)
	if l.ordinal != nil && strings.Contains(f, "{o}") {
		day = l.ordinal(d)
	}
	return strings.NewReplacer(
		"{d}", fmt.Sprint(d), "{dd}", fmt.Sprintf("%02d", d), "{o}", day,
		"{m}", fmt.Sprint(m+1), "{mm}", fmt.Sprintf("%02d", m+1),
		"{M}", l.months[m], "{Mab}", l.monthsAbbr[m], "{yyyy}", fmt.Sprint(year),
	).Replace(f)
}

func (l *genLang) org(g *gen) string {
	t := g.pick(l.orgs)
	return strings.NewReplacer("{S}", g.pick(g.src.last), "{F}", g.pick(l.forms)).Replace(t)
}

func (l *genLang) money(g *gen) string {
	v := 100 + g.r.IntN(990000)
	units, cents := v/100, v%100
	th := ""
	if units >= 1000 {
		th = fmt.Sprintf("%d", units/1000)
		units %= 1000
	}
	s := fmt.Sprintf("%03d", units)
	if th == "" {
		s = fmt.Sprint(units)
	}
	return strings.NewReplacer("T", th, "U", s, "C", fmt.Sprintf("%02d", cents)).Replace(func() string {
		if th == "" {
			// drop the thousands group and its separator
			f := l.moneyFmt
			i := strings.IndexByte(f, 'T')
			return f[:i] + f[i+2:]
		}
		return l.moneyFmt
	}())
}

// pickStreet joins a street type and a name by the pattern given:
// {t} type, {n} name, {h} house number.
func pickStreet(g *gen, patterns, types, names []string, numbers func(g *gen) string) string {
	return strings.NewReplacer("{t}", g.pick(types), "{n}", g.pick(names), "{h}", numbers(g)).Replace(g.pick(patterns))
}

func houseNumber(suffixes ...string) func(g *gen) string {
	return func(g *gen) string {
		n := fmt.Sprint(1 + g.r.IntN(180))
		if len(suffixes) > 0 && g.r.IntN(4) == 0 {
			n += g.pick(suffixes)
		}
		return n
	}
}

var genLangs = map[string]*genLang{
	"en": {
		code: "en", countries: []string{"US", "GB"}, geonames: "geonames_postal_codes/US.txt", regionCol: 4,
		titlesM: []string{"Mr.", "Mr", "Dr.", "Prof."}, titlesF: []string{"Mrs.", "Ms.", "Ms", "Dr."},
		mailDomains: []string{"gmail.com", "outlook.com", "acme-logistics.com", "example.org"},
		ids: []idKind{
			{kind: "us-ssn", tmpl: "999-99-9999", labels: []string{"SSN:", "Social Security No.:", "Social Security number"}},
			{kind: "uk-nino", tmpl: "AA999999A", labels: []string{"National Insurance number:", "NI number:"}, group: groups(" ", 2, 2, 2, 2, 1)},
		},
		months:      []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
		monthsAbbr:  []string{"Jan.", "Feb.", "Mar.", "Apr.", "May", "Jun.", "Jul.", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."},
		dateFormats: []string{"{M} {d}, {yyyy}", "{d} {M} {yyyy}", "{mm}/{dd}/{yyyy}", "{yyyy}-{mm}-{dd}", "{Mab} {d}, {yyyy}", "{o} {M} {yyyy}"},
		ordinal: func(d int) string {
			switch d {
			case 1, 21:
				return fmt.Sprint(d, "st")
			case 2, 22:
				return fmt.Sprint(d, "nd")
			case 3, 23:
				return fmt.Sprint(d, "rd")
			}
			return fmt.Sprint(d, "th")
		},
		phones: []string{"(212) 73#-####", "212-73#-####", "+1 415 83# ####", "(617) 34#-####"},
		streets: func(g *gen) string {
			return pickStreet(g, []string{"{h} {n} {t}"}, []string{"Street", "St.", "Avenue", "Ave", "Road", "Lane", "Drive"},
				[]string{"Main", "Oak", "Maple", "Church", "Park", "Washington", "Lincoln", "Cedar", "Elm"}, houseNumber())
		},
		orgs:     []string{"{S} Logistics {F}", "{S} & Sons {F}", "{S} Consulting {F}", "{S} Engineering {F}"},
		forms:    []string{"Ltd", "Ltd.", "LLC", "Inc.", "Corp."},
		moneyFmt: "$T,U.C",
		templates: []string{
			"{O}\n{A2}\n\n{D}\n\n{PT}\n{A2}\n\nDear {PL},\n\nThank you for your letter of {D}. We have updated your file and will call you on {T} if anything is missing.\nYours sincerely,\n{Q}\nPhone {T} · {E}\n",
			"INVOICE {REF}\n{O}\nInvoice date: {D}\nBill to: {P}, {A}\nAmount due: {M}\nPlease pay to IBAN {I} by {D}.\nQuestions: {E} or {T}\n",
			"EMPLOYEE RECORD\nName: {P}\nDate of birth: {DOB}\nAddress: {A}\n{N}\nStart date: {D}\nEmployer: {O}\nBank account: {I}\nEmergency contact: {Q}, {T}\n",
			"PATIENT SUMMARY\nPatient: {PT}, born {DOB}\n{N}\nAdmitted on {D} and discharged on {D}.\nGP: {Q}, {A}\nContact: {T}, {E}\n",
			"DECISION\nIn the matter of {P}, residing at {A}, the board decided on {D} to grant the application filed on {D}.\nSigned in {C} by {Q} for {O}.\n",
			"SERVICE AGREEMENT\nThis agreement dated {D} is made between {O}, {A}, and {PT}, born on {DOB}, {N}.\nPayments: {M} monthly to {I}.\nNotices: {E}, {T}.\n",
		},
	},
	"de": {
		code: "de", countries: []string{"DE"}, geonames: "geonames_postal_codes_eu/DE.txt",
		titlesM: []string{"Herr", "Herrn", "Dr.", "Herr Dr.", "Prof. Dr."}, titlesF: []string{"Frau", "Frau Dr.", "Dr.", "Prof."},
		mailDomains: []string{"web.de", "gmx.de", "t-online.de", "mueller-bau.de", "beispiel.de"},
		ids: []idKind{
			{kind: "de-steuer-id", tmpl: "99999999999", labels: []string{"Steuer-ID:", "Steueridentifikationsnummer:", "Steuer-IdNr.:"}, group: groups(" ", 2, 3, 3, 3)},
			{kind: "de-steuer-id", tmpl: "99999999999", labels: []string{"Steuer-ID:", "Identifikationsnummer:"}},
			{kind: "de-id-card", tmpl: "AXXXXXXXX9", labels: []string{"Personalausweis-Nr.:", "Ausweisnummer:"}},
		},
		months:      []string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
		monthsAbbr:  []string{"Jan.", "Feb.", "Mär.", "Apr.", "Mai", "Jun.", "Jul.", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."},
		dateFormats: []string{"{d}. {M} {yyyy}", "{dd}.{mm}.{yyyy}", "{d}.{m}.{yyyy}", "{d}. {Mab} {yyyy}", "{dd}. {M} {yyyy}"},
		phones: []string{"030 ########", "(030) #### ####", "+49 30 ########", "089 #######", "+49 (0)89 ######-##", "040/########",
			"0171 #######", "+49 171 #######", "0176 ########", "0221 #######"},
		streets: func(g *gen) string {
			if g.r.IntN(5) == 0 {
				return pickStreet(g, []string{"{n} {h}"}, []string{""}, []string{"Am Markt", "An der Kirche", "Berliner Straße", "Hamburger Allee", "Alter Weg", "Im Winkel"}, houseNumber("a", "b"))
			}
			return pickStreet(g, []string{"{n}{t} {h}"}, []string{"straße", "str.", "weg", "allee", "platz", "gasse", "ring"},
				[]string{"Goethe", "Schiller", "Bahnhof", "Haupt", "Kirch", "Linden", "Garten", "Mozart", "Rosen", "Wald", "Friedrich", "Kaiser"}, houseNumber("a", "b", "-5"))
		},
		orgs:     []string{"{S} Bau {F}", "{S} & Partner {F}", "{S} Logistik {F}", "Bäckerei {S} {F}", "{S} Immobilien {F}"},
		forms:    []string{"GmbH", "AG", "GmbH & Co. KG", "KG", "e.K.", "UG (haftungsbeschränkt)"},
		moneyFmt: "T.U,C €",
		templates: []string{
			"{O}\n{A2}\n\n{C}, den {D}\n\n{PT}\n{A2}\n\nSehr geehrte(r) {PL},\n\nvielen Dank für Ihr Schreiben vom {D}. Wir haben Ihre Unterlagen geprüft und melden uns unter {T}, falls etwas fehlt.\nMit freundlichen Grüßen\n{Q}\nTel. {T} · E-Mail: {E}\n",
			"RECHNUNG Nr. {REF}\n{O}\nRechnungsdatum: {D}\nRechnungsempfänger: {P}, {A}\nGesamtbetrag: {M}\nBitte überweisen Sie den Betrag bis zum {D} auf das Konto IBAN {I}.\nRückfragen: {E} oder {T}\n",
			"PERSONALBOGEN\nName: {P}\nGeburtsdatum: {DOB}\nAnschrift: {A}\n{N}\nEintrittsdatum: {D}\nArbeitgeber: {O}\nBankverbindung: {I}\nNotfallkontakt: {Q}, Telefon {T}\n",
			"ARZTBRIEF\nPatient: {PT}, geb. am {DOB}\n{N}\nstationäre Aufnahme am {D}, Entlassung am {D}.\nHausarzt: {Q}, {A}\nKontakt: {T}, {E}\n",
			"BESCHEID\nIn der Sache {P}, wohnhaft {A}, hat die Kammer am {D} beschlossen, dem Antrag vom {D} stattzugeben.\nGez. {Q}, {O}, {C}\n",
			"ARBEITSVERTRAG\nZwischen der {O}, {A}, und {PT}, geboren am {DOB}, {N}, wird am {D} folgender Vertrag geschlossen.\nDas Gehalt von {M} wird auf das Konto {I} überwiesen.\nKontakt: {E}, {T}\n",
		},
	},
	"fr": {
		code: "fr", countries: []string{"FR"}, worldCountry: "France",
		titlesM: []string{"M.", "Monsieur", "Dr", "Me"}, titlesF: []string{"Mme", "Madame", "Mme", "Dr"},
		mailDomains: []string{"orange.fr", "free.fr", "laposte.net", "exemple.fr"},
		ids: []idKind{
			{kind: "fr-nir", tmpl: "199999999999999", labels: []string{"N° de sécurité sociale :", "Numéro de sécurité sociale :", "NIR :"}, group: groups(" ", 1, 2, 2, 2, 3, 3, 2)},
			{kind: "fr-nir", tmpl: "299999999999999", labels: []string{"N° de sécurité sociale :", "N° INSEE :"}},
		},
		months:      []string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
		monthsAbbr:  []string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."},
		dateFormats: []string{"{o} {M} {yyyy}", "{dd}/{mm}/{yyyy}", "{o} {Mab} {yyyy}", "{o} {M} {yyyy}"},
		ordinal: func(d int) string {
			if d == 1 {
				return "1er"
			}
			return fmt.Sprint(d)
		},
		phones: []string{"01 ## ## ## ##", "+33 1 ## ## ## ##", "06 ## ## ## ##", "06.##.##.##.##", "+33 (0)6 ## ## ## ##", "04 ## ## ## ##", "07########"},
		streets: func(g *gen) string {
			return pickStreet(g, []string{"{h} {t} {n}", "{h}, {t} {n}", "{h} bis {t} {n}"}, []string{"rue", "avenue", "boulevard", "place", "chemin", "impasse", "allée"},
				[]string{"de la Paix", "Victor Hugo", "du Général Leclerc", "des Lilas", "de la République", "Jean Jaurès", "Pasteur", "du Moulin"}, houseNumber())
		},
		postcode: func(g *gen, _ string) string { return fmt.Sprintf("%02d%03d", 1+g.r.IntN(95), g.r.IntN(1000)) },
		orgs:     []string{"Boulangerie {S} {F}", "Transports {S} {F}", "{S} et Fils {F}", "Cabinet {S} {F}", "Garage {S} {F}"},
		forms:    []string{"SARL", "SAS", "S.A.", "SA", "EURL", "SNC"},
		moneyFmt: "T U,C €",
		templates: []string{
			"{O}\n{A2}\n\n{C}, le {D}\n\n{PT}\n{A2}\n\nObjet : votre dossier\n{PL},\n\nNous avons bien reçu votre courrier du {D}. Nous vous contacterons au {T} si une pièce manque.\nVeuillez agréer nos salutations distinguées.\n{Q}\nTél. : {T} – Courriel : {E}\n",
			"FACTURE N° {REF}\n{O}\nDate de facturation : {D}\nClient : {P}, {A}\nMontant TTC : {M}\nMerci de régler avant le {D} par virement sur l'IBAN {I}.\nContact : {E} ou {T}\n",
			"FICHE DU PERSONNEL\nNom : {P}\nDate de naissance : {DOB}\nAdresse : {A}\n{N}\nDate d'entrée : {D}\nEmployeur : {O}\nCoordonnées bancaires : {I}\nPersonne à prévenir : {Q}, {T}\n",
			"COMPTE RENDU D'HOSPITALISATION\nPatient : {PT}, né(e) le {DOB}\n{N}\nHospitalisé(e) du {D} au {D}.\nMédecin traitant : {Q}, {A}\nContact : {T}, {E}\n",
			"DÉCISION\nDans l'affaire {P}, demeurant {A}, la commission a décidé le {D} de faire droit à la demande présentée le {D}.\nFait à {C}, {Q}, pour {O}.\n",
			"CONTRAT DE TRAVAIL\nEntre la société {O}, {A}, et {PT}, né(e) le {DOB}, {N}, il est convenu ce qui suit le {D}.\nLe salaire de {M} est versé sur le compte {I}.\nContact : {E}, {T}\n",
		},
	},
	"es": {
		code: "es", countries: []string{"ES"}, geonames: "geonames_postal_codes_eu/ES.txt", twoSurnames: true,
		titlesM: []string{"Sr.", "D.", "Sr. D.", "Dr."}, titlesF: []string{"Sra.", "Dña.", "Sra. Dña.", "Dra."},
		mailDomains: []string{"gmail.com", "telefonica.net", "hotmail.es", "ejemplo.es"},
		ids: []idKind{
			{kind: "es-dni", tmpl: "99999999A", labels: []string{"DNI:", "DNI n.º", "DNI"}},
			{kind: "es-nie", tmpl: "A9999999A", labels: []string{"NIE:", "NIE"}},
		},
		months:      []string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
		monthsAbbr:  []string{"ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sept.", "oct.", "nov.", "dic."},
		dateFormats: []string{"{d} de {M} de {yyyy}", "{dd}/{mm}/{yyyy}", "{d}/{m}/{yyyy}", "{dd}-{mm}-{yyyy}", "{d} {Mab} {yyyy}"},
		phones:      []string{"912 ### ###", "91 ### ## ##", "+34 912 ### ###", "612 ## ## ##", "+34 612 ### ###", "69#######", "933 ### ###"},
		streets: func(g *gen) string {
			return pickStreet(g, []string{"{t} {n}, {h}", "{t} {n} {h}", "{t} {n}, {h}, 3.º B", "{t} {n} n.º {h}"}, []string{"Calle", "C/", "Avenida", "Avda.", "Plaza", "Paseo"},
				[]string{"Mayor", "de Alcalá", "Gran Vía", "de la Constitución", "del Prado", "de Cervantes", "San Juan", "Real"}, houseNumber())
		},
		orgs:     []string{"Transportes {S} {F}", "Construcciones {S} {F}", "Inmobiliaria {S} {F}", "Talleres {S} {F}", "{S} e Hijos {F}"},
		forms:    []string{"S.L.", "S.A.", "S.L.U.", "SL", "SA"},
		moneyFmt: "T.U,C €",
		templates: []string{
			"{O}\n{A2}\n\n{C}, {D}\n\n{PT}\n{A2}\n\nEstimado/a {PL}:\n\nHemos recibido su carta del {D}. Le llamaremos al {T} si falta algún documento.\nAtentamente,\n{Q}\nTel.: {T} · Correo: {E}\n",
			"FACTURA N.º {REF}\n{O}\nFecha de factura: {D}\nCliente: {P}, {A}\nImporte total: {M}\nRogamos transfieran el importe antes del {D} a la cuenta IBAN {I}.\nConsultas: {E} o {T}\n",
			"FICHA DE PERSONAL\nNombre: {P}\nFecha de nacimiento: {DOB}\nDomicilio: {A}\n{N}\nFecha de alta: {D}\nEmpresa: {O}\nCuenta bancaria: {I}\nContacto de emergencia: {Q}, {T}\n",
			"INFORME DE ALTA\nPaciente: {PT}, nacido/a el {DOB}\n{N}\nIngresó el {D} y recibió el alta el {D}.\nMédico de cabecera: {Q}, {A}\nContacto: {T}, {E}\n",
			"RESOLUCIÓN\nEn el expediente de {P}, con domicilio en {A}, la comisión resolvió el {D} estimar la solicitud presentada el {D}.\nEn {C}, firmado: {Q}, por {O}.\n",
			"CONTRATO DE TRABAJO\nEntre {O}, con domicilio en {A}, y {PT}, nacido/a el {DOB}, con {N}, se acuerda el {D} lo siguiente.\nEl salario de {M} se abonará en la cuenta {I}.\nContacto: {E}, {T}\n",
		},
	},
	"it": {
		code: "it", countries: []string{"IT"}, geonames: "geonames_postal_codes_eu/IT.txt", regionCol: 6,
		titlesM: []string{"Sig.", "Dott.", "Avv.", "Ing.", "Signor"}, titlesF: []string{"Sig.ra", "Dott.ssa", "Signora", "Avv."},
		mailDomains: []string{"libero.it", "gmail.com", "virgilio.it", "esempio.it"},
		ids: []idKind{
			{kind: "it-codice-fiscale", tmpl: "AAAAAA99A99A999A", labels: []string{"Codice fiscale:", "C.F.:", "codice fiscale"}},
		},
		months:      []string{"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"},
		monthsAbbr:  []string{"gen.", "feb.", "mar.", "apr.", "mag.", "giu.", "lug.", "ago.", "set.", "ott.", "nov.", "dic."},
		dateFormats: []string{"{o} {M} {yyyy}", "{dd}/{mm}/{yyyy}", "{d}/{m}/{yyyy}", "{dd}.{mm}.{yyyy}", "{o} {Mab} {yyyy}"},
		ordinal: func(d int) string {
			if d == 1 {
				return "1°"
			}
			return fmt.Sprint(d)
		},
		phones: []string{"06 #### ####", "+39 06 #### ####", "02 ########", "347 ### ####", "+39 347 ### ####", "33########", "011-#######"},
		streets: func(g *gen) string {
			return pickStreet(g, []string{"{t} {n} {h}", "{t} {n}, {h}", "{t} {n} n. {h}"}, []string{"Via", "Viale", "Corso", "Piazza", "Vicolo", "Largo"},
				[]string{"Roma", "Garibaldi", "Giuseppe Verdi", "Dante Alighieri", "XX Settembre", "Vittorio Emanuele II", "Cavour", "Mazzini"}, houseNumber("/A", "/B"))
		},
		orgs:     []string{"{S} Costruzioni {F}", "Trasporti {S} {F}", "{S} Impianti {F}", "{S} & Figli {F}", "{S} Servizi {F}"},
		forms:    []string{"S.r.l.", "S.p.A.", "Srl", "S.n.c.", "S.a.s."},
		moneyFmt: "€ T.U,C",
		templates: []string{
			"{O}\n{A2}\n\n{C}, {D}\n\nGentile {PT}\n{A2}\n\nOggetto: la Sua pratica\nGentile {PL},\n\nabbiamo ricevuto la Sua lettera del {D}. La contatteremo al {T} se manca qualche documento.\nCordiali saluti\n{Q}\nTel. {T} · e-mail: {E}\n",
			"FATTURA N. {REF}\n{O}\nData fattura: {D}\nCliente: {P}, {A}\nTotale: {M}\nSi prega di effettuare il bonifico entro il {D} sull'IBAN {I}.\nInformazioni: {E} o {T}\n",
			"SCHEDA DEL PERSONALE\nNome: {P}\nData di nascita: {DOB}\nIndirizzo: {A}\n{N}\nData di assunzione: {D}\nDatore di lavoro: {O}\nConto corrente: {I}\nContatto di emergenza: {Q}, {T}\n",
			"LETTERA DI DIMISSIONI OSPEDALIERE\nPaziente: {PT}, nato/a il {DOB}\n{N}\nRicoverato/a il {D}, dimesso/a il {D}.\nMedico curante: {Q}, {A}\nRecapiti: {T}, {E}\n",
			"DECISIONE\nNel procedimento relativo a {P}, residente in {A}, la commissione ha deciso il {D} di accogliere la domanda presentata il {D}.\n{C}, firmato {Q} per {O}.\n",
			"CONTRATTO DI LAVORO\nTra {O}, con sede in {A}, e {PT}, nato/a il {DOB}, {N}, si conviene in data {D} quanto segue.\nLo stipendio di {M} è versato sul conto {I}.\nRecapiti: {E}, {T}\n",
		},
	},
	"nl": {
		code: "nl", countries: []string{"NL"}, geonames: "geonames_postal_codes_eu/NL.txt",
		titlesM: []string{"dhr.", "de heer", "Dhr.", "dr.", "mr."}, titlesF: []string{"mevr.", "mevrouw", "Mevr.", "dr."},
		mailDomains: []string{"ziggo.nl", "kpnmail.nl", "gmail.com", "voorbeeld.nl"},
		ids: []idKind{
			{kind: "nl-bsn", tmpl: "999999999", labels: []string{"BSN:", "Burgerservicenummer:", "BSN"}},
		},
		months:      []string{"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
		monthsAbbr:  []string{"jan.", "feb.", "mrt.", "apr.", "mei", "jun.", "jul.", "aug.", "sep.", "okt.", "nov.", "dec."},
		dateFormats: []string{"{d} {M} {yyyy}", "{dd}-{mm}-{yyyy}", "{d}-{m}-{yyyy}", "{d} {Mab} {yyyy}"},
		phones:      []string{"020 ### ####", "020-#######", "+31 20 ### ####", "06-2#######", "06 1### ####", "+31 6 4### ####", "+31 (0)10 ### ####", "010 ### ## ##"},
		streets: func(g *gen) string {
			return pickStreet(g, []string{"{n}{t} {h}"}, []string{"straat", "weg", "laan", "plein", "gracht", "singel", "dijk"},
				[]string{"Kerk", "Dorps", "Molen", "School", "Heeren", "Prinsen", "Stations", "Beuken", "Wilhelmina"}, houseNumber("a", " A", "-II"))
		},
		postcode: func(g *gen, code string) string {
			const letters = "ABCEGHJKLMNPRTVWXZ"
			return code + " " + string(letters[g.r.IntN(len(letters))]) + string(letters[g.r.IntN(len(letters))])
		},
		orgs:     []string{"{S} Bouw {F}", "{S} Logistiek {F}", "{S} Installatietechniek {F}", "{S} Vastgoed {F}", "{S} Advies {F}"},
		forms:    []string{"B.V.", "N.V.", "BV", "V.O.F."},
		moneyFmt: "€ T.U,C",
		templates: []string{
			"{O}\n{A2}\n\n{C}, {D}\n\n{PT}\n{A2}\n\nBetreft: uw dossier\nGeachte {PL},\n\nWij hebben uw brief van {D} ontvangen. Wij bellen u op {T} als er iets ontbreekt.\nMet vriendelijke groet,\n{Q}\nTel. {T} · e-mail: {E}\n",
			"FACTUUR {REF}\n{O}\nFactuurdatum: {D}\nKlant: {P}, {A}\nTotaalbedrag: {M}\nGelieve het bedrag vóór {D} over te maken op IBAN {I}.\nVragen: {E} of {T}\n",
			"PERSONEELSDOSSIER\nNaam: {P}\nGeboortedatum: {DOB}\nAdres: {A}\n{N}\nDatum in dienst: {D}\nWerkgever: {O}\nBankrekening: {I}\nContactpersoon bij nood: {Q}, {T}\n",
			"ONTSLAGBRIEF\nPatiënt: {PT}, geboren op {DOB}\n{N}\nOpgenomen op {D}, ontslagen op {D}.\nHuisarts: {Q}, {A}\nContact: {T}, {E}\n",
			"BESLUIT\nIn de zaak van {P}, wonende te {A}, heeft de commissie op {D} besloten het verzoek van {D} toe te wijzen.\n{C}, getekend {Q} namens {O}.\n",
			"ARBEIDSOVEREENKOMST\nTussen {O}, gevestigd {A}, en {PT}, geboren op {DOB}, {N}, wordt op {D} het volgende overeengekomen.\nHet salaris van {M} wordt overgemaakt op rekening {I}.\nContact: {E}, {T}\n",
		},
	},
	"pt": {
		code: "pt", countries: []string{"PT"}, worldCountry: "Portugal", twoSurnames: true,
		titlesM: []string{"Sr.", "Dr.", "Eng.", "Senhor"}, titlesF: []string{"Sr.ª", "Sra.", "Dra.", "Dr.ª", "Senhora"},
		mailDomains: []string{"sapo.pt", "gmail.com", "clix.pt", "exemplo.pt"},
		ids: []idKind{
			{kind: "pt-nif", tmpl: "199999999", labels: []string{"NIF:", "N.º de contribuinte:", "Contribuinte n.º"}},
			{kind: "pt-nif", tmpl: "299999999", labels: []string{"NIF:", "NIF"}},
			{kind: "pt-cartao-cidadao", tmpl: "999999999AA9", labels: []string{"Cartão de Cidadão n.º", "N.º do Cartão de Cidadão:"}, group: groups(" ", 8, 1, 3)},
		},
		months:      []string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"},
		monthsAbbr:  []string{"jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.", "dez."},
		dateFormats: []string{"{o} de {M} de {yyyy}", "{dd}/{mm}/{yyyy}", "{dd}-{mm}-{yyyy}", "{d} {Mab} {yyyy}", "{yyyy}-{mm}-{dd}"},
		ordinal: func(d int) string {
			if d == 1 {
				return "1.º"
			}
			return fmt.Sprint(d)
		},
		phones: []string{"213 ### ###", "21 ### ####", "+351 213 ### ###", "912 ### ###", "+351 912 ### ###", "93#######", "226 ### ###"},
		streets: func(g *gen) string {
			return pickStreet(g, []string{"{t} {n}, {h}", "{t} {n}, n.º {h}", "{t} {n} {h}, 2.º Esq."}, []string{"Rua", "Avenida", "Av.", "Travessa", "Largo", "Praça"},
				[]string{"Augusta", "da Liberdade", "de Santa Catarina", "do Carmo", "Dom João IV", "da República", "25 de Abril"}, houseNumber())
		},
		postcode: func(g *gen, _ string) string { return fmt.Sprintf("%04d-%03d", 1000+g.r.IntN(9000), g.r.IntN(1000)) },
		orgs:     []string{"{S} Construções {F}", "Transportes {S} {F}", "{S} & Filhos, {F}", "Comércio {S} {F}", "{S} Serviços {F}"},
		forms:    []string{"Lda.", "S.A.", "Unipessoal Lda.", "Lda"},
		moneyFmt: "T.U,C €",
		templates: []string{
			"{O}\n{A2}\n\n{C}, {D}\n\nExmo(a). {PT}\n{A2}\n\nAssunto: o seu processo\nCaro(a) {PL},\n\nRecebemos a sua carta de {D}. Telefonaremos para o {T} se faltar algum documento.\nCom os melhores cumprimentos,\n{Q}\nTel.: {T} · E-mail: {E}\n",
			"FATURA N.º {REF}\n{O}\nData da fatura: {D}\nCliente: {P}, {A}\nTotal: {M}\nQueira transferir o montante até {D} para o IBAN {I}.\nDúvidas: {E} ou {T}\n",
			"FICHA DE PESSOAL\nNome: {P}\nData de nascimento: {DOB}\nMorada: {A}\n{N}\nData de admissão: {D}\nEntidade patronal: {O}\nConta bancária: {I}\nContacto de emergência: {Q}, {T}\n",
			"NOTA DE ALTA\nDoente: {PT}, nascido/a a {DOB}\n{N}\nInternado/a a {D}, alta a {D}.\nMédico de família: {Q}, {A}\nContacto: {T}, {E}\n",
			"DECISÃO\nNo processo de {P}, residente em {A}, a comissão decidiu em {D} deferir o pedido apresentado em {D}.\n{C}, assinado por {Q}, pela {O}.\n",
			"CONTRATO DE TRABALHO\nEntre {O}, com sede em {A}, e {PT}, nascido/a a {DOB}, {N}, é celebrado em {D} o seguinte contrato.\nO vencimento de {M} é pago na conta {I}.\nContacto: {E}, {T}\n",
		},
	},
}
