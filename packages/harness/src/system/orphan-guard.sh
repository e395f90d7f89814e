#!/usr/bin/env bash
# Started by the harness: once the harness process is gone for any reason (kill -9 included),
# kill every process group it still had running. $1: harness pid, $2: file listing those groups (gone
# after a normal exit, which stopped them itself). Then, whatever the exit, every process that still
# carries the harness's mark in its environment (BENCH_ORPHAN_GUARD, set by spawnTracked): a child
# spawned just before a kill -9, before its group was registered, or one that left its group (setsid).
tail --pid="$1" -s 0.5 -f /dev/null
if [ -f "$2" ]; then
  while read -r pgid; do
    [ -n "$pgid" ] && kill -KILL -- "-$pgid" 2>/dev/null
  done <"$2"
fi
mark="BENCH_ORPHAN_GUARD=$(dirname "$2")"
# One grep over every environment (NUL-separated entries, the mark a whole entry), not a process per pid; the names
# through xargs, so that no number of processes outgrows one command line.
for env in $(printf '%s\0' /proc/[0-9]*/environ | xargs -0r grep -lzxF -- "$mark" 2>/dev/null); do
  pid=${env#/proc/}
  pid=${pid%/environ}
  [ "$pid" = "$$" ] || kill -KILL "$pid" 2>/dev/null
done
rm -rf "$(dirname "$2")"
