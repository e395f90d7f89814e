#!/usr/bin/env bash
# The fleet's steps (.github/workflows/fleet.yml), one script so that a contributor runs the same on their machine:
#   scripts/fleet.sh bench OUT [BENCH FLAGS…]  the default bench into OUT/runs (each run's folder, its results.json
#                                               and report); OUT/machine.txt names the machine it ran on. Exits with
#                                               bench's code: 1 when a contender failed, the run written all the same
#   scripts/fleet.sh pool OUT IN…              the answers pooled over every run under IN… (npm run pool), into OUT
# Each installs what it needs first (scripts/with-tools.sh). BENCH FLAGS that change how well a run answers (--budget,
# --runs, --max-steal; --placement, answered apart unless the machine's default) keep it in the pool; a run that asks
# another question (--only, --where, --servers, --redis-rtt, …: docs/reading.md, "Which runs are kept") is left out
# of it. A --workload run of that workload's own suite is kept, and pooled with that workload's runs only. OUT and
# IN… are read from the folder the script is run in.
set -euo pipefail
step=${1:-}
out=${2:-}
if [[ -z $step || -z $out || $out == -* ]] || [[ $step != bench && $step != pool ]]; then
  echo "usage: scripts/fleet.sh bench OUT [BENCH FLAGS…] | scripts/fleet.sh pool OUT IN…" >&2
  exit 2
fi
shift 2
if [[ $step == pool && $# -eq 0 ]]; then
  echo "fleet pool: name the folders the bench jobs uploaded (IN…)" >&2
  exit 2
fi
for a in "$@"; do
  if [[ $a == --out || $a == --out=* ]]; then
    echo "fleet $step: OUT, the argument after the step, is where it writes; leave out $a" >&2
    exit 2
  fi
done
# Paths as the caller gave them, from the caller's folder (flags as they are); then the checkout's root, where npm runs.
out=$(realpath -m -- "$out")
if [[ $step == pool ]]; then
  ins=()
  for i in "$@"; do [[ $i == -* ]] && ins+=("$i") || ins+=("$(realpath -m -- "$i")"); done
  set -- "${ins[@]}"
fi
cd "$(dirname "$0")/.."
case $step in
  bench)
    mkdir -p "$out"
    # A complete run in which a contender failed is written and kept, but bench exits 1: its code is given back at the
    # end, once the machine is named, so that the run is never lost to it.
    code=0
    npm run bench -- --out "$out/runs" "$@" || code=$?
    # The machine as the run recorded it (its CPU model named from /proc/cpuinfo or lscpu where os.cpus() has none).
    if compgen -G "$out/runs/*/results.json" > /dev/null; then
      bash scripts/with-tools.sh node -e \
        'const fs=require("fs"),p=require("path"),d=process.argv[1];
         const e=JSON.parse(fs.readFileSync(p.join(d,fs.readdirSync(d).sort().at(-1),"results.json"))).environment;
         console.log(`${e.cpu_model}, ${e.logical_cpus} logical CPUs, ${e.arch}`)' "$out/runs" \
        > "$out/machine.txt"
    fi
    exit "$code"
    ;;
  pool)
    npm run pool -- "$@" --out "$out"
    ;;
esac
