#!/usr/bin/env bash
# Started by the harness: once the harness process is gone for any reason (kill -9 included),
# kill every process group it still had running. $1: harness pid, $2: file listing those groups.
tail --pid="$1" -s 0.5 -f /dev/null
[ -f "$2" ] || exit 0
while read -r pgid; do
  [ -n "$pgid" ] && kill -KILL -- "-$pgid" 2>/dev/null
done <"$2"
rm -rf "$(dirname "$2")"
