"""A small CRNN for Latin text lines, shaped to drop in for PP-OCRv4's
recogniser in models/ocr: input [B,3,48,W] normalised (v/255-0.5)/0.5,
output [B,W/8,classes] softmax probabilities, class 0 the CTC blank.

Cost per input column at height 48 (multiply-adds, see macs_per_column):
about 0.44 M, a fifth of PP-OCRv4's 2.0 M.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


def cbr(cin, cout, k=3, s=1, p=1, groups=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, p, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CRNN(nn.Module):
    def __init__(self, classes, hidden=128):
        super().__init__()
        self.features = nn.Sequential(
            cbr(1, 16, 3, 2, 1),                 # 24 x W/2
            cbr(16, 32),
            nn.MaxPool2d(2, 2),                  # 12 x W/4
            cbr(32, 48),
            cbr(48, 64),
            nn.MaxPool2d(2, 2),                  # 6 x W/8
            cbr(64, 96),
            cbr(96, 128),
            nn.MaxPool2d((2, 1), (2, 1)),        # 3 x W/8
            cbr(128, 160),
        )
        self.proj = nn.Sequential(nn.Conv2d(160, 192, (3, 1), bias=False), nn.BatchNorm2d(192),
                                  nn.ReLU(inplace=True))   # 1 x W/8
        self.rnn = nn.LSTM(192, hidden, num_layers=1, bidirectional=True, batch_first=True)
        self.head = nn.Linear(2 * hidden, classes)

    def logits(self, x):
        x = x.mean(dim=1, keepdim=True)          # colour order does not matter
        f = self.proj(self.features(x))         # B,192,1,T
        f = f.squeeze(2).transpose(1, 2)          # B,T,192
        f, _ = self.rnn(f)
        return self.head(f)                       # B,T,C

    def forward(self, x):
        return F.softmax(self.logits(x), dim=-1)


def macs_per_column(model, h=48, w=320):
    """Multiply-adds per input column, counted from the layer shapes."""
    total = 0
    hooks = []

    def conv_hook(m, i, o):
        nonlocal total
        total += o.numel() // o.shape[0] * (m.in_channels // m.groups) * m.kernel_size[0] * m.kernel_size[1]

    def lin_hook(m, i, o):
        nonlocal total
        total += o.numel() // o.shape[0] * m.in_features

    def lstm_hook(m, i, o):
        nonlocal total
        t = o[0].shape[1]
        dirs = 2 if m.bidirectional else 1
        total += t * dirs * 4 * m.hidden_size * (m.input_size + m.hidden_size)

    for mod in model.modules():
        if isinstance(mod, nn.Conv2d):
            hooks.append(mod.register_forward_hook(conv_hook))
        elif isinstance(mod, nn.Linear):
            hooks.append(mod.register_forward_hook(lin_hook))
        elif isinstance(mod, nn.LSTM):
            hooks.append(mod.register_forward_hook(lstm_hook))
    was = model.training
    model.eval()
    with torch.no_grad():
        model(torch.zeros(1, 3, h, w))
    model.train(was)
    for hk in hooks:
        hk.remove()
    return total / w
