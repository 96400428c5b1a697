package fuse

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// The ONNX messages are read with protowire rather than generated code:
// only the fields the rewrites touch are decoded, everything else is kept
// as the encoded bytes it came in and written back unchanged. Field
// numbers are those of onnx.proto (onnx/onnx, IR version 3 and later).

// ModelProto fields, and StringStringEntryProto's.
const (
	modelGraph    = 7
	modelOpsets   = 8
	modelMetadata = 14

	entryKey   = 1
	entryValue = 2
)

// GraphProto fields.
const (
	graphNode        = 1
	graphInitializer = 5
)

// NodeProto fields.
const (
	nodeInput  = 1
	nodeOutput = 2
	nodeName   = 3
	nodeOpType = 4
	nodeAttr   = 5
	nodeDomain = 7
)

// AttributeProto fields and the types used here.
const (
	attrName   = 1
	attrF      = 2
	attrI      = 3
	attrS      = 4
	attrT      = 5
	attrFloats = 7
	attrInts   = 8
	attrType   = 20

	attrTypeFloat  = 1
	attrTypeInt    = 2
	attrTypeString = 3
	attrTypeTensor = 4
	attrTypeGraph  = 5
	attrTypeFloats = 6
	attrTypeInts   = 7
	attrTypeGraphs = 10
)

// TensorProto fields and data types.
const (
	tensorDims      = 1
	tensorDataType  = 2
	tensorFloatData = 4
	tensorInt64Data = 7
	tensorName      = 8
	tensorRawData   = 9

	// DataFloat is TensorProto.FLOAT.
	DataFloat = 1
	// DataInt64 is TensorProto.INT64.
	DataInt64 = 7
)

// OperatorSetIdProto fields.
const (
	opsetDomain  = 1
	opsetVersion = 2
)

// rawField is one field kept as encoded: its number and its complete
// encoding, tag included.
type rawField struct {
	num protowire.Number
	b   []byte
}

// Model is a decoded ModelProto: the graph and the operator set imports,
// with every other field kept as encoded.
type Model struct {
	Graph  *Graph
	Opsets []Opset
	other  []rawField
}

// Opset is one operator set import.
type Opset struct {
	Domain  string
	Version int64
	raw     []byte // the encoding read, while Domain and Version match it
	read    struct {
		domain  string
		version int64
	}
}

// Graph is a decoded GraphProto: nodes and initializers, with inputs,
// outputs, value infos and the rest kept as encoded.
type Graph struct {
	Nodes        []*Node
	Initializers []*Tensor
	other        []rawField
}

// Node is a decoded NodeProto.
type Node struct {
	Inputs, Outputs []string
	Name, OpType    string
	Domain          string
	Attrs           []*Attr
	other           []rawField
}

// Attr is a decoded AttributeProto. raw, when set, is the attribute's
// original encoding, written back as is.
type Attr struct {
	Name   string
	Type   int64
	F      float32
	I      int64
	S      []byte
	T      *Tensor
	Floats []float32
	Ints   []int64
	raw    []byte
}

// Tensor is a decoded TensorProto holding float32 or int64 data.
type Tensor struct {
	Name     string
	Dims     []int64
	DataType int32
	Floats   []float32 // DataFloat
	Int64s   []int64   // DataInt64
	raw      []byte    // original encoding, nil once changed or when new
}

// Size is the number of elements the dims describe.
func (t *Tensor) Size() int64 {
	n := int64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

var errTruncated = errors.New("truncated protobuf")

// fieldIter walks the fields of one message.
type fieldIter struct {
	b   []byte
	num protowire.Number
	typ protowire.Type
	// whole is the field's full encoding; val its value bytes (the
	// payload of a length-delimited field, the varint or fixed bytes
	// otherwise).
	whole, val []byte
	err        error
}

func (it *fieldIter) next() bool {
	if it.err != nil || len(it.b) == 0 {
		return false
	}
	num, typ, n := protowire.ConsumeTag(it.b)
	if n < 0 {
		it.err = protowire.ParseError(n)
		return false
	}
	m := protowire.ConsumeFieldValue(num, typ, it.b[n:])
	if m < 0 {
		it.err = protowire.ParseError(m)
		return false
	}
	it.num, it.typ = num, typ
	it.whole = it.b[:n+m]
	it.val = it.b[n : n+m]
	if typ == protowire.BytesType {
		v, k := protowire.ConsumeBytes(it.val)
		if k < 0 {
			it.err = protowire.ParseError(k)
			return false
		}
		it.val = v
	}
	it.b = it.b[n+m:]
	return true
}

func (it *fieldIter) varint() uint64 {
	if it.typ != protowire.VarintType {
		it.err = fmt.Errorf("field %d: wire type %d, want varint", it.num, it.typ)
		return 0
	}
	v, _ := protowire.ConsumeVarint(it.val)
	return v
}

func (it *fieldIter) bytes() []byte {
	if it.typ != protowire.BytesType {
		it.err = fmt.Errorf("field %d: wire type %d, want bytes", it.num, it.typ)
		return nil
	}
	return it.val
}

func (it *fieldIter) raw() rawField {
	return rawField{num: it.num, b: it.whole}
}

// Decode parses an ONNX model.
func Decode(b []byte) (*Model, error) {
	m := &Model{}
	it := fieldIter{b: b}
	for it.next() {
		switch it.num {
		case modelGraph:
			if m.Graph != nil {
				return nil, errors.New("onnx: model has two graphs")
			}
			g, err := decodeGraph(it.bytes())
			if err != nil {
				return nil, fmt.Errorf("onnx: graph: %w", err)
			}
			m.Graph = g
		case modelOpsets:
			o, err := decodeOpset(it.bytes())
			if err != nil {
				return nil, fmt.Errorf("onnx: opset import: %w", err)
			}
			m.Opsets = append(m.Opsets, o)
		default:
			m.other = append(m.other, it.raw())
		}
	}
	if it.err != nil {
		return nil, fmt.Errorf("onnx: model: %w", it.err)
	}
	if m.Graph == nil {
		return nil, errors.New("onnx: model has no graph")
	}
	return m, nil
}

func decodeOpset(b []byte) (Opset, error) {
	o := Opset{raw: b}
	it := fieldIter{b: b}
	for it.next() {
		switch it.num {
		case opsetDomain:
			o.Domain = string(it.bytes())
		case opsetVersion:
			o.Version = int64(it.varint())
		}
	}
	o.read.domain, o.read.version = o.Domain, o.Version
	return o, it.err
}

func decodeGraph(b []byte) (*Graph, error) {
	g := &Graph{}
	it := fieldIter{b: b}
	for it.next() {
		switch it.num {
		case graphNode:
			n, err := decodeNode(it.bytes())
			if err != nil {
				return nil, fmt.Errorf("node %d: %w", len(g.Nodes), err)
			}
			g.Nodes = append(g.Nodes, n)
		case graphInitializer:
			t, err := decodeTensor(it.bytes())
			if err != nil {
				return nil, fmt.Errorf("initializer %d: %w", len(g.Initializers), err)
			}
			g.Initializers = append(g.Initializers, t)
		default:
			g.other = append(g.other, it.raw())
		}
	}
	return g, it.err
}

func decodeNode(b []byte) (*Node, error) {
	n := &Node{}
	it := fieldIter{b: b}
	for it.next() {
		switch it.num {
		case nodeInput:
			n.Inputs = append(n.Inputs, string(it.bytes()))
		case nodeOutput:
			n.Outputs = append(n.Outputs, string(it.bytes()))
		case nodeName:
			n.Name = string(it.bytes())
		case nodeOpType:
			n.OpType = string(it.bytes())
		case nodeDomain:
			n.Domain = string(it.bytes())
		case nodeAttr:
			a, err := decodeAttr(it.bytes())
			if err != nil {
				return nil, fmt.Errorf("attribute %d: %w", len(n.Attrs), err)
			}
			n.Attrs = append(n.Attrs, a)
		default:
			n.other = append(n.other, it.raw())
		}
	}
	return n, it.err
}

func decodeAttr(b []byte) (*Attr, error) {
	a := &Attr{raw: b}
	it := fieldIter{b: b}
	for it.next() {
		switch it.num {
		case attrName:
			a.Name = string(it.bytes())
		case attrType:
			a.Type = int64(it.varint())
		case attrF:
			if it.typ != protowire.Fixed32Type {
				return nil, fmt.Errorf("attribute f: wire type %d", it.typ)
			}
			a.F = math.Float32frombits(binary.LittleEndian.Uint32(it.val))
		case attrI:
			a.I = int64(it.varint())
		case attrS:
			a.S = it.bytes()
		case attrT:
			t, err := decodeTensor(it.bytes())
			if err != nil {
				return nil, fmt.Errorf("attribute %q: %w", a.Name, err)
			}
			a.T = t
		case attrFloats:
			fs, err := appendFloats(a.Floats, it.typ, it.val)
			if err != nil {
				return nil, err
			}
			a.Floats = fs
		case attrInts:
			is, err := appendInt64s(a.Ints, it.typ, it.val)
			if err != nil {
				return nil, err
			}
			a.Ints = is
		}
	}
	return a, it.err
}

// appendFloats decodes a repeated float field, packed or not.
func appendFloats(dst []float32, typ protowire.Type, val []byte) ([]float32, error) {
	switch typ {
	case protowire.Fixed32Type:
		return append(dst, math.Float32frombits(binary.LittleEndian.Uint32(val))), nil
	case protowire.BytesType:
		if len(val)%4 != 0 {
			return nil, errTruncated
		}
		for i := 0; i < len(val); i += 4 {
			dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(val[i:])))
		}
		return dst, nil
	}
	return nil, fmt.Errorf("repeated float: wire type %d", typ)
}

// appendInt64s decodes a repeated int64 field, packed or not.
func appendInt64s(dst []int64, typ protowire.Type, val []byte) ([]int64, error) {
	switch typ {
	case protowire.VarintType:
		v, _ := protowire.ConsumeVarint(val)
		return append(dst, int64(v)), nil
	case protowire.BytesType:
		for len(val) > 0 {
			v, n := protowire.ConsumeVarint(val)
			if n < 0 {
				return nil, protowire.ParseError(n)
			}
			dst = append(dst, int64(v))
			val = val[n:]
		}
		return dst, nil
	}
	return nil, fmt.Errorf("repeated int64: wire type %d", typ)
}

func decodeTensor(b []byte) (*Tensor, error) {
	t := &Tensor{raw: b}
	var rawData []byte
	hasRaw := false
	it := fieldIter{b: b}
	for it.next() {
		var err error
		switch it.num {
		case tensorDims:
			t.Dims, err = appendInt64s(t.Dims, it.typ, it.val)
		case tensorDataType:
			t.DataType = int32(it.varint())
		case tensorName:
			t.Name = string(it.bytes())
		case tensorRawData:
			rawData, hasRaw = it.bytes(), true
		case tensorFloatData:
			t.Floats, err = appendFloats(t.Floats, it.typ, it.val)
		case tensorInt64Data:
			t.Int64s, err = appendInt64s(t.Int64s, it.typ, it.val)
		case 13, 14: // external_data, data_location
			return nil, fmt.Errorf("tensor %q: external data is not supported", t.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
		}
	}
	if it.err != nil {
		return nil, it.err
	}
	if hasRaw {
		switch t.DataType {
		case DataFloat:
			if len(rawData)%4 != 0 {
				return nil, fmt.Errorf("tensor %q: %d raw bytes of float", t.Name, len(rawData))
			}
			t.Floats = make([]float32, len(rawData)/4)
			for i := range t.Floats {
				t.Floats[i] = math.Float32frombits(binary.LittleEndian.Uint32(rawData[4*i:]))
			}
		case DataInt64:
			if len(rawData)%8 != 0 {
				return nil, fmt.Errorf("tensor %q: %d raw bytes of int64", t.Name, len(rawData))
			}
			t.Int64s = make([]int64, len(rawData)/8)
			for i := range t.Int64s {
				t.Int64s[i] = int64(binary.LittleEndian.Uint64(rawData[8*i:]))
			}
		}
	}
	return t, nil
}

// SetMetadata sets the model's metadata_props entry key to value.
func (m *Model) SetMetadata(key, value string) {
	kept := m.other[:0]
	for _, f := range m.other {
		if f.num == modelMetadata && metadataKey(f.b) == key {
			continue
		}
		kept = append(kept, f)
	}
	e := appendString(nil, entryKey, key)
	e = appendString(e, entryValue, value)
	b := protowire.AppendTag(nil, modelMetadata, protowire.BytesType)
	m.other = append(kept, rawField{num: modelMetadata, b: protowire.AppendBytes(b, e)})
}

// Metadata returns the value of the model's metadata_props entry key.
func (m *Model) Metadata(key string) (string, bool) {
	for _, f := range m.other {
		if f.num != modelMetadata || metadataKey(f.b) != key {
			continue
		}
		it := fieldIter{b: f.b}
		it.next()
		e := fieldIter{b: it.bytes()}
		for e.next() {
			if e.num == entryValue {
				return string(e.bytes()), true
			}
		}
		return "", true
	}
	return "", false
}

// metadataKey returns the key of an encoded metadata_props field.
func metadataKey(field []byte) string {
	it := fieldIter{b: field}
	if !it.next() {
		return ""
	}
	e := fieldIter{b: it.bytes()}
	for e.next() {
		if e.num == entryKey {
			return string(e.bytes())
		}
	}
	return ""
}

// Encode writes the model back out.
func (m *Model) Encode() []byte {
	var b []byte
	graphDone, opsetDone := false, false
	// Keep the original field order: the graph and the opsets go where
	// the first other field after them came, which for paddle2onnx and
	// most exporters means ir_version, producer, graph, opset_import.
	for _, f := range m.other {
		if f.num > modelGraph && !graphDone {
			b = m.appendGraph(b)
			graphDone = true
		}
		if f.num > modelOpsets && !opsetDone {
			b = m.appendOpsets(b)
			opsetDone = true
		}
		b = append(b, f.b...)
	}
	if !graphDone {
		b = m.appendGraph(b)
	}
	if !opsetDone {
		b = m.appendOpsets(b)
	}
	return b
}

func (m *Model) appendGraph(b []byte) []byte {
	b = protowire.AppendTag(b, modelGraph, protowire.BytesType)
	return protowire.AppendBytes(b, m.Graph.encode())
}

func (m *Model) appendOpsets(b []byte) []byte {
	for _, o := range m.Opsets {
		ob := o.raw
		if ob == nil || o.read.domain != o.Domain || o.read.version != o.Version {
			ob = nil
			if o.Domain != "" {
				ob = appendString(ob, opsetDomain, o.Domain)
			}
			ob = protowire.AppendTag(ob, opsetVersion, protowire.VarintType)
			ob = protowire.AppendVarint(ob, uint64(o.Version))
		}
		b = protowire.AppendTag(b, modelOpsets, protowire.BytesType)
		b = protowire.AppendBytes(b, ob)
	}
	return b
}

func (g *Graph) encode() []byte {
	var b []byte
	for _, n := range g.Nodes {
		b = protowire.AppendTag(b, graphNode, protowire.BytesType)
		b = protowire.AppendBytes(b, n.encode())
	}
	for _, f := range g.other {
		b = append(b, f.b...)
	}
	for _, t := range g.Initializers {
		b = protowire.AppendTag(b, graphInitializer, protowire.BytesType)
		b = protowire.AppendBytes(b, t.encode())
	}
	return b
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func (n *Node) encode() []byte {
	var b []byte
	for _, s := range n.Inputs {
		b = appendString(b, nodeInput, s)
	}
	for _, s := range n.Outputs {
		b = appendString(b, nodeOutput, s)
	}
	if n.Name != "" {
		b = appendString(b, nodeName, n.Name)
	}
	b = appendString(b, nodeOpType, n.OpType)
	for _, a := range n.Attrs {
		b = protowire.AppendTag(b, nodeAttr, protowire.BytesType)
		b = protowire.AppendBytes(b, a.encode())
	}
	for _, f := range n.other {
		b = append(b, f.b...)
	}
	if n.Domain != "" {
		b = appendString(b, nodeDomain, n.Domain)
	}
	return b
}

func (a *Attr) encode() []byte {
	if a.raw != nil {
		return a.raw
	}
	b := appendString(nil, attrName, a.Name)
	switch a.Type {
	case attrTypeFloat:
		b = protowire.AppendTag(b, attrF, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.F))
	case attrTypeInt:
		b = protowire.AppendTag(b, attrI, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(a.I))
	case attrTypeString:
		b = protowire.AppendTag(b, attrS, protowire.BytesType)
		b = protowire.AppendBytes(b, a.S)
	case attrTypeTensor:
		b = protowire.AppendTag(b, attrT, protowire.BytesType)
		b = protowire.AppendBytes(b, a.T.encode())
	case attrTypeFloats:
		var p []byte
		for _, f := range a.Floats {
			p = protowire.AppendFixed32(p, math.Float32bits(f))
		}
		b = protowire.AppendTag(b, attrFloats, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	case attrTypeInts:
		var p []byte
		for _, v := range a.Ints {
			p = protowire.AppendVarint(p, uint64(v))
		}
		b = protowire.AppendTag(b, attrInts, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	}
	b = protowire.AppendTag(b, attrType, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(a.Type))
}

// encode writes a changed or new tensor with raw_data.
func (t *Tensor) encode() []byte {
	if t.raw != nil {
		return t.raw
	}
	var b []byte
	if len(t.Dims) > 0 {
		var p []byte
		for _, d := range t.Dims {
			p = protowire.AppendVarint(p, uint64(d))
		}
		b = protowire.AppendTag(b, tensorDims, protowire.BytesType)
		b = protowire.AppendBytes(b, p)
	}
	b = protowire.AppendTag(b, tensorDataType, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t.DataType))
	if t.Name != "" {
		b = appendString(b, tensorName, t.Name)
	}
	var raw []byte
	switch t.DataType {
	case DataFloat:
		raw = make([]byte, 4*len(t.Floats))
		for i, f := range t.Floats {
			binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(f))
		}
	case DataInt64:
		raw = make([]byte, 8*len(t.Int64s))
		for i, v := range t.Int64s {
			binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
		}
	}
	b = protowire.AppendTag(b, tensorRawData, protowire.BytesType)
	return protowire.AppendBytes(b, raw)
}

// FloatTensor returns a new float tensor.
func FloatTensor(name string, dims []int64, data []float32) *Tensor {
	return &Tensor{Name: name, Dims: dims, DataType: DataFloat, Floats: data}
}

// Attr returns the node's attribute called name, or nil.
func (n *Node) Attr(name string) *Attr {
	for _, a := range n.Attrs {
		if a.Name == name {
			return a
		}
	}
	return nil
}
