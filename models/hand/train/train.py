"""Trains redactd's handwriting classifier on synthetic patches (synth.py)
and exports it to ONNX: input "patch" [N, 1, 32, 128] float (ink = 1),
output "prob" [N] (probability of handwriting).

CPU, one thread: `nice -n 10 /usr/bin/python3 train.py --out ../hand.onnx`.
"""

import argparse
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn

import synth


class Net(nn.Module):
    def __init__(self):
        super().__init__()

        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d(2))

        self.f = nn.Sequential(block(1, 8), block(8, 16), block(16, 32), block(32, 48))  # 2 x 8
        self.head = nn.Linear(48 * 2, 1)

    def forward(self, x):
        h = self.f(x)  # N, 64, 2, 8
        h = h.amax(3).flatten(1)  # N, 96: rows kept, the max along x
        return torch.sigmoid(self.head(h)).squeeze(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", type=int, default=40000)
    ap.add_argument("--val", type=int, default=4000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--out", default="../hand.onnx")
    ap.add_argument("--cache", default="", help="an .npz to keep the generated data in (and take it from)")
    ap.add_argument("--more", default="", help="further .npz files of training data (synth.py's, other seeds), added to the training set")
    ap.add_argument("--val-more", default="", help="an .npz (gen.py's, another seed) to report the figures on too, as a second validation set")
    ap.add_argument("--seed", type=int, default=1, help="the training data's seed")
    ap.add_argument("--no-captions", action="store_true", help="draw no printed captions beside handwriting (synth.CAPTIONS)")
    a = ap.parse_args()
    torch.set_num_threads(1)
    synth.CAPTIONS = not a.no_captions
    torch.manual_seed(0)
    t0 = time.time()
    if a.cache and os.path.exists(a.cache):
        z = np.load(a.cache)
        X, Y, Xv, Yv = z["X"], z["Y"], z["Xv"], z["Yv"]
    else:
        Xv, Yv = synth.dataset(a.val, seed=7)
        X, Y = synth.dataset(a.train, seed=a.seed)
        if a.cache:
            np.savez_compressed(a.cache, X=X, Y=Y, Xv=Xv, Yv=Yv)
    for f in filter(None, a.more.split(",")):
        z = np.load(f)
        X, Y = np.concatenate([X, z["X"]]), np.concatenate([Y, z["Y"]])
    tgen = time.time() - t0
    print(f"data {a.train}+{a.val} in {tgen:.0f}s", flush=True)
    X, Y = torch.from_numpy(X), torch.from_numpy(Y).float()
    Xv, Yv = torch.from_numpy(Xv), torch.from_numpy(Yv).float()
    net = Net()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    steps = a.epochs * (len(X) // 64)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=steps)
    bce = nn.BCELoss()
    for ep in range(a.epochs):
        net.train()
        perm = torch.randperm(len(X))
        tl = 0
        for i in range(0, len(X) - 63, 64):
            idx = perm[i:i + 64]
            xb = X[idx]
            if np.random.rand() < 0.5:  # ink darkness varies
                xb = xb * float(np.random.uniform(0.6, 1.0))
            if np.random.rand() < 0.5:  # the cut moves a little
                xb = torch.roll(xb, (np.random.randint(-2, 3), np.random.randint(-6, 7)), (2, 3))
            p = net(xb)
            loss = bce(p, Y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tl += loss.item()
        net.eval()
        with torch.no_grad():
            pv = torch.cat([net(Xv[i:i + 256]) for i in range(0, len(Xv), 256)])
        acc = ((pv > 0.5).float() == Yv).float().mean().item()
        rec = ((pv > 0.5) & (Yv == 1)).sum().item() / max(1, (Yv == 1).sum().item())
        fpr = ((pv > 0.5) & (Yv == 0)).sum().item() / max(1, (Yv == 0).sum().item())
        if a.val_more:
            zv = np.load(a.val_more)
            Xs, Ys = torch.from_numpy(zv["X"]), torch.from_numpy(zv["Y"]).float()
            with torch.no_grad():
                ps = torch.cat([net(Xs[i:i + 256]) for i in range(0, len(Xs), 256)])
            acc2 = ((ps > 0.5).float() == Ys).float().mean().item()
            rec2 = ((ps > 0.5) & (Ys == 1)).sum().item() / max(1, (Ys == 1).sum().item())
            fpr2 = ((ps > 0.5) & (Ys == 0)).sum().item() / max(1, (Ys == 0).sum().item())
            print(f"  second validation ({len(Xs)}): acc {acc2:.4f} recall {rec2:.4f} fpr {fpr2:.4f}", flush=True)
        print(f"epoch {ep} loss {tl / (len(X) // 64):.4f} val acc {acc:.4f} recall {rec:.4f} fpr {fpr:.4f} t {time.time() - t0:.0f}s", flush=True)
    net.eval()
    torch.onnx.export(net, torch.zeros(1, 1, synth.PH, synth.PW), a.out, input_names=["patch"], output_names=["prob"],
                      dynamic_axes={"patch": {0: "n"}, "prob": {0: "n"}}, opset_version=17)
    torch.save(net.state_dict(), a.out.replace(".onnx", ".pt"))
    params = sum(p.numel() for p in net.parameters())
    card = {"train": len(X), "val": a.val, "epochs": a.epochs, "params": params, "val_acc": acc, "val_recall": rec, "val_fpr": fpr,
            "cpu_seconds": round(time.time() - t0), "data_seconds": round(tgen)}
    if a.val_more:
        card.update({"val2": len(Xs), "val2_acc": acc2, "val2_recall": rec2, "val2_fpr": fpr2})
    json.dump(card, open(a.out.replace(".onnx", ".json"), "w"), indent=1)
    print(card)


if __name__ == "__main__":
    main()
