#!/usr/bin/env bash
# npm run lint's check of the GitHub workflows (.github/workflows/*.yml): actionlint (rhysd/actionlint), pinned, built
# with Go on first use into the tools' cache (about 20 s), like oha with cargo, with shellcheck (apt) on their steps and
# on scripts/*.sh and .ci/run.   scripts/actionlint.sh [FILE…]
set -euo pipefail
cd "$(dirname "$0")/.."
ACTIONLINT_VERSION=1.7.12
dir="${XDG_CACHE_HOME:-$HOME/.cache}/redis-stream-bench/actionlint-$ACTIONLINT_VERSION"
if [ ! -x "$dir/actionlint" ]; then
  command -v go >/dev/null || { echo "actionlint: Go is not installed, so actionlint $ACTIONLINT_VERSION cannot be built: install Go, or put actionlint $ACTIONLINT_VERSION at $dir/actionlint" >&2; exit 2; }
  echo "actionlint: building actionlint $ACTIONLINT_VERSION with Go into $dir" >&2
  GOBIN="$dir" go install "github.com/rhysd/actionlint/cmd/actionlint@v$ACTIONLINT_VERSION" >&2 \
    || { echo "actionlint: go install of actionlint v$ACTIONLINT_VERSION failed: see Go's output above" >&2; exit 2; }
fi
# actionlint checks each step's shell with shellcheck when it is on PATH, and skips that check silently when not.
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }
if ! command -v shellcheck >/dev/null; then
  if ! command -v apt-get >/dev/null; then
    echo "actionlint: shellcheck is not installed, so the workflows' shell steps would go unchecked: install shellcheck" >&2
    exit 2
  fi
  echo "actionlint: installing shellcheck with apt-get (actionlint checks the workflows' shell steps with it)" >&2
  { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck; } >&2 \
    || { echo "actionlint: could not install shellcheck: run 'apt-get install -y shellcheck' as root" >&2; exit 2; }
fi
if [ $# -eq 0 ]; then
  set -- .github/workflows/*.yml
  # The project's own shell scripts too (setup, the runners of the workflow's steps), at warning level.
  shellcheck -S warning scripts/*.sh .ci/run
fi
"$dir/actionlint" "$@"
echo "actionlint $ACTIONLINT_VERSION (with $(shellcheck --version | sed -n 's/^version: /shellcheck /p')): $# workflow(s), no finding"
