#!/usr/bin/env bash
# Installs whatever is missing — Bun, the workspace dependencies, redis-server, oha — and
# puts them on PATH. Sourced by with-tools.sh and run-oha.sh; a no-op in well under 5 s
# when everything is already there. Pinned versions live here.
BUN_VERSION=1.4.5
OHA_VERSION=1.16.0
BENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/redis-stream-bench"

setup_die() { echo "setup: $*" >&2; exit 1; }
setup_say() { echo "setup: $*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }

ensure_node() {
  command -v node >/dev/null || setup_die "Node.js is missing: install Node.js 20 or newer (with npm)"
  local major; major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge 20 ] || setup_die "Node.js $(node --version) is too old: install Node.js 20 or newer"
}

ensure_bun() {
  [ "$(bun --version 2>/dev/null)" = "$BUN_VERSION" ] && return
  local dir="$BENCH_CACHE/bun-$BUN_VERSION"
  if [ "$("$dir/node_modules/.bin/bun" --version 2>/dev/null)" != "$BUN_VERSION" ]; then
    command -v npm >/dev/null || setup_die "npm is missing, so Bun $BUN_VERSION cannot be installed: install Node.js 20+ with npm"
    setup_say "installing Bun $BUN_VERSION from the npm registry into $dir"
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "bun@$BUN_VERSION" >&2 \
      || setup_die "could not install bun@$BUN_VERSION from npm: check access to the npm registry"
  fi
  export PATH="$dir/node_modules/.bin:$PATH"
}

ensure_deps() {
  local stamp="$BENCH_ROOT/node_modules/.bench-install-stamp" want
  want="$(cat "$BENCH_ROOT/bun.lock" "$BENCH_ROOT"/package.json "$BENCH_ROOT"/apps/*/package.json "$BENCH_ROOT"/packages/*/package.json | sha256sum | cut -d' ' -f1)"
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return
  setup_say "installing workspace dependencies (bun install --frozen-lockfile)"
  (cd "$BENCH_ROOT" && bun install --frozen-lockfile >&2) \
    || setup_die "bun install --frozen-lockfile failed: if you changed a package.json, run 'bun install' and commit bun.lock"
  echo "$want" >"$stamp"
}

ensure_apt_packages() {
  local missing=()
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null || missing+=(redis-server)
  # Chart text needs a font; resvg finds DejaVu through the system font folders.
  [ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
  [ ${#missing[@]} -eq 0 ] && return
  command -v apt-get >/dev/null || setup_die "${missing[*]} missing and apt-get is not available: install ${missing[*]} with your package manager"
  setup_say "installing ${missing[*]} with apt-get"
  { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2 \
    || setup_die "could not install ${missing[*]}: run 'apt-get update && apt-get install -y ${missing[*]}' as root"
}

ensure_oha() {
  local dir="$BENCH_CACHE/oha-$OHA_VERSION"
  if [ ! -x "$dir/bin/oha" ]; then
    command -v cargo >/dev/null || setup_die "oha $OHA_VERSION is missing and cargo is not installed: install Rust (cargo), or put oha $OHA_VERSION at $dir/bin/oha"
    setup_say "building oha $OHA_VERSION with cargo (about 6 minutes on 2 cores; cached in $dir for every clone)"
    cargo install oha --version "$OHA_VERSION" --locked --root "$dir" >&2 \
      || setup_die "cargo install oha --version $OHA_VERSION --locked failed: see the cargo output above"
  fi
  export PATH="$dir/bin:$PATH"
}
