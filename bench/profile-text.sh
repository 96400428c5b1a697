#!/usr/bin/env bash
# profile-text.sh is `bench/profile.sh text`, the name bench/PROFILE.md's
# text-page sections were measured with:
#
#   bench/profile-text.sh [BINARY [OUT]]
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/profile.sh" text "$@"
