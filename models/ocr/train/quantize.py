"""Writes an int8 copy of the exported recogniser: its convolutions in
ONNX's QDQ form, which ONNX Runtime runs as integer convolutions (VNNI
where the CPU has it); the LSTM and the output layer stay float.

Usage: python3 quantize.py [--src ../latin/rec.float.onnx] [--out ../latin/rec.onnx]
(train.py runs it after every export.)

- Weights: int8 holding 7-bit values (-63..63), symmetric, one scale per
  output channel. On x86 CPUs without VNNI (AVX2 alone) ONNX Runtime adds
  the products of uint8 activations and int8 weights in pairs into 16
  bits (vpmaddubsw), which saturates with full-range weights (2 x 255 x
  127 > 32767): there a full 8-bit copy read 94.3% of the name gate's
  names against the float model's 98%+. With 7 bits a pair stays under
  2^15 (2 x 255 x 63 = 32130), so every CPU sums exactly and reads the
  same (session 16; models/ocr/README.md).
- Activations: uint8. Every convolution's batch norm is already folded in
  by the export and a ReLU follows it, so its output is quantised with
  zero point 0 and the ReLU dropped (uint8 clamps at 0 as it does); the
  scale is the largest output seen on calibration lines (rendered by the
  recipe's renderer from a seed training never uses), so nothing clips.
  The first convolution's input, the channel mean of the normalised image,
  spans [-1, 1] and gets zero point 128.
- Biases: int32 at the input scale times the weight scale, as integer
  convolutions add them.

Calibration runs the float ONNX graph's convolution stack in torch (the
same weights, read back from the ONNX file), so the script needs only what
train.py needs. On the comparison pages and every name test, the int8
model reads as the float one does (models/ocr/README.md).
"""

import argparse
import os
import random
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import helper, numpy_helper, TensorProto

import render
import train as tr


# Calibration: lines drawn from a seed neither training (18) nor the
# held-out set (1018) uses.
CALIB_LINES = 512
CALIB_SEED = 4242

# WEIGHT_MAX bounds the quantised weights: 7 bits, so that CPUs without
# VNNI sum uint8 x int8 pairs without saturating (see above).
WEIGHT_MAX = 63


def conv_stack(g):
    """The graph's Conv nodes in order, each with the Relu that follows it
    and the MaxPool after that (None where there is none)."""
    consumers = {}
    for n in g.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    out = []
    for n in g.node:
        if n.op_type != "Conv":
            continue
        relu = consumers[n.output[0]]
        assert len(relu) == 1 and relu[0].op_type == "Relu", n.name
        nxt = consumers.get(relu[0].output[0], [])
        pool = nxt[0] if len(nxt) == 1 and nxt[0].op_type == "MaxPool" else None
        out.append((n, relu[0], pool))
    return out


def attrs(n):
    return {a.name: helper.get_attribute_value(a) for a in n.attribute}


def run_convs(x, convs, inits):
    """Runs the convolution stack on x [B,1,48,W] (the channel mean) and
    returns each convolution's input range and ReLU output maximum."""
    seen_in, seen_out = [], []
    h = x
    for n, _, pool in convs:
        a = attrs(n)
        w = torch.from_numpy(inits[n.input[1]].copy())
        b = torch.from_numpy(inits[n.input[2]].copy()) if len(n.input) > 2 else None
        pads = a.get("pads", [0, 0, 0, 0])
        seen_in.append((float(h.min()), float(h.max())))
        h = F.relu(F.conv2d(h, w, b, stride=a.get("strides", [1, 1]), padding=(pads[0], pads[1])))
        seen_out.append(float(h.max()))
        if pool is not None:
            pa = attrs(pool)
            h = F.max_pool2d(h, pa["kernel_shape"], pa["strides"])
    return seen_in, seen_out


def calibrate(convs, inits, data, lines_n, seed):
    """The range of each convolution's input and output over lines_n lines
    drawn as the held-out set is (tr.make_evalset: a fixed mix, whatever
    the stage's flags), from a seed of their own."""
    fonts = render.Fonts()
    lines = tr.make_evalset(data, fonts, lines_n, seed)
    maxin = [(0.0, 0.0)] * len(convs)
    maxout = [0.0] * len(convs)
    with torch.no_grad():
        for i in range(0, len(lines), 16):
            x, _, _, _ = tr.make_batch([(a, t) for a, t, _ in lines[i:i + 16]], random.Random(0), pack=False)
            xi, xo = run_convs(x[:, :1], convs, inits)
            maxin = [(min(a[0], b[0]), max(a[1], b[1])) for a, b in zip(maxin, xi)]
            maxout = [max(a, b) for a, b in zip(maxout, xo)]
    return maxin, maxout


def quantize(src, out, data, lines_n, seed):
    m = onnx.load(src)
    g = m.graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    convs = conv_stack(g)
    maxin, maxout = calibrate(convs, inits, data, lines_n, seed)
    new_nodes, new_inits, drop = [], [], set()

    def const(name, arr):
        new_inits.append(numpy_helper.from_array(arr, name))
        return name

    def qdq(tensor, scale, zp, tag):
        """Q then DQ of tensor; returns the DQ output's name."""
        s = const(tag + "_scale", np.array(scale, np.float32))
        z = const(tag + "_zp", np.array(zp, np.uint8))
        new_nodes.append(helper.make_node("QuantizeLinear", [tensor, s, z], [tag + "_q"], name=tag + "_Q"))
        new_nodes.append(helper.make_node("DequantizeLinear", [tag + "_q", s, z], [tag + "_dq"], name=tag + "_DQ"))
        return tag + "_dq"

    replace_in = {}  # conv node name -> its new inputs (x, weight, bias after their DQs)
    rename = {}      # old tensor -> new tensor (the ReLU outputs)
    for k, (n, relu, _) in enumerate(convs):
        tag = f"q{k}"
        lo, hi = maxin[k]
        if lo < 0:  # the first conv: the normalised image's mean
            s_in, zp_in = max(hi, -lo) * 2 / 255, 128
        else:
            s_in, zp_in = hi / 255, 0
        xin = qdq(n.input[0], s_in, zp_in, tag + "_x")
        w = inits[n.input[1]]
        sw = np.abs(w).reshape(w.shape[0], -1).max(axis=1) / WEIGHT_MAX
        sw = np.maximum(sw, 1e-12).astype(np.float32)
        wq = np.clip(np.round(w / sw[:, None, None, None]), -WEIGHT_MAX, WEIGHT_MAX).astype(np.int8)
        wname = const(tag + "_w", wq)
        wsc = const(tag + "_w_scale", sw)
        wzp = const(tag + "_w_zp", np.zeros_like(sw, np.int8))
        new_nodes.append(helper.make_node("DequantizeLinear", [wname, wsc, wzp], [tag + "_w_dq"], name=tag + "_WDQ", axis=0))
        ins = [xin, tag + "_w_dq"]
        if len(n.input) > 2:
            b = inits[n.input[2]]
            sb = (s_in * sw).astype(np.float32)
            bq = np.round(b / sb).astype(np.int32)
            bname = const(tag + "_b", bq)
            bsc = const(tag + "_b_scale", sb)
            bzp = const(tag + "_b_zp", np.zeros_like(bq))
            new_nodes.append(helper.make_node("DequantizeLinear", [bname, bsc, bzp], [tag + "_b_dq"], name=tag + "_BDQ", axis=0))
            ins.append(tag + "_b_dq")
        replace_in[n.name] = ins
        # The ReLU goes: the conv's output is quantised at zero point 0.
        yout = qdq(n.output[0], maxout[k] / 255, 0, tag + "_y")
        rename[relu.output[0]] = yout
        drop.add(relu.name)
    nodes = [n for n in g.node if n.name not in drop]
    for n in nodes:
        if n.name in replace_in:
            del n.input[:]
            n.input.extend(replace_in[n.name])
    for n in nodes + new_nodes:
        for i, name in enumerate(n.input):
            if name in rename:
                n.input[i] = rename[name]
    # Put each Q/DQ pair right after the node producing its input.
    order = []
    pending = list(new_nodes)
    produced = {i.name for i in g.input} | {i.name for i in g.initializer} | {i.name for i in new_inits}

    def ready(n):
        return all(i == "" or i in produced for i in n.input)

    queue = nodes
    while queue or pending:
        progressed = False
        for lst in (pending, queue):
            for n in list(lst):
                if ready(n):
                    order.append(n)
                    produced.update(n.output)
                    lst.remove(n)
                    progressed = True
        if not progressed:
            raise RuntimeError("quantize: graph has a cycle or a missing input")
    used = {i for n in order for i in n.input}
    keep = [i for i in g.initializer if i.name in used]
    del g.node[:]
    g.node.extend(order)
    del g.initializer[:]
    g.initializer.extend(keep + [i for i in new_inits if i.name in used])
    onnx.checker.check_model(m)
    onnx.save(m, out)
    return {"file": os.path.basename(out), "from": os.path.basename(src), "calibration_lines": lines_n,
            "calibration_seed": seed, "convolutions": len(convs), "weight_max": WEIGHT_MAX,
            "activation_max": [round(v, 4) for v in maxout]}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default=os.path.join(here, "../latin/rec.float.onnx"))
    ap.add_argument("--out", default=os.path.join(here, "../latin/rec.onnx"))
    ap.add_argument("--data", default=os.path.join(here, "../../../../shared/data"))
    ap.add_argument("--lines", type=int, default=CALIB_LINES)
    ap.add_argument("--seed", type=int, default=CALIB_SEED)
    a = ap.parse_args()
    torch.set_num_threads(1)
    info = quantize(a.src, a.out, a.data, a.lines, a.seed)
    print(info)
    print("wrote", a.out, os.path.getsize(a.out), "bytes")


if __name__ == "__main__":
    sys.exit(main())
