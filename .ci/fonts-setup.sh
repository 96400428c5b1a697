#!/usr/bin/env bash
# fonts-setup.sh installs the Debian font packages that the OCR tests draw
# their names and invoices with (models/ocr diacritics_test.go testFonts:
# DejaVu Serif, Liberation Sans, Carlito, Nimbus Mono PS), the way
# browser-setup.sh installs chromium (deploy/apt-ensure.sh: idempotent; it
# says so and exits 0 when apt-get is not usable). Without them those
# tests draw fewer names, in other fonts, and their gates fail.
set -uo pipefail
cd "$(dirname "$0")/.."
exec ./deploy/apt-ensure.sh fonts-setup fonts-dejavu-core fonts-liberation fonts-crosextra-carlito fonts-urw-base35
