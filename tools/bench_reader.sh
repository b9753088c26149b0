#!/usr/bin/env bash
# Peak memory and time of a process that only reads a trace: tools/bench_reader.sh TRACE.json...
#
# Builds a small read-only driver from Sources/FrameTrace with -O (into /tmp), runs it under
# /usr/bin/time -v for each file, and prints the file size, the events read, the wall time and the
# maximum resident set size, with the ratio of peak RSS to file size (the issue's target: <= 1).
# The driver links only the standard library and Glibc, so the process baseline is small.
set -euo pipefail
if [[ $# -lt 1 ]]; then
    echo "usage: tools/bench_reader.sh TRACE.json..." >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
work=${TMPDIR:-/tmp}/framescope-bench-reader
mkdir -p "$work"
cat >"$work/main.swift" <<'SWIFT'
@main enum ReadOnly {
    static func main() {
        let path = CommandLine.arguments[1]
        do {
            let trace = try ChromeTraceReader.read(contentsOf: path)
            print("events \(trace.events.count) argument-lists \(trace.argumentLists.count) diagnostics \(trace.diagnostics.count)")
        } catch {
            print("error: \(error)")
        }
    }
}
SWIFT
"${SWIFTC:-swiftc}" -swift-version 6 -O -wmo -parse-as-library -module-name FrameTrace \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    "$root"/Sources/FrameTrace/*.swift "$work/main.swift" -o "$work/read-only"
printf '%-48s %12s %10s %9s %12s %8s\n' file bytes events seconds "peak RSS KB" "RSS/file"
for file in "$@"; do
    size=$(stat -c %s "$file")
    output=$(/usr/bin/time -v "$work/read-only" "$file" 2>"$work/time.txt")
    peak=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt")
    events=$(awk '{print $2}' <<<"$output")
    ratio=$(awk -v p="$peak" -v s="$size" 'BEGIN {printf "%.2f", p * 1024 / s}')
    printf '%-48s %12s %10s %9s %12s %8s\n' "$(basename "$file")" "$size" "$events" "$wall" "$peak" "$ratio"
done
