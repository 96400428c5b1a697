#!/usr/bin/env bash
# apt-ensure_test.sh tests deploy/apt-ensure.sh against the real apt-get
# and apt's real locks (make test runs it): it waits for a lock another
# process holds, within its bound, and under CI a package it cannot install
# fails the run. It asks for a package no archive has, so nothing is ever
# installed. It needs root (to hold apt's locks) and skips without it.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
	echo "apt-ensure_test: skipped (needs root to hold apt's locks)"
	exit 0
fi

nopkg=redactd-test-no-such-package
passed=0
failed=0
check() { # name condition-status
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $1" >&2
		printf '%s\n' "$out" | sed 's/^/    /' >&2
	fi
}

# hold_locks SECONDS: holds apt's lists lock and dpkg's locks as apt and
# dpkg do (fcntl), in the background; returns once they are held.
hold_locks() {
	python3 - "$1" <<'EOF' &
import fcntl, sys, time
fs = [open(p, "a") for p in ("/var/lib/apt/lists/lock", "/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock")]
for f in fs:
    fcntl.lockf(f, fcntl.LOCK_EX)
open("/tmp/apt-ensure-test.held", "w").close()
time.sleep(float(sys.argv[1]))
EOF
	holder=$!
	for _ in $(seq 100); do
		[ -e /tmp/apt-ensure-test.held ] && break
		sleep 0.1
	done
	rm -f /tmp/apt-ensure-test.held
}

# A package that cannot be installed fails the run under CI, with a
# message that names it, and does not outside CI.
out=$(CI=true ./deploy/apt-ensure.sh t $nopkg 2>&1)
rc=$?
[ $rc -eq 1 ] && grep -q "FAILED under CI.*$nopkg" <<<"$out"
check "under CI a missing package exits 1 and names it (rc=$rc)" $?

out=$(env -u CI ./deploy/apt-ensure.sh t $nopkg 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "missing: $nopkg" <<<"$out"
check "outside CI a missing package exits 0 and names it (rc=$rc)" $?

# apt's locks held for 6 s: it waits for them instead of giving up.
hold_locks 6
start=$SECONDS
out=$(CI=true APT_LOCK_WAIT=60 ./deploy/apt-ensure.sh t $nopkg 2>&1)
rc=$?
took=$((SECONDS - start))
wait $holder
[ $took -ge 4 ] && grep -q "waiting for apt's lock" <<<"$out" && ! grep -q "update failed" <<<"$out"
check "waits for a held lock (took ${took}s, rc=$rc)" $?

# Held past the bound: it gives up after about APT_LOCK_WAIT, under CI loudly.
hold_locks 15
start=$SECONDS
out=$(CI=true APT_LOCK_WAIT=3 ./deploy/apt-ensure.sh t $nopkg 2>&1)
rc=$?
took=$((SECONDS - start))
kill $holder 2>/dev/null
wait $holder 2>/dev/null
[ $rc -eq 1 ] && [ $took -ge 2 ] && [ $took -le 10 ] && grep -q "update failed" <<<"$out"
check "gives up after its bound, under CI with exit 1 (took ${took}s, rc=$rc)" $?

echo "apt-ensure_test: $passed passed, $failed failed"
[ $failed -eq 0 ]
