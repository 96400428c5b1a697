"""Tokenizer and input features shared by training and the Go runtime.

models/ner/tokenize.go implements exactly the same rules; the fixture in
models/ner/testdata/tokenizer_fixture.json (written by
`python3 nertok.py fixture`) is checked by the Go tests, so any change here
must be mirrored there and the fixture regenerated.

Rules:
  * whitespace (Go's unicode.IsSpace set, listed in SPACES) separates words;
  * inside a word, a maximal run of letters, marks and numbers (Unicode
    categories L*, M*, N*) is one token; every other rune is a token alone;
  * the newline between two lines of a document is the special token NL.

Features per token:
  * word id: lookup of norm(token) in the word vocabulary, where norm
    lowercases rune by rune (simple case mapping, U+0130 kept) and maps
    ASCII digits to '0'; 0 = padding, 1 = unknown, 2 = NL;
  * char ids: the first MAX_CHARS runes, looked up case-sensitively in the
    char vocabulary; 0 = padding, 1 = unknown, 2 = NL;
  * shape id: see shape();
  * gazetteer id: a bit per word list that holds norm(token) (GAZ_LISTS;
    the lists are engine/detect/gazetteer/data's, stored in vocab.json
    so the model directory is self-contained); 0 = in none, or NL.
"""

import json
import sys
import unicodedata

NL = "\n"
PAD, UNK, NLID = 0, 1, 2
MAX_CHARS = 20

# Go's unicode.IsSpace: '\t', '\n', '\v', '\f', '\r', ' ', U+0085, U+00A0
# and the Unicode White_Space characters of category Z.
SPACES = frozenset(
    [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680]
    + list(range(0x2000, 0x200B))
    + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
)


def is_space(c):
    return ord(c) in SPACES


def is_word_rune(c):
    return unicodedata.category(c)[0] in "LMN"


def split_words(text):
    """Splits text on whitespace (SPACES)."""
    out, cur = [], []
    for c in text:
        if is_space(c):
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(c)
    if cur:
        out.append("".join(cur))
    return out


def pieces(word):
    """Splits one word (no whitespace expected) into tokens.

    Returns (token, start_rune, end_rune) triples."""
    out = []
    i, n = 0, len(word)
    while i < n:
        c = word[i]
        if is_space(c):
            i += 1
            continue
        if is_word_rune(c):
            j = i + 1
            while j < n and is_word_rune(word[j]):
                j += 1
            out.append((word[i:j], i, j))
            i = j
        else:
            out.append((c, i, i + 1))
            i += 1
    return out


def tokenize(text):
    """Tokenizes running text: lines are separated by NL tokens."""
    toks = []
    for li, line in enumerate(text.split("\n")):
        if li > 0 and toks and toks[-1] != NL:
            toks.append(NL)
        for w in split_words(line):
            toks.extend(p[0] for p in pieces(w))
    while toks and toks[-1] == NL:
        toks.pop()
    return toks


def tokenize_offsets(text):
    """Like tokenize, with (start, end) character offsets into text.

    The NL token's offsets cover the line break."""
    toks, offs = [], []
    pos = 0
    for li, line in enumerate(text.split("\n")):
        if li > 0 and toks and toks[-1] != NL:
            toks.append(NL)
            offs.append((pos - 1, pos))
        i, n = 0, len(line)
        while i < n:
            if is_space(line[i]):
                i += 1
                continue
            j = i
            while j < n and not is_space(line[j]):
                j += 1
            for p, a, b in pieces(line[i:j]):
                toks.append(p)
                offs.append((pos + i + a, pos + i + b))
            i = j
        pos += len(line) + 1
    while toks and toks[-1] == NL:
        toks.pop()
        offs.pop()
    return toks, offs


def lower_rune(c):
    if c == "\u0130":
        return c
    lc = c.lower()
    return lc if len(lc) == 1 else c


def norm(tok):
    if tok == NL:
        return NL
    out = []
    for c in tok:
        if "0" <= c <= "9":
            out.append("0")
        else:
            out.append(lower_rune(c))
    return "".join(out)


# Shape ids.
SHAPE_PAD, SHAPE_NL = 0, 1
SHAPE_LOWER, SHAPE_UPPER, SHAPE_TITLE, SHAPE_UPPER1 = 2, 3, 4, 5
SHAPE_MIXED, SHAPE_DIGITS, SHAPE_ALNUM, SHAPE_PUNCT, SHAPE_OTHER = 6, 7, 8, 9, 10
N_SHAPES = 11


def shape(tok):
    """Coarse casing / character-class id of a token."""
    if tok == NL:
        return SHAPE_NL
    up = lo = dig = other = 0
    for c in tok:
        cat = unicodedata.category(c)
        if cat == "Lu":
            up += 1
        elif cat == "Ll":
            lo += 1
        elif "0" <= c <= "9":
            dig += 1
        elif cat[0] in "LMN":
            other += 1
        else:
            return SHAPE_PUNCT if len(tok) == 1 else SHAPE_OTHER
    if dig and (up or lo or other):
        return SHAPE_ALNUM
    if dig:
        return SHAPE_DIGITS
    if up and not lo:
        return SHAPE_UPPER1 if up == 1 and not other else SHAPE_UPPER
    if lo and not up:
        return SHAPE_LOWER
    if up and lo:
        first = unicodedata.category(tok[0]) == "Lu"
        if first and up == 1:
            return SHAPE_TITLE
        return SHAPE_MIXED
    return SHAPE_OTHER


def char_ids(tok, cvocab):
    if tok == NL:
        return [NLID]
    return [cvocab.get(c, UNK) for c in tok[:MAX_CHARS]]


def word_id(tok, wvocab):
    if tok == NL:
        return NLID
    return wvocab.get(norm(tok), UNK)


# Gazetteer features: one bit per list, in this order (vocab.json
# "gazetteer_lists"; models/ner/own.go reads the same). Each list holds
# the single-token entries of its files in engine/detect/gazetteer/data,
# normalised by norm(): census and SSA first names and surnames,
# GeoNames cities and country names, company legal forms, honorifics.
GAZ_LISTS = [
    ("first_name", ["first_names.txt"]),
    ("surname", ["surnames.txt"]),
    ("place", ["cities.txt", "countries.txt"]),
    ("org_form", ["legal_forms.txt"]),
    ("title", ["titles.txt"]),
]
N_GAZ = 1 << len(GAZ_LISTS)


def load_gazetteer(data_dir):
    """Reads GAZ_LISTS from data_dir: {list name: sorted normalised words}."""
    import os
    out = {}
    for name, files in GAZ_LISTS:
        words = set()
        for fn in files:
            with open(os.path.join(data_dir, fn), encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if not line or line.startswith("#"):
                        continue
                    toks = tokenize(line)
                    if len(toks) == 1:
                        words.add(norm(toks[0]))
        out[name] = sorted(words)
    return out


def gaz_index(lists):
    """{normalised word: bits} from load_gazetteer's lists."""
    idx = {}
    for bit, (name, _) in enumerate(GAZ_LISTS):
        for w in lists.get(name, []):
            idx[w] = idx.get(w, 0) | (1 << bit)
    return idx


def gaz_id(tok, gindex):
    if tok == NL or not gindex:
        return 0
    return gindex.get(norm(tok), 0)


FIXTURE_TEXTS = [
    "John Smith works at Acme Corp in Berlin.",
    "Name: JOHN O'BRIEN-SMITH\nAddress: 12b Main St., Apt. #4\nSpringfield, IL 62704",
    "E-mail: jo.doe@example.org, tel. +49 (0)30 123-456",
    "Müller GmbH & Co. KG, Königstraße 5, 70173 Stuttgart",
    "12, rue de l'Église — 75004 PARIS CEDEX",
    "İstanbul ΣΊΣΥΦΟΣ Straße ǅemal ﬁnance ⅫB ²³ x½ ١٢٣",
    "Tabs\tand\u00a0nbsp\u2009thin\u3000ideo  spaces\r\nCRLF line",
    "Ünïcödé naïve café coöperate Ñandú São Paulo Łódź Čapek",
    "tokens... ‘quoted’ «guillemets» “double” (paren) [brack] {brace}",
    "100,000.00 EUR 3.5% 1/2 2023-01-05 12:30pm #hashtag @user http://x.y/z?a=1&b=2",
    "日本語の文 한국어 テスト 中文",
    "emoji 👍🏽 family 👨‍👩‍👧 flags 🇩🇪 zero\u200bwidth joiner\u200d",
    "Dr. med. Anna-Lena v. d. Heide, M.Sc., Ph.D.",
    "",
    "\n\n  \n",
    "a\n\nb",
]


def write_fixture(path, wvocab=None, cvocab=None, gindex=None):
    cases = []
    for t in FIXTURE_TEXTS:
        toks = tokenize(t)
        words = []
        for w in split_words(t.replace("\n", " ")):
            words.append({"word": w, "pieces": [[p[0], p[1], p[2]] for p in pieces(w)]})
        c = {
            "text": t,
            "tokens": toks,
            "norm": [norm(x) for x in toks],
            "shape": [shape(x) for x in toks],
            "words": words,
        }
        if wvocab is not None:
            c["word_ids"] = [word_id(x, wvocab) for x in toks]
            c["char_ids"] = [char_ids(x, cvocab) for x in toks]
        if gindex:
            c["gaz_ids"] = [gaz_id(x, gindex) for x in toks]
        cases.append(c)
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"cases": cases}, f, ensure_ascii=False, indent=1)


def load_vocab(path):
    with open(path, encoding="utf-8") as f:
        v = json.load(f)
    w = {s: i for i, s in enumerate(v["words"])}
    c = {s: i for i, s in enumerate(v["chars"])}
    return w, c, gaz_index(v.get("gazetteer", {}))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "fixture":
        wv = cv = gi = None
        if len(sys.argv) >= 4:
            wv, cv, gi = load_vocab(sys.argv[3])
        write_fixture(sys.argv[2], wv, cv, gi)
    else:
        print("usage: nertok.py fixture OUT.json [vocab.json]", file=sys.stderr)
        sys.exit(2)
