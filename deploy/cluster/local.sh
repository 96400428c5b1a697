#!/usr/bin/env bash
# local.sh starts and stops a redactd cluster on loopback, all data under DIR.
#
#   deploy/cluster/local.sh up DIR [NODES]   3 NATS servers, NODES redactd nodes
#   deploy/cluster/local.sh down DIR         stop everything started in DIR
#
# up writes DIR/conf/nats-{1,2,3}.conf (R3-ready cluster, sync_interval:
# always), DIR/nats-{1,2,3}/ (stores), DIR/logs/ and DIR/pids/nats-{1,2,3}.pid,
# and waits until JetStream has a leader. It then starts NODES (default 3)
# `redactd serve --engine nats` nodes: node i keeps its own data directory
# DIR/redactd-i (admin socket, scratch files) and shares nothing else with
# the others (originals and outputs are blobs in the cluster's Object
# Store; NODE_FLAGS="--blob-store dir --blob-dir D" uses a directory), listens on 127.0.0.1:REDACTD_PORT+i-1 (metrics
# on +100), and writes DIR/pids/redactd-i.pid. Once every node is ready it
# creates an account (standard plan) through node 1 and prints
#   NATS=<client URLs, comma-separated>
#   BASES=<node URLs, space-separated>
#   KEY=<the account's API key>
#
# Environment: REDACTD_BIN (default: bin/redactd of this checkout; run
# `make build`), NATS_PORT (first client port, default 14222; the servers
# use NATS_PORT..+2, cluster ports NATS_PORT+2000.., monitoring +4000..),
# REDACTD_PORT (first node port, default 18080), NODE_FLAGS (more flags for
# every node, e.g. "--nats-lease 3s --max-concurrent-jobs 2").
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=${REDACTD_BIN:-$here/../../bin/redactd}
base=${NATS_PORT:-14222}
nbase=${REDACTD_PORT:-18080}

die() { echo "local.sh: $*" >&2; exit 1; }

usage() {
	echo "usage: $0 up DIR [NODES] | down DIR" >&2
	exit 2
}

# alive PID: the process exists and is one of ours (a redactd binary), so a
# recycled pid is never signalled.
alive() {
	[[ -r /proc/$1/cmdline ]] && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q redactd
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

write_conf() { # i dir
	local i=$1 dir=$2
	cat >"$dir/conf/nats-$i.conf" <<CONF
server_name: nats-$i
listen: 127.0.0.1:$((base + i - 1))
http: 127.0.0.1:$((base + 4000 + i - 1))
jetstream {
  store_dir: "$dir/nats-$i"
  sync_interval: always
  max_memory_store: 64MB
  max_file_store: 8GB
}
cluster {
  name: redactd-local
  listen: 127.0.0.1:$((base + 2000 + i - 1))
  routes: [
    nats://127.0.0.1:$((base + 2000))
    nats://127.0.0.1:$((base + 2001))
    nats://127.0.0.1:$((base + 2002))
  ]
}
CONF
}

up() {
	local dir=$1 nodes=${2:-3}
	[[ $nodes =~ ^[0-9]+$ ]] || die "NODES must be a number, not $nodes"
	[[ -x $bin ]] || die "no redactd binary at $bin (run make build, or set REDACTD_BIN)"
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	mkdir -p "$dir/conf" "$dir/logs" "$dir/pids"
	chmod 700 "$dir"
	local urls=() i pid
	for i in 1 2 3; do
		if [[ -f $dir/pids/nats-$i.pid ]] && alive "$(cat "$dir/pids/nats-$i.pid")"; then
			die "nats-$i is running already (pid $(cat "$dir/pids/nats-$i.pid")); run: $0 down $dir"
		fi
		port_open $((base + i - 1)) && die "port $((base + i - 1)) is taken; set NATS_PORT"
		mkdir -p "$dir/nats-$i"
		write_conf "$i" "$dir"
		"$bin" nats --config "$dir/conf/nats-$i.conf" --check || die "nats-$i.conf refused"
		nohup "$bin" nats --config "$dir/conf/nats-$i.conf" >"$dir/logs/nats-$i.log" 2>&1 </dev/null &
		pid=$!
		echo "$pid" >"$dir/pids/nats-$i.pid"
		urls+=("nats://127.0.0.1:$((base + i - 1))")
	done
	local joined
	joined=$(IFS=,; echo "${urls[*]}")
	if ! "$bin" nats --wait "$joined" --timeout 60s; then
		echo "local.sh: the cluster did not become ready; logs in $dir/logs" >&2
		down "$dir"
		exit 1
	fi
	echo "NATS=$joined"
	[[ $nodes == 0 ]] && return
	local bases=() port ndir
	for i in $(seq "$nodes"); do
		port=$((nbase + i - 1))
		port_open "$port" && { down "$dir"; die "port $port is taken; set REDACTD_PORT"; }
		ndir=$dir/redactd-$i
		mkdir -p "$ndir"
		chmod 700 "$ndir"
		# shellcheck disable=SC2086 # NODE_FLAGS is a list of flags
		nohup "$bin" serve --engine nats --nats-url "$joined" \
			--data "$ndir" --listen "127.0.0.1:$port" --metrics-listen "127.0.0.1:$((port + 100))" \
			--log-format text ${NODE_FLAGS:-} >"$dir/logs/redactd-$i.log" 2>&1 </dev/null &
		echo "$!" >"$dir/pids/redactd-$i.pid"
		bases+=("http://127.0.0.1:$port")
	done
	for i in $(seq "$nodes"); do
		if ! ready "http://127.0.0.1:$((nbase + i - 1))" "$dir/pids/redactd-$i.pid"; then
			echo "local.sh: redactd-$i did not become ready; logs in $dir/logs" >&2
			down "$dir"
			exit 1
		fi
	done
	local key
	key=$("$bin" keys create --data "$dir/redactd-1" --email "local@cluster.invalid" --plan standard | tail -n 1)
	[[ -n $key ]] || { down "$dir"; die "creating the account failed"; }
	echo "BASES=${bases[*]}"
	echo "KEY=$key"
}

# ready URL PIDFILE: wait up to 2 minutes for GET URL/readyz to answer 200
# while the node's process lives.
ready() {
	local url=$1 pid
	pid=$(cat "$2")
	for _ in $(seq 1200); do
		alive "$pid" || return 1
		if { exec 3<>"/dev/tcp/127.0.0.1/${url##*:}"; } 2>/dev/null; then
			printf 'GET /readyz HTTP/1.0\r\nHost: x\r\n\r\n' >&3
			if head -n 1 <&3 | grep -q ' 200 '; then
				exec 3>&-
				return 0
			fi
			exec 3>&-
		fi
		sleep 0.1
	done
	return 1
}

# stop PIDFILE: SIGTERM, up to 15 s, then SIGKILL.
stop() {
	local f=$1 pid
	pid=$(cat "$f")
	if [[ $pid =~ ^[0-9]+$ ]] && alive "$pid"; then
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 150); do
			alive "$pid" || break
			sleep 0.1
		done
		if alive "$pid"; then
			echo "local.sh: $(basename "$f" .pid) ignored SIGTERM; killing" >&2
			kill -KILL "$pid" 2>/dev/null || true
		fi
	fi
	rm -f "$f"
}

down() {
	local dir=$1 f
	[[ -d $dir/pids ]] || die "$dir/pids does not exist"
	shopt -s nullglob
	for f in "$dir"/pids/redactd-*.pid "$dir"/pids/nats-*.pid; do
		stop "$f"
	done
}

case ${1:-} in
up) [[ $# -ge 2 && $# -le 3 ]] || usage; up "$2" "${3:-3}" ;;
down) [[ $# -eq 2 ]] || usage; down "$2" ;;
*) usage ;;
esac
