package fuse

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// KeepClasses narrows a classifier's output to the classes keep, in that
// order: output class i of the new model is class keep[i] of the old.
//
// The model must end as the PaddleOCR recogniser does, in a linear layer
// and a softmax over its last axis: MatMul(x, W) + b -> Softmax -> graph
// output, with W [features, classes] and b [classes] constant. Only the
// kept columns of W and b remain, so the layer costs len(keep)/classes
// of what it did and the output is that much smaller. The softmax is
// then taken over the kept classes alone: their probabilities are the
// old ones renormalised, and the most probable kept class is the same
// as before whenever the old winner was kept.
func KeepClasses(m *Model, keep []int) error {
	if m.Graph == nil {
		return fmt.Errorf("fuse: model has no graph")
	}
	e := newEditor(m)
	if len(e.outputs) != 1 {
		return fmt.Errorf("fuse: keep classes: model has %d outputs, want 1", len(e.outputs))
	}
	var out string
	for o := range e.outputs {
		out = o
	}
	sm := e.producer(out)
	if sm == nil || sm.OpType != "Softmax" || sm.Domain != "" || len(sm.Inputs) != 1 {
		return fmt.Errorf("fuse: keep classes: output %q is not written by a Softmax", out)
	}
	// The recogniser's output is [batch, steps, classes]: the last axis is
	// -1 or 2. Softmax's default axis is 1 before opset 13, -1 since.
	def := int64(1)
	if e.opset >= 13 {
		def = -1
	}
	if ax := intAttr(sm, "axis", def); ax != -1 && ax != 2 {
		return fmt.Errorf("fuse: keep classes: softmax over axis %d, want the last", ax)
	}
	add := e.producer(sm.Inputs[0])
	if add == nil || add.OpType != "Add" || add.Domain != "" || e.soleConsumer(add.Outputs[0]) != sm {
		return fmt.Errorf("fuse: keep classes: softmax input is not a bias Add read only by it")
	}
	var mm *Node
	var bias *Tensor
	for i, in := range add.Inputs {
		if t, ok := e.floatConst(in); ok && len(t.Dims) == 1 {
			other := add.Inputs[1-i]
			if p := e.producer(other); p != nil && p.OpType == "MatMul" && p.Domain == "" && e.soleConsumer(other) == add {
				mm, bias = p, t
			}
		}
	}
	if mm == nil || len(mm.Inputs) != 2 {
		return fmt.Errorf("fuse: keep classes: the bias Add does not follow a MatMul")
	}
	w, ok := e.floatConst(mm.Inputs[1])
	if !ok || len(w.Dims) != 2 {
		return fmt.Errorf("fuse: keep classes: MatMul weights are not a constant matrix")
	}
	rows, classes := int(w.Dims[0]), int(w.Dims[1])
	if int(bias.Dims[0]) != classes {
		return fmt.Errorf("fuse: keep classes: bias has %d values for %d classes", bias.Dims[0], classes)
	}
	if err := checkKeep(keep, classes); err != nil {
		return err
	}
	k := len(keep)
	nw := make([]float32, 0, rows*k)
	for r := range rows {
		row := w.Floats[r*classes : (r+1)*classes]
		for _, c := range keep {
			nw = append(nw, row[c])
		}
	}
	nb := make([]float32, k)
	for i, c := range keep {
		nb[i] = bias.Floats[c]
	}
	// Fresh constants: the old ones may be read elsewhere; compact drops
	// them when they are not.
	mm.Inputs[1] = e.addConst(mm.Inputs[1], []int64{int64(rows), int64(k)}, nw)
	for i, in := range add.Inputs {
		if in != mm.Outputs[0] {
			add.Inputs[i] = e.addConst(in, []int64{int64(k)}, nb)
		}
	}
	e.compact()
	return m.Graph.setOutputLastDim(out, int64(classes), int64(k))
}

func checkKeep(keep []int, classes int) error {
	if len(keep) == 0 {
		return fmt.Errorf("fuse: keep classes: none kept")
	}
	seen := make(map[int]bool, len(keep))
	for _, c := range keep {
		if c < 0 || c >= classes {
			return fmt.Errorf("fuse: keep classes: class %d out of range [0, %d)", c, classes)
		}
		if seen[c] {
			return fmt.Errorf("fuse: keep classes: class %d kept twice", c)
		}
		seen[c] = true
	}
	return nil
}

// ONNX field numbers on the path from a graph output to its dimensions:
// ValueInfoProto.type, TypeProto.tensor_type, TypeProto.Tensor.shape,
// TensorShapeProto.dim, TensorShapeProto.Dimension.dim_value.
const (
	valueInfoType    = 2
	typeTensorType   = 1
	tensorTypeShape  = 2
	shapeDim         = 1
	dimensionValueNo = 1
)

// setOutputLastDim rewrites the declared shape of graph output name so
// that a last dimension of was becomes now. A declared shape without a
// fixed last dimension stays as it is; any other fixed value is an error.
func (g *Graph) setOutputLastDim(name string, was, now int64) error {
	for i, f := range g.other {
		if f.num != graphOutput || valueInfoNameOf(f.b) != name {
			continue
		}
		it := fieldIter{b: f.b}
		if !it.next() {
			return fmt.Errorf("fuse: output %q: %v", name, it.err)
		}
		var err error
		vi := mapField(it.val, valueInfoType, func(tp []byte, _ bool) []byte {
			return mapField(tp, typeTensorType, func(tt []byte, _ bool) []byte {
				return mapField(tt, tensorTypeShape, func(sh []byte, _ bool) []byte {
					return mapField(sh, shapeDim, func(d []byte, last bool) []byte {
						if !last {
							return d
						}
						v, ok := dimValue(d)
						switch {
						case !ok:
							return d
						case v != was:
							err = fmt.Errorf("fuse: output %q declares %d classes, the layer has %d", name, v, was)
							return d
						}
						return protowire.AppendVarint(protowire.AppendTag(nil, dimensionValueNo, protowire.VarintType), uint64(now))
					})
				})
			})
		})
		if err != nil {
			return err
		}
		b := protowire.AppendTag(nil, graphOutput, protowire.BytesType)
		g.other[i] = rawField{num: graphOutput, b: protowire.AppendBytes(b, vi)}
		return nil
	}
	return nil
}

// mapField copies message msg, replacing the payload of each
// length-delimited field num by f(payload, last), where last is true for
// the field's last occurrence. Malformed input is copied unchanged.
func mapField(msg []byte, num protowire.Number, f func(b []byte, last bool) []byte) []byte {
	n, it := 0, fieldIter{b: msg}
	for it.next() {
		if it.num == num && it.typ == protowire.BytesType {
			n++
		}
	}
	if it.err != nil || n == 0 {
		return msg
	}
	var out []byte
	it = fieldIter{b: msg}
	for i := 0; it.next(); {
		if it.num != num || it.typ != protowire.BytesType {
			out = append(out, it.whole...)
			continue
		}
		i++
		out = protowire.AppendTag(out, num, protowire.BytesType)
		out = protowire.AppendBytes(out, f(it.val, i == n))
	}
	return out
}

// dimValue returns a Dimension's fixed dim_value, if it has one.
func dimValue(d []byte) (int64, bool) {
	it := fieldIter{b: d}
	for it.next() {
		if it.num == dimensionValueNo && it.typ == protowire.VarintType {
			return int64(it.varint()), true
		}
	}
	return 0, false
}
