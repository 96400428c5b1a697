package fuse

import (
	"fmt"
	"strconv"
)

// GraphProto.input and output, and ValueInfoProto.name.
const (
	graphInput    = 11
	graphOutput   = 12
	valueInfoName = 1
)

// editor holds the indexes the rewrites need over a graph being changed.
// Nodes are removed by marking them dead; compact drops them.
type editor struct {
	g       *Graph
	opset   int64 // default-domain opset version
	consts  map[string]*Tensor
	outputs map[string]bool // graph outputs: never renamed or removed
	names   map[string]bool // every value name in use
	dead    map[*Node]bool
	seq     int
}

func newEditor(m *Model) *editor {
	e := &editor{
		g:       m.Graph,
		consts:  map[string]*Tensor{},
		outputs: map[string]bool{},
		names:   map[string]bool{},
		dead:    map[*Node]bool{},
	}
	for _, o := range m.Opsets {
		if o.Domain == "" || o.Domain == "ai.onnx" {
			e.opset = o.Version
		}
	}
	for _, t := range e.g.Initializers {
		e.consts[t.Name] = t
		e.names[t.Name] = true
	}
	for _, n := range e.g.Nodes {
		for _, s := range n.Outputs {
			e.names[s] = true
		}
		if n.OpType == "Constant" && n.Domain == "" && len(n.Outputs) == 1 {
			if a := n.Attr("value"); a != nil && a.T != nil {
				e.consts[n.Outputs[0]] = a.T
			}
		}
	}
	for _, f := range e.g.other {
		if f.num != graphInput && f.num != graphOutput {
			continue
		}
		name := valueInfoNameOf(f.b)
		e.names[name] = true
		if f.num == graphOutput {
			e.outputs[name] = true
		} else {
			// An initializer listed as a graph input is a default the
			// caller may override: not a constant.
			delete(e.consts, name)
		}
	}
	return e
}

// valueInfoNameOf returns the name of an encoded ValueInfoProto field.
func valueInfoNameOf(field []byte) string {
	it := fieldIter{b: field}
	if !it.next() {
		return ""
	}
	vi := fieldIter{b: it.bytes()}
	for vi.next() {
		if vi.num == valueInfoName {
			return string(vi.bytes())
		}
	}
	return ""
}

// live calls f for every node not removed.
func (e *editor) live(f func(n *Node)) {
	for _, n := range e.g.Nodes {
		if !e.dead[n] {
			f(n)
		}
	}
}

// consumers returns the live nodes reading value name.
func (e *editor) consumers(name string) []*Node {
	var out []*Node
	e.live(func(n *Node) {
		for _, in := range n.Inputs {
			if in == name {
				out = append(out, n)
				return
			}
		}
	})
	return out
}

// soleConsumer returns the one node reading name, when name is read once
// and is not a graph output.
func (e *editor) soleConsumer(name string) *Node {
	if e.outputs[name] {
		return nil
	}
	c := e.consumers(name)
	if len(c) != 1 {
		return nil
	}
	uses := 0
	for _, in := range c[0].Inputs {
		if in == name {
			uses++
		}
	}
	if uses != 1 {
		return nil
	}
	return c[0]
}

// floatConst returns the float constant called name.
func (e *editor) floatConst(name string) (*Tensor, bool) {
	t, ok := e.consts[name]
	if !ok || t.DataType != DataFloat || int64(len(t.Floats)) != t.Size() {
		return nil, false
	}
	return t, true
}

// scalar returns the value of a float constant with one element.
func (e *editor) scalar(name string) (float32, bool) {
	t, ok := e.floatConst(name)
	if !ok || len(t.Floats) != 1 {
		return 0, false
	}
	return t.Floats[0], true
}

// channelVector returns a constant that broadcasts against an NCHW tensor
// of c channels as one value per channel, without changing its shape: a
// scalar, or c values shaped [c,1,1] or [1,c,1,1].
func (e *editor) channelVector(name string, c int) ([]float32, bool) {
	t, ok := e.floatConst(name)
	if !ok || len(t.Dims) > 4 {
		return nil, false
	}
	if len(t.Floats) == 1 {
		v := make([]float32, c)
		for i := range v {
			v[i] = t.Floats[0]
		}
		return v, true
	}
	if len(t.Floats) != c {
		return nil, false
	}
	switch len(t.Dims) {
	case 3:
		if t.Dims[1] != 1 || t.Dims[2] != 1 {
			return nil, false
		}
	case 4:
		if t.Dims[0] != 1 || t.Dims[2] != 1 || t.Dims[3] != 1 {
			return nil, false
		}
	default:
		return nil, false
	}
	return append([]float32(nil), t.Floats...), true
}

// otherInput returns the input of a two-input node that is not name, and
// its index.
func otherInput(n *Node, name string) (string, int, bool) {
	if len(n.Inputs) != 2 {
		return "", 0, false
	}
	switch name {
	case n.Inputs[0]:
		return n.Inputs[1], 1, true
	case n.Inputs[1]:
		return n.Inputs[0], 0, true
	}
	return "", 0, false
}

// newName returns an unused value name built from base.
func (e *editor) newName(base string) string {
	for {
		e.seq++
		s := base + "_fused_" + strconv.Itoa(e.seq)
		if !e.names[s] {
			e.names[s] = true
			return s
		}
	}
}

// addConst adds a float initializer and returns its name.
func (e *editor) addConst(base string, dims []int64, data []float32) string {
	name := e.newName(base)
	t := FloatTensor(name, dims, data)
	e.g.Initializers = append(e.g.Initializers, t)
	e.consts[name] = t
	return name
}

// remove marks n dead. Its output names stay reserved.
func (e *editor) remove(n *Node) { e.dead[n] = true }

// insertBefore adds nodes just before at, keeping the node list in
// topological order when their inputs are defined before at.
func (e *editor) insertBefore(at *Node, nodes ...*Node) {
	for i, n := range e.g.Nodes {
		if n == at {
			out := make([]*Node, 0, len(e.g.Nodes)+len(nodes))
			out = append(out, e.g.Nodes[:i]...)
			out = append(out, nodes...)
			e.g.Nodes = append(out, e.g.Nodes[i:]...)
			return
		}
	}
	panic(fmt.Sprintf("fuse: node %q not in graph", at.Name))
}

// rename makes every reader of old read new instead.
func (e *editor) rename(old, new string) {
	e.live(func(n *Node) {
		for i, in := range n.Inputs {
			if in == old {
				n.Inputs[i] = new
			}
		}
	})
}

// compact drops dead nodes, then nodes whose outputs nobody reads, then
// initializers nobody reads.
func (e *editor) compact() {
	for {
		used := map[string]bool{}
		e.live(func(n *Node) {
			for _, in := range n.Inputs {
				used[in] = true
			}
		})
		changed := false
		e.live(func(n *Node) {
			for _, o := range n.Outputs {
				if o != "" && (used[o] || e.outputs[o]) {
					return
				}
			}
			e.dead[n] = true
			changed = true
		})
		if !changed {
			kept := e.g.Nodes[:0]
			for _, n := range e.g.Nodes {
				if !e.dead[n] {
					kept = append(kept, n)
				}
			}
			e.g.Nodes = kept
			inits := e.g.Initializers[:0]
			for _, t := range e.g.Initializers {
				if used[t.Name] || e.outputs[t.Name] {
					inits = append(inits, t)
				} else {
					delete(e.consts, t.Name)
				}
			}
			e.g.Initializers = inits
			e.dead = map[*Node]bool{}
			return
		}
	}
}

// intsAttr returns an INTS attribute, or def when absent.
func intsAttr(n *Node, name string, def []int64) []int64 {
	if a := n.Attr(name); a != nil {
		return a.Ints
	}
	return def
}

// intAttr returns an INT attribute, or def when absent.
func intAttr(n *Node, name string, def int64) int64 {
	if a := n.Attr(name); a != nil {
		return a.I
	}
	return def
}

// floatAttr returns a FLOAT attribute, or def when absent.
func floatAttr(n *Node, name string, def float32) float32 {
	if a := n.Attr(name); a != nil {
		return a.F
	}
	return def
}

func stringAttr(n *Node, name, def string) string {
	if a := n.Attr(name); a != nil {
		return string(a.S)
	}
	return def
}
