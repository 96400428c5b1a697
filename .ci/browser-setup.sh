#!/usr/bin/env bash
# browser-setup.sh installs Debian's chromium for the review editor's
# real-browser test (server: TestReviewBrowser), the way bench/setup.sh
# installs the benchmark's peers (deploy/apt-ensure.sh). It is idempotent;
# when apt-get is not usable it says so and exits 0, and the test then
# fails under CI (it skips only when no browser is found and CI is unset).
set -uo pipefail
cd "$(dirname "$0")/.."
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null; then
	echo "browser-setup: a browser is already installed"
	exit 0
fi
exec ./deploy/apt-ensure.sh browser-setup chromium
