"""The NER network: word + char-CNN + shape + gazetteer features -> BiLSTM
-> tag emissions, and a linear-chain CRF over them.

The backward LSTM runs over each sequence reversed within its own length
(lengths come from the word ids: 0 is padding), so a token's logits never
depend on how much padding its batch has. That keeps results identical
whatever sentences the runtime batches together.

The CRF (transitions between labels, start and end scores) is not part of
the ONNX graph: the graph outputs the emissions, the CRF's parameters go
into manifest.json ("crf"), and the Go side decodes with Viterbi
(models/ner/crf.go). viterbi() here is the reference it is tested
against.
"""

import torch
import torch.nn as nn


class NER(nn.Module):
    def __init__(self, n_words, n_chars, n_shapes, n_labels, wdim=96, cdim=24, cfilters=64, sdim=12, hidden=128,
                 dropout=0.3, n_gaz=0, gdim=16, crf=False):
        super().__init__()
        self.wemb = nn.Embedding(n_words, wdim, padding_idx=0, sparse=True)
        self.cemb = nn.Embedding(n_chars, cdim, padding_idx=0)
        self.conv = nn.Conv1d(cdim, cfilters, 3, padding=1)
        self.semb = nn.Embedding(n_shapes, sdim, padding_idx=0)
        d = wdim + cfilters + sdim
        self.gemb = None
        if n_gaz:
            self.gemb = nn.Embedding(n_gaz, gdim)
            d += gdim
        self.fwd = nn.LSTM(d, hidden, batch_first=True)
        self.bwd = nn.LSTM(d, hidden, batch_first=True)
        self.drop = nn.Dropout(dropout)
        self.out = nn.Linear(2 * hidden, n_labels)
        self.crf = CRF(n_labels) if crf else None

    def forward(self, words, chars, shapes, gaz=None):
        yf, yb = self.encode(words, chars, shapes, gaz)
        return self.out(self.drop(torch.cat([yf, yb], dim=-1)))

    def encode(self, words, chars, shapes, gaz=None):
        """The two LSTMs' outputs [B,T,hidden] each, both in token order:
        yf[t] has read tokens 0..t, yb[t] tokens t..len-1. The tagger reads
        both; lm.py's language-model pretraining predicts token t+1 from
        yf[t] and token t-1 from yb[t]."""
        B, T = words.shape
        C = chars.shape[2]
        ch = chars.reshape(B * T, C)
        ce = self.cemb(ch).transpose(1, 2)
        h = self.conv(ce)
        h = h.masked_fill((ch == 0).unsqueeze(1), -1e4)
        h = h.max(dim=2).values.clamp(min=0).reshape(B, T, -1)
        feats = [self.wemb(words), h, self.semb(shapes)]
        if self.gemb is not None:
            feats.append(self.gemb(gaz))
        x = torch.cat(feats, dim=-1)
        x = self.drop(x)
        # Per-sequence reversal index: position t of the reversed sequence
        # reads token len-1-t; padding positions read themselves.
        lens = (words != 0).sum(dim=1, keepdim=True)  # [B,1]
        pos = torch.arange(T, device=words.device).unsqueeze(0).expand(B, T)
        rev = torch.where(pos < lens, lens - 1 - pos, pos)  # [B,T]
        idx = rev.unsqueeze(2).expand(B, T, x.shape[2])
        yf, _ = self.fwd(x)
        yb, _ = self.bwd(torch.gather(x, 1, idx))
        yb = torch.gather(yb, 1, rev.unsqueeze(2).expand(B, T, yb.shape[2]))
        return yf, yb


class CRF(nn.Module):
    """Linear-chain CRF: score(y) = start[y0] + sum emit[t, yt] +
    sum trans[y(t-1), yt] + end[y(n-1)]."""

    def __init__(self, n_labels):
        super().__init__()
        self.trans = nn.Parameter(torch.zeros(n_labels, n_labels))
        self.start = nn.Parameter(torch.zeros(n_labels))
        self.end = nn.Parameter(torch.zeros(n_labels))

    def _logz(self, emit, mask):
        """log of the sum over paths; emit [B,T,L], mask [B,T] bool."""
        alpha = self.start + emit[:, 0]
        for t in range(1, emit.shape[1]):
            nxt = torch.logsumexp(alpha.unsqueeze(2) + self.trans + emit[:, t].unsqueeze(1), dim=1)
            alpha = torch.where(mask[:, t:t + 1], nxt, alpha)
        return torch.logsumexp(alpha + self.end, dim=1)

    def nll(self, emit, tags, mask):
        """Negative log-likelihood per sequence. tags [B,T] hold -100 where a
        label is unknown (IGN) or padding: the numerator sums over every
        label there (a partially labelled CRF), so an ignored word adds no
        loss of its own."""
        L = emit.shape[2]
        known = tags >= 0
        allowed = torch.ones_like(emit, dtype=torch.bool)
        onehot = torch.zeros_like(allowed)
        onehot.scatter_(2, tags.clamp(min=0).unsqueeze(2), True)
        allowed = torch.where(known.unsqueeze(2), onehot, allowed)
        constrained = emit.masked_fill(~allowed, -1e4)
        both = self._logz(torch.cat([constrained, emit]), torch.cat([mask, mask]))
        B = emit.shape[0]
        return both[B:] - both[:B]

    @torch.no_grad()
    def viterbi(self, emit, n, o_bias=0.0):
        """Best label path of one sequence (emit [T,L], first n tokens).
        o_bias is subtracted from label 0's (O's) emission: the recall bias
        (models/ner crf.go does the same)."""
        e = emit[:n].clone()
        e[:, 0] -= o_bias
        score = self.start + e[0]
        back = []
        for t in range(1, n):
            s = score.unsqueeze(1) + self.trans
            best, arg = s.max(dim=0)
            back.append(arg)
            score = best + e[t]
        score = score + self.end
        y = [int(score.argmax())]
        for arg in reversed(back):
            y.append(int(arg[y[-1]]))
        return y[::-1]

    def params(self):
        return {"transitions": [[round(v, 6) for v in row] for row in self.trans.tolist()],
                "start": [round(v, 6) for v in self.start.tolist()],
                "end": [round(v, 6) for v in self.end.tolist()]}
