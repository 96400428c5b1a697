#!/usr/bin/env bash
# Starts redactd from the source tree on the embedded defaults: creates an
# API key on first run (saved in DATA/local-api-key, mode 0600) and serves
# on REDACTD_LISTEN (default 127.0.0.1:8080). Used by `make run`.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${REDACTD_DATA:-./data}"
listen="${REDACTD_LISTEN:-127.0.0.1:8080}"
# The data directory is private: serve refuses one that other users may enter.
(umask 077 && mkdir -p "$data")
keyfile="$data/local-api-key"
if [ ! -s "$keyfile" ]; then
  umask 077
  ./bin/redactd keys create --data "$data" --email local@localhost --plan standard | tail -n 1 > "$keyfile"
fi
cat <<MSG
redactd: serving http://$listen   (data in $data)
API key: $(cat "$keyfile")   (saved in $keyfile)
Try:     REDACT_URL=http://$listen REDACT_API_KEY=\$(cat $keyfile) ./bin/redact engine/demo/sample.pdf -o out/
         curl http://$listen/v1/demo
MSG
exec ./bin/redactd serve --data "$data" --listen "$listen"
