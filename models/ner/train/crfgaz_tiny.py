"""Writes a tiny, randomly initialised model of this recipe with both
optional parts the shipped model lacks, gazetteer features and a CRF
output layer, into models/ner/testdata/crfgaz (ner.onnx, vocab.json,
manifest.json, parity_fixture.json), so the Go tests exercise those paths
of the runtime (own.go's gazetteer input, crf.go's Viterbi) against
torch whatever the built-in model is.

The model is not trained: the tests compare features, logits and Viterbi
paths, not accuracy. The CRF's parameters are drawn at random so that
the paths differ from per-token argmax. The gazetteer lists are the real
lists (engine/detect/gazetteer/data) cut down to the words of the
fixture texts.

Usage: python3 crfgaz_tiny.py OUTDIR
"""

import os
import sys

import torch

import nertok
import train
from model import NER

HERE = os.path.dirname(os.path.abspath(__file__))
GAZ_DIR = os.path.join(HERE, "..", "..", "..", "engine", "detect", "gazetteer", "data")


def main(out):
    torch.manual_seed(7)
    texts = train.PARITY_TEXTS + nertok.FIXTURE_TEXTS
    toks = [t for x in texts for t in nertok.tokenize(x) if t != nertok.NL]
    norms = {nertok.norm(t) for t in toks}
    words = ["<pad>", "<unk>", "<nl>"] + sorted(norms)[: len(norms) // 2]  # some words stay unknown
    chars = ["<pad>", "<unk>", "<nl>"] + sorted({c for t in toks for c in t})[:60]
    gaz = {name: [w for w in ws if w in norms] for name, ws in nertok.load_gazetteer(GAZ_DIR).items()}
    wv = {w: i for i, w in enumerate(words)}
    cv = {c: i for i, c in enumerate(chars)}
    gi = nertok.gaz_index(gaz)
    model = NER(len(words), len(chars), nertok.N_SHAPES, len(train.LABELS), wdim=8, cdim=6, cfilters=8, sdim=4,
                hidden=8, n_gaz=nertok.N_GAZ, gdim=4, crf=True)
    with torch.no_grad():
        for p in (model.crf.trans, model.crf.start, model.crf.end):
            p.normal_(0, 2)
    model.eval()
    train.write_runtime(out, model, words, chars, gaz, wv, cv, gi)
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        import json
        json.dump({"name": "crfgaz-tiny", "version": "test", **train.runtime_manifest(model)}, f, indent=1)
    train.parity_fixture(model, wv, cv, gi, os.path.join(out, "parity_fixture.json"))
    print("wrote", out, {k: len(v) for k, v in gaz.items()})


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
