#!/usr/bin/env bash
# profile.sh takes a CPU profile of redactd serving one of the bench's
# corpora and splits it into the pipeline's stages and the models' runs
# (bench/PROFILE.md):
#
#   bench/profile.sh CORPUS [BINARY [SECONDS [OUT]]]
#
# CORPUS is text, long, scan, photo or real. It starts BINARY (default
# bin/redactd) serve with --pprof on a fresh data directory and runs
# bin/bench against it (--url) on that corpus alone (no peers, no OCR
# checks): the text corpus five times in a row at concurrency 16, the
# scan corpus once and then 20 jobs of it 16 at a time, the others once
# at concurrency 8. Once the corpus starts, it takes a SECONDS-long CPU
# profile from the admin socket (default 20 for text, within its runs;
# for the others long enough to cover the whole corpus on a 2-core
# machine: scan 60, long 40, real 30, photo 15) and counts the pages the
# server redacted meanwhile (redactd_pages_total) and the CPU time it used
# (/proc). It prints the server's CPU milliseconds per page, then one
# line per stage: the profile's samples under that stage's functions, in
# milliseconds per page.
#
# Model runs are made by batchers on goroutines of their own, so they are
# lines of their own (the detector, the recogniser with the cross-reading
# PP-OCRv4, the direction classifier, NER), never inside the stage that
# asked for them; "OCR, Go side" (detector input, crops, ink profiles,
# decoding) overlaps "font checks" and "release check", which read
# pixels through it. Samples on threads ONNX Runtime starts itself (a
# session's intra-op pool beyond the calling thread) have no Go stack:
# pprof puts them under runtime._ExternalCode, the "ONNX Runtime pool
# threads" line. MuPDF's own functions are one cgocall to pprof; `perf
# record -p PID` on the server shows them. The profile stays in OUT
# (default a temporary folder) for `go tool pprof BINARY OUT/cpu.pb.gz`,
# beside the allocations since the server started (OUT/allocs.pb.gz).
#
# CPU per page, unlike pages/s, barely moves with other work on the
# machine; compare two binaries (bench/baseline.sh builds an earlier
# commit's) by running the script on each, in turn, more than once.
# Needs make build (bin/bench) and the shared data.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/..
corpus=${1:?usage: profile.sh CORPUS [BINARY [SECONDS [OUT]]]}
bin=$(realpath "${2:-$root/bin/redactd}")
out=${4:-$(mktemp -d /tmp/rdprof.XXXXXX)}
runs=(--concurrency 8 --scan-load 0)
case $corpus in
text)
	secs=${3:-20}
	runs=(--sweep 16,16,16,16,16)
	start="concurrency=16"
	;;
scan)
	secs=${3:-60}
	runs=(--concurrency 8 --scan-load 16)
	start="corpus=$corpus docs"
	;;
long)
	secs=${3:-40}
	start="corpus=$corpus docs"
	;;
real)
	secs=${3:-30}
	start="corpus=$corpus docs"
	;;
photo)
	secs=${3:-15}
	start="corpus=$corpus docs"
	;;
*)
	echo "profile.sh: corpus $corpus: want text, long, scan, photo or real" >&2
	exit 2
	;;
esac
mkdir -p "$out"
work=$out/work
rm -rf "$work"
mkdir -p -m 0700 "$work/data"
freeport() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(freeport)
mport=$(freeport)
key=$("$bin" keys create --data "$work/data" --email bench@redactd.invalid --plan standard --pages 1000000000 | tail -1)
"$bin" serve --data "$work/data" --listen "127.0.0.1:$port" --metrics-listen "127.0.0.1:$mport" --rate-limit 0 \
	--pprof=true --dpi=150 --log-level warn >"$out/redactd.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do
	kill -0 "$pid" 2>/dev/null || { echo "redactd serve exited; see $out/redactd.log" >&2; exit 1; }
	sleep 0.2
done
REDACTD_API_KEY=$key "$root/bin/bench" --url "http://127.0.0.1:$port" --metrics-url "http://127.0.0.1:$mport" \
	--pid "$pid" --corpora "$corpus" --peers=false --ocr=false --ocr-eval=false --recogniser-gate=false \
	"${runs[@]}" --work "$work/bench" --out "$out/results.md" -v >"$out/bench.log" 2>&1 &
bench=$!
until grep -q -- "$start" "$out/bench.log" 2>/dev/null; do
	kill -0 "$bench" 2>/dev/null || { echo "bench exited early; see $out/bench.log" >&2; exit 1; }
	sleep 0.5
done
maddr=127.0.0.1:$mport
pages() { curl -s "http://$maddr/metrics" | awk '/^redactd_pages_total/ {s += $2} END {print s + 0}'; }
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
p0=$(pages)
t0=$(ticks)
curl -s --unix-socket "$work/data/admin.sock" "http://admin/debug/pprof/profile?seconds=$secs" -o "$out/cpu.pb.gz"
curl -s --unix-socket "$work/data/admin.sock" "http://admin/debug/pprof/allocs" -o "$out/allocs.pb.gz"
t1=$(ticks)
p1=$(pages)
curl -s "http://$maddr/metrics" | grep -E '^redactd_ner_windows_total' >"$out/ner-windows.txt" || true
wait "$bench" || true
n=$((p1 - p0))
if ((n <= 0)); then
	echo "no pages redacted during the profile; see $out/bench.log" >&2
	exit 1
fi
hz=$(getconf CLK_TCK)
echo "corpus=$corpus pages=$n server_cpu_ms_per_page=$(awk -v t=$((t1 - t0)) -v n=$n -v hz="$hz" 'BEGIN {printf "%.1f", t * 1000 / hz / n}')"
stage() { # name focus [ignore]
	local args=(-top -focus "$2")
	[[ -n ${3:-} ]] && args+=(-ignore "$3")
	local v
	v=$(go tool pprof "${args[@]}" "$bin" "$out/cpu.pb.gz" 2>/dev/null |
		grep -o 'accounting for [0-9.]*m\?s' | head -1 | awk '{print $3}' || true)
	awk -v v="${v:-0s}" -v n=$n -v name="$1" 'BEGIN {
		ms = v; sub(/m?s$/, "", ms); if (v !~ /ms$/) ms *= 1000
		printf "%-30s %8.2f ms/page\n", name, ms / n }'
}
go tool pprof -top "$bin" "$out/cpu.pb.gz" 2>/dev/null | grep -o 'Total samples = [0-9.]*m\?s' |
	awk -v n=$n '{v = $4; ms = v; sub(/m?s$/, "", ms); if (v !~ /ms$/) ms *= 1000; printf "%-30s %8.2f ms/page\n", "profile, all", ms / n}'
stage "parse (load, words)" 'pdfSource\).(Load|Open)|mupdf\.Open'
stage "render" 'pdfPage\).Render'
stage "font checks" 'Pipeline\)\.checkFonts'
stage "ink analysis" 'pipeline\.unexplainedInk'
stage "OCR, Go side" 'models/ocr\.' 'runDet|recChunk|runCls'
stage "OCR detector runs" 'ocr\.\(\*Engine\)\.runDet'
stage "OCR recogniser runs" 'ocr\.\(\*Engine\)\.recChunk'
stage "OCR classifier runs" 'ocr\.\(\*Engine\)\.runCls'
stage "NER model runs" 'ner\.\(\*ownModel\)\.run'
stage "ONNX Runtime pool threads" 'runtime\._ExternalCode'
stage "NER detector, Go side" 'ner\.\(\*Detector\)\.Detect' 'ownModel'
stage "rules, recognizers" 'detect\.Run' 'ner\.'
stage "visual (faces, codes)" 'Pipeline\)\.visualPage'
stage "handwriting" 'Pipeline\)\.handPage'
stage "release check" 'Pipeline\)\.releaseCheck'
stage "burn" 'pipeline/burn\.|Pipeline\)\.burn'
stage "encode" 'pdfout\.Encode'
stage "job service, store" 'engine/jobs|engine/store'
stage "HTTP" 'fasthttp|server\.'
stage "GC, runtime background" 'runtime\.(gcBgMarkWorker|bgsweep|bgscavenge)'
echo "NER windows (whole run): $(tr '\n' ' ' <"$out/ner-windows.txt")"
