#!/usr/bin/env bash
# profile.sh takes a CPU profile of redactd serving one of the bench's
# corpora and splits it into the pipeline's stages and the models' runs
# (bench/PROFILE.md):
#
#   bench/profile.sh CORPUS [BINARY [OUT]]
#
# CORPUS is text, long, scan, photo or real. It runs bin/bench with
# --profile on that corpus alone (no peers, no OCR checks), the bench
# starting BINARY (default bin/redactd) with --pprof on a fresh data
# directory: the text corpus at concurrency 8 and then five times in a
# row at 16, the scan corpus at 8 and then 16 jobs of it at once, the
# others once at 8. The profile covers every run of the corpus
# (bench/internal/cpuprof). It prints the corpus's throughput row
# (with the server's CPU a page, from /proc, over the main run) and the
# CPU by stage in milliseconds a page (cpuprof.Stages: which functions
# make each line); the profile stays in OUT (default a temporary folder)
# for `go tool pprof BINARY OUT/CORPUS.pb.gz`, beside the bench's log.
#
# CPU per page, unlike pages/s, barely moves with other work on the
# machine; compare two binaries by running the script on each, in turn,
# more than once, or in one run with `bin/bench --profile DIR --baseline
# BIN` (bench/baseline.sh builds an earlier commit's binary), whose
# report has the stages before and after. Needs make build (bin/bench)
# and the shared data.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/..
corpus=${1:?usage: profile.sh CORPUS [BINARY [OUT]]}
bin=$(realpath "${2:-$root/bin/redactd}")
out=${3:-$(mktemp -d /tmp/rdprof.XXXXXX)}
case $corpus in
text) runs=(--sweep 16,16,16,16,16) ;;
scan) runs=(--scan-load 16) ;;
long | real | photo) runs=(--scan-load 0) ;;
*)
	echo "profile.sh: corpus $corpus: want text, long, scan, photo or real" >&2
	exit 2
	;;
esac
mkdir -p "$out"
"$root/bin/bench" --redactd "$bin" --corpora "$corpus" --profile "$out" --concurrency 8 \
	--peers=false --ocr=false --ocr-eval=false --recogniser-gate=false "${runs[@]}" \
	--work "$out/work" --out "$out/results.md" -v >"$out/bench.log" 2>&1 ||
	{ echo "bench failed; see $out/bench.log" >&2; exit 1; }
sed -n '/^## Throughput/,/^## /{/^|/p}' "$out/results.md" | head -3
echo
sed -n '/^## CPU by stage/,/^## /{/^|/p}' "$out/results.md"
echo
echo "profile: $out/$corpus.pb.gz (go tool pprof $bin $out/$corpus.pb.gz)"
