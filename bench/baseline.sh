#!/usr/bin/env bash
# baseline.sh builds redactd as it was at a commit, for the bench's
# before-and-after table (bench --baseline; RESULTS.md's "Before and
# after"):
#
#   bench/baseline.sh [COMMIT]        prints the binary's path
#   make bench BASELINE=d8a4eaf       the same, and the bench with it
#
# COMMIT defaults to d8a4eaf, the last commit before issue 45's first
# change (bench/PROFILE.md's "before"). The binary is built in a
# temporary git worktree and kept in .cache/baseline/COMMIT/, so a second
# call only prints the path. It uses the ONNX Runtime library and OCR
# models `make setup` installed, as the current binary does.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
commit=$(git -C "$root" rev-parse --short=12 "${1:-d8a4eaf}^{commit}")
out=$root/.cache/baseline/$commit
if [ ! -x "$out/redactd" ]; then
	tree=$(mktemp -d /tmp/redactd-baseline.XXXXXX)
	trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"' EXIT
	git -C "$root" worktree add --quiet --detach "$tree" "$commit" >&2
	mkdir -p "$out"
	(cd "$tree" && CGO_ENABLED=1 go build -o "$out/redactd" ./cmd/redactd) >&2
fi
echo "$out/redactd"
