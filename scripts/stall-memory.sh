#!/bin/bash
# The raw reader under a stalled Redis, and the app's memory after it (docs/runs/decode.md): node:http with
# DECODE=raw (apps/node, built) on a private Redis from dump.rdb; arrivals at 150 req/s on up to 2,000 connections for
# 25 s, Redis stopped (SIGSTOP) 5 s in for 12 s; then 30 s more of arrivals and 15 s idle. The app's RSS is read from
# /proc at each step. Run through the tools: bash scripts/with-tools.sh bash scripts/stall-memory.sh [flags]
#   --warm "oha flags"   before the first RSS reading (default "-z 10s -c 50"; "-z 40s -c 2000 -q 150": the same
#                        arrivals first, so the runtime's heap is sized for them before the stall)
#   --no-stall           the same schedule without stopping Redis (what the arrivals alone do to the memory)
#   --decode NAME        the app's read path (default raw; "default": node-redis's own, with no raw reader)
#   --out DIR            where oha's JSON and the app's log go (default a new temporary folder)
#   --node-flags "FLAGS" runtime flags for the app (NODE_OPTIONS), e.g. "--max-semi-space-size=16"
#   --heap               V8's heap at each reading too (young and old space; scripts/stall-memory-probe.cjs)
#   --collect            with --heap: after the last reading, one memory-reducing collection, then the heap again
set -euo pipefail
warm="-z 10s -c 50"
stall=1
decode=raw
out=""
node_flags=""
heap=0
collect=0
while [ $# -gt 0 ]; do
  case "$1" in
    --warm) warm="$2"; shift 2 ;;
    --no-stall) stall=0; shift ;;
    --decode) decode="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --node-flags) node_flags="$2"; shift 2 ;;
    --heap) heap=1; shift ;;
    --collect) collect=1; shift ;;
    *) echo "stall-memory: unknown flag $1 (--warm \"oha flags\", --no-stall, --decode NAME, --out DIR," \
      "--node-flags \"FLAGS\", --heap, --collect)" >&2; exit 2 ;;
  esac
done
for tool in oha node valkey-server curl; do
  command -v "$tool" >/dev/null || { echo "stall-memory: $tool not on PATH; run it through scripts/with-tools.sh" >&2; exit 2; }
done
[ -f apps/node/dist/server.js ] || { echo "stall-memory: apps/node is not built; run npm run bench once, or build it" >&2; exit 2; }
[ "$collect" = 0 ] || [ "$heap" = 1 ] || { echo "stall-memory: --collect needs --heap" >&2; exit 2; }
[ "$heap" = 1 ] && node_flags="$node_flags --require $PWD/scripts/stall-memory-probe.cjs"
out=${out:-$(mktemp -d)}
mkdir -p "$out"
cp dump.rdb "$out/"
redis_port=46380
app_port=43000
valkey-server --port "$redis_port" --bind 127.0.0.1 --dir "$out" --dbfilename dump.rdb --save '' >"$out/redis.log" 2>&1 &
redis=$!
(cd apps/node && NODE_OPTIONS="$node_flags" REDIS_URL="redis://127.0.0.1:$redis_port" REDIS_CLIENT=node-redis \
  DECODE="$decode" WORKLOAD=xrange STREAM_KEY=OPTIONS:test:STREAM PORT="$app_port" \
  exec node dist/server.js >"$out/app.log" 2>&1) &
app=$!
trap 'kill -CONT "$redis" 2>/dev/null; kill "$app" "$redis" 2>/dev/null || true' EXIT
url="http://127.0.0.1:$app_port/"
for _ in $(seq 50); do curl -sf -o /dev/null "$url" && break; sleep 0.1; done
rss() { [ "$heap" = 1 ] && kill -USR2 "$app" && sleep 0.2; awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$app/status"; }
# shellcheck disable=SC2086
oha "$url" $warm --no-tui --output-format json -o "$out/warm.json" >/dev/null 2>&1
before=$(rss)
oha "$url" -z 25s -c 2000 -q 150 --no-tui --output-format json -o "$out/stall.json" >/dev/null 2>&1 &
load=$!
sleep 5
[ "$stall" = 1 ] && kill -STOP "$redis"
sleep 12
kill -CONT "$redis"
wait "$load"
after_load=$(rss)
oha "$url" -z 30s -c 50 -q 150 --no-tui --output-format json -o "$out/after.json" >/dev/null 2>&1
after_more=$(rss)
sleep 15
idle=$(rss)
echo "stall: $([ "$stall" = 1 ] && echo 12 s || echo none); warm: $warm; decode: $decode; node flags: ${node_flags:-none}"
echo "RSS MB: before $before, after the arrivals $after_load, after 30 s more $after_more, after 15 s idle $idle"
if [ "$collect" = 1 ]; then
  kill -WINCH "$app"
  sleep 1
fi
[ "$heap" = 1 ] && sed -n 's/^heap /  /p' "$out/app.log"
node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1]));
console.log("statuses", JSON.stringify(j.statusCodeDistribution), "slowest", j.summary.slowest.toFixed(3), "s")' \
  "$out/stall.json"
echo "oha's JSON and the app's log: $out"
