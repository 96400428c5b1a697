"""Writes a tiny, randomly initialised BERT-like token classifier in the
layout of a Hugging Face export (model.onnx, tokenizer.json, config.json)
for the bring-your-own-model tests in models/ner (testdata/byo).

The model is not trained: the tests check shapes, tokenization, label
mapping and the run path, not accuracy. expected.json holds, for a few
texts, the word-piece ids computed by the reference tokenizer
(@huggingface/tokenizers, run with node by byo_expected.mjs when
available) and the torch logits for those ids.

Usage: python3 byo_tiny.py OUTDIR
"""

import json
import math
import os
import shutil
import subprocess
import sys

import torch
import torch.nn as nn

LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]
MAX_POS = 64

WORDS = """the a an and or of to in at on for with from by is was are be works lives born john smith mary
jones acme corp inc company berlin london paris new york street main road city bank de la le van von
mr mrs dr name address email phone invoice total date""".split()
PIECES = ["##s", "##ing", "##ed", "##er", "##ly", "##es", "##ich", "##an", "##on", "##en"]
TEXTS = [
    "John Smith works at Acme Corp in Berlin.",
    "Mrs. MARY JONES-SMITH lives at 12 Main Street, Zürich!",
    "Invoice total: $1,234.50 (date 2021-03-04) naïve café",
    "unknownwordxyz 北京 ok",
]


def vocab():
    v = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    v += list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    v += [str(d) for d in range(10)]
    v += list("abcdefghijklmnopqrstuvwxyz")
    v += ["##" + c for c in "abcdefghijklmnopqrstuvwxyz0123456789"]
    v += WORDS + PIECES + ["北"]
    seen, out = set(), []
    for t in v:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def tokenizer_json(v):
    ids = {t: i for i, t in enumerate(v)}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {"id": ids[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": True}
            for t in ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        ],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
            "special_tokens": {
                "[CLS]": {"id": "[CLS]", "ids": [ids["[CLS]"]], "tokens": ["[CLS]"]},
                "[SEP]": {"id": "[SEP]", "ids": [ids["[SEP]"]], "tokens": ["[SEP]"]},
            },
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": ids},
    }


class Layer(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.ln1 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, ff)
        self.ff2 = nn.Linear(ff, d)
        self.ln2 = nn.LayerNorm(d)

    def forward(self, x, bias):
        B, S, D = x.shape
        q, k, v = self.qkv(x).split(D, dim=-1)
        sh = lambda t: t.reshape(B, S, self.h, self.dk).transpose(1, 2)
        q, k, v = sh(q), sh(k), sh(v)
        a = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dk) + bias
        y = torch.matmul(a.softmax(-1), v).transpose(1, 2).reshape(B, S, D)
        x = self.ln1(x + self.o(y))
        return self.ln2(x + self.ff2(torch.nn.functional.gelu(self.ff1(x))))


class TinyBert(nn.Module):
    def __init__(self, n_vocab, n_labels, d=32, heads=2, ff=64, layers=2):
        super().__init__()
        self.tok = nn.Embedding(n_vocab, d)
        self.pos = nn.Embedding(MAX_POS, d)
        self.typ = nn.Embedding(2, d)
        self.ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList([Layer(d, heads, ff) for _ in range(layers)])
        self.cls = nn.Linear(d, n_labels)

    def forward(self, input_ids, attention_mask, token_type_ids):
        S = input_ids.shape[1]
        pos = torch.arange(S).unsqueeze(0)
        x = self.ln(self.tok(input_ids) + self.pos(pos) + self.typ(token_type_ids))
        bias = (1.0 - attention_mask.unsqueeze(1).unsqueeze(2).to(x.dtype)) * -10000.0
        for l in self.layers:
            x = l(x, bias)
        return self.cls(x)


def main(out):
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(1234)
    v = vocab()
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(v), f, ensure_ascii=False, indent=1)
    with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": True, "tokenizer_class": "BertTokenizer", "model_max_length": MAX_POS,
                   "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]"}, f, indent=1)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump({"architectures": ["BertForTokenClassification"], "model_type": "bert",
                   "id2label": {str(i): l for i, l in enumerate(LABELS)},
                   "label2id": {l: i for i, l in enumerate(LABELS)},
                   "max_position_embeddings": MAX_POS, "hidden_size": 32, "num_hidden_layers": 2,
                   "num_attention_heads": 2, "vocab_size": len(v), "note": "random weights, for tests only"}, f, indent=1)
    model = TinyBert(len(v), len(LABELS)).eval()
    ids = torch.tensor([[2, 10, 11, 3]])
    torch.onnx.export(model, (ids, torch.ones_like(ids), torch.zeros_like(ids)), os.path.join(out, "model.onnx"),
                      input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["logits"],
                      dynamic_axes={n: {0: "batch", 1: "sequence"} for n in ["input_ids", "attention_mask", "token_type_ids", "logits"]},
                      opset_version=14)

    # Reference word pieces from @huggingface/tokenizers, when node has it.
    here = os.path.dirname(os.path.abspath(__file__))
    ref = None
    if shutil.which("node"):
        # The package is resolved from node_dir (train.sh installs it into
        # train/.npm with npm).
        node_dir = os.environ.get("NER_NODE_DIR", os.path.join(here, ".npm"))
        p = subprocess.run(["node", os.path.join(here, "byo_expected.mjs"), os.path.abspath(os.path.join(out, "tokenizer.json"))] + TEXTS,
                           capture_output=True, text=True, cwd=node_dir if os.path.isdir(node_dir) else None)
        if p.returncode == 0:
            ref = json.loads(p.stdout)
        else:
            print("byo_expected.mjs failed (install @huggingface/tokenizers with npm):", p.stderr[-500:], file=sys.stderr)
    if ref is None:
        sys.exit("no reference tokenization; expected.json not written")
    cases = []
    with torch.no_grad():
        for text, enc in zip(TEXTS, ref):
            x = torch.tensor([enc["ids"]])
            logits = model(x, torch.ones_like(x), torch.zeros_like(x))[0]
            cases.append({"text": text, "ids": enc["ids"], "pieces": enc["tokens"],
                          "logits": [[round(float(a), 5) for a in row] for row in logits]})
    with open(os.path.join(out, "expected.json"), "w", encoding="utf-8") as f:
        json.dump({"labels": LABELS, "tokenizer": "@huggingface/tokenizers " + ref[0].get("version", ""), "cases": cases},
                  f, ensure_ascii=False)
    print("wrote", out, os.path.getsize(os.path.join(out, "model.onnx")), "bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "testdata", "byo"))
