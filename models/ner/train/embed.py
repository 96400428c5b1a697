"""Pretrains the word embeddings the NER model starts from (issue 14).

Usage: python3 embed.py --out .cache/embed [--dim 100] [--data $REDACTD_SHARED_DATA]

Writes <out>/text.txt (one paragraph or sentence per line, tokens split by
nertok and normalised as the model's word ids are: lower-cased, digits
-> 0) and trains Debian's fastText skip-gram on it, one thread, into
<out>/ft.bin and <out>/ft.vec. train.py --embeddings <out>/ft.bin then
initialises the word embedding from it (words of the training vocabulary
the text never saw get fastText's subword vectors).

The text is unlabelled:
  * ner/unlabeled_gutenberg_litbank, except the books whose LitBank
    excerpt is a dev or test split (books 5n+3 and 5n+4 in name order,
    corpora.litbank_books), so no held-out text is seen even unlabelled;
  * the words of every train split corpora.load_all returns (never a test
    or dev split), and of the non-English train parts corpora.load_languages
    returns (issue 46);
  * 4000 synthetic documents (synth.py, seed 77), for the vocabulary of
    forms, addresses and company names.
"""

import argparse
import os
import subprocess
import time

import corpora
import nertok
import synth
from shareddata import shared_data
from nertok import NL


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


def norm_line(tokens):
    return " ".join(nertok.norm(t) for t in tokens if t != NL)


def gutenberg_free(ner_root):
    """Full texts of the LitBank books whose excerpt is free for training."""
    keep = set()
    for i, f in enumerate(corpora.litbank_books(ner_root)):
        if i % 5 < 3:
            keep.add(f[len("coref_"):-len("_brat.txt")] + ".txt")
    d = os.path.join(ner_root, "unlabeled_gutenberg_litbank")
    return [os.path.join(d, f) for f in sorted(os.listdir(d)) if f in keep]


def write_text(path, data, synth_docs):
    ner_root = os.path.join(data, "ner")
    n = 0
    with open(path, "w", encoding="utf-8") as out:
        for f in gutenberg_free(ner_root):
            with open(f, encoding="utf-8", errors="replace") as fh:
                for para in fh.read().split("\n\n"):
                    toks = nertok.tokenize(" ".join(para.split()))
                    if toks:
                        out.write(norm_line(toks) + "\n")
                        n += len(toks)
        log("gutenberg tokens", n)
        corp = corpora.load_all(ner_root)
        for sp in corp.values():
            for s in sp["train"]:
                out.write(norm_line([t for t, _ in s]) + "\n")
                n += len(s)
        log("with corpora train splits", n)
        for sp in corpora.load_languages(ner_root).values():  # issue 46: every non-English train part
            for s in sp["train"]:
                out.write(norm_line([t for t, _ in s]) + "\n")
                n += len(s)
        log("with the other languages' train parts", n)
        src = synth.Sources(data, synth.corpus_names(corp))
        for d in synth.generate(synth_docs, src, seed=77):
            line = []
            for t, _ in d:
                if t == NL:
                    if line:
                        out.write(norm_line(line) + "\n")
                        n += len(line)
                    line = []
                else:
                    line.append(t)
            if line:
                out.write(norm_line(line) + "\n")
                n += len(line)
    log("total tokens", n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".cache", "embed"))
    ap.add_argument("--data", default=shared_data())
    ap.add_argument("--dim", type=int, default=100)
    ap.add_argument("--epoch", type=int, default=5)
    ap.add_argument("--synth-docs", type=int, default=4000)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    text = os.path.join(args.out, "text.txt")
    write_text(text, args.data, args.synth_docs)
    t0 = time.time()
    subprocess.run(["fasttext", "skipgram", "-input", text, "-output", os.path.join(args.out, "ft"),
                    "-dim", str(args.dim), "-epoch", str(args.epoch), "-minCount", "3",
                    "-minn", "2", "-maxn", "5", "-thread", "1", "-ws", "5", "-neg", "5", "-verbose", "1"],
                   check=True)
    log("fasttext done in", round(time.time() - t0), "s")


if __name__ == "__main__":
    main()
