#!/usr/bin/env bash
# The fleet's steps (.github/workflows/fleet.yml), one script so that a contributor runs the same on their machine:
#   scripts/fleet.sh bench OUT [BENCH FLAGS…]  the default bench into OUT/runs (each run's folder, its results.json
#                                               and report); OUT/machine.txt names the machine it ran on
#   scripts/fleet.sh pool OUT IN…              the answers pooled over every run under IN… (npm run pool), into OUT
# Each installs what it needs first (scripts/with-tools.sh). Extra BENCH FLAGS (a short run for a test) make a run
# that is not kept: pooling takes complete default runs only.
set -euo pipefail
cd "$(dirname "$0")/.."
step=${1:-}
out=${2:-}
if [[ -z $step || -z $out ]] || [[ $step != bench && $step != pool ]]; then
  echo "usage: scripts/fleet.sh bench OUT [BENCH FLAGS…] | scripts/fleet.sh pool OUT IN…" >&2
  exit 2
fi
shift 2
mkdir -p "$out"
case $step in
  bench)
    npm run bench -- --out "$out/runs" "$@"
    # The machine as the run recorded it (its CPU model named from /proc/cpuinfo or lscpu where os.cpus() has none).
    bash scripts/with-tools.sh node -e \
      'const fs=require("fs"),p=require("path"),d=process.argv[1];
       const e=JSON.parse(fs.readFileSync(p.join(d,fs.readdirSync(d).sort().at(-1),"results.json"))).environment;
       console.log(`${e.cpu_model}, ${e.logical_cpus} logical CPUs, ${e.arch}`)' "$out/runs" \
      > "$out/machine.txt"
    ;;
  pool)
    if [[ $# -eq 0 ]]; then
      echo "fleet pool: name the folders the bench jobs uploaded (IN…)" >&2
      exit 2
    fi
    npm run pool -- "$@" --out "$out"
    ;;
esac
