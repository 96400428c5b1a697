#!/usr/bin/env bash
# setup.sh installs the peer tools the benchmark compares redactd against,
# from Debian: mutool (mupdf-tools), pdftoppm (poppler-utils), Tesseract
# with English data, and OCRmyPDF. It is idempotent; when apt-get is not
# usable (not root, no network) it says so and exits 0, and the benchmark
# reports the missing peers instead of failing.
set -uo pipefail

PKGS=(mupdf-tools poppler-utils tesseract-ocr tesseract-ocr-eng ocrmypdf)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "bench/setup: peers already installed"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
		SUDO="sudo -n"
	else
		echo "bench/setup: not root and no sudo; missing peers: ${missing[*]}" >&2
		exit 0
	fi
fi

export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get update -qq; then
	echo "bench/setup: apt-get update failed; missing peers: ${missing[*]}" >&2
	exit 0
fi
if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
	echo "bench/setup: apt-get install failed; the report will list missing peers" >&2
fi
exit 0
