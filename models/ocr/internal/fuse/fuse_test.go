package fuse

import (
	"bytes"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// block builds one PP-LCNetV3 block as exported: conv, learnable affine,
// decomposed hard-swish, learnable affine, for each (k, pad) conv in
// turn, channels fixed.
func block(b *builder, x string, c int, convs [][2]int) string {
	for i, kp := range convs {
		name := "c" + string(rune('0'+i))
		k, pad := kp[0], kp[1]
		group, cg := 1, c
		if k > 1 {
			group, cg = c, 1 // depthwise, as in the models
		}
		y := b.conv(x, name, c, cg, k, group, pad)
		y = b.node("Mul", []string{b.scalar(name+".s1", 1.7), y}, name+".mul1")
		y = b.node("Add", []string{y, b.scalar(name+".b1", 0.4)}, name+".add1")
		y = b.hardSwish(y, name+".hs")
		y = b.node("Mul", []string{b.scalar(name+".s2", 0.6), y}, name+".mul2")
		x = b.node("Add", []string{y, b.scalar(name+".b2", -0.3)}, name+".add2")
	}
	return x
}

func TestRewriteLCNetBlocks(t *testing.T) {
	b := newBuilder(9)
	// depthwise 3x3 (padded) -> pointwise -> depthwise 5x5 (padded) ->
	// pointwise: both kinds of folding into the following conv.
	out := block(b, "x", 4, [][2]int{{3, 1}, {1, 0}, {5, 2}, {1, 0}})
	m := b.model(t, out)
	st, fm := checkSame(t, m, newTensor(2, 4, 7, 9), out)
	if st.HardSwish != 4 || st.ConvAffine != 8 {
		t.Errorf("stats %v: want 4 hard-swishes and 8 affine ops folded into the conv before them", st)
	}
	// Left: the 4 convs and a depthwise 1x1 shift before the padded 5x5
	// (the padded 3x3 reads the graph input), 4 HardSigmoid and Mul, and
	// the last affine map (a graph output).
	ops := opCount(fm)
	if ops["Clip"] != 0 || ops["Div"] != 0 || ops["HardSigmoid"] != 4 || ops["Conv"] != 5 {
		t.Errorf("ops after rewrite: %v", ops)
	}
	if v, ok := fm.Metadata(NoticeKey); !ok || !strings.Contains(v, "Modified by redactd") {
		t.Errorf("no modification notice: %q", v)
	}
}

func TestRewriteKeepsSharedValues(t *testing.T) {
	b := newBuilder(11)
	// m = x*2 is read by a conv but is also a graph output, and n = x+1
	// by a conv and a HardSigmoid: neither map can go into its conv.
	m1 := b.node("Mul", []string{"x", b.scalar("s", 2)}, "m")
	z := b.conv(m1, "d", 3, 3, 1, 1, 0)
	n1 := b.node("Add", []string{"x", b.scalar("one", 1)}, "n")
	h := b.node("HardSigmoid", []string{n1}, "h")
	y := b.conv(n1, "e", 3, 3, 1, 1, 0)
	m := b.model(t, z, m1, h, y)
	st, fm := checkSame(t, m, newTensor(1, 3, 4, 5), z, m1, h, y)
	if st.AffineConv != 0 {
		t.Errorf("folded a map whose result is read elsewhere: %v", st)
	}
	if ops := opCount(fm); ops["Mul"] != 1 || ops["Add"] != 1 {
		t.Errorf("ops after rewrite: %v", ops)
	}
}

func TestRewriteNeckAndHead(t *testing.T) {
	b := newBuilder(11)
	// Squeeze-and-excitation with the input added back: x + x*h.
	y := b.conv("x", "c", 4, 4, 3, 1, 1)
	hs := b.node("HardSigmoid", []string{b.conv(y, "se", 4, 4, 1, 1, 0)}, "hs", floatAttrNew("alpha", 0.2), floatAttrNew("beta", 0.5))
	mul := b.node("Mul", []string{y, hs}, "xh")
	r := b.node("Add", []string{y, mul}, "res")
	// ConvTranspose, bias Add, BatchNormalization (the DB head).
	w := b.constant("ct.w", []int64{4, 2, 2, 2}, b.rand(32))
	ct := b.node("ConvTranspose", []string{r, w}, "ct", intsAttrNew("kernel_shape", 2, 2), intsAttrNew("strides", 2, 2))
	ct = b.node("Add", []string{ct, b.constant("ct.b", []int64{1, 2, 1, 1}, []float32{0.1, -0.2})}, "ct.add")
	bn := b.node("BatchNormalization", []string{ct,
		b.constant("bn.s", []int64{2}, []float32{1.5, 0.5}), b.constant("bn.b", []int64{2}, []float32{0.1, 0.2}),
		b.constant("bn.m", []int64{2}, []float32{0.3, -0.1}), b.constant("bn.v", []int64{2}, []float32{2, 0.7})}, "bn")
	m := b.model(t, bn)
	st, fm := checkSame(t, m, newTensor(1, 4, 5, 6), bn)
	if st.Residual != 1 || st.ConvAffine != 2 {
		t.Errorf("stats %v", st)
	}
	if ops := opCount(fm); ops["BatchNormalization"] != 0 || ops["ConvTranspose"] != 1 {
		t.Errorf("ops after rewrite: %v", ops)
	}
}

func TestRewriteSwishMulByOne(t *testing.T) {
	b := newBuilder(9)
	y := b.conv("x", "c", 2, 2, 1, 1, 0)
	one := b.node("Mul", []string{y, b.rank0("one", 1)}, "m1")
	// A [1]-shaped 1 could broadcast a rank-0 input up a rank: kept.
	keep := b.node("Mul", []string{one, b.scalar("one1", 1)}, "m2")
	m := b.model(t, keep)
	st, _ := checkSame(t, m, newTensor(1, 2, 3, 3), keep)
	if st.IdentityMul != 1 {
		t.Errorf("stats %v", st)
	}
}

func TestDecodeEncodeRoundTrip(t *testing.T) {
	b := newBuilder(9)
	out := block(b, "x", 2, [][2]int{{1, 0}})
	m := b.model(t, out)
	enc := m.Encode()
	m2, err := Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m2.Encode(), enc) {
		t.Error("decode-encode changed an unmodified model")
	}
	if _, err := Decode([]byte{0x3a, 0x05, 1, 2}); err == nil {
		t.Error("truncated model decoded")
	}
	if _, err := Decode(nil); err == nil {
		t.Error("empty model decoded")
	}
}

func TestRewriteIsDeterministic(t *testing.T) {
	build := func() []byte {
		b := newBuilder(9)
		b.model(t, block(b, "x", 4, [][2]int{{3, 1}, {1, 0}}))
		out, _, err := File(b.m.Encode())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if !bytes.Equal(build(), build()) {
		t.Error("two rewrites of the same model differ")
	}
}

func TestRewriteRefusesSubgraphs(t *testing.T) {
	b := newBuilder(11)
	b.node("If", []string{"x"}, "y", &Attr{Name: "then_branch", Type: attrTypeGraph})
	if _, err := Rewrite(b.model(t, "y")); err == nil || !strings.Contains(err.Error(), "subgraph") {
		t.Errorf("model with a subgraph: err = %v", err)
	}
}

func TestRewriteLeavesOverridableInitializers(t *testing.T) {
	b := newBuilder(11)
	y := b.conv("x", "c", 2, 2, 1, 1, 0)
	// s is an initializer and a graph input: callers may feed another s.
	b.m.Graph.Initializers = append(b.m.Graph.Initializers, FloatTensor("s", []int64{1}, []float32{3}))
	z := b.node("Mul", []string{y, "s"}, "z")
	m := b.model(t, z)
	e := appendString(nil, valueInfoName, "s")
	f := protowire.AppendTag(nil, graphInput, protowire.BytesType)
	m.Graph.other = append(m.Graph.other, rawField{num: graphInput, b: protowire.AppendBytes(f, e)})
	st, err := Rewrite(m)
	if err != nil {
		t.Fatal(err)
	}
	if st.ConvAffine != 0 || opCount(m)["Mul"] != 1 {
		t.Errorf("folded a graph input: %v", st)
	}
}
