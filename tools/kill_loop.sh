#!/usr/bin/env bash
# Crash safety of streamed traces: tools/kill_loop.sh FRAMESCOPE_BINARY [RUNS]
#
# Runs `framescope simulate --stream` RUNS times (default 20), each killed with SIGKILL at a
# random moment 0.2-2.5 s into its frames (most kills land between flushes, a few inside one),
# then checks every file left behind:
#   - `framescope report` reads it (exit 0; a torn tail is a diagnostic, not an error);
#   - `../shared/tools/validate_trace.py` accepts it as it is, or else after `framescope repair`,
#     and repair says how many bytes it dropped.
# Every third run streams Perfetto's protobuf format (a .pftrace) instead of JSON: its checker is
# Perfetto's own Python schema (perfetto_trace_pb2 must decode the file, as written or repaired;
# pip install perfetto protobuf).
# Prints one line per run and a summary; exits 1 if any file fails. Bounded to about a minute.
set -uo pipefail
if [[ $# -lt 1 ]]; then
    echo "usage: tools/kill_loop.sh FRAMESCOPE_BINARY [RUNS]" >&2
    exit 2
fi
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${2:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
validator="$root/../shared/tools/validate_trace.py"
[[ -f "$validator" ]] || validator=/work/shared/tools/validate_trace.py
work=$(mktemp -d "${TMPDIR:-/tmp}/framescope-kill-loop.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Two runs in three use diffable-update, which starts writing frames at once; the others prepare
# their images first (about 2.5 s in a release build), so their kills are pushed back by that much.
scenarios=(diffable-update diffable-update diffable-update diffable-update corner-rounding paper-transition)
failures=0 direct=0 repaired=0 empty=0
started=$SECONDS
for ((run = 1; run <= runs; run++)); do
    scenario=${scenarios[$((RANDOM % ${#scenarios[@]}))]}
    trace="$work/run-$run.json"
    check=(python3 "$validator")
    if ((run % 3 == 0)); then
        trace="$work/run-$run.pftrace"
        check=(python3 -c 'import sys; from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as p; print(len(p.Trace.FromString(open(sys.argv[1], "rb").read()).packet), "packets")')
    fi
    setup=0
    [[ $scenario != diffable-update ]] && setup=2.5
    delay=$(awk -v r="$RANDOM" -v s="$setup" 'BEGIN { printf "%.2f", s + 0.2 + (r % 2300) / 1000 }')
    "$binary" simulate "$scenario" --clock real --stream --frames 100000 --seed "$run" --out "$trace" >/dev/null 2>"$work/stderr-$run.txt" &
    pid=$!
    sleep "$delay"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if [[ ! -s "$trace" ]]; then
        # Killed before the stream created its file: nothing to check.
        echo "run $run: $scenario killed at ${delay}s before the file existed"
        empty=$((empty + 1))
        continue
    fi
    size=$(stat -c %s "$trace")
    if ! "$binary" report "$trace" >"$work/report-$run.txt" 2>&1; then
        echo "run $run: FAIL: framescope report cannot read the file ($size bytes): $(tail -1 "$work/report-$run.txt")"
        failures=$((failures + 1))
        continue
    fi
    if "${check[@]}" "$trace" >"$work/validate-$run.txt" 2>&1; then
        echo "run $run: $scenario killed at ${delay}s: $size bytes$([[ $trace == *.pftrace ]] && echo " of protobuf"), valid as written"
        direct=$((direct + 1))
        continue
    fi
    if ! "$binary" repair "$trace" --out "$trace.repaired" 2>"$work/repair-$run.txt"; then
        echo "run $run: FAIL: repair failed: $(cat "$work/repair-$run.txt")"
        failures=$((failures + 1))
        continue
    fi
    if "${check[@]}" "$trace.repaired" >"$work/validate-$run.txt" 2>&1 && "$binary" report "$trace.repaired" >/dev/null 2>&1; then
        echo "run $run: $scenario killed at ${delay}s: $size bytes, torn; after repair valid ($(cat "$work/repair-$run.txt"))"
        repaired=$((repaired + 1))
    else
        echo "run $run: FAIL: invalid even after repair: $(tail -2 "$work/validate-$run.txt" | tr '\n' ' ')"
        failures=$((failures + 1))
    fi
done
echo "kill loop: $runs runs in $((SECONDS - started)) s: $direct valid as written, $repaired valid after repair, $empty killed before the file existed, $failures failed"
[[ $failures -eq 0 ]]
