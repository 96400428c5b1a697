"""Draws n training samples of one seed into an .npz (train.py --more)."""
import argparse

import numpy as np

import synth

ap = argparse.ArgumentParser()
ap.add_argument("--n", type=int, default=10000)
ap.add_argument("--seed", type=int, default=2)
ap.add_argument("--out", required=True)
ap.add_argument("--scanned", type=float, default=0.0, help="share of samples on scanned paper (synth.SCANNED)")
ap.add_argument("--forms", type=float, default=0.0, help="share of samples in a form's box (synth.FORMS)")
ap.add_argument("--loops", type=float, default=0.0, help="share of positives that are small looped cursive, dates and numbers (synth.LOOPS)")
ap.add_argument("--ornaments", type=float, default=0.0, help="share of negatives that are printed ornaments (synth.ORNAMENTS)")
a = ap.parse_args()
synth.SCANNED, synth.FORMS, synth.ORNAMENTS, synth.LOOPS = a.scanned, a.forms, a.ornaments, a.loops
X, Y = synth.dataset(a.n, seed=a.seed)
np.savez_compressed(a.out, X=X, Y=Y)
print("done", len(X))
