#!/usr/bin/env bash
# npm run bench / npm test: set up whatever is missing, then run the command with the tools on PATH.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_node
ensure_bun
ensure_node_runtime
ensure_node20
ensure_deno
ensure_apt_packages
ensure_oha
ensure_valkey
ensure_deps
cd "$BENCH_ROOT"
exec "$@"
