"""The optimiser of both training loops (train.py's tagger, lm.py's
pretraining): SparseAdam for the word embedding, whose gradients are
sparse, Adam for every other parameter, one learning rate for both set
before each step, and the dense gradients clipped to norm 5."""

import torch
import torch.nn as nn

LR = 2e-3
WARMUP = 300  # steps


def schedule(step, frac):
    """The learning rate at step (0-based) when frac of the run is done:
    a linear warm-up over WARMUP steps, then a linear decay to 5%."""
    return LR * min(1.0, (step + 1) / WARMUP) * max(0.05, 1 - frac)


class Optimizer:
    def __init__(self, sparse, dense):
        self.sparse = torch.optim.SparseAdam(sparse, lr=LR)
        self.dense = torch.optim.Adam(dense, lr=LR)
        self.dense_params = dense

    def set_lr(self, lr):
        for o in (self.sparse, self.dense):
            for g in o.param_groups:
                g["lr"] = lr

    def step(self, loss):
        """Back-propagates loss and takes one step."""
        self.sparse.zero_grad()
        self.dense.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.dense_params, 5.0)
        self.sparse.step()
        self.dense.step()
