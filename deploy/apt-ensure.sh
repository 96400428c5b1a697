#!/usr/bin/env bash
# apt-ensure.sh LABEL PKG... installs the Debian packages among PKG that
# are missing, for the tools the tests and the benchmark drive besides the
# code (bench/setup.sh: the peers; .ci/browser-setup.sh: chromium;
# .ci/fonts-setup.sh: the OCR tests' fonts). It is idempotent.
#
# Another apt or dpkg process (a fresh machine still installing something,
# unattended upgrades) holds apt's locks for a while. apt-get gives up at
# once on the package lists' lock and, unless told otherwise, on dpkg's, so
# every apt-get here waits for them, at most APT_LOCK_WAIT seconds in all
# (default 600): install through DPkg::Lock::Timeout, update (which has no
# such option for the lists' lock) by trying again every 2 s while apt
# says only that a lock is held.
#
# When the packages still cannot be installed (not root and no sudo, no
# network, a lock held past the bound), it says so, prefixed with LABEL.
# Outside CI it then exits 0, and the caller reports what is missing; under
# CI (CI set and not "false") it exits 1, so a test run fails here, loudly,
# instead of later for a reason that has nothing to do with the code.
set -uo pipefail

label=$1
shift
wait_s=${APT_LOCK_WAIT:-600}
deadline=$((SECONDS + wait_s))

missing_of() { # PKG... -> the ones not installed
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
	done
}

# give_up reports what is missing and exits: 1 under CI, else 0.
give_up() { # reason
	echo "$label: $1; missing: ${missing[*]}" >&2
	if [ -n "${CI:-}" ] && [ "${CI}" != "false" ]; then
		echo "$label: FAILED under CI: the tests need ${missing[*]}" >&2
		exit 1
	fi
	exit 0
}

# apt_locked: the output of a failed apt-get says only that a lock is held.
apt_locked() { # output
	grep -qE 'Could not get lock|Unable to lock|Unable to acquire the dpkg frontend lock|is another process using it' <<<"$1" &&
		! grep -qE 'Unable to locate package|Failed to fetch|Temporary failure' <<<"$1"
}

# apt_wait runs apt-get with ARGS, trying again while a lock is held and
# the bound allows; it prints apt-get's output and returns its status.
apt_wait() { # ARGS...
	local out rc left said=""
	while :; do
		left=$((deadline - SECONDS))
		((left < 1)) && left=1
		out=$($SUDO apt-get -o DPkg::Lock::Timeout="$left" "$@" 2>&1)
		rc=$?
		if [ $rc -eq 0 ] || ! apt_locked "$out" || ((SECONDS >= deadline)); then
			printf '%s\n' "$out"
			return $rc
		fi
		[ -n "$said" ] || echo "$label: waiting for apt's lock (at most ${wait_s}s in all)" >&2
		said=1
		sleep 2
	done
}

mapfile -t missing < <(missing_of "$@")
if [ ${#missing[@]} -eq 0 ]; then
	echo "$label: already installed: $*"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
		SUDO="sudo -n"
	else
		give_up "not root and no sudo"
	fi
fi

export DEBIAN_FRONTEND=noninteractive
if ! apt_wait update -qq; then
	give_up "apt-get update failed"
fi
apt_wait install -y -qq --no-install-recommends "${missing[@]}"
mapfile -t missing < <(missing_of "$@")
if [ ${#missing[@]} -ne 0 ]; then
	give_up "apt-get install failed"
fi
exit 0
