#!/usr/bin/env bash
# cluster-throughput.sh measures real documents through a loopback
# cluster: deploy/cluster/local.sh starts 3 NATS servers and NODES redactd
# nodes (--engine nats), node i is pinned to CPU core i-1 (taskset, all
# its threads, one page worker, one ONNX thread), every PDF under the
# given folders goes in through the nodes in turn, and the script waits
# until all are terminal. It prints one line:
#   nodes=N docs=D pages=P seconds=S pages_per_s=R errors=E
#
#   [REPEAT=K] bench/cluster-throughput.sh NODES FOLDER...
#
# REPEAT sends every file K times, so that a few heavy documents do not
# decide the whole run's length. KEEP=1 keeps the cluster's directory
# (logs) after the run.
# The NATS servers are not pinned: they share the cores with the nodes,
# as they would not on a real install. Needs make build and make setup.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/..
nodes=$1
shift
dir=$(mktemp -d /tmp/rdthr.XXXXXX)
trap '"$root/deploy/cluster/local.sh" down "$dir" >/dev/null 2>&1 || true; [[ -n ${KEEP:-} ]] || rm -rf "$dir"' EXIT
out=$(NODE_FLAGS="--workers 1 --ort-threads 1 --max-concurrent-jobs 2 --rate-limit 0 --log-level info" \
	"$root/deploy/cluster/local.sh" up "$dir" "$nodes")
bases=$(sed -n 's/^BASES=//p' <<<"$out")
key=$(sed -n 's/^KEY=//p' <<<"$out")
i=0
for f in "$dir"/pids/redactd-*.pid; do
	taskset -a -p -c "$i" "$(cat "$f")" >/dev/null
	i=$((i + 1))
done
read -r -a urls <<<"$bases"
mapfile -t once < <(find "$@" -name '*.pdf' | sort)
files=()
for _ in $(seq "${REPEAT:-1}"); do files+=("${once[@]}"); done
start=$(date +%s.%N)
jobs=()
for n in "${!files[@]}"; do
	u=${urls[$((n % ${#urls[@]}))]}
	id=$(curl -sf -H "X-API-Key: $key" -F "files=@${files[$n]}" "$u/v1/jobs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["job_id"])')
	jobs+=("$id")
done
pages=0 errors=0
for id in "${jobs[@]}"; do
	while :; do
		j=$(curl -sf -H "X-API-Key: $key" "${urls[0]}/v1/jobs/$id")
		st=$(python3 -c 'import json,sys; j=json.load(sys.stdin); d=j["documents"][0]; print(d["status"], d["page_count"])' <<<"$j")
		case ${st%% *} in
		redacted) pages=$((pages + ${st##* })); break ;;
		error) errors=$((errors + 1)); break ;;
		esac
		sleep 0.2
	done
done
end=$(date +%s.%N)
secs=$(python3 -c "print(round($end - $start, 2))")
echo "nodes=$nodes docs=${#files[@]} pages=$pages seconds=$secs pages_per_s=$(python3 -c "print(round($pages / ($end - $start), 2))") errors=$errors"
