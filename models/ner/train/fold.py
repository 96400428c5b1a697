"""Rewrites the exported NER graph's character CNN into table look-ups.

The CNN reads each token's first 20 characters: a character embedding
(24 values) and a convolution of width 3 into 64 filters, 20 x 72 x 64
multiply-adds a token, about a fifth of the model's arithmetic. A
filter's response at a position is the sum over the three taps of the
tap's weights times the embedding of the character under it; the
embedding being a table, each tap's product with it is a table too:
T_k[c] = conv.weight[:, :, k] @ cemb[c], 64 values a character id. The
rewritten graph pads the ids by one on each side (id 0, whose embedding
row is zero, as the convolution's zero padding is), gathers T_0, T_1 and
T_2 at the ids shifted by 0, 1 and 2, and adds them and the bias: the same
responses, as [tokens, chars, filters], with no multiplication at run
time. The masked max over the characters that follows is kept, on that
axis. The tables are computed in float64 and rounded once, so a response
differs from the convolution's by float rounding only.

The embedding and the convolution's weights stay in the file as
initializers no node reads (ONNX Runtime drops them when it loads the
graph), so train.py --init-onnx reads the graph back as before.

Usage: python3 fold.py FILE.onnx [OUT.onnx]   (in place without OUT;
train.py's export runs it).
"""

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

PREFIX = "charfold_"


def fold_chars(m):
    """Rewrites m (an onnx.ModelProto this recipe exported) in place;
    returns the number of convolutions folded (0 if already folded)."""
    g = m.graph
    nodes = list(g.node)
    if any(n.name.startswith(PREFIX) for n in nodes):
        return 0
    by_out = {o: n for n in nodes for o in n.output}
    consumers = {}
    for n in nodes:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    inits = {i.name: i for i in g.initializer}
    arr = lambda name: numpy_helper.to_array(inits[name])

    convs = [n for n in nodes if n.op_type == "Conv"]
    if len(convs) != 1:
        raise ValueError("fold: want one Conv, have %d" % len(convs))
    conv = convs[0]
    tr = by_out.get(conv.input[0])
    gat = by_out.get(tr.input[0]) if tr is not None else None
    if tr is None or tr.op_type != "Transpose" or gat is None or gat.op_type != "Gather" or gat.input[0] not in inits:
        raise ValueError("fold: the Conv does not read a transposed embedding Gather")
    if len(consumers[tr.output[0]]) != 1 or len(consumers[gat.output[0]]) != 1:
        raise ValueError("fold: the embedding is read by more than the Conv")
    a = {x.name: helper.get_attribute_value(x) for x in conv.attribute}
    cw, ce = arr(conv.input[1]).astype(np.float64), arr(gat.input[0]).astype(np.float64)
    K = cw.shape[2]
    if a.get("pads") != [1, 1] or K != 3 or a.get("strides", [1]) != [1] or a.get("group", 1) != 1 \
            or a.get("dilations", [1]) != [1]:
        raise ValueError("fold: want a width-3 convolution with padding 1, have %s" % a)
    if np.abs(ce[0]).max() != 0:
        raise ValueError("fold: the embedding's padding row (id 0) is not zero")
    cb = arr(conv.input[2]) if len(conv.input) > 2 else np.zeros(cw.shape[0], np.float32)

    # What reads the responses: Where(mask, -1e4, conv) -> ReduceMax over
    # the characters (axis 2 of [tokens, filters, chars]).
    (where,) = consumers[conv.output[0]]
    if where.op_type != "Where" or where.input[2] != conv.output[0] or len(consumers[where.output[0]]) != 1:
        raise ValueError("fold: the Conv's output is not masked by one Where")
    (rmax,) = consumers[where.output[0]]
    ra = {x.name: helper.get_attribute_value(x) for x in rmax.attribute}
    if rmax.op_type != "ReduceMax" or ra.get("axes") != [2] or ra.get("keepdims") != 0:
        raise ValueError("fold: the masked responses do not go to ReduceMax over axis 2")
    cast = by_out.get(where.input[0])
    unsq = by_out.get(cast.input[0]) if cast is not None and cast.op_type == "Cast" else None
    if unsq is None or unsq.op_type != "Unsqueeze" or len(consumers[unsq.output[0]]) != 1:
        raise ValueError("fold: the Where's mask is not Cast(Unsqueeze(ids == 0))")

    ids = gat.input[1]
    new_inits = [numpy_helper.from_array(np.einsum("ci,oi->co", ce, cw[:, :, k]).astype(np.float32), PREFIX + "T%d" % k)
                 for k in range(K)]
    new_inits += [numpy_helper.from_array(np.array([0, 1, 0, 1], np.int64), PREFIX + "pads"),
                  numpy_helper.from_array(np.array(0, np.int64), PREFIX + "pad_id"),
                  numpy_helper.from_array(np.array([1], np.int64), PREFIX + "axis1"),
                  numpy_helper.from_array(np.array([2], np.int64), PREFIX + "axis2"),
                  numpy_helper.from_array(cb.astype(np.float32), PREFIX + "bias")]
    new = [helper.make_node("Pad", [ids, PREFIX + "pads", PREFIX + "pad_id"], [PREFIX + "ids"], name=PREFIX + "Pad")]
    for k in range(K):
        end = k - K + 1 if k < K - 1 else np.iinfo(np.int64).max
        new_inits += [numpy_helper.from_array(np.array([k], np.int64), PREFIX + "from%d" % k),
                      numpy_helper.from_array(np.array([end], np.int64), PREFIX + "to%d" % k)]
        new.append(helper.make_node("Slice", [PREFIX + "ids", PREFIX + "from%d" % k, PREFIX + "to%d" % k, PREFIX + "axis1"],
                                    [PREFIX + "tap%d" % k], name=PREFIX + "Slice%d" % k))
        new.append(helper.make_node("Gather", [PREFIX + "T%d" % k, PREFIX + "tap%d" % k], [PREFIX + "g%d" % k],
                                    name=PREFIX + "Gather%d" % k))
    acc = PREFIX + "g0"
    for k in range(1, K):
        new.append(helper.make_node("Add", [acc, PREFIX + "g%d" % k], [PREFIX + "sum%d" % k], name=PREFIX + "Add%d" % k))
        acc = PREFIX + "sum%d" % k
    # [tokens, chars, filters]: the responses under the Conv's old name.
    new.append(helper.make_node("Add", [acc, PREFIX + "bias"], [conv.output[0]], name=PREFIX + "Bias"))
    # The mask goes to [tokens, chars, 1], the max over axis 1.
    unsq.input[1] = PREFIX + "axis2"
    for x in rmax.attribute:
        if x.name == "axes":
            x.CopyFrom(helper.make_attribute("axes", [1]))

    drop = {id(conv), id(tr), id(gat)}
    at = min(i for i, n in enumerate(nodes) if id(n) in drop)
    keep = [n for n in nodes if id(n) not in drop]
    order = keep[:at] + new + keep[at:]
    del g.node[:]
    g.node.extend(order)
    g.initializer.extend(new_inits)
    # The Unsqueeze's old axes constant may be read by nothing now.
    used = {i for n in order for i in n.input}
    dead = [n for n in order if n.op_type == "Constant" and n.output[0] not in used]
    for n in dead:
        g.node.remove(n)
    return 1


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else src
    m = onnx.load(src)
    n = fold_chars(m)
    onnx.checker.check_model(m)
    onnx.save(m, out)
    print("fold: %s: %s" % (out, "character CNN folded into tables" if n else "already folded"))


if __name__ == "__main__":
    main()
