#!/usr/bin/env bash
# Our indexes and the native peers on the same workload directories, in the same minutes:
# a pass of ours, the peers (../shared/peers/run_peers.sh), then ours again. Compare ratios:
# on a shared 2-core machine absolute figures drift between runs, ratios hold.
#   Benchmarks/side_by_side.sh DIR [DIR ...]   each DIR holds fences.csv and fixes.csv
#                                             (make_workload.py --pois N --devices 1000
#                                             --fixes 1000000 --seed 1 --noise gaussian)
# Prints one line per measurement: OURS dir index mode M-fixes/s bytes/fence MB build-s hits checksum,
# and the peers' RESULT lines. Run it alone: a build beside it skews everything.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n 2,9p "$0"; exit 2; }
PEERS=${PEERS_SCRIPT:-../shared/peers/run_peers.sh}
swift build -c release --product geofence-bench >/dev/null
B=.build/release/geofence-bench
ours() {
  for ix in packed dynamic cells "packed --per-fix" "cells --per-fix"; do
    # shellcheck disable=SC2086
    $B stab --fences "$1/fences.csv" --fixes "$1/fixes.csv" --index $ix --reps 3 --json 2>/dev/null |
      python3 -c "import json,sys; d=json.load(sys.stdin); print('OURS', sys.argv[1], d['index'], d['mode'], round(d['fixes_per_second']/1e6, 3), d['bytes_per_fence'], round(d['index_bytes']/1e6, 2), d['build_seconds'], d['hits'], d['checksum'])" "$1"
  done
}
for dir in "$@"; do
  ours "$dir"
  if [ -f "$PEERS" ]; then bash "$PEERS" "$dir" 2>&1 | grep RESULT; else echo "no peers script at $PEERS"; fi
  ours "$dir"
done
