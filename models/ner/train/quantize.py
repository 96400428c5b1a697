"""Writes an int8 copy of an exported NER graph: its two LSTMs as ONNX
Runtime's com.microsoft DynamicQuantizeLSTM, int8 weights with one scale
per gate row; the inputs of every product (the token features, the
hidden state of each step) are quantised to uint8 as they come, per
run, by ONNX Runtime. The embeddings, the character look-ups and the
output layer stay float.

NOT ADOPTED (issue 45): the copy is cheaper (about a fifth less NER CPU
a page) but fails held-out floors, and its results depend on what a
window is batched with; models/ner/README.md, "int8 (tried, not
adopted)", has the figures. The recipe does not run this script; it is
kept to repeat the measurement:

  python3 quantize.py --src ../model/ner.onnx --out DIR/ner.onnx
  cp ../model/vocab.json ../model/manifest.json DIR/
  go run ./models/ner/internal/nereval -model DIR -table test -threads 2
  NER_BENCH_MODEL=DIR go test ./models/ner -run '^$' -bench DetectPageLang

- Weights: int8 holding 7-bit values (-63..63) by default, symmetric, one
  scale per output row (per gate unit), as models/ocr/train/quantize.py
  does and for the same reason: on x86 CPUs without VNNI (AVX2 alone)
  ONNX Runtime adds the products of uint8 activations and int8 weights in
  pairs into 16 bits (vpmaddubsw), which saturates with full-range
  weights (2 x 255 x 127 > 32767); with 7 bits a pair stays under 2^15
  (2 x 255 x 63 = 32130). --weight-max 127 gives 8 bits; --unsigned
  stores them as uint8 at zero point 128 (uint8 x uint8, which ONNX
  Runtime sums without that saturation).
- --smooth A: SmoothQuant. Each LSTM input feature is divided by
  s_j = max|x_j|^A / max|W_j|^(1-A) and the LSTMs' weight columns
  multiplied by it, folded into the word and shape embeddings and the
  character tables (or the CNN's filters: a positive scale passes its
  ReLU and max-pool), so the features the per-run input range quantises
  coarsest weigh more.
- No calibration: DynamicQuantizeLSTM takes each product's input range
  when it runs.

The LSTMs cost most of the model's arithmetic (per token: 2 x (176 + 160)
x 640 multiply-adds, against 320 x 9 in the output layer; the character
CNN is table look-ups since fold.py).
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

MS_DOMAIN = "com.microsoft"

# WEIGHT_MAX bounds the quantised weights: 7 bits, so that CPUs without
# VNNI sum uint8 x int8 pairs without saturating (see above).
WEIGHT_MAX = 63


def quantize_rows(w, wmax):
    """w [D, 4H, K] -> int8 [D, K, 4H] (DynamicQuantizeLSTM's layout: the
    transpose of ONNX LSTM's) and scales [D, 4H], symmetric, one per row."""
    s = np.abs(w).max(axis=2) / wmax
    s = np.maximum(s, 1e-12).astype(np.float32)
    q = np.clip(np.round(w / s[:, :, None]), -wmax, wmax).astype(np.int8)
    return np.ascontiguousarray(q.transpose(0, 2, 1)), s


def smooth(g, arr, inits, alpha, words):
    """SmoothQuant: divides each LSTM input feature by s_j and multiplies
    the LSTMs' weight columns by it, s_j = max|x_j|^alpha / max|W_j|^(1-alpha),
    folded into the embedding tables and the CNN's filters (a positive
    scale passes through its ReLU and max-pool), and into fold.py's
    character tables where the graph has them. A character feature's
    largest value is taken over the vocabulary's words."""
    we, se = arr["m.wemb.weight"], arr["m.semb.weight"]
    ce, cw, cb = arr["m.cemb.weight"], arr["m.conv.weight"], arr["m.conv.bias"]
    # channel maxima of the CNN over the vocabulary's words
    C = 20
    ids = np.zeros((len(words), C), np.int64)
    for i, w in enumerate(words):
        ids[i, :len(w)] = w[:C]
    cmax = np.zeros(cw.shape[0], np.float32)
    for i in range(0, len(ids), 2048):
        x = ce[ids[i:i + 2048]]  # [N,C,24]
        xp = np.pad(x, ((0, 0), (1, 1), (0, 0)))
        h = sum(np.einsum("nci,oi->noc", xp[:, k:k + C], cw[:, :, k]) for k in range(3)) + cb[None, :, None]
        h = np.where((ids[i:i + 2048] == 0)[:, None, :], -1e4, h)
        cmax = np.maximum(cmax, h.max(axis=(0, 2)).clip(min=0))
    xmax = np.concatenate([np.abs(we).max(axis=0), cmax, np.abs(se).max(axis=0)])
    lstm = [n for n in g.node if n.op_type == "LSTM"]
    wmaxcol = np.max([np.abs(arr[n.input[1]]).max(axis=(0, 1)) for n in lstm], axis=0)
    s = (np.maximum(xmax, 1e-6) ** alpha / np.maximum(wmaxcol, 1e-6) ** (1 - alpha)).astype(np.float32)
    nw, nc = we.shape[1], cw.shape[0]
    repl = {"m.wemb.weight": we / s[None, :nw], "m.conv.weight": cw / s[nw:nw + nc, None, None],
            "m.conv.bias": cb / s[nw:nw + nc], "m.semb.weight": se / s[None, nw + nc:]}
    for k in range(3):  # fold.py's tables [ids, filters] and bias
        if "charfold_T%d" % k in arr:
            repl["charfold_T%d" % k] = arr["charfold_T%d" % k] / s[None, nw:nw + nc]
    if "charfold_bias" in arr:
        repl["charfold_bias"] = arr["charfold_bias"] / s[nw:nw + nc]
    for n in lstm:
        repl[n.input[1]] = arr[n.input[1]] * s[None, None, :]
    for name, v in repl.items():
        inits[name].CopyFrom(numpy_helper.from_array(v.astype(np.float32), name))
        arr[name] = v.astype(np.float32)
    return s


def quantize(src, out, wmax=WEIGHT_MAX, alpha=None, vocab=None, unsigned=False):
    m = onnx.load(src)
    g = m.graph
    inits = {i.name: i for i in g.initializer}
    if alpha is not None:
        import json
        arr = {k: numpy_helper.to_array(v) for k, v in inits.items()}
        with open(vocab, encoding="utf-8") as f:
            v = json.load(f)
        cid = {c: i for i, c in enumerate(v["chars"])}
        words = [[cid.get(c, 1) for c in w] for w in v["words"][3:]]
        s = smooth(g, arr, inits, alpha, words)
        print("smooth: scales %.3f..%.3f" % (s.min(), s.max()))
    drop, new_inits, lstms = set(), [], 0
    for k, n in enumerate(g.node):
        if n.op_type != "LSTM" or n.domain not in ("", "ai.onnx"):
            continue
        ins = list(n.input) + [""] * (8 - len(n.input))
        tensors = {}
        for what, name in (("W", ins[1]), ("R", ins[2])):
            w = numpy_helper.to_array(inits[name]).astype(np.float32)
            q, s = quantize_rows(w, wmax)
            zp = np.zeros(s.shape, np.int8)
            if unsigned:
                q, zp = (q.astype(np.int16) + 128).astype(np.uint8), np.full(s.shape, 128, np.uint8)
            tag = "q%d_%s" % (lstms, what)
            new_inits += [numpy_helper.from_array(q, tag),
                          numpy_helper.from_array(s, tag + "_scale"),
                          numpy_helper.from_array(zp, tag + "_zp")]
            tensors[what] = tag
            drop.add(name)
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        q = helper.make_node(
            "DynamicQuantizeLSTM",
            [ins[0], tensors["W"], tensors["R"]] + ins[3:8] +
            [tensors["W"] + "_scale", tensors["W"] + "_zp", tensors["R"] + "_scale", tensors["R"] + "_zp"],
            list(n.output), name=(n.name or "lstm%d" % lstms) + "_quant", domain=MS_DOMAIN, **attrs)
        g.node[k].CopyFrom(q)
        lstms += 1
    if lstms == 0:
        raise SystemExit("quantize: %s has no LSTM" % src)
    keep = [i for i in g.initializer if i.name not in drop]
    del g.initializer[:]
    g.initializer.extend(keep + new_inits)
    if not any(o.domain == MS_DOMAIN for o in m.opset_import):
        m.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))
    onnx.checker.check_model(m)
    onnx.save(m, out)
    return {"file": os.path.basename(out), "from": os.path.basename(src), "lstms": lstms,
            "weights": "int8, symmetric, one scale per gate row, |w| <= %d" % wmax}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default=os.path.join(here, "../model/ner.onnx"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--weight-max", type=int, default=WEIGHT_MAX)
    ap.add_argument("--smooth", type=float, default=None)
    ap.add_argument("--unsigned", action="store_true")
    ap.add_argument("--vocab", default=os.path.join(here, "../model/vocab.json"))
    a = ap.parse_args()
    info = quantize(a.src, a.out, a.weight_max, a.smooth, a.vocab, a.unsigned)
    print(info)
    print("wrote", a.out, os.path.getsize(a.out), "bytes")


if __name__ == "__main__":
    sys.exit(main())
