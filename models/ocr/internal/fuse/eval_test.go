package fuse

import (
	"fmt"
	"math"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// A reference interpreter for the few ONNX ops the rewrites touch, in
// float64, so the package's tests check the rewritten graphs compute
// what the originals do without ONNX Runtime (models/ocr's tests check
// the real models on ONNX Runtime).

type tensor struct {
	dims []int
	v    []float64
}

func (t tensor) size() int { return len(t.v) }

func newTensor(dims ...int) tensor {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return tensor{dims: dims, v: make([]float64, n)}
}

// broadcast applies f elementwise with numpy broadcasting.
func broadcast(a, b tensor, f func(x, y float64) float64) tensor {
	r := max(len(a.dims), len(b.dims))
	pad := func(d []int) []int {
		out := make([]int, r)
		for i := range out {
			out[i] = 1
		}
		copy(out[r-len(d):], d)
		return out
	}
	ad, bd := pad(a.dims), pad(b.dims)
	od := make([]int, r)
	for i := range od {
		od[i] = max(ad[i], bd[i])
	}
	out := newTensor(od...)
	idx := make([]int, r)
	for k := range out.v {
		rem := k
		for i := r - 1; i >= 0; i-- {
			idx[i] = rem % od[i]
			rem /= od[i]
		}
		ai, bi := 0, 0
		for i := 0; i < r; i++ {
			ai = ai*ad[i] + idx[i]%ad[i]
			bi = bi*bd[i] + idx[i]%bd[i]
		}
		out.v[k] = f(a.v[ai], b.v[bi])
	}
	return out
}

func toTensor(t *Tensor) tensor {
	d := make([]int, len(t.Dims))
	for i, x := range t.Dims {
		d[i] = int(x)
	}
	out := newTensor(d...)
	for i, f := range t.Floats {
		out.v[i] = float64(f)
	}
	return out
}

// eval runs the graph on the named inputs and returns every value.
func eval(t *testing.T, m *Model, inputs map[string]tensor) map[string]tensor {
	t.Helper()
	vals := map[string]tensor{}
	for k, v := range inputs {
		vals[k] = v
	}
	for _, init := range m.Graph.Initializers {
		vals[init.Name] = toTensor(init)
	}
	opset := int64(0)
	for _, o := range m.Opsets {
		if o.Domain == "" {
			opset = o.Version
		}
	}
	for _, n := range m.Graph.Nodes {
		in := make([]tensor, len(n.Inputs))
		for i, s := range n.Inputs {
			if s == "" {
				continue
			}
			v, ok := vals[s]
			if !ok {
				t.Fatalf("%s %s: input %q not computed (graph out of order?)", n.OpType, n.Name, s)
			}
			in[i] = v
		}
		var out tensor
		switch n.OpType {
		case "Constant":
			out = toTensor(n.Attr("value").T)
		case "Add":
			out = broadcast(in[0], in[1], func(x, y float64) float64 { return x + y })
		case "Sub":
			out = broadcast(in[0], in[1], func(x, y float64) float64 { return x - y })
		case "Mul":
			out = broadcast(in[0], in[1], func(x, y float64) float64 { return x * y })
		case "Div":
			out = broadcast(in[0], in[1], func(x, y float64) float64 { return x / y })
		case "Clip":
			var lo, hi float64
			if opset < 11 {
				lo, hi = float64(floatAttr(n, "min", 0)), float64(floatAttr(n, "max", 0))
			} else {
				lo, hi = in[1].v[0], in[2].v[0]
			}
			out = newTensor(in[0].dims...)
			for i, x := range in[0].v {
				out.v[i] = min(max(x, lo), hi)
			}
		case "HardSigmoid":
			a, b := float64(floatAttr(n, "alpha", 0.2)), float64(floatAttr(n, "beta", 0.5))
			out = newTensor(in[0].dims...)
			for i, x := range in[0].v {
				out.v[i] = min(max(a*x+b, 0), 1)
			}
		case "BatchNormalization":
			eps := float64(floatAttr(n, "epsilon", 1e-5))
			c := in[0].dims[1]
			plane := in[0].size() / in[0].dims[0] / c
			out = newTensor(in[0].dims...)
			for i, x := range in[0].v {
				ch := i / plane % c
				out.v[i] = (x-in[3].v[ch])/math.Sqrt(in[4].v[ch]+eps)*in[1].v[ch] + in[2].v[ch]
			}
		case "MatMul":
			out = matMul(in[0], in[1])
		case "Softmax":
			out = softmaxLast(in[0])
		case "Conv":
			out = conv2d(n, in)
		case "ConvTranspose":
			out = convTranspose2d(n, in)
		default:
			t.Fatalf("eval: op %s not supported", n.OpType)
		}
		vals[n.Outputs[0]] = out
	}
	return vals
}

// matMul multiplies a [..., k] tensor by a [k, n] matrix.
func matMul(a, w tensor) tensor {
	k, n := w.dims[0], w.dims[1]
	dims := append(append([]int(nil), a.dims[:len(a.dims)-1]...), n)
	out := newTensor(dims...)
	for r := range a.size() / k {
		for j := range n {
			var s float64
			for i := range k {
				s += a.v[r*k+i] * w.v[i*n+j]
			}
			out.v[r*n+j] = s
		}
	}
	return out
}

// softmaxLast is a softmax over the last axis.
func softmaxLast(a tensor) tensor {
	n := a.dims[len(a.dims)-1]
	out := newTensor(a.dims...)
	for r := range a.size() / n {
		row, o := a.v[r*n:(r+1)*n], out.v[r*n:(r+1)*n]
		m := math.Inf(-1)
		for _, x := range row {
			m = max(m, x)
		}
		var s float64
		for i, x := range row {
			o[i] = math.Exp(x - m)
			s += o[i]
		}
		for i := range o {
			o[i] /= s
		}
	}
	return out
}

func conv2d(n *Node, in []tensor) tensor {
	x, w := in[0], in[1]
	g := int(intAttr(n, "group", 1))
	pads := intsAttr(n, "pads", []int64{0, 0, 0, 0})
	strides := intsAttr(n, "strides", []int64{1, 1})
	N, C, H, W := x.dims[0], x.dims[1], x.dims[2], x.dims[3]
	O, cg, kh, kw := w.dims[0], w.dims[1], w.dims[2], w.dims[3]
	sh, sw := int(strides[0]), int(strides[1])
	pt, pl, pb, pr := int(pads[0]), int(pads[1]), int(pads[2]), int(pads[3])
	oh, ow := (H+pt+pb-kh)/sh+1, (W+pl+pr-kw)/sw+1
	out := newTensor(N, O, oh, ow)
	for b := 0; b < N; b++ {
		for o := 0; o < O; o++ {
			grp := o / (O / g)
			for y := 0; y < oh; y++ {
				for xx := 0; xx < ow; xx++ {
					var s float64
					if len(in) > 2 && in[2].v != nil {
						s = in[2].v[o]
					}
					for ci := 0; ci < cg; ci++ {
						c := grp*cg + ci
						for i := 0; i < kh; i++ {
							for j := 0; j < kw; j++ {
								yy, xi := y*sh-pt+i, xx*sw-pl+j
								if yy < 0 || yy >= H || xi < 0 || xi >= W {
									continue
								}
								s += w.v[((o*cg+ci)*kh+i)*kw+j] * x.v[((b*C+c)*H+yy)*W+xi]
							}
						}
					}
					out.v[((b*O+o)*oh+y)*ow+xx] = s
				}
			}
		}
	}
	return out
}

func convTranspose2d(n *Node, in []tensor) tensor {
	x, w := in[0], in[1]
	strides := intsAttr(n, "strides", []int64{1, 1})
	N, C, H, W := x.dims[0], x.dims[1], x.dims[2], x.dims[3]
	og, kh, kw := w.dims[1], w.dims[2], w.dims[3]
	g := int(intAttr(n, "group", 1))
	O := og * g
	sh, sw := int(strides[0]), int(strides[1])
	oh, ow := (H-1)*sh+kh, (W-1)*sw+kw
	out := newTensor(N, O, oh, ow)
	for b := 0; b < N; b++ {
		for c := 0; c < C; c++ {
			grp := c / (C / g)
			for j := 0; j < og; j++ {
				o := grp*og + j
				for y := 0; y < H; y++ {
					for xx := 0; xx < W; xx++ {
						v := x.v[((b*C+c)*H+y)*W+xx]
						for i := 0; i < kh; i++ {
							for k := 0; k < kw; k++ {
								out.v[((b*O+o)*oh+y*sh+i)*ow+xx*sw+k] += v * w.v[((c*og+j)*kh+i)*kw+k]
							}
						}
					}
				}
			}
		}
	}
	if len(in) > 2 && in[2].v != nil {
		plane := oh * ow
		for i := range out.v {
			out.v[i] += in[2].v[i/plane%O]
		}
	}
	return out
}

// builder makes small models for the tests.
type builder struct {
	m    *Model
	seed uint64
}

func newBuilder(opset int64) *builder {
	return &builder{m: &Model{Graph: &Graph{}, Opsets: []Opset{{Version: opset}}}, seed: 1}
}

// rand returns deterministic values in [-1, 1).
func (b *builder) rand(n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		b.seed = b.seed*6364136223846793005 + 1442695040888963407
		out[i] = float32(b.seed>>40)/float32(1<<24)*2 - 1
	}
	return out
}

// constant adds a Constant node, as paddle2onnx writes weights.
func (b *builder) constant(name string, dims []int64, data []float32) string {
	b.m.Graph.Nodes = append(b.m.Graph.Nodes, &Node{
		Outputs: []string{name}, OpType: "Constant", Name: name,
		Attrs: []*Attr{{Name: "value", Type: attrTypeTensor, T: FloatTensor(name, dims, data)}},
	})
	return name
}

func (b *builder) node(op string, ins []string, out string, attrs ...*Attr) string {
	b.m.Graph.Nodes = append(b.m.Graph.Nodes, &Node{Inputs: ins, Outputs: []string{out}, OpType: op, Name: out, Attrs: attrs})
	return out
}

// conv adds a Conv with random weights and bias.
func (b *builder) conv(x, out string, o, cg, k, group, pad int) string {
	w := b.constant(out+".w", []int64{int64(o), int64(cg), int64(k), int64(k)}, b.rand(o*cg*k*k))
	bias := b.constant(out+".b", []int64{int64(o)}, b.rand(o))
	p := int64(pad)
	return b.node("Conv", []string{x, w, bias}, out,
		intsAttrNew("kernel_shape", int64(k), int64(k)), intsAttrNew("pads", p, p, p, p), intAttrNew("group", int64(group)))
}

func (b *builder) scalar(name string, v float32) string {
	return b.constant(name, []int64{1}, []float32{v})
}

func (b *builder) rank0(name string, v float32) string {
	return b.constant(name, nil, []float32{v})
}

// hardSwish adds x*clip(x+3,0,6)/6 as paddle2onnx exports it (opset 9).
func (b *builder) hardSwish(x, out string) string {
	a := b.node("Add", []string{x, b.rank0(out+".3", 3)}, out+".add")
	c := b.node("Clip", []string{a}, out+".clip", floatAttrNew("min", 0), floatAttrNew("max", 6))
	m := b.node("Mul", []string{x, c}, out+".mul")
	return b.node("Div", []string{m, b.rank0(out+".6", 6)}, out)
}

// model returns the built model, encoded and decoded again, with graph
// input x and the given outputs.
func (b *builder) model(t *testing.T, outputs ...string) *Model {
	t.Helper()
	vi := func(field protowire.Number, name string) rawField {
		e := appendString(nil, valueInfoName, name)
		f := protowire.AppendTag(nil, field, protowire.BytesType)
		return rawField{num: field, b: protowire.AppendBytes(f, e)}
	}
	b.m.Graph.other = append(b.m.Graph.other, vi(11, "x"))
	for _, o := range outputs {
		b.m.Graph.other = append(b.m.Graph.other, vi(graphOutput, o))
	}
	m, err := Decode(b.m.Encode())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func opCount(m *Model) map[string]int {
	c := map[string]int{}
	for _, n := range m.Graph.Nodes {
		c[n.OpType]++
	}
	return c
}

// checkSame rewrites m and compares every output before and after on a
// random input.
func checkSame(t *testing.T, m *Model, x tensor, outputs ...string) (Stats, *Model) {
	t.Helper()
	src := m.Encode()
	r := newBuilder(0)
	r.seed = 7
	for i, v := range r.rand(x.size()) {
		x.v[i] = 4 * float64(v) // beyond the hard-swish knees at +-3
	}
	want := eval(t, m, map[string]tensor{"x": x})
	fused, st, err := File(src)
	if err != nil {
		t.Fatal(err)
	}
	fm, err := Decode(fused)
	if err != nil {
		t.Fatal(err)
	}
	got := eval(t, fm, map[string]tensor{"x": x})
	for _, o := range outputs {
		g, w := got[o], want[o]
		if fmt.Sprint(g.dims) != fmt.Sprint(w.dims) {
			t.Fatalf("%s: shape %v, want %v", o, g.dims, w.dims)
		}
		var d, scale float64
		for i := range w.v {
			d = max(d, math.Abs(g.v[i]-w.v[i]))
			scale = max(scale, math.Abs(w.v[i]))
		}
		if d > 1e-5*max(scale, 1) {
			t.Errorf("%s: rewritten graph differs by %.3g (values up to %.3g)", o, d, scale)
		}
	}
	return st, fm
}
