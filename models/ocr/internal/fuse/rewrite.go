package fuse

import (
	"fmt"
	"math"
)

// conv is a Conv or ConvTranspose node with constant float weights and,
// when present, a constant bias.
type conv struct {
	n         *Node
	transpose bool
	w         []float32
	wDims     []int64
	b         []float32 // nil when the node has no bias
	out       int       // output channels
	in        int       // input channels
	group     int
	k         int  // kernel elements (kh*kw)
	zeroPads  bool // Conv only: no padding of any kind
}

// asConv returns n as a conv, or false when it is not a plain Conv or
// ConvTranspose with constant 4-D float weights.
func (e *editor) asConv(n *Node) (conv, bool) {
	if (n.OpType != "Conv" && n.OpType != "ConvTranspose") || n.Domain != "" ||
		len(n.Inputs) < 2 || len(n.Inputs) > 3 || len(n.Outputs) != 1 {
		return conv{}, false
	}
	w, ok := e.floatConst(n.Inputs[1])
	if !ok || len(w.Dims) != 4 {
		return conv{}, false
	}
	c := conv{
		n: n, transpose: n.OpType == "ConvTranspose", w: w.Floats, wDims: w.Dims,
		k: int(w.Dims[2] * w.Dims[3]), group: int(intAttr(n, "group", 1)),
	}
	if c.group < 1 {
		return conv{}, false
	}
	if c.transpose {
		// Weights [in, out/group, kh, kw].
		c.in, c.out = int(w.Dims[0]), int(w.Dims[1])*c.group
	} else {
		// Weights [out, in/group, kh, kw].
		c.out, c.in = int(w.Dims[0]), int(w.Dims[1])*c.group
	}
	if c.out%c.group != 0 || c.in%c.group != 0 {
		return conv{}, false
	}
	if len(n.Inputs) == 3 && n.Inputs[2] != "" {
		b, ok := e.floatConst(n.Inputs[2])
		if !ok || len(b.Floats) != c.out {
			return conv{}, false
		}
		c.b = b.Floats
	}
	c.zeroPads = !c.transpose
	for _, p := range intsAttr(n, "pads", nil) {
		if p != 0 {
			c.zeroPads = false
		}
	}
	if ap := stringAttr(n, "auto_pad", "NOTSET"); ap != "NOTSET" && ap != "VALID" {
		c.zeroPads = false
	}
	return c, true
}

// outChan is the output channel weight element i contributes to.
func (c conv) outChan(i int) int {
	if !c.transpose {
		return i / (len(c.w) / c.out)
	}
	perOut := c.out / c.group
	ci := i / (perOut * c.k)
	j := i / c.k % perOut
	return ci/(c.in/c.group)*perOut + j
}

// setParams gives the conv new weights and bias as fresh initializers.
func (e *editor) setParams(c conv, w, b []float32) {
	c.n.Inputs[1] = e.addConst(c.n.Inputs[1], c.wDims, w)
	bias := e.addConst(c.n.Outputs[0]+"_bias", []int64{int64(c.out)}, b)
	if len(c.n.Inputs) == 3 {
		c.n.Inputs[2] = bias
	} else {
		c.n.Inputs = append(c.n.Inputs, bias)
	}
}

// affine reads node n, one input of which is x (an NCHW tensor of c
// channels), as x*scale+shift per channel: Mul, Add, Sub and Div by a
// constant that broadcasts per channel, or an inference
// BatchNormalization with constant parameters.
func (e *editor) affine(n *Node, x string, c int) (scale, shift []float64, ok bool) {
	if n.Domain != "" || len(n.Outputs) != 1 {
		return nil, nil, false
	}
	if n.OpType == "BatchNormalization" {
		return e.batchNorm(n, x, c)
	}
	other, idx, ok := otherInput(n, x)
	if !ok {
		return nil, nil, false
	}
	v, ok := e.channelVector(other, c)
	if !ok {
		return nil, nil, false
	}
	scale = make([]float64, c)
	shift = make([]float64, c)
	for i := range scale {
		scale[i] = 1
	}
	switch {
	case n.OpType == "Mul":
		for i, s := range v {
			scale[i] = float64(s)
		}
	case n.OpType == "Div" && idx == 1:
		for i, s := range v {
			if s == 0 {
				return nil, nil, false
			}
			scale[i] = 1 / float64(s)
		}
	case n.OpType == "Add":
		for i, s := range v {
			shift[i] = float64(s)
		}
	case n.OpType == "Sub" && idx == 1:
		for i, s := range v {
			shift[i] = -float64(s)
		}
	case n.OpType == "Sub" && idx == 0:
		for i, s := range v {
			scale[i], shift[i] = -1, float64(s)
		}
	default:
		return nil, nil, false
	}
	return scale, shift, true
}

// batchNorm reads an inference BatchNormalization of x as an affine map:
// scale = gamma/sqrt(var+eps), shift = beta-mean*scale.
func (e *editor) batchNorm(n *Node, x string, c int) (scale, shift []float64, ok bool) {
	if len(n.Inputs) != 5 || n.Inputs[0] != x || intAttr(n, "training_mode", 0) != 0 {
		return nil, nil, false
	}
	var p [4][]float32
	for i := range p {
		t, ok := e.floatConst(n.Inputs[i+1])
		if !ok || len(t.Floats) != c || len(t.Dims) != 1 {
			return nil, nil, false
		}
		p[i] = t.Floats
	}
	eps := float64(floatAttr(n, "epsilon", 1e-5))
	scale = make([]float64, c)
	shift = make([]float64, c)
	for i := range scale {
		scale[i] = float64(p[0][i]) / math.Sqrt(float64(p[3][i])+eps)
		shift[i] = float64(p[1][i]) - float64(float64(p[2][i])*scale[i])
	}
	return scale, shift, true
}

// foldConvAffine folds the per-channel affine ops (Mul, Add, Sub, Div by
// constants, BatchNormalization) that follow a Conv or ConvTranspose
// into its weights and bias: conv(x)*s+t is a conv with weights w*s and
// bias b*s+t. Exact up to float rounding. It returns the number of nodes
// folded.
func (e *editor) foldConvAffine() int {
	folded := 0
	e.live(func(n *Node) {
		c, ok := e.asConv(n)
		if !ok {
			return
		}
		scale := make([]float64, c.out)
		shift := make([]float64, c.out)
		for i := range scale {
			scale[i] = 1
		}
		chain := 0
		for {
			next := e.soleConsumer(n.Outputs[0])
			if next == nil {
				break
			}
			s, t, ok := e.affine(next, n.Outputs[0], c.out)
			if !ok {
				break
			}
			for i := range scale {
				scale[i] *= s[i]
				shift[i] = float64(shift[i]*s[i]) + t[i]
			}
			n.Outputs[0] = next.Outputs[0]
			e.remove(next)
			chain++
		}
		if chain == 0 {
			return
		}
		w := make([]float32, len(c.w))
		for i, v := range c.w {
			w[i] = float32(float64(v) * scale[c.outChan(i)])
		}
		b := make([]float32, c.out)
		for o := range b {
			var b0 float64
			if c.b != nil {
				b0 = float64(c.b[o])
			}
			b[o] = float32(float64(b0*scale[o]) + shift[o])
		}
		e.setParams(c, w, b)
		folded += chain
	})
	return folded
}

// foldAffineConv folds a per-channel affine map x*s+t (at most one Mul
// and one Add by constants) whose only readers are convolutions into
// those convolutions: conv(x*s+t) has weights w*s and bias b+sum(w*t).
// That is exact (up to rounding) only when the convolution pads nothing,
// as its padding would stand for t, not zero. Readers that pad take only
// the scale, which is exact (when no s is zero): x*s+t = (x+t/s)*s, and
// x+t/s is kept as a depthwise 1x1 conv with bias t/s, which ONNX Runtime
// runs in its blocked layout beside the convs around it (an Add there
// would convert the tensor back and forth). It returns the number of
// nodes removed.
func (e *editor) foldAffineConv() int {
	removed := 0
	e.live(func(k *Node) {
		if e.dead[k] {
			return
		}
		c, ok := e.asConv(k)
		if !ok || c.transpose {
			return
		}
		x := k.Inputs[0]
		scale := make([]float64, c.in)
		shift := make([]float64, c.in)
		for i := range scale {
			scale[i] = 1
		}
		var chain []*Node
		cur := x
		for len(chain) < 2 {
			p := e.producer(cur)
			if p == nil || (p.OpType != "Mul" && p.OpType != "Add") || len(p.Inputs) != 2 {
				break
			}
			in, rank4 := "", false
			for _, s := range p.Inputs {
				if t, isConst := e.consts[s]; !isConst {
					in = s
				} else {
					// x is 4-D (a conv reads it); with a constant of
					// lower rank, so is the input the conv will read.
					rank4 = len(t.Dims) >= 4
				}
			}
			if in == "" || rank4 || (len(chain) > 0 && e.soleConsumer(cur) == nil) {
				break
			}
			s, t, ok := e.affine(p, in, c.in)
			if !ok {
				break
			}
			// x = prev(p(in)): compose p under the map found so far.
			for i := range scale {
				shift[i] = float64(scale[i]*t[i]) + shift[i]
				scale[i] *= s[i]
			}
			chain = append(chain, p)
			cur = in
		}
		if len(chain) == 0 || e.outputs[x] {
			return
		}
		// Every reader of x must be a conv reading it as data.
		var convs []conv
		allZeroPad := true
		for _, r := range e.consumers(x) {
			rc, ok := e.asConv(r)
			if !ok || rc.transpose || r.Inputs[0] != x || rc.in != c.in {
				return
			}
			for _, in := range r.Inputs[1:] {
				if in == x {
					return
				}
			}
			convs = append(convs, rc)
			allZeroPad = allZeroPad && rc.zeroPads
		}
		h := cur
		if !allZeroPad {
			for _, s := range scale {
				if s == 0 {
					return
				}
			}
			hasShift := false
			for _, t := range shift {
				hasShift = hasShift || t != 0
			}
			if hasShift {
				h = e.addBias(chain[0], h, scale, shift)
				removed--
			}
			for i := range shift {
				shift[i] = 0
			}
		}
		for _, rc := range convs {
			e.foldInput(rc, scale, shift)
			rc.n.Inputs[0] = h
		}
		for _, p := range chain {
			if len(e.consumers(p.Outputs[0])) == 0 {
				e.remove(p)
				removed++
			}
		}
	})
	return removed
}

// foldInput folds an affine map of its input into a conv.
func (e *editor) foldInput(c conv, scale, shift []float64) {
	cg := c.in / c.group
	perGroup := c.out / c.group
	w := make([]float32, len(c.w))
	b := make([]float32, c.out)
	for o := 0; o < c.out; o++ {
		var acc float64
		if c.b != nil {
			acc = float64(c.b[o])
		}
		for ci := 0; ci < cg; ci++ {
			ch := o/perGroup*cg + ci
			for j := 0; j < c.k; j++ {
				i := (o*cg+ci)*c.k + j
				v := float64(c.w[i])
				w[i] = float32(v * scale[ch])
				acc += float64(v * shift[ch])
			}
		}
		b[o] = float32(acc)
	}
	e.setParams(c, w, b)
}

// addBias inserts, before node at, h+shift/scale per channel as a
// depthwise 1x1 conv, and returns its output.
func (e *editor) addBias(at *Node, h string, scale, shift []float64) string {
	ch := len(scale)
	ones := make([]float32, ch)
	t := make([]float32, ch)
	for i := range t {
		ones[i] = 1
		t[i] = float32(shift[i] / scale[i])
	}
	out := e.newName(h + "_shift")
	w := e.addConst(out+"_w", []int64{int64(ch), 1, 1, 1}, ones)
	b := e.addConst(out+"_b", []int64{int64(ch)}, t)
	e.insertBefore(at, &Node{
		Inputs: []string{h, w, b}, Outputs: []string{out}, Name: out, OpType: "Conv",
		Attrs: []*Attr{intsAttrNew("kernel_shape", 1, 1), intAttrNew("group", int64(ch))},
	})
	return out
}

// producer returns the live node writing name.
func (e *editor) producer(name string) *Node {
	var p *Node
	e.live(func(n *Node) {
		for _, o := range n.Outputs {
			if o == name {
				p = n
			}
		}
	})
	return p
}

func intsAttrNew(name string, v ...int64) *Attr {
	return &Attr{Name: name, Type: attrTypeInts, Ints: v}
}

func intAttrNew(name string, v int64) *Attr {
	return &Attr{Name: name, Type: attrTypeInt, I: v}
}

func floatAttrNew(name string, v float32) *Attr {
	return &Attr{Name: name, Type: attrTypeFloat, F: v}
}

// clipBounds returns a Clip node's bounds when both are known constants.
func (e *editor) clipBounds(n *Node) (lo, hi float32, ok bool) {
	if e.opset < 11 {
		if n.Attr("min") == nil || n.Attr("max") == nil {
			return 0, 0, false
		}
		return floatAttr(n, "min", 0), floatAttr(n, "max", 0), true
	}
	if len(n.Inputs) != 3 {
		return 0, 0, false
	}
	lo, ok1 := e.scalar(n.Inputs[1])
	hi, ok2 := e.scalar(n.Inputs[2])
	return lo, hi, ok1 && ok2
}

// hardSwish replaces x*clip(x+3,0,6)/6, exported as Add, Clip, Mul and
// Div, by x*HardSigmoid(x) with alpha 1/6 and beta 1/2. ONNX Runtime
// fuses a Conv followed by that HardSigmoid and Mul into one blocked
// (NCHWc) convolution with a HardSwish activation, where the four
// elementwise ops each made a pass over the tensor, with layout
// conversions around them. (The HardSwish operator itself, opset 14, is
// fused the same way and measured no faster, and these models are opset
// 9 and 11.) It returns the number of hard-swishes rewritten.
func (e *editor) hardSwish() int {
	n := 0
	e.live(func(add *Node) {
		if e.dead[add] || add.OpType != "Add" || add.Domain != "" || len(add.Inputs) != 2 {
			return
		}
		var x string
		switch {
		case e.isScalar(add.Inputs[1], 3):
			x = add.Inputs[0]
		case e.isScalar(add.Inputs[0], 3):
			x = add.Inputs[1]
		default:
			return
		}
		clip := e.soleConsumer(add.Outputs[0])
		if clip == nil || clip.OpType != "Clip" || clip.Domain != "" || clip.Inputs[0] != add.Outputs[0] {
			return
		}
		if lo, hi, ok := e.clipBounds(clip); !ok || lo != 0 || hi != 6 {
			return
		}
		mul := e.soleConsumer(clip.Outputs[0])
		if mul == nil || mul.OpType != "Mul" || mul.Domain != "" {
			return
		}
		if o, _, ok := otherInput(mul, clip.Outputs[0]); !ok || o != x {
			return
		}
		div := e.soleConsumer(mul.Outputs[0])
		if div == nil || div.Domain != "" || len(div.Inputs) != 2 || div.Inputs[0] != mul.Outputs[0] {
			return
		}
		if !(div.OpType == "Div" && e.isScalar(div.Inputs[1], 6)) {
			return
		}
		out := div.Outputs[0]
		hs := e.newName(x + "_hsig")
		e.insertBefore(div,
			&Node{Inputs: []string{x}, Outputs: []string{hs}, Name: hs, OpType: "HardSigmoid",
				Attrs: []*Attr{floatAttrNew("alpha", float32(1.0/6)), floatAttrNew("beta", 0.5)}},
			&Node{Inputs: []string{x, hs}, Outputs: []string{out}, Name: out, OpType: "Mul"},
		)
		for _, d := range []*Node{add, clip, mul, div} {
			e.remove(d)
		}
		n++
	})
	return n
}

func (e *editor) isScalar(name string, v float32) bool {
	s, ok := e.scalar(name)
	return ok && s == v
}

// dropIdentityMul removes Mul by a scalar constant 1 (paddle2onnx writes
// swish with beta 1 as Sigmoid(x*1)*x).
func (e *editor) dropIdentityMul() int {
	n := 0
	e.live(func(m *Node) {
		if m.OpType != "Mul" || m.Domain != "" || len(m.Inputs) != 2 || e.outputs[m.Outputs[0]] {
			return
		}
		var x string
		switch {
		case e.isRank0(m.Inputs[1], 1):
			x = m.Inputs[0]
		case e.isRank0(m.Inputs[0], 1):
			x = m.Inputs[1]
		default:
			return
		}
		e.rename(m.Outputs[0], x)
		e.remove(m)
		n++
	})
	return n
}

// isRank0 reports whether name is a rank-0 float constant equal to v (a
// shaped constant could broadcast the other input up a rank).
func (e *editor) isRank0(name string, v float32) bool {
	t, ok := e.floatConst(name)
	return ok && len(t.Dims) == 0 && len(t.Floats) == 1 && t.Floats[0] == v
}

// residualScale rewrites x + x*h as x*(1+h), where h broadcasts against x
// (the squeeze-and-excitation blocks of the detector's neck add their
// input back): the full-size Add becomes an Add on h, which is [N,C,1,1]
// there. Exact up to rounding.
func (e *editor) residualScale() int {
	n := 0
	one := ""
	e.live(func(add *Node) {
		if e.dead[add] || add.OpType != "Add" || add.Domain != "" || len(add.Inputs) != 2 {
			return
		}
		for i := 0; i < 2; i++ {
			x, m := add.Inputs[i], add.Inputs[1-i]
			mul := e.producer(m)
			if mul == nil || mul.OpType != "Mul" || mul.Domain != "" || e.soleConsumer(m) != add {
				continue
			}
			h, _, ok := otherInput(mul, x)
			if !ok || h == x {
				continue
			}
			if _, isConst := e.consts[h]; isConst {
				continue // an affine map, folded elsewhere
			}
			if one == "" {
				one = e.addConst("one", nil, []float32{1})
			}
			h1 := e.newName(h + "_plus1")
			e.insertBefore(add,
				&Node{Inputs: []string{h, one}, Outputs: []string{h1}, Name: h1, OpType: "Add"},
				&Node{Inputs: []string{x, h1}, Outputs: []string{add.Outputs[0]}, Name: add.Outputs[0], OpType: "Mul"},
			)
			e.remove(add)
			e.remove(mul)
			n++
			return
		}
	})
	return n
}

// Stats counts what a rewrite did.
type Stats struct {
	NodesBefore, NodesAfter int
	IdentityMul             int // Mul by 1 removed
	ConvAffine              int // affine ops folded into the conv before them
	HardSwish               int // hard-swishes rewritten
	AffineConv              int // affine ops folded into the conv after them
	Residual                int // x+x*h rewritten as x*(1+h)
}

func (s Stats) String() string {
	return fmt.Sprintf("nodes %d -> %d: %d affine ops folded into the conv before them, %d into the conv after them, "+
		"%d hard-swishes rewritten, %d x+x*h as x*(1+h), %d Mul by 1 removed",
		s.NodesBefore, s.NodesAfter, s.ConvAffine, s.AffineConv, s.HardSwish, s.Residual, s.IdentityMul)
}

// Rewrite applies every rewrite to m in place.
func Rewrite(m *Model) (Stats, error) {
	if m.Graph == nil {
		return Stats{}, fmt.Errorf("fuse: model has no graph")
	}
	// Values read inside subgraphs (If, Loop, Scan) are not tracked.
	for _, n := range m.Graph.Nodes {
		for _, a := range n.Attrs {
			if a.Type == attrTypeGraph || a.Type == attrTypeGraphs {
				return Stats{}, fmt.Errorf("fuse: node %s (%s) has a subgraph: not supported", n.Name, n.OpType)
			}
		}
	}
	e := newEditor(m)
	st := Stats{NodesBefore: len(m.Graph.Nodes)}
	for _, pass := range []struct {
		count *int
		run   func() int
	}{
		{&st.IdentityMul, e.dropIdentityMul},
		{&st.ConvAffine, e.foldConvAffine},
		{&st.HardSwish, e.hardSwish},
		{&st.AffineConv, e.foldAffineConv},
		{&st.Residual, e.residualScale},
	} {
		*pass.count = pass.run()
		e.compact()
	}
	st.NodesAfter = len(m.Graph.Nodes)
	// Apache-2.0 section 4(b): modified files carry a notice saying so.
	m.SetMetadata(NoticeKey, "Modified by redactd (models/ocr/internal/fuse): "+
		"affine ops folded into the convolutions, hard-swish written as x*HardSigmoid(x); "+
		"same outputs as the original up to float rounding. "+st.String())
	return st, nil
}

// NoticeKey is the metadata_props key of the notice Rewrite leaves in
// the model.
const NoticeKey = "redactd.modified"
