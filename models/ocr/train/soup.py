"""Averages two exports of the recogniser in weight space and ships the
mean: rec.float.onnx, its int8 copy rec.onnx (quantize.py), manifest.json.

Usage: python3 soup.py --a stage6.onnx --b ../latin/rec.float.onnx --weight 0.5 --out ../latin

Both files must be exports of the same graph (the same architecture, batch
norms folded), as every stage's are; every float initializer becomes
(1 - w) a + w b. Stage 7 ships this mean of the stage-6 export and its own
(models/ocr/README.md): the fine-tune alone won the held-out PII gate's
organization and IBAN words and lost phone and e-mail words; the mean,
chosen on the evaluation's dev pages, kept the ones it won without losing
those. The held-out synthetic set is scored as train.py scores it.
"""

import argparse
import json
import os
import random
import sys

import onnx
import torch
from onnx import numpy_helper

import charset
import quantize
import render
import train as tr
from model import CRNN


def average(a_path, b_path, w, out_path):
    a, b = onnx.load(a_path), onnx.load(b_path)
    bi = {i.name: numpy_helper.to_array(i) for i in b.graph.initializer}
    assert [n.op_type for n in a.graph.node] == [n.op_type for n in b.graph.node], "not the same graph"
    for k, i in enumerate(a.graph.initializer):
        x, y = numpy_helper.to_array(i), bi[i.name]
        assert x.shape == y.shape, i.name
        if x.dtype.kind == "f":
            a.graph.initializer[k].CopyFrom(numpy_helper.from_array(((1 - w) * x + w * y).astype(x.dtype), i.name))
    onnx.checker.check_model(a)
    onnx.save(a, out_path)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True, help="the later export; its manifest.json (beside it) is the base")
    ap.add_argument("--weight", type=float, default=0.5, help="weight of --b")
    ap.add_argument("--out", default=os.path.join(here, "../latin"))
    ap.add_argument("--data", default=os.path.join(here, "../../../../shared/data"))
    ap.add_argument("--seed", type=int, default=18)
    a = ap.parse_args()
    torch.set_num_threads(1)
    with open(os.path.join(os.path.dirname(os.path.abspath(a.b)), "manifest.json"), encoding="utf-8") as f:
        meta = json.load(f)
    tmp = os.path.join(a.out, "rec.float.onnx.tmp")
    average(a.a, a.b, a.weight, tmp)
    os.replace(tmp, os.path.join(a.out, "rec.float.onnx"))
    src = os.path.join(a.out, "rec.float.onnx")
    # Score the mean on the held-out synthetic lines as train.py does (the
    # torch model loaded from the file, checked against it).
    fonts = render.Fonts()
    model = CRNN(charset.NUM_CLASSES)
    srng = random.Random(a.seed + 3000)
    slines = tr.Lines(a.data, a.seed + 3000, fonts)
    tr.init_from_onnx(model, src, [tr.make_batch([slines.next() for _ in range(16)], srng)[0] for _ in range(16)])
    probe = tr.make_evalset(a.data, fonts, 24, a.seed + 4000)
    xs = [tr.make_batch([(x, t) for x, t, _ in probe[i:i + 8]], random.Random(i), pack=i > 0)[0] for i in range(0, 24, 8)]
    tr.check_against_onnx(model, src, xs)
    meta["heldout_synthetic"] = tr.evaluate(model, tr.make_evalset(a.data, fonts, 600, a.seed + 1000))
    meta["training"]["soup"] = {"a": os.path.basename(a.a), "b": os.path.basename(a.b), "weight_b": a.weight}
    meta["int8"] = quantize.quantize(src, os.path.join(a.out, "rec.onnx"), a.data, quantize.CALIB_LINES,
                                     quantize.CALIB_SEED)
    with open(os.path.join(a.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(json.dumps(meta["heldout_synthetic"]))


if __name__ == "__main__":
    sys.exit(main())
