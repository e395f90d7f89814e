#!/usr/bin/env bash
# npm run bench / npm test: set up whatever is missing, then run the command with the tools on PATH, in the folder
# it was called from (npm runs its scripts from the checkout's root; an app's own folder keeps its relative paths).
set -euo pipefail
caller_dir=$PWD
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_node
ensure_bun
ensure_node_runtime
ensure_node20
ensure_deno
ensure_apt_packages
ensure_oha
ensure_valkey
# `bun install` is how a changed package.json reaches bun.lock, so it runs without the frozen install first.
[ "${1:-} ${2:-}" = "bun install" ] || ensure_deps
cd "$caller_dir"
exec "$@"
