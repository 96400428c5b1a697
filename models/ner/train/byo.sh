#!/bin/sh
# Rebuilds models/ner/testdata/byo: a tiny randomly initialised BERT-like
# token classifier in Hugging Face layout, with reference word pieces from
# @huggingface/tokenizers (installed here with npm, under train/.npm).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-/usr/bin/python3}
export OPENBLAS_NUM_THREADS=1
if [ ! -d "$HERE/.npm/node_modules/@huggingface/tokenizers" ]; then
	npm install --no-audit --no-fund --prefix "$HERE/.npm" @huggingface/tokenizers@0.2.0
fi
cd "$HERE"
NER_NODE_DIR="$HERE/.npm" "$PY" byo_tiny.py "$(dirname "$HERE")/testdata/byo"
