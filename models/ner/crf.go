package ner

import (
	"fmt"
	"math"
)

// CRF holds a linear-chain CRF's parameters (manifest.json "crf"). A
// model trained with a CRF output layer outputs its emissions as logits;
// the label path of a sequence is the one that maximises
//
//	Start[y0] + Σ logits[t][yt] + Σ Transitions[y(t-1)][yt] + End[y(n-1)]
//
// found by Viterbi. The transitions learn what greedy decoding repairs
// after the fact: I-PER after O is unlikely, a name runs on over a line
// break. train/model.py's CRF.viterbi is the reference implementation.
type CRF struct {
	Transitions [][]float32 `json:"transitions"`
	Start       []float32   `json:"start"`
	End         []float32   `json:"end"`
}

// check reports whether the CRF fits n labels.
func (c *CRF) check(n int) error {
	if len(c.Start) != n || len(c.End) != n || len(c.Transitions) != n {
		return fmt.Errorf("crf has %d/%d/%d rows for %d labels", len(c.Start), len(c.End), len(c.Transitions), n)
	}
	for _, row := range c.Transitions {
		if len(row) != n {
			return fmt.Errorf("crf transition row of %d for %d labels", len(row), n)
		}
	}
	return nil
}

// recallBias is what Viterbi subtracts from the emissions of O and of the
// labels the detector does not mask (Model.isO) for
// Options.EntityProb p: ln((1-p)/p), so that at a token on its own an
// entity label whose probability is p ties with O, as in per-token
// decoding (decodeLogits). p of 0.5 or more adds no bias. An entity type
// with a probability of its own (Options.PersonProb) gets the difference
// back on its labels' emissions (Model.bias).
func recallBias(p float32) float32 {
	if p <= 0 || p >= 0.5 {
		return 0
	}
	return float32(math.Log(float64((1 - p) / p)))
}

// viterbi writes into path (len n) the best label path of the n rows of
// emit (n×L, row-major), with bias[j] subtracted from the emission of
// label j (nil: no bias).
func (c *CRF) viterbi(emit []float32, n, L int, bias []float32, path []int) {
	if n == 0 {
		return
	}
	at := func(t, j int) float32 {
		v := emit[t*L+j]
		if bias != nil {
			v -= bias[j]
		}
		return v
	}
	score := make([]float32, L)
	next := make([]float32, L)
	back := make([]int32, n*L) // back[t*L+j]: best previous label of j at t
	for j := range L {
		score[j] = c.Start[j] + at(0, j)
	}
	for t := 1; t < n; t++ {
		for j := range L {
			best, arg := float32(math.Inf(-1)), 0
			for i := range L {
				if s := score[i] + c.Transitions[i][j]; s > best {
					best, arg = s, i
				}
			}
			next[j] = best + at(t, j)
			back[t*L+j] = int32(arg)
		}
		score, next = next, score
	}
	last := 0
	for j := range L {
		if score[j]+c.End[j] > score[last]+c.End[last] {
			last = j
		}
	}
	path[n-1] = last
	for t := n - 1; t > 0; t-- {
		path[t-1] = int(back[t*L+path[t]])
	}
}

// softmaxAt is the probability of class j in a row of logits.
func softmaxAt(row []float32, j int) float32 {
	mx := row[0]
	for _, v := range row {
		mx = max(mx, v)
	}
	var sum float64
	for _, v := range row {
		sum += math.Exp(float64(v - mx))
	}
	return float32(math.Exp(float64(row[j]-mx)) / sum)
}
