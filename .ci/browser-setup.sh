#!/usr/bin/env bash
# browser-setup.sh installs Debian's chromium for the review editor's
# real-browser test (server: TestReviewBrowser), the way bench/setup.sh
# installs the benchmark's peers. It is idempotent; when apt-get is not
# usable (not root, no network) it says so and exits 0, and the test then
# fails under CI (it skips only when no browser is found and CI is unset).
set -uo pipefail

if command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null; then
	echo "browser-setup: a browser is already installed"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
		SUDO="sudo -n"
	else
		echo "browser-setup: not root and no sudo; chromium is missing" >&2
		exit 0
	fi
fi

export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get update -qq; then
	echo "browser-setup: apt-get update failed; chromium is missing" >&2
	exit 0
fi
if ! $SUDO apt-get install -y -qq --no-install-recommends chromium; then
	echo "browser-setup: apt-get install chromium failed" >&2
fi
exit 0
