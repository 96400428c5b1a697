#!/bin/sh
# Trains the shipped redactd-latin from nothing: the recipe's stages in
# order, each resuming from train/ckpt where the one before stopped (a
# stage already done only exports again). See models/ocr/README.md for
# what each stage changed and what it measured. About 264 minutes of one
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
