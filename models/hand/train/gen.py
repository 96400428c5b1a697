"""Draws n training samples of one seed into an .npz (train.py --more)."""
import argparse

import numpy as np

import synth

ap = argparse.ArgumentParser()
ap.add_argument("--n", type=int, default=10000)
ap.add_argument("--seed", type=int, default=2)
ap.add_argument("--out", required=True)
a = ap.parse_args()
X, Y = synth.dataset(a.n, seed=a.seed)
np.savez_compressed(a.out, X=X, Y=Y)
print("done", len(X))
