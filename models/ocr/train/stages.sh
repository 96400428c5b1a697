#!/bin/sh
# Trains the shipped redactd-latin from nothing: the recipe's stages in
# order, each resuming from train/ckpt where the one before stopped (a
# stage already done only exports again). See models/ocr/README.md for
# what each stage changed and what it measured. About 310 minutes of one
# core on the project's 2-core AMD EPYC.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
MIX="--spacing 0.35 --neighbour 0.15 --prose-weight 22 --rare-weight 4"
"$HERE/train.sh" --steps 8000
"$HERE/train.sh" --steps 22000
# shellcheck disable=SC2086
"$HERE/train.sh" --steps 30000 --lr 3e-3 --until 27480 $MIX
# shellcheck disable=SC2086
"$HERE/train.sh" --steps 31300 --lr 6e-3 $MIX --confusable-weight 6
# Stages 5 and 6: backslash-escaped text, then the weights averaged over
# 80 snapshots at the floor learning rate (1.2e-4); stage 6 ran as two
# runs, which the schedule (cosine over --steps) makes different from one.
# shellcheck disable=SC2086
"$HERE/train.sh" --steps 34300 --lr 1.2e-2 $MIX --confusable-weight 6 --escape-weight 5
# shellcheck disable=SC2086
"$HERE/train.sh" --steps 36300 --lr 1.2e-2 $MIX --confusable-weight 6 --escape-weight 5 --average-from 34300
# shellcheck disable=SC2086
"$HERE/train.sh" --steps 38300 --lr 1.2e-2 $MIX --confusable-weight 6 --escape-weight 5 --average-from 34300
# Stage 7 (issue 48): from the stage-6 model as exported (the float ONNX
# file, loaded into torch by train.py --init-onnx and checked to read as it
# does within 1e-4; its own checkpoint, train/ckpt7), a short fine-tune on
# the held-out PII evaluation's kinds of miss on its dev pages: bold
# digits, IBANs with letters among the digits, ș/ş names, dotted legal
# forms, street abbreviations, e-mails (texts.py focus), a fifth of the
# lines in bold faces, at a low learning rate, the weights averaged over
# its second half. It ran 1 105 steps (stopped by its 48-minute limit on a
# loaded machine; --until repeats it). Then soup.py ships the mean of the
# stage-6 and stage-7 exports in weight space (chosen on the dev pages:
# stage 7 alone lost phone and e-mail words on the gate). See
# models/ocr/README.md.
OCR=$(dirname "$HERE")
mkdir -p "$HERE/ckpt7"
if [ ! -f "$HERE/ckpt7/stage6.onnx" ]; then
	cp "$OCR/latin/rec.float.onnx" "$HERE/ckpt7/stage6.onnx"
	cp "$OCR/latin/manifest.json" "$HERE/ckpt7/manifest.json"
fi
# shellcheck disable=SC2086
"$HERE/train.sh" --ckpt "$HERE/ckpt7" --init-onnx "$HERE/ckpt7/stage6.onnx" --steps 1200 --until 1105 \
	--lr 3e-4 $MIX --confusable-weight 6 --escape-weight 5 --focus-weight 30 --bold 0.2 \
	--average-from 600 --average-every 25
cp "$OCR/latin/rec.float.onnx" "$HERE/ckpt7/stage7.onnx"
cp "$OCR/latin/manifest.json" "$HERE/ckpt7/manifest.json"
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "${PYTHON:-/usr/bin/python3}" "$HERE/soup.py" \
	--a "$HERE/ckpt7/stage6.onnx" --b "$HERE/ckpt7/stage7.onnx" --weight 0.5 --out "$OCR/latin" \
	--data "$HERE/../../../../shared/data"
# Stage 8 (session 27): from the stage-7 mean as shipped, a longer
# fine-tune with the general mix's weight kept (focus lines at 12) and
# texts.py marks_orgs (lower-case dotted legal forms, ș ț beside ş ţ) at
# 10; 1 452 of 1 800 steps (stopped by its wall minutes on a loaded
# machine; --until repeats it), the mean of 31 snapshots; then the mean
# of it and the stage-7 mean at 0.5 (the "stage-8 mean"). It passed the
# held-out PII gate but leaked an IBAN of engine/pipeline's visible corpus
# (a 16-pt line read at 150 dpi as "GB82WET").
mkdir -p "$HERE/ckpt8" "$HERE/ckpt8b"
if [ ! -f "$HERE/ckpt8/shipped.onnx" ]; then
	cp "$OCR/latin/rec.float.onnx" "$HERE/ckpt8/shipped.onnx"
	cp "$OCR/latin/manifest.json" "$HERE/ckpt8/manifest.json"
fi
# shellcheck disable=SC2086
"$HERE/train.sh" --ckpt "$HERE/ckpt8" --init-onnx "$HERE/ckpt8/shipped.onnx" --steps 1800 --until 1452 \
	--lr 3e-4 $MIX --confusable-weight 6 --escape-weight 5 --focus-weight 12 --marks-orgs-weight 10 --bold 0.2 \
	--average-from 700 --average-every 25
cp "$OCR/latin/rec.float.onnx" "$HERE/ckpt8/stage8.onnx"
cp "$OCR/latin/manifest.json" "$HERE/ckpt8/manifest.json"
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "${PYTHON:-/usr/bin/python3}" "$HERE/soup.py" \
	--a "$HERE/ckpt8/shipped.onnx" --b "$HERE/ckpt8/stage8.onnx" --weight 0.5 --out "$OCR/latin" \
	--data "$HERE/../../../../shared/data"
cp "$OCR/latin/rec.float.onnx" "$HERE/ckpt8b/s8mean.onnx"
cp "$OCR/latin/manifest.json" "$HERE/ckpt8b/manifest.json"
cp "$HERE/ckpt8/shipped.onnx" "$HERE/ckpt8b/shipped.onnx"
# Stage 8b (session 29): from the stage-8 mean, 1 000 steps at 2e-4 with
# the visible corpus's kinds of line added (texts.py visible, weight 10:
# labelled personal data and IBANs in 14-22 pt print, single letters and
# short stacks), the mean of 33 snapshots from step 200; then shipped: its
# mean with the stage-7 mean at 0.5 (chosen on the dev pages and the
# visible corpus, before the test pages were read; models/ocr/README.md).
# shellcheck disable=SC2086
"$HERE/train.sh" --ckpt "$HERE/ckpt8b" --init-onnx "$HERE/ckpt8b/s8mean.onnx" --steps 1000 \
	--lr 2e-4 $MIX --confusable-weight 6 --escape-weight 5 --focus-weight 12 --marks-orgs-weight 10 \
	--visible-weight 10 --bold 0.2 --average-from 200 --average-every 25
cp "$OCR/latin/rec.float.onnx" "$HERE/ckpt8b/stage8b.onnx"
cp "$OCR/latin/manifest.json" "$HERE/ckpt8b/manifest.json"
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "${PYTHON:-/usr/bin/python3}" "$HERE/soup.py" \
	--a "$HERE/ckpt8b/shipped.onnx" --b "$HERE/ckpt8b/stage8b.onnx" --weight 0.5 --out "$OCR/latin" \
	--data "$HERE/../../../../shared/data"
