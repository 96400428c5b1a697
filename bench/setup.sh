#!/usr/bin/env bash
# setup.sh installs the peer tools the benchmark compares redactd against,
# from Debian: mutool (mupdf-tools), pdftoppm (poppler-utils), Tesseract
# with English data, and OCRmyPDF. It is idempotent; when apt-get is not
# usable (not root, no network) it says so and exits 0, and the benchmark
# reports the missing peers instead of failing.
set -uo pipefail
cd "$(dirname "$0")/.."
exec ./deploy/apt-ensure.sh bench/setup mupdf-tools poppler-utils tesseract-ocr tesseract-ocr-eng ocrmypdf
