// Package visual finds personal data a reader sees without reading: faces
// (pigo's facefinder cascade) and codes (gozxing's QR, Data Matrix, Aztec
// and linear readers) in a page's pixels. It works on 8-bit gray pixels
// and returns boxes in those pixels; the pipeline decides which parts of
// a page are looked at and what is masked (engine/pipeline/visual.go).
package visual

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"math"
	"sort"

	pigo "github.com/esimov/pigo/core"
)

// Gray is an 8-bit gray image: W x H pixels, rows of Stride bytes.
type Gray struct {
	Pix          []byte
	W, H, Stride int
}

// Box is an axis-aligned box in pixels, X0 <= X1, Y0 <= Y1.
type Box struct{ X0, Y0, X1, Y1 int }

// facefinder is pigo's face cascade, copied byte for byte from the module
// github.com/esimov/pigo v1.4.6 (cascade/facefinder, MIT licence,
// deploy/THIRD_PARTY.md) and embedded, so the appliance downloads nothing.
//
//go:embed facefinder
var facefinder []byte

// FacefinderSHA256 is the cascade's digest in pigo v1.4.6.
const FacefinderSHA256 = "d8014993e7298c7b1865d1f8b855d6dbf4ec5c808bf879e2091ab6837abf90cd"

// Faces finds faces with pigo's cascade. It is safe for concurrent use.
type Faces struct {
	cascade *pigo.Pigo
	// MinSize is the smallest face, in pixels (the cascade's square,
	// brows to chin), looked for.
	MinSize int
	// MinScore is the clustered detection's score below which a face is
	// not taken (pigo's examples use 5; measured in docs/behaviour.md).
	MinScore float32
}

// NewFaces unpacks the embedded cascade.
func NewFaces() (*Faces, error) {
	sum := sha256.Sum256(facefinder)
	if hex.EncodeToString(sum[:]) != FacefinderSHA256 {
		return nil, fmt.Errorf("visual: the embedded face cascade is not pigo v1.4.6's")
	}
	c, err := pigo.NewPigo().Unpack(facefinder)
	if err != nil {
		return nil, fmt.Errorf("visual: face cascade: %w", err)
	}
	return &Faces{cascade: c, MinSize: 24, MinScore: 8}, nil
}

// faceAngles are the in-plane rotations tried, as pigo takes them (a
// fraction of a turn): upright, and 15 degrees either way, which with the
// cascade's own tolerance covers heads tilted up to about 25 degrees.
var faceAngles = []float64{0, 15.0 / 360, 1 - 15.0/360}

// tiltedMinSize is the smallest face, in pixels, looked for tilted: most
// of a pass's work is at its smallest sizes, and a tilted head under 40 px
// on a document is rare.
const tiltedMinSize = 40

// Face is a detected face: the cascade's square (Core) and the head around
// it (Head: hair, ears and chin), both in the image's pixels.
type Face struct {
	Core, Head Box
	Score      float32
}

// maxAspect bounds the sides of the square Find pads an image to: a long
// strip is looked at in windows maxAspect times as long as it is wide,
// overlapping by half, so the padding never holds more than maxAspect
// times the strip's pixels.
const maxAspect = 4

// Find returns the faces in g, heads clipped to g.
func (f *Faces) Find(g Gray) []Face {
	if g.W < f.MinSize || g.H < f.MinSize {
		return nil
	}
	if short := min(g.W, g.H); max(g.W, g.H) > maxAspect*short {
		var out []Face
		win, step := maxAspect*short, maxAspect*short/2
		for o := 0; ; o += step {
			var b Box
			if g.W > g.H {
				b = Box{min(o, g.W-win), 0, min(o, g.W-win) + win, g.H}
			} else {
				b = Box{0, min(o, g.H-win), g.W, min(o, g.H-win) + win}
			}
			for _, fc := range f.find(g.Sub(b)) {
				fc.Core = Box{fc.Core.X0 + b.X0, fc.Core.Y0 + b.Y0, fc.Core.X1 + b.X0, fc.Core.Y1 + b.Y0}
				fc.Head = clip(HeadOf(fc.Core), g.W, g.H)
				if !overlapsAny(out, fc.Core) {
					out = append(out, fc)
				}
			}
			if o+win >= max(g.W, g.H) {
				return out
			}
		}
	}
	return f.find(g)
}

func overlapsAny(fs []Face, b Box) bool {
	for _, f := range fs {
		if b.X0 < f.Core.X1 && f.Core.X0 < b.X1 && b.Y0 < f.Core.Y1 && f.Core.Y0 < b.Y1 {
			return true
		}
	}
	return false
}

// find is Find on an image at most maxAspect times as long as wide.
func (f *Faces) find(g Gray) []Face {
	// pigo's rotated classifier clamps columns to the row count, so it
	// reads past a wide image's rows: it is given a square image.
	side := max(g.W, g.H)
	sq := g.Pix
	dim := g.Stride
	if g.W != g.H || g.Stride != g.W {
		sq = make([]byte, side*side)
		for i := range sq {
			sq[i] = 128
		}
		for y := 0; y < g.H; y++ {
			copy(sq[y*side:y*side+g.W], g.Pix[y*g.Stride:y*g.Stride+g.W])
		}
		dim = side
	}
	params := pigo.CascadeParams{
		MinSize: f.MinSize, MaxSize: min(g.W, g.H), ShiftFactor: 0.1, ScaleFactor: 1.1,
		ImageParams: pigo.ImageParams{Pixels: sq, Rows: side, Cols: side, Dim: dim},
	}
	dets := f.cascade.RunCascade(params, 0)
	// The tilted passes cost three times an upright one each (pigo turns
	// every test point): they look for heads from tiltedMinSize.
	if tilted := params; min(g.W, g.H) >= tiltedMinSize {
		tilted.MinSize = tiltedMinSize
		for _, a := range faceAngles[1:] {
			dets = append(dets, f.cascade.RunCascade(tilted, a)...)
		}
	}
	dets = f.cascade.ClusterDetections(dets, 0.2)
	sort.Slice(dets, func(i, j int) bool { return dets[i].Q > dets[j].Q })
	var out []Face
	for _, d := range dets {
		if d.Q < f.MinScore {
			continue
		}
		if d.Col-d.Scale/2 >= g.W || d.Row-d.Scale/2 >= g.H {
			continue // in the padding
		}
		core := Box{d.Col - d.Scale/2, d.Row - d.Scale/2, d.Col + d.Scale/2, d.Row + d.Scale/2}
		out = append(out, Face{Core: clip(core, g.W, g.H), Head: clip(HeadOf(core), g.W, g.H), Score: d.Q})
	}
	return out
}

// Head margins around the cascade's square, in units of its side. The
// square runs from the brows to the mouth's corners, cheek to cheek; on
// the astronaut photo (TestFaces, its head drawn by hand) the hair reaches
// 0.44 of a side above it, 0.20 and 0.29 to the sides, the chin 0.29 below.
// The margins leave room for longer hair and a turned head.
const (
	headUp   = 0.7
	headSide = 0.5
	headDown = 0.45
)

// HeadOf grows a face's square to its head.
func HeadOf(core Box) Box {
	s := float64(core.X1 - core.X0)
	return Box{
		X0: core.X0 - int(math.Ceil(headSide*s)), X1: core.X1 + int(math.Ceil(headSide*s)),
		Y0: core.Y0 - int(math.Ceil(headUp*s)), Y1: core.Y1 + int(math.Ceil(headDown*s)),
	}
}

func clip(b Box, w, h int) Box {
	return Box{max(b.X0, 0), max(b.Y0, 0), min(b.X1, w), min(b.Y1, h)}
}
