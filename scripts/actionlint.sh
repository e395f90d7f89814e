#!/usr/bin/env bash
# npm run lint's check of the GitHub workflows (.github/workflows/*.yml): actionlint (rhysd/actionlint), pinned, built
# with Go on first use into the tools' cache (about 20 s), like oha with cargo.   scripts/actionlint.sh [FILE…]
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
if [ $# -eq 0 ]; then set -- .github/workflows/*.yml; fi
"$dir/actionlint" "$@"
echo "actionlint $ACTIONLINT_VERSION: $# workflow(s), no finding"
