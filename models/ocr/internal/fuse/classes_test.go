package fuse

import (
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// head builds x [1, steps, feat] -> MatMul -> Add bias -> Softmax, the
// recogniser's CTC head, with the output declared [batch, steps, classes].
func head(t *testing.T, feat, classes int, opset int64, axis *int64) (*Model, string) {
	b := newBuilder(opset)
	w := b.constant("w", []int64{int64(feat), int64(classes)}, b.rand(feat*classes))
	mm := b.node("MatMul", []string{"x", w}, "mm")
	add := b.node("Add", []string{mm, b.constant("bias", []int64{int64(classes)}, b.rand(classes))}, "logits")
	var attrs []*Attr
	if axis != nil {
		attrs = append(attrs, intAttrNew("axis", *axis))
	}
	out := b.node("Softmax", []string{add}, "probs", attrs...)
	m := b.model(t, out)
	declareOutput(m, out, -1, -1, int64(classes))
	return m, out
}

// declareOutput gives graph output name a float tensor type of the given
// shape (-1: a named, unknown dimension).
func declareOutput(m *Model, name string, dims ...int64) {
	var shape []byte
	for _, d := range dims {
		var dim []byte
		if d < 0 {
			dim = appendString(nil, 2, "n")
		} else {
			dim = protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), uint64(d))
		}
		shape = protowire.AppendBytes(protowire.AppendTag(shape, shapeDim, protowire.BytesType), dim)
	}
	tt := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 1) // FLOAT
	tt = protowire.AppendBytes(protowire.AppendTag(tt, tensorTypeShape, protowire.BytesType), shape)
	tp := protowire.AppendBytes(protowire.AppendTag(nil, typeTensorType, protowire.BytesType), tt)
	vi := appendString(nil, valueInfoName, name)
	vi = protowire.AppendBytes(protowire.AppendTag(vi, valueInfoType, protowire.BytesType), tp)
	for i, f := range m.Graph.other {
		if f.num == graphOutput && valueInfoNameOf(f.b) == name {
			b := protowire.AppendTag(nil, graphOutput, protowire.BytesType)
			m.Graph.other[i] = rawField{num: graphOutput, b: protowire.AppendBytes(b, vi)}
		}
	}
}

// declaredDims reads back the dims declared for graph output name (-1 for
// a dimension without a fixed value).
func declaredDims(t *testing.T, m *Model, name string) []int64 {
	t.Helper()
	var dims []int64
	for _, f := range m.Graph.other {
		if f.num != graphOutput || valueInfoNameOf(f.b) != name {
			continue
		}
		it := fieldIter{b: f.b}
		if !it.next() {
			t.Fatal(it.err)
		}
		mapField(it.val, valueInfoType, func(tp []byte, _ bool) []byte {
			return mapField(tp, typeTensorType, func(tt []byte, _ bool) []byte {
				return mapField(tt, tensorTypeShape, func(sh []byte, _ bool) []byte {
					return mapField(sh, shapeDim, func(d []byte, _ bool) []byte {
						v, ok := dimValue(d)
						if !ok {
							v = -1
						}
						dims = append(dims, v)
						return d
					})
				})
			})
		})
	}
	return dims
}

func TestKeepClasses(t *testing.T) {
	const feat, classes, steps = 6, 9, 5
	axis := int64(2)
	m, out := head(t, feat, classes, 11, &axis)
	x := newTensor(1, steps, feat)
	for i, v := range newBuilder(0).rand(x.size()) {
		x.v[i] = 3 * float64(v)
	}
	before := eval(t, m, map[string]tensor{"x": x})
	keep := []int{0, 2, 3, 7, 8}
	fm, err := Decode(m.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if err := KeepClasses(fm, keep); err != nil {
		t.Fatal(err)
	}
	fm, err = Decode(fm.Encode())
	if err != nil {
		t.Fatal(err)
	}
	got := eval(t, fm, map[string]tensor{"x": x})[out]
	if want := []int{1, steps, len(keep)}; len(got.dims) != 3 || got.dims[0] != want[0] || got.dims[1] != want[1] || got.dims[2] != want[2] {
		t.Fatalf("output dims %v, want %v", got.dims, want)
	}
	// Each step: the kept classes' old probabilities, renormalised.
	p := before[out]
	for s := range steps {
		var sum float64
		for _, c := range keep {
			sum += p.v[s*classes+c]
		}
		for i, c := range keep {
			want := p.v[s*classes+c] / sum
			if g := got.v[s*len(keep)+i]; math.Abs(g-want) > 1e-6 {
				t.Errorf("step %d class %d: %.7f, want %.7f", s, c, g, want)
			}
		}
	}
	if d := declaredDims(t, fm, out); len(d) != 3 || d[2] != int64(len(keep)) || d[0] != -1 {
		t.Errorf("declared output dims %v, want [-1 -1 %d]", d, len(keep))
	}
	if ops := opCount(fm); ops["Constant"] != 0 || len(fm.Graph.Initializers) != 2 {
		t.Errorf("old weights left behind: ops %v, %d initializers", ops, len(fm.Graph.Initializers))
	}
}

func TestKeepClassesRefuses(t *testing.T) {
	axis1 := int64(1)
	for _, c := range []struct {
		name  string
		opset int64
		axis  *int64
		keep  []int
		want  string
	}{
		{"out of range", 13, nil, []int{0, 9}, "out of range"},
		{"twice", 13, nil, []int{1, 1}, "twice"},
		{"none", 13, nil, nil, "none kept"},
		{"softmax over axis 1", 13, &axis1, []int{0}, "axis 1"},
		{"opset 11 default axis", 11, nil, []int{0}, "axis 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, _ := head(t, 3, 9, c.opset, c.axis)
			err := KeepClasses(m, c.keep)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err %v, want %q", err, c.want)
			}
		})
	}
	// A graph that does not end in MatMul, Add, Softmax.
	b := newBuilder(13)
	out := b.node("Softmax", []string{b.conv("x", "c", 4, 4, 1, 1, 0)}, "p")
	if err := KeepClasses(b.model(t, out), []int{0}); err == nil || !strings.Contains(err.Error(), "bias Add") {
		t.Errorf("conv head: err %v", err)
	}
}
