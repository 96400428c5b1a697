"""Language-model pretraining of the tagger's encoder (issue 14).

The tagger (model.NER) reads words, characters and shapes through two
LSTMs. Before it sees a label, pretrain() teaches those same layers to
predict the next word from the forward LSTM and the previous word from
the backward one, over unlabelled running text: the free novels that
embed.py also reads (never a book whose LitBank excerpt is held out) and
the words of the corpora's train splits. The hope: a tagger that starts
from such an encoder knows how names sit in sentences ("said X", "Mr. X
of the Y") from far more text than the labelled sets hold, while the
network the service runs stays the same (same layers, same cost a
page). Measured with two seeds it lost about half a point of masking
recall and of precision on the dev splits, so train.py runs it only
when asked (--lm-minutes; docs/ner-experiments.md, "Language-model pretraining of
the encoder").

The prediction head (a sampled softmax over the text's commonest words,
everything rarer one class) exists only here and is dropped
afterwards. pretrain() draws its random numbers from its own generators
and restores torch's, so the tagger's training that follows takes the
same random path as it would from a random start.
"""

import hashlib
import os
import random
import time
from collections import Counter

import torch
import torch.nn as nn

import nertok
import optim
from embed import gutenberg_free
from nertok import NL

WINDOW = 64  # tokens, the runtime window (train.MAX_TOKENS)


def log(*a):
    print(time.strftime("%H:%M:%S"), "lm:", *a, flush=True)


def text_windows(ner_root, train_sents):
    """Unlabelled windows of at most WINDOW tokens: each free book's
    paragraphs (lines joined) as one running stream cut into windows, and
    each train-split sentence of the corpora (labels dropped)."""
    wins = []
    for f in gutenberg_free(ner_root):
        with open(f, encoding="utf-8", errors="replace") as fh:
            stream = []
            for para in fh.read().split("\n\n"):
                stream.extend(t for t in nertok.tokenize(" ".join(para.split())) if t != NL)
        wins.extend(stream[i:i + WINDOW] for i in range(0, len(stream) - 1, WINDOW))
    for s in train_sents:
        toks = [t for t, _ in s if t != NL]
        wins.extend(toks[i:i + WINDOW] for i in range(0, len(toks) - 1, WINDOW))
    return [w for w in wins if len(w) > 1]


def target_classes(wins, n_classes):
    """Normalised word -> class id, commonest first; words outside the
    n_classes-1 commonest share one class (the second value); and each
    class's count."""
    c = Counter(nertok.norm(t) for w in wins for t in w)
    top = c.most_common(n_classes - 1)
    rare = sum(c.values()) - sum(n for _, n in top)
    ranked = sorted([(n, w) for w, n in top] + [(rare, None)], reverse=True, key=lambda x: x[0])
    ids = {w: i for i, (_, w) in enumerate(ranked) if w is not None}
    return ids, next(i for i, (_, w) in enumerate(ranked) if w is None), [n for n, _ in ranked]


class SampledSoftmax(nn.Module):
    """Predicts a word class from a hidden state against the true class
    and n_neg classes drawn for the whole batch from the unigram
    distribution to the power 0.75, each score less log(n_neg * q) (the
    sampled softmax of Jean et al. 2015): a full softmax over the classes
    would cost the pretraining twice the LSTMs' time on this CPU."""

    def __init__(self, hidden, counts, n_neg=256):
        super().__init__()
        self.emb = nn.Parameter(torch.randn(len(counts), hidden) * 0.05)
        self.bias = nn.Parameter(torch.zeros(len(counts)))
        q = torch.tensor(counts, dtype=torch.float) ** 0.75
        self.register_buffer("q", q / q.sum())
        self.n_neg = n_neg

    def forward(self, h, target):
        neg = torch.multinomial(self.q, self.n_neg, replacement=True)
        logq = torch.log(self.n_neg * self.q)
        pos = (h * self.emb[target]).sum(-1) + self.bias[target] - logq[target]
        negs = h @ self.emb[neg].t() + self.bias[neg] - logq[neg]
        negs = negs.masked_fill(neg.unsqueeze(0) == target.unsqueeze(1), -1e4)
        logits = torch.cat([pos.unsqueeze(1), negs], dim=1)
        return nn.functional.cross_entropy(logits, torch.zeros_like(target))


def encode(win, wv, cv, tv, rare):
    """A window as tensors: word ids, char ids (padded to its longest
    word once here, as train.pack does, so that batch copies slices
    instead of building a tensor per word every step), shapes and the
    target classes."""
    c = [nertok.char_ids(t, cv) for t in win]
    m = max(len(x) for x in c)
    return (torch.tensor([nertok.word_id(t, wv) for t in win]),
            torch.tensor([x + [0] * (m - len(x)) for x in c], dtype=torch.long),
            torch.tensor([nertok.shape(t) for t in win]),
            torch.tensor([tv.get(nertok.norm(t), rare) for t in win]))


def batch(encs, idx):
    B, T = len(idx), max(len(encs[i][0]) for i in idx)
    C = max(encs[i][1].shape[1] for i in idx)
    W = torch.zeros(B, T, dtype=torch.long)
    Ch = torch.zeros(B, T, C, dtype=torch.long)
    S = torch.zeros(B, T, dtype=torch.long)
    Y = torch.zeros(B, T, dtype=torch.long)
    for b, i in enumerate(idx):
        w, c, s, y = encs[i]
        n = len(w)
        W[b, :n], S[b, :n], Y[b, :n] = w, s, y
        Ch[b, :n, :c.shape[1]] = c
    return W, Ch, S, Y


def cache_key(words, chars, model, args):
    h = hashlib.sha256()
    for part in (words, chars):
        h.update("\n".join(part).encode())
    h.update(repr((model.wemb.embedding_dim, model.fwd.hidden_size, model.gemb is not None,
                   args.lm_minutes, args.lm_classes, args.lm_batch, args.seed)).encode())
    return h.hexdigest()[:16]


def pretrain(model, words, chars, wv, cv, train_sents, args, cache_dir):
    """Pretrains model's embeddings, char CNN and LSTMs as a two-way
    language model for args.lm_minutes (the weights are cached under
    cache_dir by vocabulary and settings). Returns what the manifest says."""
    key = cache_key(words, chars, model, args)
    path = os.path.join(cache_dir, "encoder-%s.pt" % key)
    if os.path.exists(path):
        ck = torch.load(path, map_location="cpu")
        model.load_state_dict(ck["model"])
        log("encoder loaded from", path)
        return ck["info"]
    if model.gemb is not None:
        raise SystemExit("--lm-minutes: the gazetteer feature has no pretraining")
    torch_state = torch.get_rng_state()
    torch.manual_seed(args.seed + 7919)
    rng = random.Random(args.seed + 7919)
    t0 = time.time()
    wins = text_windows(os.path.join(args.data, "ner"), train_sents)
    tv, rare, counts = target_classes(wins, args.lm_classes)
    encs = [encode(w, wv, cv, tv, rare) for w in wins]
    n_tok = sum(len(w) for w in wins)
    log(len(wins), "windows,", n_tok, "tokens; encoded in", round(time.time() - t0), "s")

    hidden = model.fwd.hidden_size
    head = SampledSoftmax(hidden, counts)
    sparse = [model.wemb.weight]
    dense = [p for n, p in model.named_parameters() if n != "wemb.weight" and not n.startswith("out.")]
    dense += list(head.parameters())
    opt = optim.Optimizer(sparse, dense)
    model.train()
    head.train()
    budget = args.lm_minutes * 60
    t_train = time.time()
    step, seen, tot, nb, epoch = 0, 0, 0.0, 0, 0
    done = False
    while not done:
        epoch += 1
        order = list(range(len(encs)))
        rng.shuffle(order)
        for i in range(0, len(order), args.lm_batch):
            frac = (time.time() - t_train) / budget
            if frac >= 1:
                done = True
                break
            opt.set_lr(optim.schedule(step, frac))
            W, Ch, S, Y = batch(encs, order[i:i + args.lm_batch])
            G = torch.zeros_like(W)
            yf, yb = model.encode(W, Ch, S, G)
            yf, yb = model.drop(yf), model.drop(yb)
            real = W != 0
            nxt = real[:, :-1] & real[:, 1:]  # position t predicts t+1 (forward) and t predicts t-1 (backward)
            hf, tf = yf[:, :-1][nxt], Y[:, 1:][nxt]
            hb, tb = yb[:, 1:][nxt], Y[:, :-1][nxt]
            loss = head(torch.cat([hf, hb]), torch.cat([tf, tb]))
            opt.step(loss)
            tot += loss.item()
            nb += 1
            step += 1
            seen += int(real.sum())
            if step % 200 == 0:
                log(f"step {step} epoch {epoch} tokens {seen} sampled loss {tot / nb:.3f} "
                    f"{(time.time() - t_train) / step:.3f}s/step")
                tot, nb = 0.0, 0
    torch.set_rng_state(torch_state)
    info = {"text_windows": len(wins), "text_tokens": n_tok, "steps": step, "tokens_read": seen,
            "epochs": round(seen / n_tok, 2), "seconds": round(time.time() - t_train),
            "classes": args.lm_classes, "batch": args.lm_batch,
            "text": "free LitBank novels (the books embed.py reads) and the corpora's train-split sentences, unlabelled",
            "objective": "forward LSTM predicts the next word, backward LSTM the previous one (sampled softmax over the classes, 256 negatives a step, dropped after)"}
    os.makedirs(cache_dir, exist_ok=True)
    torch.save({"model": model.state_dict(), "info": info}, path + ".tmp")
    os.replace(path + ".tmp", path)
    log("pretrained in", info["seconds"], "s:", step, "steps,", info["epochs"], "epochs; saved", path)
    return info
