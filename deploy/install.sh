#!/usr/bin/env bash
# install.sh installs an unpacked redactd bundle. It needs no network, no Go
# and no compiler: only bash, coreutils (sha256sum, install) and, for a
# service install, systemd and useradd.
#
#   ./install.sh [--prefix DIR] [--no-systemd] [--confdir DIR] [--datadir DIR] [--force]
#
#   --prefix DIR    install under DIR (default /usr):
#                     DIR/bin/redactd, DIR/bin/redact
#                     DIR/lib/redactd/libonnxruntime.so.1   (+ SHA256SUMS)
#                     DIR/share/redactd/models/ocr/...      (+ SHA256SUMS)
#                     DIR/share/doc/redactd/                licenses, README
#   --confdir DIR   where redactd.json goes (default /etc/redactd with prefix
#                   /usr or /usr/local, else PREFIX/etc/redactd)
#   --datadir DIR   data directory (default /var/lib/redactd with prefix /usr
#                   or /usr/local, else PREFIX/var/lib/redactd)
#   --no-systemd    do not create the redactd user nor install the unit
#   --force         replace an existing redactd.json (default: keep it and
#                   write the new one beside it as redactd.json.new)
#
# Run as root on a systemd host (and without --no-systemd) it also creates
# the system user `redactd`, gives it the data directory (mode 0700) and
# installs /etc/systemd/system/redactd.service (not started). DESTDIR, when
# set, is prepended to every path written (for building images); nothing
# outside it is touched then. SHA256SUMS is verified before anything is
# installed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PREFIX=/usr
CONFDIR=
DATADIR=
SYSTEMD=1
FORCE=0
DESTDIR="${DESTDIR:-}"

die() {
	echo "install: $*" >&2
	exit 1
}
log() { echo "install: $*"; }

while (($#)); do
	case "$1" in
	--prefix) PREFIX="${2:?--prefix needs a directory}"; shift 2 ;;
	--prefix=*) PREFIX="${1#*=}"; shift ;;
	--confdir) CONFDIR="${2:?--confdir needs a directory}"; shift 2 ;;
	--confdir=*) CONFDIR="${1#*=}"; shift ;;
	--datadir) DATADIR="${2:?--datadir needs a directory}"; shift 2 ;;
	--datadir=*) DATADIR="${1#*=}"; shift ;;
	--no-systemd) SYSTEMD=0; shift ;;
	--force) FORCE=1; shift ;;
	-h | --help) sed -n '2,26p' "${BASH_SOURCE[0]}"; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done

# Absolute paths only: they are written into the config and the unit.
abspath() {
	case "$1" in
	/*) printf '%s\n' "${1%/}" ;;
	*) printf '%s/%s\n' "$(pwd)" "${1%/}" ;;
	esac
}
PREFIX="$(abspath "$PREFIX")"
[[ -n "$PREFIX" ]] || PREFIX=/
case "$PREFIX" in
/usr | /usr/local)
	: "${CONFDIR:=/etc/redactd}"
	: "${DATADIR:=/var/lib/redactd}"
	;;
*)
	: "${CONFDIR:=$PREFIX/etc/redactd}"
	: "${DATADIR:=$PREFIX/var/lib/redactd}"
	;;
esac
CONFDIR="$(abspath "$CONFDIR")"
DATADIR="$(abspath "$DATADIR")"
BINDIR="$PREFIX/bin"
LIBDIR="$PREFIX/lib/redactd"
MODELDIR="$PREFIX/share/redactd/models"
DOCDIR="$PREFIX/share/doc/redactd"
CONF="$CONFDIR/redactd.json"
UNIT=/etc/systemd/system/redactd.service

# 1. The bundle is complete and unchanged.
command -v sha256sum >/dev/null || die "sha256sum not found (coreutils)"
[[ -f "$HERE/SHA256SUMS" ]] || die "$HERE/SHA256SUMS missing: not an unpacked redactd bundle?"
log "verifying SHA256SUMS"
if ! (cd "$HERE" && sha256sum --check --quiet --strict SHA256SUMS); then
	die "the bundle does not match its SHA256SUMS: download it again"
fi
VERSION="$(cat "$HERE/VERSION")"

# 2. The machine can run it.
[[ "$(uname -s)/$(uname -m)" == Linux/x86_64 ]] || die "this bundle is for Linux x86-64, not $(uname -s)/$(uname -m)"
need="$(sed -n 's/^glibc //p' "$HERE/REQUIRES" 2>/dev/null || true)"
: "${need:=2.28}"
if glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null)"; then
	v="${glibc#glibc }"
	if [[ "$(printf '%s\n%s\n' "$v" "$need" | sort -V | head -n1)" != "$need" ]]; then
		die "glibc $v is too old: this build of redactd needs glibc $need or newer (see README.md, \"Supported systems\")"
	fi
else
	log "warning: could not read the glibc version (musl?); redactd needs glibc $need or newer"
fi

# 3. Service install only as root on a systemd host, never into DESTDIR.
if ((SYSTEMD)); then
	if [[ -n "$DESTDIR" ]]; then
		SYSTEMD=0
		log "DESTDIR set: not creating the user nor installing the unit"
	elif [[ $EUID -ne 0 ]]; then
		SYSTEMD=0
		log "not root: installing files only (no redactd user, no systemd unit)"
	elif [[ ! -d /run/systemd/system ]] || ! command -v systemctl >/dev/null; then
		SYSTEMD=0
		log "systemd is not running here: installing files only"
	fi
fi

log "installing redactd $VERSION into ${DESTDIR}$PREFIX"
install -d -m 0755 "$DESTDIR$BINDIR" "$DESTDIR$LIBDIR" "$DESTDIR$MODELDIR" "$DESTDIR$DOCDIR" "$DESTDIR$CONFDIR"
install -m 0755 "$HERE/bin/redactd" "$HERE/bin/redact" "$DESTDIR$BINDIR/"
install -m 0644 "$HERE/lib/libonnxruntime.so.1" "$HERE/lib/SHA256SUMS" "$DESTDIR$LIBDIR/"
rm -rf "$DESTDIR$MODELDIR.new"
cp -R "$HERE/models" "$DESTDIR$MODELDIR.new"
chmod -R u=rwX,go=rX "$DESTDIR$MODELDIR.new"
rm -rf "$DESTDIR$MODELDIR"
mv "$DESTDIR$MODELDIR.new" "$DESTDIR$MODELDIR"
cp -R "$HERE/licenses/." "$DESTDIR$DOCDIR/"
install -m 0644 "$HERE/README.md" "$HERE/VERSION" "$DESTDIR$DOCDIR/"
chmod -R u=rwX,go=rX "$DESTDIR$DOCDIR"

# 4. Configuration: the bundle's default with this install's paths, so the
# library and models are found whatever the prefix.
sedesc() { printf '%s' "$1" | sed -e 's/[\/&|]/\\&/g'; }
newconf="$(mktemp)"
trap 'rm -f "$newconf"' EXIT
sed -e "s|\"/var/lib/redactd\"|\"$(sedesc "$DATADIR")\"|" \
	-e "s|\"/usr/lib/redactd/libonnxruntime.so.1\"|\"$(sedesc "$LIBDIR/libonnxruntime.so.1")\"|" \
	-e "s|\"/usr/share/redactd/models\"|\"$(sedesc "$MODELDIR")\"|" \
	"$HERE/etc/redactd.json" >"$newconf"
if [[ -e "$DESTDIR$CONF" && $FORCE -eq 0 ]] && ! cmp -s "$newconf" "$DESTDIR$CONF"; then
	install -m 0644 "$newconf" "$DESTDIR$CONF.new"
	log "kept your $CONF; the new default is in $CONF.new (use --force to replace)"
else
	install -m 0644 "$newconf" "$DESTDIR$CONF"
fi

# 5. User, data directory, unit.
if ((SYSTEMD)); then
	if ! getent passwd redactd >/dev/null; then
		nologin=/usr/sbin/nologin
		[[ -x $nologin ]] || nologin=/sbin/nologin
		[[ -x $nologin ]] || nologin=/bin/false
		useradd --system --user-group --home-dir "$DATADIR" --no-create-home --shell "$nologin" \
			--comment "redactd document redaction" redactd
		log "created system user redactd"
	fi
	install -d -m 0700 -o redactd -g redactd "$DATADIR"
	chown redactd:redactd "$DATADIR" && chmod 0700 "$DATADIR"
	sed -e "s|/usr/bin/redactd|$(sedesc "$BINDIR/redactd")|g" \
		-e "s|/usr/share/doc/redactd|$(sedesc "$DOCDIR")|g" \
		-e "s|/etc/redactd/redactd.json|$(sedesc "$CONF")|g" \
		-e "s|/var/lib/redactd|$(sedesc "$DATADIR")|g" \
		"$HERE/systemd/redactd.service" >"$newconf"
	if [[ "$DATADIR" != /var/lib/redactd ]]; then
		# StateDirectory= only manages /var/lib/NAME; ReadWritePaths= covers the rest.
		sed -i -e 's/^StateDirectory/#StateDirectory/' "$newconf"
	fi
	install -m 0644 "$newconf" "$UNIT"
	systemctl daemon-reload
	log "installed $UNIT (not started)"
else
	install -d -m 0700 "$DESTDIR$DATADIR"
fi

RUNAS=""
((SYSTEMD)) && RUNAS="sudo -u redactd "
cat <<EOF

redactd $VERSION is installed.
  binaries  $BINDIR/redactd, $BINDIR/redact
  runtime   $LIBDIR/libonnxruntime.so.1
  models    $MODELDIR
  config    $CONF
  data      $DATADIR

Next steps:
  1. Check the installation:
       ${RUNAS}$BINDIR/redactd doctor --config $CONF
EOF
if ((SYSTEMD)); then
	cat <<EOF
  2. Start the service (listens on 127.0.0.1:8080; edit $CONF to change):
       systemctl enable --now redactd
  3. Create an API key (through the running server's admin socket):
       ${RUNAS}$BINDIR/redactd keys create --config $CONF --email you@example.com --plan standard
EOF
else
	cat <<EOF
  2. Create an API key:
       $BINDIR/redactd keys create --config $CONF --email you@example.com --plan standard
  3. Serve (listens on 127.0.0.1:8080; edit $CONF or pass --listen):
       $BINDIR/redactd serve --config $CONF
EOF
fi
cat <<EOF
  Then: curl -H "X-API-Key: KEY" -F files=@document.pdf http://127.0.0.1:8080/v1/jobs
  Documentation: $DOCDIR/README.md
EOF
