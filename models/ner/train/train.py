"""Trains the redactd NER model and exports it to ONNX.

Usage: python3 train.py --out ../model [--steps N] [--minutes M]

Writes into --out: ner.onnx (its character CNN folded into tables by
fold.py), vocab.json, manifest.json; and into
../testdata: tokenizer_fixture.json and parity_fixture.json (inputs and
torch logits, checked against onnxruntime by the Go tests).
See ../README.md.
"""

import argparse
import copy
import functools
import json
import math
import os
import random
import sys
import time
from collections import Counter

import torch
import torch.nn as nn

import corpora
import lm
import nertok
import optim
import synth
from model import NER
from shareddata import shared_data
from nertok import NL

LABELS = corpora.LABELS
L2I = {l: i for i, l in enumerate(LABELS)}
MAX_TOKENS = 64  # runtime window size in tokens (models/ner window.go)


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


# ------------------------------------------------------------ data shaping

def chunk(seq, n=MAX_TOKENS):
    """Splits a long token sequence into windows of at most n tokens."""
    out = []
    for i in range(0, len(seq), n):
        c = seq[i:i + n]
        while c and c[0][0] == NL:
            c = c[1:]
        while c and c[-1][0] == NL:
            c = c[:-1]
        if c:
            out.append(c)
    return out


def wrap(sent, rng, width=0):
    """Inserts line breaks as a PDF text layer would when a sentence wraps,
    every width tokens (random, 4-14, when 0). A break inside an entity is
    tagged I-X: the entity continues."""
    width = width or rng.randint(4, 14)
    out, col = [], 0
    for t, tag in sent:
        if col >= width:
            out.append((NL, tag if tag.startswith("I-") else "O" if tag != corpora.IGN else tag))
            col = 0
        out.append((t, tag))
        col += 1
    return out


def recase(sent, rng, p_up=0.06, p_low=0.10, p_title=0.03):
    """Casing augmentation: ALL-CAPS headlines, lower-case chat, and Title
    Case headings (every word capitalised, so capitals alone do not mark
    a name)."""
    x = rng.random()
    if x < p_up:
        return [(t.upper() if t != NL else t, g) for t, g in sent]
    if x < p_up + p_low:
        return [(t.lower() if t != NL else t, g) for t, g in sent]
    if x < p_up + p_low + p_title:
        return [(t[:1].upper() + t[1:] if t != NL else t, g) for t, g in sent]
    return sent


def swap_names(sent, rng, names, p_sent):
    """Mention replacement: with probability p_sent, every Person mention
    of the sentence gets other names of as many words (first names, then
    a surname; a mention of one word is a surname seven times in ten),
    written in the case the original was. The corpora repeat a few
    thousand famous names; a document names people no corpus has seen,
    and this teaches the network to read them from their context."""
    if names is None or rng.random() >= p_sent or not any(g == "B-PER" for _, g in sent):
        return sent
    first, last = names
    out = list(sent)
    i = 0
    while i < len(out):
        if out[i][1] != "B-PER":
            i += 1
            continue
        j = i + 1
        while j < len(out) and out[j][1] == "I-PER":
            j += 1
        alpha = [k for k in range(i, j) if out[k][0].isalpha()]
        for n, k in enumerate(alpha):
            t = out[k][0]
            if n == len(alpha) - 1:
                new = rng.choice(last) if len(alpha) > 1 or rng.random() < 0.7 else rng.choice(first)
            else:
                new = rng.choice(first)
            if t.isupper() and len(t) > 1:
                new = new.upper()
            elif t.islower():
                new = new.lower()
            out[k] = (new, out[k][1])
        i = j
    return out


# OCR-like confusions that keep a token one token (letters and digits
# only: nertok would split a word at any other rune).
OCR_SUBS = {"l": "1", "I": "l", "O": "0", "o": "0", "e": "c", "c": "e", "S": "5", "B": "8", "rn": "m",
            "m": "rn", "i": "l", "a": "o", "h": "b", "u": "v", "n": "ri", "g": "q", "E": "F", "D": "O"}


def ocr_noise(sent, rng, p_sent=0.08, p_tok=0.12):
    """With probability p_sent, garbles p_tok of the sentence's tokens of
    three letters or more as OCR does: a confusable letter swapped
    ("rn" -> "m", "l" -> "1"), a letter dropped or doubled."""
    if rng.random() >= p_sent:
        return sent
    out = []
    for t, g in sent:
        if t != NL and len(t) >= 3 and t.isalnum() and rng.random() < p_tok:
            x = rng.random()
            k = rng.randrange(len(t))
            if x < 0.6:
                keys = [c for c in OCR_SUBS if c in t]
                if keys:
                    c = rng.choice(keys)
                    t = t.replace(c, OCR_SUBS[c], 1)
            elif x < 0.8:
                t = t[:k] + t[k + 1:]
            else:
                t = t[:k] + t[k] + t[k:]
        out.append((t, g))
    return out


def doc_windows(doc, rng):
    """Cuts a synthetic document (tokens with NL) into runtime-like windows
    of whole lines of at most MAX_TOKENS tokens, starting at a random line."""
    lines, cur = [], []
    for t, g in doc:
        if t == NL:
            lines.append((cur, g))
            cur = []
        else:
            cur.append((t, g))
    lines.append((cur, "O"))
    out = []
    i = rng.randint(0, min(2, len(lines) - 1))
    cap = rng.choice([MAX_TOKENS, MAX_TOKENS, 32, 48])
    while i < len(lines):
        win, j = [], i
        while j < len(lines):
            l, nlg = lines[j]
            extra = len(l) + (1 if win else 0)
            if win and len(win) + extra > cap:
                break
            if win:
                win.append((NL, lines[j - 1][1]))
            win.extend(l)
            j += 1
        out.extend(chunk(win))
        i = max(j - 1, i + 1) if j - i > 1 else j  # one line of overlap
    return out


def page_windows(sents, rng, max_sents=8):
    """Lays consecutive sentences out as a text PDF's running text: a few
    sentences joined, wrapped over lines of 8-18 tokens, and cut into the
    windows the runtime packs (doc_windows: whole lines, at most
    MAX_TOKENS, one line shared between neighbours). The runtime reads a
    page this way, so a window starts and ends mid-sentence and holds the
    end of one sentence with the start of the next; single sentences alone
    never teach that."""
    out, i = [], 0
    while i < len(sents):
        k = rng.randint(2, max_sents)
        doc = [t for s in sents[i:i + k] for t in s]
        i += k
        out.extend(doc_windows(wrap(doc, rng, rng.randint(8, 18)), rng))
    return out


def fix_bio(seq):
    """Window cuts can start inside an entity: I-X at the start becomes B-X."""
    out, prev = [], "O"
    for t, g in seq:
        if g.startswith("I-") and (prev == "O" or prev[2:] != g[2:]):
            g = "B-" + g[2:]
        out.append((t, g))
        prev = g
    return out


# ------------------------------------------------------------ presidio eval

PRESIDIO_MAP = {"PERSON": "PER", "ORGANIZATION": "ORG", "LOCATION": "LOC", "ADDRESS": "ADDR"}


def presidio_examples(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out = []
    for ex in data:
        text = ex["full_text"]
        toks, offs = nertok.tokenize_offsets(text)
        if not toks:
            continue
        spans = sorted((s["start_position"], s["end_position"], PRESIDIO_MAP[s["entity_type"]])
                       for s in ex["spans"] if s["entity_type"] in PRESIDIO_MAP)
        tags = []
        prev_span = None
        for t, (a, b) in zip(toks, offs):
            hit = None
            for k, (sa, sb, typ) in enumerate(spans):
                if a < sb and b > sa:
                    hit = (k, typ)
                    break
            if hit is None:
                tags.append("O")
                prev_span = None
            else:
                tags.append(("I-" if prev_span == hit[0] else "B-") + hit[1])
                prev_span = hit[0]
        for w in chunk(list(zip(toks, tags))):
            out.append(fix_bio(w))
    return out


# ------------------------------------------------------------ vocab / tensors

def build_vocab(examples, min_count=2, max_words=30000, min_char=3, max_chars=1500):
    wc, cc = Counter(), Counter()
    for ex in examples:
        for t, _ in ex:
            if t == NL:
                continue
            wc[nertok.norm(t)] += 1
            for c in t[:nertok.MAX_CHARS]:
                cc[c] += 1
    words = ["<pad>", "<unk>", "<nl>"] + [w for w, n in wc.most_common(max_words) if n >= min_count]
    chars = ["<pad>", "<unk>", "<nl>"] + [c for c, n in cc.most_common(max_chars) if n >= min_char]
    return words, chars


@functools.lru_cache(maxsize=1)
def load_table(path):
    """A vector table (vector_table), read once per run: the vocabulary
    and the embedding's rows both come from it."""
    return torch.load(path)


def vec_words(embeddings):
    """The words of the pretrained embeddings, most frequent first: the
    .vec beside a fastText .bin, or a table's own list (vector_table)."""
    if embeddings.endswith(".pt"):
        yield from load_table(embeddings)["vec_words"]
        return
    with open(embeddings[:-len(".bin")] + ".vec", encoding="utf-8", errors="replace") as f:
        next(f)
        for line in f:
            yield line.split(" ", 1)[0]


def extend_vocab(words, embeddings, max_words):
    """Grows the word list with the most frequent words of the pretrained
    embeddings up to max_words."""
    have = set(words)
    for w in vec_words(embeddings):
        if len(words) >= max_words:
            break
        if w and w not in have and w != "</s>":
            words.append(w)
            have.add(w)
    return words


def vector_table(bin_path, word_lists, out, dim):
    """Writes out (.pt): the fastText vectors of every word in word_lists
    (files of one word a line, from --vocab-out) and the .vec's word
    order, so a machine without fastText and its 800 MB model (a
    borrowed GPU) can start the word embedding as the recipe does."""
    want = []
    for p in word_lists:
        with open(p, encoding="utf-8") as f:
            want.extend(line.rstrip("\n") for line in f)
    want = sorted(set(want[3:]) - {""})
    top = []
    for w in vec_words(bin_path):
        top.append(w)
        if len(top) >= 200000:
            break
    torch.save({"words": want, "rows": fasttext_rows(bin_path, want, dim), "vec_words": top}, out)
    log("vector table", out, len(want), "words")


def fasttext_rows(bin_path, words, dim):
    import subprocess
    q = "\n".join(words) + "\n"
    r = subprocess.run(["fasttext", "print-word-vectors", bin_path], input=q, capture_output=True,
                       text=True, check=True)
    rows = []
    for line in r.stdout.splitlines():
        parts = line.rstrip().split(" ")
        rows.append([float(x) for x in parts[-dim:]])
    if len(rows) != len(words):
        raise RuntimeError(f"fasttext returned {len(rows)} vectors for {len(words)} words")
    return torch.tensor(rows)


def pretrained_rows(bin_path, words, dim):
    """fastText vectors for every word (subword vectors for words the
    text never saw), rescaled to unit standard deviation like the
    embedding's default initialisation. Rows 0-2 (pad, unknown, NL) stay
    as initialised."""
    if bin_path.endswith(".pt"):
        tab = load_table(bin_path)
        at = {w: i for i, w in enumerate(tab["words"])}
        missing = [w for w in words[3:] if w not in at]
        if missing:
            raise SystemExit(f"{bin_path} lacks {len(missing)} words (first {missing[0]!r}): rebuild it with this seed's --vocab-out")
        t = tab["rows"][[at[w] for w in words[3:]]]
    else:
        t = fasttext_rows(bin_path, words[3:], dim)
    if t.shape[1] != dim:
        raise SystemExit(f"embeddings have {t.shape[1]} dimensions, --wdim is {dim}")
    return t / t.std()


def encode(ex, wv, cv, gi):
    toks = [t for t, _ in ex]
    return (
        [nertok.word_id(t, wv) for t in toks],
        [nertok.char_ids(t, cv) for t in toks],
        [nertok.shape(t) for t in toks],
        [L2I.get(g, -100) for _, g in ex],  # IGN (corpora.IGN): no loss
        [nertok.gaz_id(t, gi) for t in toks],
    )


def pack(enc):
    """An encoded example as tensors (chars padded to its longest word), so
    that batchify copies five slices instead of building a tensor per word:
    the training loop's Python work per step, which a GPU step would wait on."""
    w, c, s, y, g = enc
    m = max(len(x) for x in c)
    ch = torch.tensor([cs + [0] * (m - len(cs)) for cs in c], dtype=torch.long)
    return (torch.tensor(w), ch, torch.tensor(s), torch.tensor(y), torch.tensor(g))


def batchify(encs, idx):
    """Pads the examples idx of encs (pack's tensors) into a batch: words,
    chars, shapes, labels (-100 where none) and gazetteer bits."""
    B = len(idx)
    T = max(len(encs[i][0]) for i in idx)
    C = max(encs[i][1].shape[1] for i in idx)
    W = torch.zeros(B, T, dtype=torch.long)
    Ch = torch.zeros(B, T, C, dtype=torch.long)
    S = torch.zeros(B, T, dtype=torch.long)
    Y = torch.full((B, T), -100, dtype=torch.long)
    G = torch.zeros(B, T, dtype=torch.long)
    for b, i in enumerate(idx):
        w, c, s, y, g = encs[i]
        n = len(w)
        W[b, :n], S[b, :n], Y[b, :n], G[b, :n] = w, s, y, g
        Ch[b, :n, :c.shape[1]] = c
    return W, Ch, S, Y, G


def need_start_model(args, flag, what):
    """Stops a run with flag (which takes the start model as it is before
    the first step) that has no --init-onnx or resumes a checkpoint."""
    if not args.init_onnx:
        raise SystemExit("%s needs --init-onnx (%s)" % (flag, what))
    if args.resume and os.path.exists(args.checkpoint):
        raise SystemExit("%s: start afresh (the start model is taken before the first step)" % flag)


def distil_loss(logits, Y, W, E, soft, alpha, temp):
    """The loss with a teacher (--distil): on the tokens of English examples
    (E), alpha of it is the KL divergence from the teacher's distributions
    (soft, at temperature temp; scaled by temp squared so its gradients
    keep their size) and 1 - alpha the gold labels' cross-entropy; other
    examples have only the cross-entropy. Averaged over the tokens that
    count (padding never; an unlabelled English token for the KL part)."""
    n = logits.shape[-1]
    en = E[:, None].expand_as(Y)
    gold_w = torch.where(en, torch.full_like(Y, 1, dtype=logits.dtype) * (1 - alpha), torch.ones_like(Y, dtype=logits.dtype))
    has_y = Y != -100
    ce = nn.functional.cross_entropy(logits.reshape(-1, n), Y.clamp(min=0).reshape(-1), reduction="none").reshape(Y.shape)
    kl = (soft * (soft.clamp_min(1e-9).log() - torch.log_softmax(logits / temp, dim=-1))).sum(-1) * temp * temp
    tok = W != 0
    num = (ce * gold_w * has_y).sum() + (kl * alpha * (en & tok)).sum()
    den = (gold_w * has_y).sum() + (alpha * (en & tok)).sum()
    return num / den.clamp_min(1e-9)


def make_batches(encs, bsz, rng):
    order = sorted(range(len(encs)), key=lambda i: (len(encs[i][0]), rng.random()))
    batches = [order[i:i + bsz] for i in range(0, len(order), bsz)]
    rng.shuffle(batches)
    return batches


# ------------------------------------------------------------ decoding / scoring

def trim_span(toks, a, b):
    """Drops NL at both ends, punctuation at the start, and at the end
    punctuation other than "." and a ")" closing a "(" of the span.
    Mirrors trimSpan in models/ner/label.go."""
    punct = lambda t: nertok.shape(t) == nertok.SHAPE_PUNCT
    while a <= b and (toks[a] == NL or punct(toks[a])):
        a += 1
    while b >= a:
        t = toks[b]
        if t == NL or (punct(t) and t != "." and not (t == ")" and "(" in toks[a:b])):
            b -= 1
            continue
        break
    return a, b


def decode(tags, toks):
    """Greedy BIO decode with repair (an I- of a place joins a person,
    organization or address next to it); spans (type, start, end)
    inclusive, edges trimmed by trim_span. Mirrors Decode in
    models/ner/label.go."""
    spans, cur = [], None

    def close():
        if cur is not None:
            a, b = trim_span(toks, cur[1], cur[2])
            if a <= b:
                spans.append((cur[0], a, b))

    for i, g in enumerate(tags):
        if g == "O":
            close()
            cur = None
        elif g.startswith("B-") or cur is None or not continues(cur[0], g[2:]):
            close()
            cur = [g[2:], i, i]
        else:
            cur[2] = i
            if weak(cur[0]):
                cur[0] = g[2:]
    close()
    return spans


def weak(typ):
    """A place or a type the detector ignores (weak in label.go)."""
    return typ not in ("PER", "ORG", "ADDR")


def continues(open_typ, next_typ):
    """Whether I-next_typ continues a span of open_typ (continues in label.go)."""
    return open_typ == next_typ or weak(open_typ) != weak(next_typ)


def score(golds, preds, toks_list, merge_addr=False):
    types = ["PER", "ORG", "LOC", "ADDR"] if not merge_addr else ["PER", "ORG", "ADDR"]
    ent = {t: [0, 0, 0] for t in types}  # tp, fp, fn
    tok = {t: [0, 0, 0] for t in types}
    for g, p, toks in zip(golds, preds, toks_list):
        if merge_addr:
            g = [x.replace("LOC", "ADDR") for x in g]
            p = [x.replace("LOC", "ADDR") for x in p]
        gs, ps = set(decode(g, toks)), set(decode(p, toks))
        for t in types:
            gt = {s for s in gs if s[0] == t}
            pt = {s for s in ps if s[0] == t}
            ent[t][0] += len(gt & pt)
            ent[t][1] += len(pt - gt)
            ent[t][2] += len(gt - pt)
        for a, b, tk in zip(g, p, toks):
            if tk == NL:
                continue
            ga, pb = a[2:] if a != "O" else None, b[2:] if b != "O" else None
            for t in types:
                if ga == t and pb == t:
                    tok[t][0] += 1
                elif pb == t:
                    tok[t][1] += 1
                elif ga == t:
                    tok[t][2] += 1

    def prf(c):
        tp, fp, fn = c
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {"p": round(p, 4), "r": round(r, 4), "f1": round(f, 4), "support": tp + fn}

    res = {"entity": {}, "token": {}}
    for name, table in (("entity", ent), ("token", tok)):
        tot = [0, 0, 0]
        for t in types:
            if table[t][0] + table[t][2] + table[t][1] == 0:
                continue
            res[name][t] = prf(table[t])
            tot = [x + y for x, y in zip(tot, table[t])]
        res[name]["micro"] = prf(tot)
    return res


@torch.no_grad()
def predict(model, encs, bsz=128):
    model.eval()
    preds = [None] * len(encs)
    order = sorted(range(len(encs)), key=lambda i: len(encs[i][0]))
    for k in range(0, len(order), bsz):
        idx = order[k:k + bsz]
        W, Ch, S, _, G = batchify(encs, idx)
        logits = model(W, Ch, S, G)
        am = logits.argmax(-1)
        for b, i in enumerate(idx):
            n = len(encs[i][0])
            path = model.crf.viterbi(logits[b], n) if model.crf is not None else am[b, :n].tolist()
            preds[i] = [LABELS[j] for j in path]
    return preds


def evaluate(model, examples, wv, cv, gi, merge_addr=False):
    encs = [pack(encode(ex, wv, cv, gi)) for ex in examples]
    preds = predict(model, encs)
    golds = [[g for _, g in ex] for ex in examples]
    toks = [[t for t, _ in ex] for ex in examples]
    return score(golds, preds, toks, merge_addr)


# ------------------------------------------------------------ export

class Exportable(nn.Module):
    """Wraps NER for export: sparse embeddings are not exportable as such."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, words, chars, shapes, gaz=None):
        return self.m(words, chars, shapes, gaz)


def export_onnx(model, path, wv, cv, gi):
    """Writes the graph: inputs words, chars, shapes (and gazetteer when
    the model has that feature), output logits (the CRF's emissions when
    it has a CRF)."""
    model.eval()
    ex = [["John", "Smith", "works", "at", "Acme", "Corp", "."]]
    enc = [pack(encode([(t, "O") for t in e], wv, cv, gi)) for e in ex]
    W, Ch, S, _, G = batchify(enc, [0])
    args, names = (W, Ch, S), ["words", "chars", "shapes"]
    axes = {"words": {0: "batch", 1: "tokens"}, "chars": {0: "batch", 1: "tokens", 2: "chars"},
            "shapes": {0: "batch", 1: "tokens"}, "logits": {0: "batch", 1: "tokens"}}
    if model.gemb is not None:
        args, names = (W, Ch, S, G), names + ["gazetteer"]
        axes["gazetteer"] = {0: "batch", 1: "tokens"}
    torch.onnx.export(
        Exportable(model), args, path,
        input_names=names, output_names=["logits"], dynamic_axes=axes,
        opset_version=14, do_constant_folding=True)
    import onnx
    import fold
    m = onnx.load(path)
    # The character CNN becomes three table look-ups (fold.py): the same
    # responses, about a fifth of the model's arithmetic less.
    fold.fold_chars(m)
    onnx.checker.check_model(m)
    onnx.save(m, path)
    return os.path.getsize(path)


# Texts of the parity fixture (parity_fixture).
PARITY_TEXTS = [
    "John Smith works at Acme Corp in Berlin.",
    "Name: JOHN SMITH\nAddress: 12 Main Street\nSpringfield, IL 62704",
    "Please contact Dr. Maria Garcia-Lopez at Siemens AG, Werner-von-Siemens-Straße 1, 80333 München.",
    "ok",
    "The invoice was sent to Globex Corporation on 12/03/2021 by jane.doe@example.com",
]


@torch.no_grad()
def parity_fixture(model, wv, cv, gi, path):
    """Sentences batched with different padding, and the torch logits for
    each (and, with a CRF, the Viterbi paths with and without a recall
    bias); the Go test runs the ONNX model on the same inputs and decodes
    the same logits."""
    model.eval()
    cases = []
    for t in PARITY_TEXTS:
        toks = nertok.tokenize(t)
        enc = encode([(x, "O") for x in toks], wv, cv, gi)
        cases.append({"text": t, "tokens": toks, "words": enc[0], "chars": enc[1], "shapes": enc[2],
                      "gazetteer": enc[4]})
    # One batch with all of them (padded), plus each alone.
    encs = [pack((c["words"], c["chars"], c["shapes"], [0] * len(c["words"]), c["gazetteer"])) for c in cases]
    W, Ch, S, _, G = batchify(encs, list(range(len(encs))))
    batched = model(W, Ch, S, G)
    for i, c in enumerate(cases):
        n = len(c["words"])
        w1, c1, s1, _, g1 = batchify(encs, [i])
        alone = model(w1, c1, s1, g1)[0, :n]
        c["logits"] = [[round(v, 5) for v in row] for row in alone.tolist()]
        c["max_batch_diff"] = float((alone - batched[i, :n]).abs().max())
        if model.crf is not None:
            rounded = torch.tensor(c["logits"])
            c["viterbi"] = model.crf.viterbi(rounded, n)
            c["viterbi_biased"] = model.crf.viterbi(rounded, n, o_bias=math.log(4))  # EntityProb 0.2
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"labels": LABELS, "cases": cases}, f, ensure_ascii=False)
    return max(c["max_batch_diff"] for c in cases)


def _onnx_lstm(W, R, B, lstm):
    """Copies an ONNX LSTM's W [1,4H,D], R [1,4H,H], B [1,8H] (gates i, o,
    f, c) into a torch nn.LSTM (gates i, f, g, o)."""
    H = R.shape[2]
    order = [0, 2, 3, 1]  # torch gate k is ONNX gate order[k]

    def re(m):
        return torch.cat([m[g * H:(g + 1) * H] for g in order], dim=0)
    with torch.no_grad():
        lstm.weight_ih_l0.copy_(re(torch.from_numpy(W[0])))
        lstm.weight_hh_l0.copy_(re(torch.from_numpy(R[0])))
        lstm.bias_ih_l0.copy_(re(torch.from_numpy(B[0][:4 * H])))
        lstm.bias_hh_l0.copy_(re(torch.from_numpy(B[0][4 * H:])))


def init_from_onnx(model, words, chars, src, fixture="", pretrained=True):
    """Starts model from a shipped model (src: a directory with ner.onnx
    and vocab.json, exported by this recipe): every dense weight, and the
    embedding rows of the words and characters both vocabularies hold;
    new words keep their fastText rows, new characters random ones.
    With fixture (the shipped testdata/parity_fixture.json), first checks
    the reading against the logits the shipped model gave (issue 46)."""
    import onnx
    from onnx import numpy_helper
    g = onnx.load(os.path.join(src, "ner.onnx")).graph
    ini = {i.name: numpy_helper.to_array(i).copy() for i in g.initializer}
    with open(os.path.join(src, "vocab.json"), encoding="utf-8") as f:
        old = json.load(f)
    lstms = [n for n in g.node if n.op_type == "LSTM"]
    if len(lstms) != 2:
        raise SystemExit("init-onnx: expected two LSTM nodes")
    mats = [n.input for n in g.node if n.op_type == "MatMul" and n.input[1] in ini]

    def load(m, wmap, cmap, swap):
        with torch.no_grad():
            for name, t in (("wemb", m.wemb), ("cemb", m.cemb)):
                w = torch.from_numpy(ini["m." + name + ".weight"])
                mp = wmap if name == "wemb" else cmap
                for new, o in mp:
                    t.weight[new] = w[o]
            m.conv.weight.copy_(torch.from_numpy(ini["m.conv.weight"]))
            m.conv.bias.copy_(torch.from_numpy(ini["m.conv.bias"]))
            m.semb.weight.copy_(torch.from_numpy(ini["m.semb.weight"]))
            m.out.weight.copy_(torch.from_numpy(ini[mats[-1][1]]).T)
            m.out.bias.copy_(torch.from_numpy(ini["m.out.bias"]))
        a, b = (lstms[1], lstms[0]) if swap else (lstms[0], lstms[1])
        for node, lstm in ((a, m.fwd), (b, m.bwd)):
            _onnx_lstm(ini[node.input[1]], ini[node.input[2]], ini[node.input[3]], lstm)

    ident_w = [(i, i) for i in range(len(old["words"]))]
    ident_c = [(i, i) for i in range(len(old["chars"]))]
    if fixture and os.path.exists(fixture):
        with open(fixture, encoding="utf-8") as f:
            fx = json.load(f)
        best = None
        for swap in (False, True):
            ref = NER(len(old["words"]), len(old["chars"]), nertok.N_SHAPES, len(LABELS), wdim=model.wemb.weight.shape[1],
                      hidden=model.fwd.hidden_size)
            load(ref, ident_w, ident_c, swap)
            ref.eval()
            diff = 0.0
            for c in fx["cases"]:
                enc = pack((c["words"], c["chars"], c["shapes"], [0] * len(c["words"]), c["gazetteer"]))
                W, Ch, S, _, G = batchify([enc], [0])
                out = ref(W, Ch, S, G)[0, :len(c["words"])]
                diff = max(diff, float((out - torch.tensor(c["logits"])).abs().max()))
            log("init-onnx: shipped model read back", "(LSTMs swapped)" if swap else "", "max logit diff", round(diff, 5))
            if best is None or diff < best[0]:
                best = (diff, swap)
        if best[0] > 1e-3:
            raise SystemExit("init-onnx: the shipped model does not read back (max logit diff %g)" % best[0])
        swap = best[1]
    else:
        swap = False
    ow = {w: i for i, w in enumerate(old["words"])}
    oc = {c: i for i, c in enumerate(old["chars"])}
    wmap = [(i, ow[w]) for i, w in enumerate(words) if w in ow]
    cmap = [(i, oc[c]) for i, c in enumerate(chars) if c in oc]
    pre = model.wemb.weight.detach().clone()  # this run's fastText rows
    load(model, wmap, cmap, swap)
    new = [i for i in range(3, len(words)) if words[i] not in ow]
    if not pretrained:
        # No fastText rows: a new word starts as the shipped model's
        # unknown word, so at step 0 the model reads every text as the
        # shipped one does, and training moves the new rows from there.
        with torch.no_grad():
            model.wemb.weight[new] = torch.from_numpy(ini["m.wemb.weight"][1]).unsqueeze(0).expand(len(new), -1)
        log("init-onnx: %d new words start as the shipped <unk>" % len(new))
        new = []
    # New words' fastText rows live in this run's embedding space, the
    # shipped rows in the space the shipped model learnt: map one onto the
    # other by least squares over the words both know, so a new word
    # starts where its neighbours in the shipped space are.
    known = [i for i, _ in wmap if i >= 3]
    if len(known) > 1000 and new:
        X = pre[known]
        Y = model.wemb.weight.detach()[known]
        W = torch.linalg.lstsq(X, Y).solution
        res = float(((X @ W - Y) ** 2).mean() / (Y ** 2).mean())
        with torch.no_grad():
            model.wemb.weight[new] = pre[new] @ W
        log("init-onnx: %d new words mapped into the shipped space (relative residual %.3f)" % (len(new), res))
    log("init-onnx: started from", src, len(wmap), "of", len(words), "words and", len(cmap), "of", len(chars), "chars known")
    return {"from": os.path.basename(os.path.normpath(src)), "words_known": len(wmap), "chars_known": len(cmap)}


# ------------------------------------------------------------ main

def heldout_sets(corp, src, data):
    heldout = {name: sp["test"] for name, sp in corp.items()}
    syn_eval = []
    for d in synth.generate(600, src, seed=987654):
        syn_eval.extend(fix_bio(w) for w in doc_windows(d, random.Random(5)))
    heldout["synthetic_docs"] = syn_eval
    presidio_path = os.path.join(data, "pii", "presidio_research", "generated_large.json")
    presidio = presidio_examples(presidio_path) if os.path.exists(presidio_path) else []
    return heldout, presidio


def all_scores(model, heldout, presidio, wv, cv, gi):
    scores = {}
    for name, exs in heldout.items():
        if exs:
            scores[name] = evaluate(model, exs, wv, cv, gi)
            log("eval", name, json.dumps(scores[name]["entity"]["micro"]))
    if presidio:
        scores["presidio_generated_large"] = evaluate(model, presidio, wv, cv, gi)
        scores["presidio_generated_large_address_merged"] = evaluate(model, presidio, wv, cv, gi, merge_addr=True)
        log("eval presidio", json.dumps(scores["presidio_generated_large"]["entity"]["micro"]),
            "token", json.dumps(scores["presidio_generated_large"]["token"]["micro"]))
    return scores


def from_checkpoint(path, raw=False):
    """The model of a checkpoint with its vocabularies: (model, words,
    chars, gazetteer lists, wv, cv, gi). A run with --ema gives its
    average of the weights (what it exports), or with raw the weights of
    its last step."""
    ck = torch.load(path, map_location="cpu")
    if "B-MISC" in ck.get("labels", []):
        corpora.enable_misc()
        L2I.update({l: i for i, l in enumerate(LABELS)})
    words, chars, gaz = ck["words"], ck["chars"], ck.get("gazetteer", {})
    model = NER(len(words), len(chars), nertok.N_SHAPES, len(LABELS), wdim=ck.get("wdim", 96),
                hidden=ck.get("hidden", 128), n_gaz=nertok.N_GAZ if gaz else 0, crf=ck.get("crf", False))
    model.load_state_dict(ck["model"] if raw or ck.get("ema") is None else ck["ema"])
    wv = {w: i for i, w in enumerate(words)}
    cv = {c: i for i, c in enumerate(chars)}
    return model, ck, gaz, wv, cv, nertok.gaz_index(gaz)


def write_runtime(out, model, words, chars, gaz, wv, cv, gi):
    """Writes ner.onnx and vocab.json (words, chars and the gazetteer
    lists the features read) into out; returns the ONNX file's size."""
    os.makedirs(out, exist_ok=True)
    size = export_onnx(model, os.path.join(out, "ner.onnx"), wv, cv, gi)
    v = {"words": words, "chars": chars}
    if gaz:
        v["gazetteer_lists"] = [name for name, _ in nertok.GAZ_LISTS]
        v["gazetteer"] = gaz
    with open(os.path.join(out, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(v, f, ensure_ascii=False, separators=(",", ":"))
    return size


def runtime_manifest(model):
    """The manifest fields the Go runtime reads besides name and version."""
    m = {"labels": LABELS, "tokenizer": {"max_chars": nertok.MAX_CHARS, "window_tokens": MAX_TOKENS}}
    if model.crf is not None:
        m["crf"] = model.crf.params()
    return m


def rescore(args):
    """Re-evaluates a saved checkpoint (after a change to decoding or to
    the held-out sets) and rewrites the scores of a manifest, keeping the
    Go detector scores."""
    model, _, _, wv, cv, gi = from_checkpoint(args.checkpoint)
    corp = corpora.load_all(os.path.join(args.data, "ner"), gum=args.gum)
    src = synth.Sources(args.data, synth.corpus_names(corp))
    heldout, presidio = heldout_sets(corp, src, args.data)
    scores = all_scores(model, heldout, presidio, wv, cv, gi)
    with open(args.rescore, encoding="utf-8") as f:
        man = json.load(f)
    keep = {k: v for k, v in man.get("scores", {}).items() if k.startswith("go_")}
    man["scores"] = {**scores, **keep}
    with open(args.rescore, "w", encoding="utf-8") as f:
        json.dump(man, f, indent=1, ensure_ascii=False)
    log("rescored", args.rescore)


def export_checkpoint(args):
    """Exports --checkpoint (a run still going, or stopped) to --out with a
    manifest that has the runtime fields only, so the Go side can score it
    on the dev splits (nereval -model DIR -table dev) before a run ends."""
    model, ck, gaz, wv, cv, gi = from_checkpoint(args.checkpoint)
    version = "checkpoint-step-%d" % ck["step"]
    if args.interpolate < 1:
        # Weight interpolation (WiSE-FT) between the model a fine-tuning run
        # started from (--init-onnx) and the checkpoint: a * tuned + (1-a) *
        # start, the start's new words being its <unk> row and its new
        # characters the tuned ones.
        if not args.init_onnx:
            raise SystemExit("--interpolate needs --init-onnx (the model the run started from)")
        base = NER(len(ck["words"]), len(ck["chars"]), nertok.N_SHAPES, len(LABELS), wdim=model.wemb.weight.shape[1],
                   hidden=model.fwd.hidden_size)
        with torch.no_grad():
            base.cemb.weight.copy_(model.cemb.weight)
        init_from_onnx(base, ck["words"], ck["chars"], args.init_onnx, pretrained=False)
        a = args.interpolate
        tuned, start = model.state_dict(), base.state_dict()
        model.load_state_dict({k: a * tuned[k] + (1 - a) * start[k] for k in tuned})
        version += "-interpolated-%g" % a
        log("interpolated: %g x step %d + %g x %s" % (a, ck["step"], 1 - a, args.init_onnx))
    if args.label_bias:
        # A constant added to some classes' output bias (logits): a recall
        # bias baked into the model, chosen on the dev splits.
        for kv in args.label_bias.split(","):
            typ, v = kv.split("=")
            with torch.no_grad():
                for i, l in enumerate(LABELS):
                    if l == typ or l[2:] == typ:
                        model.out.bias[i] += float(v)
        version += "-bias-" + args.label_bias
        log("output bias added:", args.label_bias)
    write_runtime(args.out, model, ck["words"], ck["chars"], gaz, wv, cv, gi)
    with open(os.path.join(args.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump({"name": "redactd-ner", "version": version, **runtime_manifest(model)},
                  f, indent=1)
    log("exported step", ck["step"], "to", args.out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "model"))
    ap.add_argument("--testdata", default=os.path.join(os.path.dirname(__file__), "..", "testdata"))
    ap.add_argument("--data", default=shared_data())
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--minutes", type=float, default=55.0, help="hard stop for the training loop")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--synth-docs", type=int, default=18000)
    ap.add_argument("--wikiann", type=int, default=20000, help="WikiANN train sentences to use (silver labels)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--checkpoint", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".cache", "train", "ckpt.pt"),
                    help="torch weights, optimiser state and step, saved every --save-every steps and at the end (not shipped)")
    ap.add_argument("--save-every", type=int, default=500)
    ap.add_argument("--resume", action="store_true", help="continue from --checkpoint when it exists")
    ap.add_argument("--embeddings", default="", help="fastText .bin from embed.py (its .vec beside it) to start the word embedding from")
    ap.add_argument("--max-words", type=int, default=50000, help="word vocabulary size with --embeddings")
    ap.add_argument("--wdim", type=int, default=100)
    ap.add_argument("--hidden", type=int, default=160)
    ap.add_argument("--lm-minutes", type=float, default=0.0,
                    help="pretrain the encoder as a two-way language model on unlabelled text this long first (lm.py)")
    ap.add_argument("--lm-classes", type=int, default=20000, help="words the pretraining predicts (the rest are one class)")
    ap.add_argument("--lm-batch", type=int, default=64, help="windows per pretraining step")
    # Gazetteer features and the CRF were measured against the shipped
    # model on the dev splits and not adopted (docs/ner-experiments.md, "Tried and
    # not adopted"); the runtime reads models trained with either.
    ap.add_argument("--gazetteer", default="",
                    help="folder of the word lists read as gazetteer features (nertok.GAZ_LISTS), e.g. "
                         "../../../engine/detect/gazetteer/data; empty: no such input")
    ap.add_argument("--gaz-drop", type=float, default=0.2, help="share of tokens whose gazetteer bits are hidden in training")
    ap.add_argument("--page-windows", type=int, default=1,
                    help="1: also train on the public sentences laid out as wrapped running text (page_windows)")
    ap.add_argument("--name-swap", type=float, default=0.0,
                    help="share of the public sentences with a person whose Person mentions get other names (mention replacement; 0: off)")
    ap.add_argument("--misc", type=int, default=0,
                    help="1: other named things (MISC, product, award, ...) get labels B-/I-MISC of their own instead of O")
    ap.add_argument("--gum", action="store_true",
                    help="also train on GUM's train part (corpora._read_gum); tried and not adopted (docs/ner-experiments.md)")
    ap.add_argument("--langs", type=int, default=1,
                    help="1: also train on the non-English corpora (corpora.load_languages, issue 46), 0: English only")
    ap.add_argument("--lang-cap", type=int, default=6000, help="most sentences of each non-English corpus (drawn with seed 46)")
    ap.add_argument("--generated", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".cache", "generated.jsonl"),
                    help="generated documents in the six other languages (models/ner/internal/gendocs, train.sh makes it); '' for none")
    ap.add_argument("--generated-docs", type=int, default=700, help="generated documents per language used")
    ap.add_argument("--train-words", type=int, default=30000, help="words of the vocabulary taken from the training data")
    ap.add_argument("--init-onnx", default="",
                    help="start from the model in this directory (ner.onnx + vocab.json of this recipe): fine-tuning (issue 46)")
    ap.add_argument("--interpolate", type=float, default=1.0,
                    help="with --export and --init-onnx: export a * checkpoint + (1-a) * the --init-onnx model (WiSE-FT)")
    ap.add_argument("--label-bias", default="",
                    help="with --export: add to the output bias of these classes, e.g. PER=0.3,ORG=0.5,O=-0.2 (a type counts for its B- and I-)")
    ap.add_argument("--skip-scores", action="store_true", help="export without the Python held-out scores (add them with --rescore)")
    ap.add_argument("--lr", type=float, default=optim.LR, help="peak learning rate")
    ap.add_argument("--en-reps", type=int, default=1,
                    help="with --init-onnx: times each English corpus is repeated (its usual repeats times this), so English is rehearsed")
    ap.add_argument("--icdar-reps", type=int, default=1,
                    help="times the historical OCR'd newspapers (icdar_europeana_fr, _nl) are repeated, so their noisy text keeps its weight")
    ap.add_argument("--anchor", type=float, default=0.0,
                    help="with --init-onnx: after each step every weight moves this share of the way back to the start model's "
                         "(the word embedding's shipped rows too; new words are free): a decoupled L2 pull towards it (0: off)")
    ap.add_argument("--distil", type=float, default=0.0,
                    help="with --init-onnx: weight of the start model's own reading (KL to its token distributions) "
                         "in the loss on English examples, so fine-tuning keeps what it does in English; 1 uses "
                         "no English gold labels")
    ap.add_argument("--new-words-not-english", action="store_true",
                    help="with --init-onnx: add to the shipped vocabulary only words that no English example has")
    ap.add_argument("--distil-temp", type=float, default=1.0, help="softmax temperature of --distil")
    ap.add_argument("--crf", type=int, default=0, help="1: a CRF output layer (Viterbi decoding), 0: per-token softmax")
    ap.add_argument("--ce-weight", type=float, default=0.5,
                    help="with --crf: weight of a per-token cross-entropy on the emissions beside the CRF loss, "
                         "so that the emissions stay probabilities for the score and the recall bias")
    ap.add_argument("--ema", type=float, default=0.0,
                    help="decay of an exponential moving average of the weights, updated every step; the average is what is exported and scored (0: off, the last step's weights)")
    ap.add_argument("--raw-out", default="",
                    help="with --ema: also write the last step's weights as a loadable model here (runtime files, no scores), to compare")
    ap.add_argument("--device", default="cpu",
                    help="torch device of the training steps (cpu, cuda); batches are drawn on the CPU either way, "
                         "evaluation and export run on the CPU")
    ap.add_argument("--vocab-out", default="", help="only write this run's word vocabulary (one a line) to this file")
    ap.add_argument("--vector-table", nargs="+", default=None, metavar="FILE",
                    help="only write the table OUT.pt of --embeddings' vectors for the words of --vocab-out files: "
                         "--vector-table OUT.pt VOCAB...; --embeddings OUT.pt then needs no fastText")
    ap.add_argument("--no-export", action="store_true",
                    help="stop once the checkpoint is written (a borrowed machine); --resume here scores and exports it")
    ap.add_argument("--export", action="store_true", help="only export --checkpoint to --out (runtime files, no scores)")
    ap.add_argument("--rescore", default="", help="only re-evaluate --checkpoint and rewrite the scores of this manifest.json")
    args = ap.parse_args()
    optim.LR = args.lr
    if args.misc:
        corpora.enable_misc()
        L2I.update({l: i for i, l in enumerate(LABELS)})

    torch.set_num_threads(1)
    if args.export:
        export_checkpoint(args)
        return
    if args.vector_table:
        vector_table(args.embeddings, args.vector_table[1:], args.vector_table[0], args.wdim)
        return
    if args.rescore:
        rescore(args)
        return
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    t0 = time.time()

    log("loading corpora")
    corp = corpora.load_all(os.path.join(args.data, "ner"), gum=args.gum)
    names = synth.corpus_names(corp)
    src = synth.Sources(args.data, names)
    multi = {}
    if args.langs:
        # Non-English train parts (issue 46); the English synthetic
        # documents keep drawing names from the English corpora only.
        multi = corpora.load_languages(os.path.join(args.data, "ner"),
                                       caps=None if args.lang_cap <= 0 else {n: args.lang_cap for n in corpora.LANG_CORPORA})

    swap_pool = None
    if args.name_swap > 0:
        swap_pool = ([n for n in src.first_common + src.first_rare if n.isalpha()],
                     [n for n in src.last_common + src.last_rare if n.isalpha()])
        log("name swap:", args.name_swap, "of sentences with a person;", len(swap_pool[0]), "first names,", len(swap_pool[1]), "surnames")
    counts = {}
    train = []
    english = []  # english[i]: train[i] is English (--distil reads the start model there)

    def mark(is_en):
        english.extend([is_en] * (len(train) - len(english)))
    for name, sp in list(corp.items()) + list(multi.items()):
        sents = sp["train"]
        if name == "wikiann" and len(sents) > args.wikiann:
            sents = rng.sample(sents, args.wikiann)
        counts[name] = {"train_sentences": len(sents), "test_sentences": len(sp["test"]), "repeats": 2 if name in ("wikigold", "uner_ewt", "sec", "crossner") else 1}
        # Small gold-labelled corpora count twice.
        reps = 2 if name in ("wikigold", "uner_ewt", "sec", "crossner") else 1
        if name in corp:
            reps *= args.en_reps
        elif name.startswith("icdar_europeana_"):
            reps *= args.icdar_reps
        counts[name]["repeats"] = reps
        for s in sents * reps:
            s = ocr_noise(recase(swap_names(s, rng, swap_pool, args.name_swap), rng), rng)
            if rng.random() < 0.25 and len(s) > 6:
                s = wrap(s, rng)
            for w in chunk(s):
                train.append(fix_bio(w))
        if args.page_windows and not name.startswith("wikiann"):  # WikiANN's fragments are not running text
            wins = page_windows([ocr_noise(recase(swap_names(s, rng, swap_pool, args.name_swap), rng), rng) for s in sents], rng)
            train.extend(fix_bio(w) for w in wins)
            counts[name]["page_windows"] = len(wins)
        mark(name in corp)
    n_public = len(train)
    log("synthesizing", args.synth_docs, "documents")
    docs = synth.generate(args.synth_docs, src, seed=args.seed * 1000 + 1)
    n_win = 0
    for d in docs:
        for w in doc_windows(d, rng):
            train.append(fix_bio(w))
            n_win += 1
    mark(True)
    counts["synthetic"] = {"documents": args.synth_docs, "windows": n_win}
    if args.langs and args.generated:
        # Generated documents in de, fr, es, it, nl, pt (engine/detect/eval
        # Generated drawn with train.sh's seed 46, not the evaluation's).
        gen = corpora.load_generated(args.generated)
        for lang, gdocs in sorted(gen.items()):
            n_g = 0
            for d in gdocs[:args.generated_docs]:
                for w in doc_windows(d, rng):
                    train.append(fix_bio(w))
                    n_g += 1
            counts["generated_" + lang] = {"documents": min(len(gdocs), args.generated_docs), "windows": n_g}
            n_win += n_g
        mark(False)
    log("train examples", len(train), "public", n_public, "synthetic windows", n_win,
        "tokens", sum(len(x) for x in train))

    heldout, presidio = ({}, []) if args.skip_scores else heldout_sets(corp, src, args.data)

    words, chars = build_vocab(train, max_words=args.train_words)
    n_train_words = len(words)
    if args.init_onnx:
        # Fine-tuning keeps the shipped vocabularies whole and in order
        # (so the shipped model reads English as before) and appends the
        # training data's new words and characters, up to --max-words.
        with open(os.path.join(args.init_onnx, "vocab.json"), encoding="utf-8") as f:
            shipped = json.load(f)
        have = set(shipped["words"])
        if args.new_words_not_english:
            # A word the English data has but the shipped model does not
            # know stays unknown, as the shipped model reads it: English
            # text reads the same words as before.
            have |= {nertok.norm(t) for ex, en in zip(train, english) if en for t, _ in ex}
        words = shipped["words"] + [w for w in words if w not in have][:max(0, args.max_words - len(shipped["words"]))]
        have = set(shipped["chars"])
        chars = shipped["chars"] + [c for c in chars if c not in have]
    elif args.embeddings:
        words = extend_vocab(words, args.embeddings, args.max_words)
    if args.vocab_out:
        with open(args.vocab_out, "w", encoding="utf-8") as f:
            f.write("\n".join(words) + "\n")
        log("vocabulary written to", args.vocab_out)
        return
    wv = {w: i for i, w in enumerate(words)}
    cv = {c: i for i, c in enumerate(chars)}
    gaz = nertok.load_gazetteer(args.gazetteer) if args.gazetteer else {}
    gi = nertok.gaz_index(gaz)
    log("vocab", len(words), "words", f"({n_train_words} from the training data)", len(chars), "chars",
        len(gi), "gazetteer words")
    encs = [pack(encode(ex, wv, cv, gi)) for ex in train]

    model = NER(len(words), len(chars), nertok.N_SHAPES, len(LABELS), wdim=args.wdim, hidden=args.hidden,
                n_gaz=nertok.N_GAZ if gaz else 0, crf=bool(args.crf))
    if args.embeddings:
        with torch.no_grad():
            model.wemb.weight[3:] = pretrained_rows(args.embeddings, words, args.wdim)
        log("word embedding initialised from", args.embeddings)
    init_info = None
    if args.init_onnx and not (args.resume and os.path.exists(args.checkpoint)):
        init_info = init_from_onnx(model, words, chars, args.init_onnx, os.path.join(args.init_onnx, "parity_fixture.json"),
                                   pretrained=bool(args.embeddings))
    anchor = None
    if args.anchor > 0:
        need_start_model(args, "--anchor", "the model the weights are pulled back to")
        # The start model's weights as init_from_onnx left them, before any
        # step; of the word embedding only the shipped words' rows.
        n_shipped = len(shipped["words"])
        anchor = {n: t.detach().clone() for n, t in model.named_parameters()}
        anchor["wemb.weight"] = anchor["wemb.weight"][:n_shipped].clone()
        log("anchor: %g a step back to %s (%d shipped word rows)" % (args.anchor, args.init_onnx, n_shipped))
    teacher = None
    if args.distil > 0:
        need_start_model(args, "--distil", "the model whose reading is kept")
        # The start model as init_from_onnx left it; it reads the shipped
        # vocabularies only (new words and characters as unknown), so its
        # reading is the shipped model's.
        teacher = copy.deepcopy(model).eval()
        for t in teacher.parameters():
            t.requires_grad_(False)
        n_old_words, n_old_chars = len(shipped["words"]), len(shipped["chars"])
        log("distil: %g of the English loss from %s's reading (temperature %g), %d of %d examples English" %
            (args.distil, args.init_onnx, args.distil_temp, sum(english), len(english)))
    lm_info = None
    if args.lm_minutes > 0 and not (args.resume and os.path.exists(args.checkpoint)):
        lm_info = lm.pretrain(model, words, chars, wv, cv,
                              [s for name, sp in corp.items() if name != "wikiann" for s in sp["train"]],
                              args, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".cache", "lm"))
    dev = torch.device(args.device)
    trained_on = args.device  # a run finished with --resume keeps the device it trained on
    model.to(dev)
    sparse = [model.wemb.weight]
    dense = [p for n, p in model.named_parameters() if n != "wemb.weight"]
    opt = optim.Optimizer(sparse, dense)
    lossf = nn.CrossEntropyLoss(ignore_index=-100)
    word_drop = 0.1

    # The average of the weights (--ema): a copy of every parameter, moved
    # towards the live ones after each step. It draws no random numbers,
    # so the live weights follow the same path as a run without it.
    ema = {n: t.detach().clone() for n, t in model.state_dict().items()} if args.ema > 0 else None

    step, epoch, t_train = 0, 0, time.time()
    if args.resume and os.path.exists(args.checkpoint):
        ck = torch.load(args.checkpoint, map_location="cpu")
        if ck["words"] != words or ck["chars"] != chars or ck.get("gazetteer", {}) != gaz:
            raise SystemExit("checkpoint vocabulary differs from this run's: same --seed and data needed to resume")
        model.load_state_dict(ck["model"])
        if ema is not None:
            if ck.get("ema") is None:
                raise SystemExit("checkpoint has no weight average: resume with the --ema it was started with")
            ema = {n: t.to(dev) for n, t in ck["ema"].items()}
        if "opt_s" in ck:
            opt.sparse.load_state_dict(ck["opt_s"])
            opt.dense.load_state_dict(ck["opt_d"])
        elif ck["step"] < args.steps:
            raise SystemExit("checkpoint has no optimizer state (stripped for transfer): it can be finished, not continued")
        step, epoch = ck["step"], ck["epoch"]
        trained_on = ck.get("device", "cpu")
        lm_info = ck.get("lm", lm_info)
        t_train -= ck["seconds"]  # time already spent counts against --minutes
        rng.setstate(ck["rng"])
        torch.set_rng_state(ck["torch_rng"])
        log("resumed from", args.checkpoint, "at step", step)

    def save_checkpoint():
        os.makedirs(os.path.dirname(args.checkpoint) or ".", exist_ok=True)
        tmp = args.checkpoint + ".tmp"
        torch.save({"model": model.state_dict(), "opt_s": opt.sparse.state_dict(), "opt_d": opt.dense.state_dict(),
                    "step": step, "epoch": epoch, "seconds": time.time() - t_train, "rng": rng.getstate(),
                    "torch_rng": torch.get_rng_state(), "words": words, "chars": chars, "gazetteer": gaz,
                    "crf": bool(args.crf), "wdim": args.wdim, "hidden": args.hidden,
                    "labels": list(LABELS), "ema": ema, "device": trained_on, "lm": lm_info}, tmp)
        os.replace(tmp, args.checkpoint)

    deadline = t_train + args.minutes * 60
    stopped_early = False
    while step < args.steps and not stopped_early:
        epoch += 1
        model.train()
        tot, nb = 0.0, 0
        for idx in make_batches(encs, args.batch, rng):
            if step >= args.steps:
                break
            if time.time() > deadline:
                stopped_early = True
                break
            W, Ch, S, Y, G = batchify(encs, idx)
            if teacher is not None:
                E = torch.tensor([english[i] for i in idx])
                with torch.no_grad():
                    Wt = W.masked_fill(W >= n_old_words, nertok.UNK)
                    Ct = Ch.masked_fill(Ch >= n_old_chars, 1)
                    soft = torch.softmax(teacher(Wt, Ct, S, G) / args.distil_temp, dim=-1)
            drop = (torch.rand(W.shape) < word_drop) & (W > 2)
            W = W.masked_fill(drop, nertok.UNK)
            if gaz:  # (no draw without the feature: the random stream stays the recipe's)
                G = G.masked_fill(torch.rand(G.shape) < args.gaz_drop, 0)
            W, Ch, S, Y, G = (x.to(dev, non_blocking=True) for x in (W, Ch, S, Y, G))
            # Progress is steps done or time spent, whichever is further, so
            # the learning rate still anneals when the time limit binds.
            frac = max(step / args.steps, (time.time() - t_train) / (args.minutes * 60))
            cur = optim.schedule(step, frac)
            opt.set_lr(cur)
            logits = model(W, Ch, S, G)
            if teacher is not None:
                loss = distil_loss(logits, Y, W, E.to(dev), soft.to(dev), args.distil, args.distil_temp)
            else:
                loss = lossf(logits.reshape(-1, len(LABELS)), Y.reshape(-1))
            if model.crf is not None:
                mask = W != 0
                crf = model.crf.nll(logits, Y, mask).sum() / mask.sum()
                loss = crf + args.ce_weight * loss
            opt.step(loss)
            if anchor is not None:
                with torch.no_grad():
                    for n, t in model.named_parameters():
                        a = anchor.get(n)
                        if a is None:
                            continue
                        if n == "wemb.weight":
                            t = t[:a.shape[0]]
                        # Scaled with the learning rate (as AdamW's decay):
                        # the pull holds the same balance against a step
                        # while the rate anneals.
                        t.add_(a.to(t.device) - t, alpha=args.anchor * cur / optim.LR)
            if ema is not None:
                # Warm-up: early on the average forgets faster, so the
                # random start does not linger in it.
                d = min(args.ema, (1 + step) / (10 + step))
                with torch.no_grad():
                    for n, t in model.state_dict().items():
                        ema[n].mul_(d).add_(t, alpha=1 - d)
            tot += loss.item()
            nb += 1
            step += 1
            if step % 500 == 0:
                log(f"step {step} epoch {epoch} loss {tot / nb:.4f} lr {cur:.5f} {(time.time() - t_train) / step:.3f}s/step")
            if args.save_every and step % args.save_every == 0:
                save_checkpoint()
        if nb:
            log(f"epoch {epoch} done, step {step}, mean loss {tot / nb:.4f}")
    train_secs = time.time() - t_train
    log("training done", step, "steps in", round(train_secs), "s")
    model.to("cpu")
    if ema is not None:
        ema = {n: t.cpu() for n, t in ema.items()}
    if args.checkpoint:
        save_checkpoint()  # the live weights (and the average), before the model takes the average
    if args.no_export:
        log("checkpoint", args.checkpoint, "written; --no-export: finish it with --resume")
        return
    if ema is not None:
        if args.raw_out:
            write_runtime(args.raw_out, model, words, chars, gaz, wv, cv, gi)
            with open(os.path.join(args.raw_out, "manifest.json"), "w", encoding="utf-8") as f:
                json.dump({"name": "redactd-ner", "version": "raw-step-%d" % step, **runtime_manifest(model)}, f, indent=1)
            log("last step's weights written to", args.raw_out)
        model.load_state_dict(ema)
        log("exporting the weight average (decay %g)" % args.ema)

    # --skip-scores: the Go evaluation (train.sh, nereval) scores the
    # exported model; --rescore adds these later.
    scores = {} if args.skip_scores else all_scores(model, heldout, presidio, wv, cv, gi)

    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.testdata, exist_ok=True)
    size = write_runtime(args.out, model, words, chars, gaz, wv, cv, gi)
    diff = parity_fixture(model, wv, cv, gi, os.path.join(args.testdata, "parity_fixture.json"))
    log("batch padding max logit diff", diff)
    nertok.write_fixture(os.path.join(args.testdata, "tokenizer_fixture.json"), wv, cv, gi)

    manifest = {
        "name": "redactd-ner",
        "version": time.strftime("%Y.%m.%d.%H%M"),
        **runtime_manifest(model),
        "inputs": {
            "words": "int64 [batch, tokens]: word ids (vocab.json words; 0 pad, 1 unknown, 2 newline)",
            "chars": "int64 [batch, tokens, chars]: char ids (vocab.json chars; 0 pad, 1 unknown, 2 newline), first %d runes" % nertok.MAX_CHARS,
            "shapes": "int64 [batch, tokens]: shape ids (nertok.shape / tokenize.go)",
            **({"gazetteer": "int64 [batch, tokens]: bit i set when the normalised word is in list i of "
                             "vocab.json gazetteer_lists (nertok.gaz_id / own.go)"} if gaz else {}),
        },
        "outputs": {"logits": "float32 [batch, tokens, labels]" +
                    ("; the CRF's emissions, decoded with Viterbi over crf.transitions/start/end" if model.crf is not None else "")},
        "tokenizer": {
            "words": "split on Unicode white space (Go unicode.IsSpace)",
            "tokens": "maximal runs of letters/marks/numbers (Unicode L*, M*, N*); any other rune is a token alone",
            "newline": "one NL token between lines; word id 2, char id 2, shape 1",
            "norm": "per-rune simple lowercase (U+0130 kept), ASCII digits -> 0",
            "max_chars": nertok.MAX_CHARS,
            "window_tokens": MAX_TOKENS,
        },
        "architecture": {
            "type": "word emb + char CNN + shape emb" + (" + gazetteer emb" if gaz else "") +
                    " -> BiLSTM (length-aware reversal) -> linear" + (" -> CRF" if model.crf is not None else ""),
            "word_dim": model.wemb.embedding_dim, "char_dim": model.cemb.embedding_dim,
            "char_filters": model.conv.out_channels, "shape_dim": model.semb.embedding_dim,
            "gazetteer_dim": model.gemb.embedding_dim if model.gemb is not None else 0,
            "gazetteer_words": len(gi),
            "hidden": model.fwd.hidden_size, "vocab_words": len(words), "vocab_chars": len(chars),
            "parameters": sum(p.numel() for p in model.parameters()),
        },
        "training": {
            "steps": step, "epochs": epoch, "batch": args.batch, "seconds": round(train_secs),
            "stopped_by_time_limit": stopped_early, "optimizer": "Adam + SparseAdam, lr %g warmup 300, linear decay over max(step/steps, time/limit)" % args.lr,
            "init": init_info or "random (word embedding as below)",
            "word_dropout": word_drop, "dropout": 0.3, "gazetteer_dropout": args.gaz_drop if gaz else 0,
            "loss": ("CRF negative log-likelihood per token (partially labelled: IGN words sum over every label) + %g x per-token cross-entropy" % args.ce_weight) if model.crf is not None else "per-token cross-entropy",
            "seed": args.seed, "threads": 1, "device": trained_on,
            "weight_average": ("exponential moving average of the weights, decay %g, exported" % args.ema) if args.ema > 0 else "none: the last step's weights",
            "data": counts,
            "augmentation": "public sentences: 6% upper-cased, 10% lower-cased, 3% Title Cased, 8% with OCR-like letter errors in 12% of their words, 25% wrapped over lines, WikiGold/UNER-EWT/SEC/CrossNER twice" + ("; and (all but WikiANN) once more as pages: 2-8 consecutive sentences wrapped over lines of 8-18 tokens, cut into runtime windows" if args.page_windows else "") + "; synthetic documents cut into windows of whole lines" + ("; in %d%% of the public sentences with a person, its Person mentions renamed (first names and surnames of the synthetic documents' lists)" % round(100 * args.name_swap) if args.name_swap else ""),
            "lm_pretraining": lm_info or "none",
            "embeddings": ("fastText skip-gram (embed.py) from " + os.path.basename(args.embeddings)) if args.embeddings else "random",
            "vocab_from_training_data": n_train_words,
            "label_mapping": "corpora.py TYPE_MAP (LeNER-Br PESSOA/ORGANIZACAO/LOCAL, MEDDOCAN_TYPES, generated documents' Person/Organization/Address with leading titles ignored); CrossNER roles -> PER/ORG/LOC; WNUT-16 musicartist and LitBank name words outside PROP mentions ignored (no loss); LitBank PROP_PER/ORG/GPE/LOC/FAC -> PER/ORG/LOC/LOC/LOC, pronouns, titles and common nouns O",
            "not_trained_on": ["pii/presidio_research/* (evaluation)", "FakeNameGenerator.com_3000.csv and companies_and_organizations.csv (presidio's generator inputs)", "all held-out splits below"],
        },
        "heldout": {
            "wnut17": "emerging.test.annotated", "btc": "section h", "wikigold": "every 5th document",
            "wikiann": "test", "uner_ewt": "en_ewt-ud-test (dev used for training)", "uner_pud": "test (not trained on)",
            "sec": "FIN3", "synthetic_docs": "600 generated documents, other seed",
            "presidio_generated_large": "generated_large.json, PERSON/ORGANIZATION/LOCATION/ADDRESS",
        },
        "scores": scores,
        "files": {"ner.onnx": size},
        "parity_max_batch_diff": diff,
    }
    with open(os.path.join(args.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
    log("done in", round(time.time() - t0), "s; model", size, "bytes")


if __name__ == "__main__":
    main()
