"""Trains redactd's Latin text-line recogniser and exports it to ONNX.

Usage: python3 train.py --out ../latin [--steps N] [--minutes M] [--data DIR]

Writes into --out: rec.float.onnx (input x [B,3,48,W], output
[B,W/8,classes] softmax, class 0 the CTC blank), rec.onnx (its int8 copy,
quantize.py: what models/ocr embeds), charset.txt (one character a line,
the space appended last by the reader) and manifest.json (shape, cost,
scores on a held-out synthetic set, training time, the int8 copy's
calibration). Checkpoints go to --ckpt
every few minutes; a run started again with the same arguments resumes
from the last one. Seeds are fixed: the same arguments and steps give the
same lines in the same order.
"""

import argparse
import copy
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

import charset
import render
import texts
from model import CRNN, macs_per_column

STRIDE = 8
MIN_W = 320  # models/ocr recMinW: narrower crops are padded to this


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


class Lines:
    """Endless stream of (image [48,w] uint8, text) pairs."""

    def __init__(self, data, seed, fonts, clean=False):
        self.rng = random.Random(seed)
        self.src = texts.Sources(data, random.Random(seed + 1))
        self.fonts = fonts
        self.clean = clean

    def next(self):
        while True:
            t = self.src.sample()
            a = render.render(t, self.fonts, self.rng, clean=self.clean, pt=self.src.pt)
            if a is None:
                continue
            steps = (a.shape[1] + STRIDE - 1) // STRIDE
            if steps < ctc_len(t) + 1:
                continue  # too narrow to spell out under CTC
            return a, t

    def state(self):
        return {"rng": self.rng.getstate(), "src": self.src.rng.getstate()}

    def restore(self, s):
        self.rng.setstate(s["rng"])
        self.src.rng.setstate(s["src"])


def ctc_len(t):
    """Steps CTC needs for t: one per character, one more per repeat."""
    return len(t) + sum(1 for a, b in zip(t, t[1:]) if a == b)


def normalise(a):
    return (a.astype(np.float32) / 255.0 - 0.5) / 0.5


def make_batch(items, rng, pack=True):
    """Pads crops to one width with the normalised mid-gray (0) that
    models/ocr pads with; sometimes to its minimum width of 320, and
    sometimes packs two crops side by side 16 columns apart, as
    models/ocr does with narrow crops."""
    rows = []
    for a, t in items:
        rows.append(([(a, 0)], t, a.shape[1]))
    # Pack pairs of narrow crops.
    packed = []
    i = 0
    while i < len(rows):
        if pack and i + 1 < len(rows) and rng.random() < 0.15 and rows[i][2] + rows[i + 1][2] + 16 <= 640:
            a, t, w = rows[i]
            b, u, v = rows[i + 1]
            x = (w + STRIDE - 1) // STRIDE * STRIDE + 16
            packed.append((a + [(b[0][0], x)], t + " " + u, x + v))
            i += 2
        else:
            packed.append(rows[i])
            i += 1
    wmax = max(w for _, _, w in packed)
    if rng.random() < 0.3:
        wmax = max(wmax, MIN_W)
    wmax = (wmax + STRIDE - 1) // STRIDE * STRIDE
    x = np.zeros((len(packed), 1, render.H, wmax), np.float32)
    targets, tlen, ilen = [], [], []
    for k, (parts, t, w) in enumerate(packed):
        for a, off in parts:
            x[k, 0, :, off:off + a.shape[1]] = normalise(a)
        enc = charset.encode(t)
        targets += enc
        tlen.append(len(enc))
        ilen.append((w + STRIDE - 1) // STRIDE)
    x = torch.from_numpy(x).expand(-1, 3, -1, -1)
    return x, torch.tensor(targets, dtype=torch.long), torch.tensor(tlen), torch.tensor(ilen)


def batches(lines, bs, rng):
    """Draws 4 batches' worth of lines, sorts them by width so a batch
    pads little, and yields them in random order."""
    while True:
        items = [lines.next() for _ in range(4 * bs)]
        items.sort(key=lambda it: it[0].shape[1])
        group = [items[i:i + bs] for i in range(0, len(items), bs)]
        rng.shuffle(group)
        for g in group:
            yield g


def decode(probs, n):
    """Greedy CTC decoding of the first n steps."""
    best = probs[:n].argmax(-1).tolist()
    out, prev = [], 0
    for c in best:
        if c != prev and c != 0:
            out.append(" " if c == charset.SPACE else charset.CHARS[c - 1])
        prev = c
    return "".join(out)


def edit(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def evaluate(model, evalset):
    """CER, word accuracy (reference words read exactly, in order) and
    line accuracy over evalset [(image, text, kind)], also for the name
    lines alone."""
    model.eval()
    errs = chars = wok = words = lok = 0
    nok = nn = 0
    with torch.no_grad():
        for i in range(0, len(evalset), 32):
            part = evalset[i:i + 32]
            # One crop a row: each output row is its line's reading.
            x, _, _, ilen = make_batch([(a, t) for a, t, _ in part], random.Random(0), pack=False)
            p = model(x)
            for k, (a, t, kind) in enumerate(part):
                h = decode(p[k], int(ilen[k]))
                errs += edit(h, t)
                chars += len(t)
                rw, hw = t.split(), h.split()
                words += len(rw)
                wok += len(rw) - edit(rw, hw) if len(rw) >= edit(rw, hw) else 0
                lok += h == t
                if kind == "name":
                    nn += 1
                    nok += h == t
    model.train()
    return {"cer": errs / max(chars, 1), "word_acc": wok / max(words, 1), "line_acc": lok / max(len(evalset), 1),
            "name_line_acc": nok / max(nn, 1), "lines": len(evalset), "name_lines": nn}


def set_mix(spacing, neighbour, prose, rare, confusable, escaped, focus=0, bold=0.0, marks_orgs=0, visible=0):
    """Sets the data stream's mix; returns the previous one."""
    old = (render.SPACING_P, render.NEIGHBOUR_P, texts.SENTENCE_W, texts.RARE_W, texts.CONFUSABLE_W, texts.ESCAPED_W,
           texts.FOCUS_W, render.BOLD_P, texts.MARKS_ORGS_W, texts.VISIBLE_W)
    render.SPACING_P, render.NEIGHBOUR_P, render.BOLD_P = spacing, neighbour, bold
    texts.SENTENCE_W, texts.RARE_W, texts.CONFUSABLE_W, texts.ESCAPED_W = prose, rare, confusable, escaped
    texts.FOCUS_W, texts.MARKS_ORGS_W, texts.VISIBLE_W = focus, marks_orgs, visible
    return old


def make_evalset(data, fonts, n, seed):
    """Held-out lines: a seed the training stream never uses; a third are
    names alone (the diacritic names the issue is about). They are drawn
    with the first stages' mix whatever the flags say, so every stage is
    scored on the same lines."""
    mix = set_mix(0.0, 0.0, 14, 6, 0, 0)
    try:
        return _make_evalset(data, fonts, n, seed)
    finally:
        set_mix(*mix)


def _make_evalset(data, fonts, n, seed):
    lines = Lines(data, seed, fonts)
    out = []
    while len(out) < n:
        if len(out) % 3 == 0:
            t = lines.src.name()
            a = render.render(t, fonts, lines.rng)
            if a is None or (a.shape[1] + 7) // 8 < ctc_len(t) + 1:
                continue
            out.append((a, t, "name"))
        else:
            a, t = lines.next()
            out.append((a, t, "line"))
    return out


class Average:
    """A running mean of the model's weights and batch-norm statistics
    (stochastic weight averaging): at a small, flat learning rate the
    weights wander around a minimum, and single checkpoints read a few
    names differently from their neighbours; their mean reads as the
    minimum does."""

    def __init__(self, model):
        self.model = copy.deepcopy(model)
        self.n = 0

    def update(self, model):
        self.n += 1
        with torch.no_grad():
            for (_, a), (_, b) in zip(self.model.state_dict().items(), model.state_dict().items()):
                if a.dtype.is_floating_point:
                    a.add_((b - a) / self.n)
                else:
                    a.copy_(b)

    def state(self):
        return {"model": self.model.state_dict(), "n": self.n}

    def restore(self, s):
        self.model.load_state_dict(s["model"])
        self.n = s["n"]


def onnx_weights(path):
    """The recogniser's weights as the export wrote them: the convolutions
    (batch norm folded in) in graph order, the LSTM's W, R and B, and the
    output layer's matrix and bias."""
    import onnx
    from onnx import numpy_helper
    g = onnx.load(path).graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    convs = [(inits[n.input[1]], inits[n.input[2]]) for n in g.node if n.op_type == "Conv"]
    lstm = [n for n in g.node if n.op_type == "LSTM"]
    mm = [n for n in g.node if n.op_type == "MatMul"]
    add = [n for n in g.node if n.op_type == "Add"]
    assert len(lstm) == 1 and len(mm) == 1 and len(add) == 1, "unexpected graph"
    w, r, b = (inits[lstm[0].input[i]] for i in (1, 2, 3))
    bias = [i for i in add[0].input if i in inits][0]
    return convs, (w, r, b), inits[mm[0].input[1]], inits[bias]


def init_from_onnx(model, path, batches_for_stats):
    """Loads rec.float.onnx's weights into the torch CRNN, so a stage can
    start from the shipped model when no checkpoint is kept (train/ckpt
    is not in the repository).

    The export folded each batch norm into its convolution (W' = W g/s,
    b' = beta - mean g/s). The torch model keeps a batch norm after every
    convolution, so the folded weights are unfolded onto it without
    changing the function: the convolution gets W', and the batch norm the
    mean m and variance v of W'x measured on training lines, weight
    sqrt(v + eps) and bias b' + m. In eval mode that is W'x + b' exactly;
    in training mode, where batch norm uses each batch's own statistics,
    it is close to it, as it was for the model that was exported.

    The LSTM's gates are in ONNX's order i, o, f, c and torch's i, f, g, o;
    B is the input biases then the recurrent ones; direction 1 is torch's
    _reverse. The output layer's MatMul holds the transposed weight."""
    convs, (w, r, b), head_w, head_b = onnx_weights(path)
    mods = [m for m in model.modules() if isinstance(m, torch.nn.Conv2d)]
    bns = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert len(mods) == len(convs) == len(bns), (len(mods), len(convs), len(bns))
    with torch.no_grad():
        for m, bn, (cw, _) in zip(mods, bns, convs):
            assert tuple(m.weight.shape) == cw.shape, (m.weight.shape, cw.shape)
            m.weight.copy_(torch.from_numpy(cw.copy()))
        # The statistics of each convolution's output (before its batch
        # norm) on training lines, with every earlier layer already exact.
        sums = [None] * len(mods)
        hooks = []

        def stat(k):
            def hook(mod, inp, out):
                dims = (0, 2, 3)
                mean = out.mean(dims).double()
                sq = (out.double() ** 2).mean(dims)
                s = sums[k]
                sums[k] = (mean, sq, 1) if s is None else (s[0] + mean, s[1] + sq, s[2] + 1)
            return hook

        for k, (bn, (_, cb)) in enumerate(zip(bns, convs)):
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(cb))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for k, m in enumerate(mods):
            hooks.append(m.register_forward_hook(stat(k)))
        model.eval()
        for x in batches_for_stats:
            model.logits(x)
        for hk in hooks:
            hk.remove()
        for k, (bn, (_, cb)) in enumerate(zip(bns, convs)):
            mean, sq, n = sums[k]
            mean, var = mean / n, (sq / n - (mean / n) ** 2).clamp_min(1e-6)
            bn.running_mean.copy_(mean.float())
            bn.running_var.copy_(var.float())
            bn.weight.copy_(torch.sqrt(var + bn.eps).float())
            bn.bias.copy_(torch.from_numpy(cb) + mean.float())
        h = model.rnn.hidden_size
        order = np.concatenate([np.arange(0, h), np.arange(2 * h, 3 * h), np.arange(3 * h, 4 * h), np.arange(h, 2 * h)])
        assert w.shape == (2, 4 * h, model.rnn.input_size), w.shape
        for d, suf in enumerate(["", "_reverse"]):
            getattr(model.rnn, "weight_ih_l0" + suf).copy_(torch.from_numpy(w[d][order]))
            getattr(model.rnn, "weight_hh_l0" + suf).copy_(torch.from_numpy(r[d][order]))
            getattr(model.rnn, "bias_ih_l0" + suf).copy_(torch.from_numpy(b[d][:4 * h][order]))
            getattr(model.rnn, "bias_hh_l0" + suf).copy_(torch.from_numpy(b[d][4 * h:][order]))
        model.head.weight.copy_(torch.from_numpy(head_w.T.copy()))
        model.head.bias.copy_(torch.from_numpy(head_b))
    model.train()


def run_onnx(path, x):
    """Runs the exported graph on x [B,3,48,W] node by node, each op as
    the ONNX specification defines it (the LSTM's gates in ONNX's order
    i, o, f, c, written out here), so checking the torch model against it
    does not go through the weight mapping being checked. Debian's onnx
    1.12 has no reference evaluator and the recipe does not need
    onnxruntime."""
    import onnx
    from onnx import helper, numpy_helper
    g = onnx.load(path).graph
    env = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    env["x"] = x.numpy().astype(np.float32)
    env[""] = None
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    for n in g.node:
        a = {at.name: helper.get_attribute_value(at) for at in n.attribute}
        i = [env.get(k) for k in n.input]
        op = n.op_type
        if op == "Constant":
            out = [numpy_helper.to_array(a["value"])]
        elif op == "ReduceMean":
            out = [i[0].mean(axis=tuple(a["axes"]), keepdims=bool(a.get("keepdims", 1)))]
        elif op == "Conv":
            p = a.get("pads", [0, 0, 0, 0])
            assert p[0] == p[2] and p[1] == p[3]
            out = [F.conv2d(torch.from_numpy(i[0]), torch.from_numpy(i[1].copy()), torch.from_numpy(i[2].copy()),
                            stride=a.get("strides", [1, 1]), padding=(p[0], p[1])).numpy()]
        elif op == "Relu":
            out = [np.maximum(i[0], 0)]
        elif op == "MaxPool":
            out = [F.max_pool2d(torch.from_numpy(i[0]), a["kernel_shape"], a["strides"]).numpy()]
        elif op == "Squeeze":
            out = [np.squeeze(i[0], axis=tuple(int(v) for v in i[1]))]
        elif op == "Unsqueeze":
            out = [np.expand_dims(i[0], tuple(int(v) for v in i[1]))]
        elif op == "Transpose":
            out = [np.transpose(i[0], a["perm"])]
        elif op == "Shape":
            out = [np.array(i[0].shape, np.int64)]
        elif op == "Gather":
            out = [np.take(i[0], i[1], axis=a.get("axis", 0))]
        elif op == "Concat":
            out = [np.concatenate([np.atleast_1d(v) for v in i], axis=a["axis"])]
        elif op == "ConstantOfShape":
            v = numpy_helper.to_array(a["value"]) if "value" in a else np.zeros(1, np.float32)
            out = [np.full(tuple(int(d) for d in i[0]), v.reshape(-1)[0], v.dtype)]
        elif op == "Reshape":
            out = [i[0].reshape(tuple(int(d) if d != 0 else i[0].shape[k] for k, d in enumerate(i[1])))]
        elif op == "MatMul":
            out = [i[0] @ i[1]]
        elif op == "Add":
            out = [i[0] + i[1]]
        elif op == "Softmax":
            e = np.exp(i[0] - i[0].max(axis=a.get("axis", -1), keepdims=True))
            out = [e / e.sum(axis=a.get("axis", -1), keepdims=True)]
        elif op == "LSTM":
            X, W, R, B = i[0], i[1], i[2], i[3]
            h0, c0 = i[5], i[6]
            T, hs = X.shape[0], a["hidden_size"]
            Y = np.zeros((T, W.shape[0], X.shape[1], hs), np.float32)
            for d in range(W.shape[0]):
                h, c = h0[d].astype(np.float64), c0[d].astype(np.float64)
                for t in (range(T) if d == 0 else range(T - 1, -1, -1)):
                    z = X[t] @ W[d].T + h @ R[d].T + B[d][:4 * hs] + B[d][4 * hs:]
                    gi, go, gf, gc = (z[:, k * hs:(k + 1) * hs] for k in range(4))
                    c = sig(gf) * c + sig(gi) * np.tanh(gc)
                    h = sig(go) * np.tanh(c)
                    Y[t, d] = h
            out = [Y, None, None]
        else:
            raise SystemExit(f"run_onnx: op {op} not written")
        for k, v in zip(n.output, out):
            env[k] = v
    return env[g.output[0].name]


def check_against_onnx(model, path, xs, tol=1e-4):
    """Runs the ONNX file (run_onnx) and the torch model on the crops xs
    and returns the largest difference of their softmax outputs; raises
    when it is over tol."""
    model.eval()
    worst = 0.0
    with torch.no_grad():
        for x in xs:
            want = run_onnx(path, x)
            got = model(x).numpy()
            assert got.shape == want.shape, (got.shape, want.shape)
            worst = max(worst, float(np.abs(got - want).max()))
    model.train()
    if not worst <= tol:
        raise SystemExit(f"train: the torch model differs from {path} by {worst:.2e} (> {tol:g})")
    return worst


def export(model, out, meta, data):
    """Writes rec.float.onnx, its int8 copy rec.onnx (quantize.py: what
    models/ocr embeds and runs), charset.txt and manifest.json."""
    os.makedirs(out, exist_ok=True)
    model.eval()
    x = torch.zeros(1, 3, render.H, MIN_W)
    onnx_path = os.path.join(out, "rec.float.onnx")
    torch.onnx.export(model, x, onnx_path, input_names=["x"], output_names=["softmax"], opset_version=17,
                      dynamic_axes={"x": {0: "batch", 3: "width"}, "softmax": {0: "batch", 1: "steps"}},
                      do_constant_folding=True)
    import onnx
    m = onnx.load(onnx_path)
    onnx.checker.check_model(m)
    import quantize  # imports this module: not at the top
    meta["int8"] = quantize.quantize(onnx_path, os.path.join(out, "rec.onnx"), data, quantize.CALIB_LINES,
                                     quantize.CALIB_SEED)
    with open(os.path.join(out, "charset.txt"), "w", encoding="utf-8") as f:
        for c in charset.CHARS:
            f.write(c + "\n")
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")
    model.train()
    log("exported", onnx_path, os.path.getsize(onnx_path), "bytes, int8", meta["int8"]["file"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--data", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../shared/data"))
    ap.add_argument("--ckpt", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "ckpt"))
    ap.add_argument("--steps", type=int, default=9000)
    ap.add_argument("--minutes", type=float, default=0, help="stop (and export) after this much training time")
    ap.add_argument("--until", type=int, default=0, help="stop (and export) at this step, before --steps")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--eval-lines", type=int, default=600)
    ap.add_argument("--ckpt-minutes", type=float, default=4)
    ap.add_argument("--export-only", action="store_true")
    ap.add_argument("--average-from", type=int, default=0,
                    help="from this step on, average the weights every --average-every steps and export the mean")
    ap.add_argument("--average-every", type=int, default=50)
    ap.add_argument("--init-onnx", default="",
                    help="with no checkpoint, start from this exported model (rec.float.onnx), checked to 1e-4")
    # The mix of the data stream (see models/ocr/README.md for each stage's).
    ap.add_argument("--spacing", type=float, default=0.0, help="share of lines drawn with scaled word spacing")
    ap.add_argument("--neighbour", type=float, default=0.0, help="share of lines with a neighbouring line in the crop")
    ap.add_argument("--prose-weight", type=float, default=texts.SENTENCE_W)
    ap.add_argument("--rare-weight", type=float, default=texts.RARE_W, help="weight of drawn characters and of accented words, each")
    ap.add_argument("--confusable-weight", type=float, default=texts.CONFUSABLE_W, help="weight of words with ș ş ț ţ ð đ ... swapped in")
    ap.add_argument("--escape-weight", type=float, default=texts.ESCAPED_W, help="weight of text with backslashes: \\\" \\' and paths")
    ap.add_argument("--focus-weight", type=float, default=texts.FOCUS_W,
                    help="weight of stage 7's lines: bold-prone digits, IBANs with letters, ș/ş names, legal forms")
    ap.add_argument("--marks-orgs-weight", type=float, default=texts.MARKS_ORGS_W,
                    help="weight of stage 8's lines: lower-case dotted legal forms, names with ș ț beside ş ţ")
    ap.add_argument("--visible-weight", type=float, default=texts.VISIBLE_W,
                    help="weight of stage 8b's lines: large labelled PII (IBANs), single letters, as the visible corpus prints")
    ap.add_argument("--bold", type=float, default=render.BOLD_P, help="share of lines set in a bold face")
    args = ap.parse_args()

    set_mix(args.spacing, args.neighbour, args.prose_weight, args.rare_weight, args.confusable_weight,
            args.escape_weight, args.focus_weight, args.bold, args.marks_orgs_weight,
            args.visible_weight)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    fonts = render.Fonts()
    model = CRNN(charset.NUM_CLASSES)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    lines = Lines(args.data, args.seed, fonts)
    brng = random.Random(args.seed + 2)
    step, trained_s = 0, 0.0
    base = None  # the exported model a stage started from (--init-onnx)
    os.makedirs(args.ckpt, exist_ok=True)
    ck = os.path.join(args.ckpt, "ckpt.pt")
    resumed = os.path.exists(ck)
    if resumed:
        s = torch.load(ck, weights_only=False)
        model.load_state_dict(s["model"])
        opt.load_state_dict(s["opt"])
        lines.restore(s["lines"])
        brng.setstate(s["brng"])
        torch.set_rng_state(s["torch"])
        step, trained_s = s["step"], s["trained_s"]
        base = s.get("base")
        log("resumed at step", step, "after", round(trained_s / 60, 1), "min")
    elif args.init_onnx:
        # No checkpoint: start from an exported model. Its batch norms are
        # unfolded with statistics of lines from a seed of their own, and
        # the result must read as the ONNX file does before it trains.
        srng = random.Random(args.seed + 3000)
        slines = Lines(args.data, args.seed + 3000, fonts)
        stats = [make_batch([slines.next() for _ in range(args.batch)], srng)[0] for _ in range(16)]
        init_from_onnx(model, args.init_onnx, stats)
        probe = make_evalset(args.data, fonts, 24, args.seed + 4000)
        xs = [make_batch([(a, t) for a, t, _ in probe[i:i + 8]], random.Random(i), pack=i > 0)[0]
              for i in range(0, 24, 8)]
        worst = check_against_onnx(model, args.init_onnx, xs)
        try:
            with open(os.path.join(os.path.dirname(os.path.abspath(args.init_onnx)), "manifest.json"), encoding="utf-8") as f:
                t = json.load(f)["training"]
            base = {"file": os.path.basename(args.init_onnx), "steps": t["steps"], "cpu_minutes": t["cpu_minutes"],
                    "lines_seen": t["lines_seen"]}
        except (OSError, KeyError, ValueError):
            base = {"file": os.path.basename(args.init_onnx)}
        log("started from", args.init_onnx, f"(torch against ONNX: largest softmax difference {worst:.1e})")
    # A stage without --average-from keeps the checkpoint's average as it
    # is, so running the stages again (each only exports) ends with it.
    kept_avg = s.get("average") if resumed else None
    avg = Average(model) if args.average_from else None
    if avg and kept_avg:
        avg.restore(kept_avg)
        log("resumed the average of", avg.n, "snapshots")

    def save():
        tmp = ck + ".tmp"
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "lines": lines.state(),
                    "brng": brng.getstate(), "torch": torch.get_rng_state(), "step": step,
                    "trained_s": trained_s, "args": vars(args), "base": base, "average": avg.state() if avg and avg.n else kept_avg}, tmp)
        os.replace(tmp, ck)

    log("classes", charset.NUM_CLASSES, "fonts", len(fonts.files), "macs/column", int(macs_per_column(model)))
    evalset = make_evalset(args.data, fonts, args.eval_lines, args.seed + 1000)
    stream = batches(lines, args.batch, brng)
    t0 = time.time()
    last_ck = time.time()
    run_loss = None
    stopped = "steps"
    t100 = time.time()
    while step < args.steps and not args.export_only:
        if args.minutes and trained_s + (time.time() - t0) >= args.minutes * 60:
            stopped = "minutes"
            break
        if args.until and step >= args.until:
            stopped = "until"
            break
        # Warm-up then cosine decay over --steps.
        lr = args.lr * min(1.0, (step + 1) / 300) * 0.5 * (1 + math.cos(math.pi * step / args.steps))
        for g in opt.param_groups:
            g["lr"] = max(lr, args.lr * 0.01)
        x, tg, tl, il = make_batch(next(stream), brng)
        lp = F.log_softmax(model.logits(x), dim=-1).transpose(0, 1)
        loss = F.ctc_loss(lp, tg, il, tl, blank=0, zero_infinity=True)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        step += 1
        if avg and step >= args.average_from and step % args.average_every == 0:
            avg.update(model)
        run_loss = loss.item() if run_loss is None else 0.98 * run_loss + 0.02 * loss.item()
        if step % 100 == 0:
            log(f"step {step} loss {run_loss:.3f} lr {lr:.5f} {(time.time() - t100) / 100:.3f}s/step")
            t100 = time.time()
        if time.time() - last_ck >= args.ckpt_minutes * 60:
            trained_s += time.time() - t0
            t0 = time.time()
            save()
            last_ck = time.time()
            ev = evaluate(model, evalset[:150])
            log("checkpoint", step, json.dumps({k: round(v, 4) for k, v in ev.items()}))
            t0 = time.time()  # evaluation is not training time
    trained_s += time.time() - t0
    log(f"this run: {time.process_time() / 60:.1f} CPU minutes of the process")
    if not args.export_only:
        save()
    if avg and avg.n:
        log("exporting the mean of", avg.n, "snapshots from step", args.average_from)
        model = avg.model
    ev = evaluate(model, evalset)
    log("held-out", json.dumps(ev))
    meta = {
        "name": "redactd-latin",
        "architecture": "CRNN: 7 3x3 conv (16-160 ch, BN, ReLU) + (3,1) conv 192 + BiLSTM 2x128 + linear",
        "input": {"name": "x", "shape": ["batch", 3, render.H, "width"], "normalise": "(v/255-0.5)/0.5",
                  "channels": "any order (the model averages them)"},
        "output": {"name": "softmax", "shape": ["batch", "width/8", charset.NUM_CLASSES],
                   "classes": "0 blank, charset.txt in order, space last"},
        "parameters": sum(p.numel() for p in model.parameters()),
        "macs_per_input_column_h48": int(macs_per_column(model)),
        "ppocrv4_macs_per_input_column_h48": 2040000,
        "characters": len(charset.CHARS),
        "fonts": [os.path.basename(p) for p in fonts.files],
        "training": {"steps": step, "batch": args.batch, "seed": args.seed, "lr": args.lr,
                     "mix": {"spacing": args.spacing, "neighbour": args.neighbour, "prose_weight": args.prose_weight,
                             "rare_weight": args.rare_weight, "confusable_weight": args.confusable_weight,
                             "escape_weight": args.escape_weight, "focus_weight": args.focus_weight,
                             "marks_orgs_weight": args.marks_orgs_weight, "visible_weight": args.visible_weight,
                             "bold": args.bold},
                     "cpu_minutes": round(trained_s / 60, 1), "threads": 1, "stopped_by": stopped,
                     "averaged": {"from_step": args.average_from, "every": args.average_every, "snapshots": avg.n}
                     if avg and avg.n else None,
                     "lines_seen": step * args.batch, "started_from": base},
        "heldout_synthetic": ev,
        "data": "synthetic lines (render.py) from names_eu.txt, FakeNameGenerator names, world-cities "
                "(European countries), GLEIF legal forms, UD English and LitBank sentences, presidio "
                "templates, invented addresses, invoice rows, numbers, IBANs, e-mails, dates; nothing "
                "from data/documents (the bench's OCR comparison pages)",
    }
    export(model, args.out, meta, args.data)


if __name__ == "__main__":
    sys.exit(main())
