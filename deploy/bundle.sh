#!/usr/bin/env bash
# bundle.sh builds the air-gapped release tarball (`make bundle`):
#
#   dist/redactd-VERSION-linux-amd64.tar.gz
#     redactd-VERSION-linux-amd64/
#       install.sh                    installer (see deploy/install.sh)
#       bin/redactd bin/redact        -trimpath, version stamped (redactd version)
#       lib/libonnxruntime.so.1       ONNX Runtime (CPU build) from `make setup`
#       lib/SHA256SUMS
#       models/ocr/...                PaddleOCR models from `make setup`
#       models/SHA256SUMS             (the NER model is embedded in redactd)
#       etc/redactd.json              default configuration
#       systemd/redactd.service       hardened unit
#       licenses/                     LICENSE, THIRD_PARTY.md, the NER manifest,
#                                     licenses of the Go modules linked in
#       README.md VERSION
#       REQUIRES                      "glibc X.Y": the oldest glibc it runs on
#       SHA256SUMS                    every file above; install.sh checks it first
#
# Usage: deploy/bundle.sh [--out DIR] [--version VERSION]
# VERSION defaults to $VERSION, else `git describe --always --dirty`, else
# the VERSION file at the repository root, else "dev".
# Needs Go, gcc and the files of `make setup` (checked against their pinned
# SHA-256 by running deploy/setup.sh, which works offline once they exist).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${REDACTD_CACHE:-$ROOT/.cache}"
GO="${GO:-go}"
OUT="$ROOT/dist"
VER="${VERSION:-}"

die() {
	echo "bundle: $*" >&2
	exit 1
}

while (($#)); do
	case "$1" in
	--out) OUT="${2:?--out needs a directory}"; shift 2 ;;
	--version) VER="${2:?--version needs a value}"; shift 2 ;;
	-h | --help) sed -n '2,26p' "${BASH_SOURCE[0]}"; exit 0 ;;
	*) die "unknown argument $1" ;;
	esac
done

if [[ -z "$VER" ]]; then
	VER="$(git -C "$ROOT" describe --always --dirty 2>/dev/null || true)"
fi
if [[ -z "$VER" && -s "$ROOT/VERSION" ]]; then
	VER="$(tr -d '[:space:]' <"$ROOT/VERSION")"
fi
if [[ -z "$VER" ]]; then
	echo "bundle: no git checkout and no VERSION file: versioning the bundle as dev" >&2
	VER=dev
fi
[[ "$VER" =~ ^[A-Za-z0-9._+-]+$ ]] || die "version $VER: only letters, digits and ._+- allowed"

# The C parts (MuPDF, ONNX Runtime) are built for the host only.
goos="$("$GO" env GOOS)" goarch="$("$GO" env GOARCH)"
[[ "$goos/$goarch" == linux/amd64 ]] || die "bundles are built on linux/amd64 (this Go targets $goos/$goarch)"

# Third-party files: present and matching their pinned sums.
REDACTD_CACHE="$CACHE" "$ROOT/deploy/setup.sh" >/dev/null

NAME="redactd-$VER-linux-amd64"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/redactd-bundle.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
S="$WORK/$NAME"
mkdir -p "$S"/{bin,lib,models,etc,systemd,licenses/go}

echo "bundle: building $NAME"
(
	cd "$ROOT"
	CGO_ENABLED=1 "$GO" build -trimpath -ldflags "-s -w -X main.version=$VER" -o "$S/bin/" ./cmd/redactd ./cmd/redact
)
[[ "$("$S/bin/redactd" version)" == "redactd $VER "* ]] || die "bin/redactd does not report version $VER"

install -m 0644 "$CACHE/ort/libonnxruntime.so.1" "$S/lib/"
cp -R "$CACHE/models/ocr" "$S/models/"
chmod -R u=rwX,go=rX "$S/models"

install -m 0644 "$ROOT/deploy/redactd.json" "$S/etc/redactd.json"
install -m 0644 "$ROOT/deploy/redactd.service" "$S/systemd/redactd.service"
install -m 0755 "$ROOT/deploy/install.sh" "$S/install.sh"
install -m 0644 "$ROOT/deploy/README.md" "$S/README.md"
install -m 0644 "$ROOT/LICENSE" "$ROOT/deploy/THIRD_PARTY.md" "$S/licenses/"
install -m 0644 "$ROOT/models/ner/model/manifest.json" "$S/licenses/ner-model-manifest.json"
echo "$VER" >"$S/VERSION"

# The oldest glibc the bundle runs on: the newest GLIBC_ symbol version any
# of its ELF files needs (it depends on the build host's glibc, since the
# linker binds each symbol to the host's newest version of it).
if command -v objdump >/dev/null; then
	glibc="$(objdump -T "$S"/bin/* "$S"/lib/*.so* | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n1)"
	[[ -n "$glibc" ]] || die "could not read the GLIBC_ symbol versions of the binaries"
	echo "glibc $glibc" >"$S/REQUIRES"
	echo "bundle: needs glibc >= $glibc"
else
	echo "bundle: warning: no objdump: the bundle does not record its glibc requirement" >&2
fi

# License files of every Go module linked into the binaries.
(cd "$ROOT" && "$GO" list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}} {{.Dir}}{{end}}{{end}}' ./cmd/redactd ./cmd/redact) |
	sort -u | while read -r mod dir; do
	[[ -n "$dir" ]] || continue
	found=0
	shopt -s nullglob nocaseglob
	for f in "$dir"/licen[cs]e* "$dir"/copying* "$dir"/notice* "$dir"/patents*; do
		[[ -f "$f" ]] || continue
		mkdir -p "$S/licenses/go/$mod"
		install -m 0644 "$f" "$S/licenses/go/$mod/"
		found=1
	done
	((found)) || echo "bundle: warning: no license file in module $mod" >&2
done

# Checksums: per directory (kept beside the installed files, read by
# `redactd doctor`) and for the whole bundle (checked by install.sh).
(cd "$S/lib" && sha256sum libonnxruntime.so.1 >SHA256SUMS)
(cd "$S/models" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum >SHA256SUMS)
(cd "$S" && find . -type f ! -path ./SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum >SHA256SUMS)

# Reproducible archive: sorted names, fixed owner, commit time.
mtime="$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)"
mkdir -p "$OUT"
tmp="$OUT/.$NAME.tar.gz.tmp"
tar -C "$WORK" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -cf - "$NAME" | gzip -n -6 >"$tmp"
mv -f "$tmp" "$OUT/$NAME.tar.gz"
echo "bundle: $OUT/$NAME.tar.gz ($(du -h "$OUT/$NAME.tar.gz" | cut -f1))"
