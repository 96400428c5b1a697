#!/bin/sh
# Trains redactd's own Latin recogniser: synthetic scanned lines -> torch
# CRNN with CTC -> models/ocr/latin/{rec.float.onnx,rec.onnx (int8),charset.txt,
# manifest.json}.
# Resumes from models/ocr/train/ckpt when a checkpoint is there (delete it
# to start over). Extra arguments go to train.py (--steps, --minutes,
# --data ...). See models/ocr/README.md.
#
# Needs Debian's python3 with torch, onnx, PIL and numpy, and the fonts:
#   apt-get install -y python3-torch python3-onnx python3-pil python3-numpy \
#     fonts-dejavu fonts-liberation fonts-crosextra-carlito fonts-crosextra-caladea \
#     fonts-urw-base35 fonts-noto-core
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OCR=$(dirname "$HERE")
PY=${PYTHON:-/usr/bin/python3}

# One thread: training shares the machine.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

"$PY" -c 'import torch, onnx, PIL, numpy' 2>/dev/null || {
	echo "train.sh: $PY lacks torch/onnx/PIL/numpy; see the apt-get line in this script" >&2
	exit 1
}
cd "$HERE"
exec "$PY" train.py --out "$OCR/latin" "$@"
