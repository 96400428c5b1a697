"""The NER network: word + char-CNN + shape features -> BiLSTM -> tag logits.

The backward LSTM runs over each sequence reversed within its own length
(lengths come from the word ids: 0 is padding), so a token's logits never
depend on how much padding its batch has. That keeps results identical
whatever sentences the runtime batches together.
"""

import torch
import torch.nn as nn


class NER(nn.Module):
    def __init__(self, n_words, n_chars, n_shapes, n_labels, wdim=96, cdim=24, cfilters=64, sdim=12, hidden=128, dropout=0.3):
        super().__init__()
        self.wemb = nn.Embedding(n_words, wdim, padding_idx=0, sparse=True)
        self.cemb = nn.Embedding(n_chars, cdim, padding_idx=0)
        self.conv = nn.Conv1d(cdim, cfilters, 3, padding=1)
        self.semb = nn.Embedding(n_shapes, sdim, padding_idx=0)
        d = wdim + cfilters + sdim
        self.fwd = nn.LSTM(d, hidden, batch_first=True)
        self.bwd = nn.LSTM(d, hidden, batch_first=True)
        self.drop = nn.Dropout(dropout)
        self.out = nn.Linear(2 * hidden, n_labels)

    def forward(self, words, chars, shapes):
        B, T = words.shape
        C = chars.shape[2]
        ch = chars.reshape(B * T, C)
        ce = self.cemb(ch).transpose(1, 2)
        h = self.conv(ce)
        h = h.masked_fill((ch == 0).unsqueeze(1), -1e4)
        h = h.max(dim=2).values.clamp(min=0).reshape(B, T, -1)
        x = torch.cat([self.wemb(words), h, self.semb(shapes)], dim=-1)
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
        y = self.drop(torch.cat([yf, yb], dim=-1))
        return self.out(y)
