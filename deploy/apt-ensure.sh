#!/usr/bin/env bash
# apt-ensure.sh LABEL PKG... installs the Debian packages among PKG that
# are missing, for the tools the tests and the benchmark drive besides the
# code (bench/setup.sh: the peers; .ci/browser-setup.sh: chromium). It is
# idempotent; when apt-get is not usable (not root and no sudo, no
# network) it says so, prefixed with LABEL, and exits 0: the caller
# reports what is missing instead of failing here.
set -uo pipefail

label=$1
shift
missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "$label: already installed: $*"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
		SUDO="sudo -n"
	else
		echo "$label: not root and no sudo; missing: ${missing[*]}" >&2
		exit 0
	fi
fi

export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get update -qq; then
	echo "$label: apt-get update failed; missing: ${missing[*]}" >&2
	exit 0
fi
if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
	echo "$label: apt-get install failed; missing: ${missing[*]}" >&2
fi
exit 0
