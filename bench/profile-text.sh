#!/usr/bin/env bash
# profile-text.sh takes a CPU profile of redactd serving the bench's text
# corpus and splits it into the pipeline's stages (bench/PROFILE.md,
# "Text-layer pages"):
#
#   bench/profile-text.sh [BINARY [SECONDS [OUT]]]
#
# It runs bin/bench on the text corpus alone (no peers, no OCR checks),
# five times in a row at concurrency 16, against BINARY (default
# bin/redactd) started with --pprof; once the runs at 16 begin, it takes
# a SECONDS-long (default 20) CPU profile from the admin socket and counts
# the pages the server redacted meanwhile (redactd_pages_total) and the
# CPU time it used (/proc). It prints the server's CPU milliseconds per
# page, then one line per stage: the profile's samples under that stage's
# functions, in milliseconds per page. Samples on threads ONNX Runtime
# starts itself (a session's intra-op pool beyond the calling thread)
# have no Go stack: pprof puts them under runtime._ExternalCode, the
# "ONNX Runtime pool threads" line. The profile stays in OUT (default
# a temporary folder) for `go tool pprof BINARY OUT/cpu.pb.gz`, beside
# the allocations since the server started (OUT/allocs.pb.gz, for
# `-sample_index=alloc_space`). MuPDF's own functions are one cgocall to
# pprof; `perf record -p PID` on the server shows them.
#
# CPU per page, unlike pages/s, barely moves with other work on the
# machine; compare two binaries by running the script on each, in turn,
# more than once. Needs make build (bin/bench) and the shared data.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/..
bin=$(realpath "${1:-$root/bin/redactd}")
secs=${2:-20}
out=${3:-$(mktemp -d /tmp/rdprof.XXXXXX)}
mkdir -p "$out"
work=$out/work
rm -rf "$work"
mkdir -p "$work"
"$root/bin/bench" --redactd "$bin" --corpora text --peers=false --ocr=false --ocr-eval=false \
	--sweep 16,16,16,16,16 --work "$work" --keep --server-arg=--pprof=true \
	--out "$out/results.md" -v >"$out/bench.log" 2>&1 &
bench=$!
until grep -q "concurrency=16" "$out/bench.log" 2>/dev/null; do
	kill -0 "$bench" 2>/dev/null || { echo "bench exited early; see $out/bench.log" >&2; exit 1; }
	sleep 0.5
done
pid=$(pgrep -f -- "$bin serve" | head -1)
maddr=$(tr '\0' ' ' <"/proc/$pid/cmdline" | grep -o -- '--metrics-listen [^ ]*' | awk '{print $2}')
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
hz=$(getconf CLK_TCK)
echo "pages=$n server_cpu_ms_per_page=$(awk -v t=$((t1 - t0)) -v n=$n -v hz="$hz" 'BEGIN {printf "%.1f", t * 1000 / hz / n}')"
stage() { # name focus [ignore]
	local args=(-top -focus "$2")
	[[ -n ${3:-} ]] && args+=(-ignore "$3")
	local v
	v=$(go tool pprof "${args[@]}" "$bin" "$out/cpu.pb.gz" 2>/dev/null |
		grep -o 'accounting for [0-9.]*m\?s' | head -1 | awk '{print $3}' || true)
	awk -v v="${v:-0s}" -v n=$n -v name="$1" 'BEGIN {
		ms = v; sub(/m?s$/, "", ms); if (v !~ /ms$/) ms *= 1000
		printf "%-26s %6.2f ms/page\n", name, ms / n }'
}
go tool pprof -top "$bin" "$out/cpu.pb.gz" 2>/dev/null | grep -o 'Total samples = [0-9.]*m\?s' |
	awk -v n=$n '{v = $4; ms = v; sub(/m?s$/, "", ms); if (v !~ /ms$/) ms *= 1000; printf "%-26s %6.2f ms/page\n", "profile, all", ms / n}'
stage "parse (load, words)" 'pdfSource\).(Load|Open)|mupdf\.Open'
stage "render" 'pdfPage\).Render'
stage "font checks" 'Pipeline\)\.checkFonts'
stage "ink analysis" 'pipeline\.unexplainedInk'
stage "NER model runs" 'ner\.\(\*ownModel\)\.run'
stage "ONNX Runtime pool threads" 'runtime\._ExternalCode'
stage "NER detector, Go side" 'ner\.\(\*Detector\)\.Detect' 'ownModel'
stage "rules, recognizers" 'detect\.Run' 'ner\.'
stage "burn" 'pipeline/burn\.|Pipeline\)\.burn'
stage "encode" 'pdfout\.Encode'
stage "job service, store" 'engine/jobs|engine/store'
stage "HTTP" 'fasthttp|server\.'
stage "GC, runtime background" 'runtime\.(gcBgMarkWorker|bgsweep|bgscavenge)'
echo "NER windows (whole run): $(tr '\n' ' ' <"$out/ner-windows.txt")"
