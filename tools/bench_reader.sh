#!/usr/bin/env bash
# Peak memory and time of a process that only reads a trace: tools/bench_reader.sh TRACE...
#
# Builds framescope-bench in release mode and runs `framescope-bench read FILE 1` (the reader
# alone, one thread, every argument) under /usr/bin/time -v for each file, Chrome JSON or Perfetto
# protobuf. Prints the file size, the events read, the wall time and the maximum resident set
# size, with the ratio of peak RSS to file size (the target: <= 1).
set -euo pipefail
if [[ $# -lt 1 ]]; then
    echo "usage: tools/bench_reader.sh TRACE..." >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
[[ -x /usr/bin/time ]] || { echo "bench_reader: needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }
echo "bench_reader: building framescope-bench (release)..." >&2
(cd "$root" && swift build -c release --product framescope-bench >&2)
bench=$(cd "$root" && swift build -c release --show-bin-path)/framescope-bench
work=$(mktemp -d "${TMPDIR:-/tmp}/framescope-bench-reader.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '%-48s %12s %10s %9s %12s %8s\n' file bytes events seconds "peak RSS KB" "RSS/file"
for file in "$@"; do
    size=$(stat -c %s "$file")
    if ! output=$(/usr/bin/time -v "$bench" read "$file" 1 2>"$work/time.txt"); then
        echo "bench_reader: $file does not read: $output" >&2
        exit 1
    fi
    peak=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt")
    events=$(sed -n 's/.*(\([0-9]*\) events.*/\1/p' <<<"$output")
    ratio=$(awk -v p="$peak" -v s="$size" 'BEGIN {printf "%.2f", p * 1024 / s}')
    printf '%-48s %12s %10s %9s %12s %8s\n' "$(basename "$file")" "$size" "$events" "$wall" "$peak" "$ratio"
done
