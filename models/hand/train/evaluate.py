"""Reports a trained model's figures on gen.py's .npz sets:
`evaluate.py MODEL.pt SET.npz...` prints, for each set, the accuracy,
the handwriting recall and the false positive rate at 0.5, and the
false positive rate at the pipeline's threshold (0.85)."""
import sys

import numpy as np
import torch

from train import Net

torch.set_num_threads(1)
net = Net()
net.load_state_dict(torch.load(sys.argv[1]))
net.eval()
for f in sys.argv[2:]:
    z = np.load(f)
    X, Y = torch.from_numpy(z["X"]), z["Y"]
    with torch.no_grad():
        p = torch.cat([net(X[i:i + 256]) for i in range(0, len(X), 256)]).numpy()
    rec = ((p > 0.5) & (Y == 1)).sum() / max(1, (Y == 1).sum())
    fpr = ((p > 0.5) & (Y == 0)).sum() / max(1, (Y == 0).sum())
    fpr85 = ((p >= 0.85) & (Y == 0)).sum() / max(1, (Y == 0).sum())
    print(f"{f}: n {len(Y)} accuracy {((p > 0.5) == Y).mean():.3f} recall {rec:.3f} fpr {fpr:.3f} fpr@0.85 {fpr85:.3f}")
