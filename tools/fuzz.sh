#!/usr/bin/env bash
# Builds and runs a libFuzzer target: tools/fuzz.sh TARGET [SECONDS]
#
# Targets (tools/fuzz/*.swift): reader (the Chrome JSON reader, both reading paths compared),
# perfetto (the protobuf reader), xctrace (the Instruments xctrace-export XML reader), png, and
# pipeline (read -> analyse -> render -> compare -> check).
#
# TARGET names tools/fuzz/TARGET.swift. Its header says what to compile and what to seed with:
#   // fuzz-sources: <paths relative to the repository root: files, folders (searched for
#   //                 *.swift) or globs>
#   // fuzz-seeds: <folders of seed inputs, relative to the root; missing ones are skipped>
#   // fuzz-merge-modules: <module names whose sources are listed; their imports of each other
#   //                 are dropped so they compile as one module>
# The harness defines @_cdecl("LLVMFuzzerTestOneInput") and is compiled together with the
# sources into one module, so it reaches internal symbols. Without a fuzz-seeds line the seeds
# are every Tests/*/Fixtures folder.
#
# The corpus grows in tools/fuzz/out/TARGET/corpus (gitignored); crash, leak and timeout inputs
# are written to tools/fuzz/out/TARGET/crashes/. The script runs for SECONDS (default 60), prints
# libFuzzer's final statistics, and exits non-zero if the fuzzer found a problem.
#
# Environment: FUZZ_OPT (default -O; -Onone keeps debug-only checks), FUZZ_MAX_LEN (default
# 65536), FUZZ_TIMEOUT (seconds per input before it counts as a hang, default 10), FUZZ_FLAGS
# (more libFuzzer flags), SWIFTC (default swiftc).
set -euo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: tools/fuzz.sh TARGET [SECONDS]   (TARGET: reader, perfetto, xctrace, png, pipeline)" >&2
    exit 2
fi
target=$1
seconds=${2:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
harness=$root/tools/fuzz/$target.swift
if [[ ! -f $harness ]]; then
    echo "fuzz.sh: no harness at tools/fuzz/$target.swift" >&2
    exit 2
fi

header() { # the value of a "// KEY:" line in the harness's leading comment block
    awk -v key="// $1:" '!/^\/\//{exit} index($0, key) == 1 {sub(key, ""); print; exit}' "$harness"
}

sources_line=$(header fuzz-sources)
if [[ -z $sources_line ]]; then
    echo "fuzz.sh: tools/fuzz/$target.swift must start with a '// fuzz-sources: ...' line" >&2
    exit 2
fi
sources=()
cd "$root"
for entry in $sources_line; do
    matched=0
    for path in $entry; do # unquoted: globs expand relative to the root
        if [[ -d $path ]]; then
            while IFS= read -r file; do sources+=("$file"); matched=1; done < <(find "$path" -name '*.swift' | sort)
        elif [[ -f $path ]]; then
            sources+=("$path")
            matched=1
        fi
    done
    if [[ $matched == 0 ]]; then
        echo "fuzz.sh: fuzz-sources entry '$entry' matches no Swift file" >&2
        exit 2
    fi
done

seeds=()
seeds_line=$(header fuzz-seeds)
if [[ -n $seeds_line ]]; then
    for entry in $seeds_line; do
        if [[ -d $entry ]]; then seeds+=("$entry"); else echo "fuzz.sh: seed folder $entry not found; skipped" >&2; fi
    done
else
    for folder in Tests/*/Fixtures; do [[ -d $folder ]] && seeds+=("$folder"); done
fi

out=$root/tools/fuzz/out/$target
mkdir -p "$out/corpus" "$out/crashes"

# Sources of several modules compile into one: their imports of each other go (copies in $out/src).
merged=$(header fuzz-merge-modules)
if [[ -n $merged ]]; then
    pattern="^(@_spi\([A-Za-z]+\) )?(public |internal |package |@testable )?import ($(tr ' ' '|' <<<"$merged"))$"
    rm -rf "$out/src"
    copies=()
    for file in "${sources[@]}"; do
        copy=$out/src/$file
        mkdir -p "$(dirname "$copy")"
        grep -Ev "$pattern" "$file" >"$copy" || true
        copies+=("$copy")
    done
    sources=("${copies[@]}")
fi
binary=$out/fuzz-$target
module=Fuzz$(tr '[:lower:]' '[:upper:]' <<<"${target:0:1}")${target:1}
echo "fuzz.sh: building $target from ${#sources[@]} source files" >&2
"${SWIFTC:-swiftc}" -swift-version 6 ${FUZZ_OPT:--O} -sanitize=fuzzer,address -parse-as-library -package-name framescope \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -module-name "$module" "$harness" "${sources[@]}" -o "$binary" \
    2> >(grep -v "Cannot export local symbol '__asan" >&2)

echo "fuzz.sh: running $target for $seconds s; corpus $out/corpus; seeds: ${seeds[*]:-none}" >&2
status=0
# Swift's own crash handler stays off: libFuzzer and AddressSanitizer report a trap, and the
# backtracer's memory reads under AddressSanitizer hung the run after one (seen here).
# shellcheck disable=SC2086
SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -max_len="${FUZZ_MAX_LEN:-65536}" -timeout="${FUZZ_TIMEOUT:-10}" \
    -artifact_prefix="$out/crashes/" -print_final_stats=1 ${FUZZ_FLAGS:-} \
    "$out/corpus" "${seeds[@]}" 2>"$out/log.txt" || status=$?
grep -E '^(stat::|#[0-9]+ +DONE|==[0-9]+==ERROR|SUMMARY|Done )' "$out/log.txt" >&2 || true
if [[ $status -ne 0 ]]; then
    echo "fuzz.sh: $target found a problem (exit $status); inputs in $out/crashes/, log in $out/log.txt" >&2
    tail -n 40 "$out/log.txt" >&2
    exit "$status"
fi
echo "fuzz.sh: $target ran $seconds s without finding a problem; log in $out/log.txt" >&2
