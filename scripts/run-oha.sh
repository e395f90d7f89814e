#!/usr/bin/env bash
# Run oha against one target, e.g. an app you started by hand:
#   scripts/run-oha.sh http://127.0.0.1:3000/ [oha args…]
# With no extra args it runs 10 s at 50 connections without compression, printing oha's text summary.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
[ $# -ge 1 ] || { echo "usage: scripts/run-oha.sh <url> [oha args…]" >&2; exit 2; }
ensure_oha
url="$1"; shift
if [ $# -eq 0 ]; then set -- -z 10s -c 50 --disable-compression; fi
exec oha "$url" "$@"
