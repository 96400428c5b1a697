#!/bin/sh
# Retrains the built-in NER model: corpora + synthetic documents -> torch
# BiLSTM -> models/ner/model/{ner.onnx,vocab.json,manifest.json}, the Go
# test fixtures in models/ner/testdata, and the Go-side evaluation merged
# into manifest.json. Extra arguments go to train.py (--steps, --minutes,
# --synth-docs, --data ...). FROM=dir fine-tunes the model in dir instead
# of training from scratch (the issue-46 model: see models/ner/README.md).
#
# Needs Debian's python3 with torch and onnx:
#   apt-get install -y python3-torch python3-onnx libopenblas0-pthread
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
NER=$(dirname "$HERE")
ROOT=$(cd "$NER/../.." && pwd)
PY=${PYTHON:-/usr/bin/python3}

# One thread: training shares the machine, and OpenBLAS spinning over
# many threads makes small LSTM steps several times slower.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

"$PY" -c 'import torch, onnx' 2>/dev/null || {
	echo "train.sh: $PY lacks torch/onnx; apt-get install -y python3-torch python3-onnx libopenblas0-pthread" >&2
	exit 1
}
cd "$HERE"
# Generated documents in the six other languages (issue 46), drawn with
# the recipe's own seed 46 (the evaluation reads seeds 1 and 2).
GEN="$HERE/.cache/generated.jsonl"
if [ ! -s "$GEN" ]; then
	(cd "$ROOT" && go run ./models/ner/internal/gendocs -langs de,fr,es,it,nl,pt -n 1500 -seed 46 -out "$GEN")
fi
if [ -n "${FROM:-}" ]; then
	# Fine-tuning (issue 46): start from the model in $FROM (a directory
	# of this recipe's ner.onnx and vocab.json, e.g. models/ner/model),
	# whose parity fixture must be models/ner/testdata's; it is copied
	# first, since the run writes its output over both.
	SRC="$HERE/.cache/shipped"
	mkdir -p "$SRC"
	cp "$FROM/ner.onnx" "$FROM/vocab.json" "$SRC/"
	cp "$NER/testdata/parity_fixture.json" "$SRC/"
	"$PY" train.py --out "$NER/model" --testdata "$NER/testdata" --init-onnx "$SRC" "$@"
else
	# Word embeddings pretrained on unlabelled text (embed.py: Debian's
	# fastText, one thread, a few minutes); kept in .cache between runs.
	EMB="$HERE/.cache/embed/ft.bin"
	if [ ! -s "$EMB" ]; then
		command -v fasttext >/dev/null || {
			echo "train.sh: fasttext missing; apt-get install -y fasttext" >&2
			exit 1
		}
		"$PY" embed.py --out "$HERE/.cache/embed" --data "${REDACTD_SHARED_DATA:-$ROOT/../shared/data}" ${EMBED_ARGS:-}
	fi
	"$PY" train.py --out "$NER/model" --testdata "$NER/testdata" --embeddings "$EMB" "$@"
fi

# Score the exported model through the Go detector (ONNX Runtime, windows,
# span mapping) and record it in the manifest.
cd "$ROOT"
if go run ./models/ner/internal/nereval -merge models/ner/model/manifest.json >/dev/null; then
	echo "train.sh: Go evaluation merged into models/ner/model/manifest.json"
else
	echo "train.sh: Go evaluation skipped (ONNX Runtime missing? run make setup)" >&2
fi
