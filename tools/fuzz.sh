#!/usr/bin/env bash
# Builds and runs libFuzzer targets.
#
#   tools/fuzz.sh TARGET [SECONDS]          build TARGET's binary, then run it for SECONDS (default 60)
#   tools/fuzz.sh --build TARGET...         build one binary holding every TARGET's harness; prints its path
#   tools/fuzz.sh --run BINARY TARGET [SECONDS]   run TARGET in a binary --build made (no build)
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
# The harness defines @_cdecl("LLVMFuzzerTestOneInput") public func fuzz(...) and is compiled
# together with the sources into one module, so it reaches internal symbols. Without a fuzz-seeds
# line the seeds are every Tests/*/Fixtures folder.
#
# Why --build takes several targets: a sanitizer build of the engine with -O takes minutes and
# most targets compile the same modules. --build compiles the union of their sources once; each
# harness's entry point is renamed fuzz_TARGET, and a generated entry point calls the one the
# FUZZ_TARGET environment variable names (--run sets it). Each target keeps its own corpus, seeds
# and crash folder, so a shared binary fuzzes exactly what the target's own binary would.
#
# The corpus grows in tools/fuzz/out/TARGET/corpus (gitignored); crash, leak and timeout inputs
# are written to tools/fuzz/out/TARGET/crashes/. A run prints libFuzzer's final statistics and
# exits non-zero if the fuzzer found a problem.
#
# Environment: FUZZ_OPT (default -O, one whole-module compile with LLVM on every core: half the
# time of a file-by-file -O build; -Onone keeps debug-only checks), FUZZ_MAX_LEN (default
# 65536), FUZZ_TIMEOUT (seconds per input before it counts as a hang, default 10), FUZZ_FLAGS
# (more libFuzzer flags), SWIFTC (default swiftc).
set -euo pipefail

usage() {
    echo "usage: tools/fuzz.sh TARGET [SECONDS] | --build TARGET... | --run BINARY TARGET [SECONDS]" >&2
    echo "       (TARGET: reader, perfetto, xctrace, png, pipeline)" >&2
    exit 2
}
[[ $# -ge 1 ]] || usage
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

harness_of() { # the harness file of a target, or a usage error
    local harness=$root/tools/fuzz/$1.swift
    if [[ ! $1 =~ ^[a-z][a-z0-9]*$ || ! -f $harness ]]; then
        echo "fuzz.sh: no harness at tools/fuzz/$1.swift" >&2
        exit 2
    fi
    printf '%s\n' "$harness"
}

header() { # header HARNESS KEY: the value of a "// KEY:" line in the harness's leading comment block
    awk -v key="// $2:" '!/^\/\//{exit} index($0, key) == 1 {sub(key, ""); print; exit}' "$1"
}

sources_of() { # sources_of HARNESS: the Swift files its fuzz-sources line names, one a line
    local line entry path matched
    line=$(header "$1" fuzz-sources)
    if [[ -z $line ]]; then
        echo "fuzz.sh: $1 must start with a '// fuzz-sources: ...' line" >&2
        exit 2
    fi
    for entry in $line; do
        matched=0
        for path in $entry; do # unquoted: globs expand relative to the root
            if [[ -d $path ]]; then
                find "$path" -name '*.swift' | sort
                matched=1
            elif [[ -f $path ]]; then
                printf '%s\n' "$path"
                matched=1
            fi
        done
        if [[ $matched == 0 ]]; then
            echo "fuzz.sh: fuzz-sources entry '$entry' in $1 matches no Swift file" >&2
            exit 2
        fi
    done
}

# build OUT_DIR MODULE SHARED TARGET...: compiles OUT_DIR/fuzz from the targets' harnesses and the
# union of their sources. SHARED=1 renames each harness's entry point and adds the dispatcher.
build() {
    local out=$1 module=$2 shared=$3
    shift 3
    local target harness merged="" sources=() file copy list
    rm -rf "$out/src"
    mkdir -p "$out/src"
    for target in "$@"; do
        harness=$(harness_of "$target")
        list=$(sources_of "$harness")
        mapfile -t -O "${#sources[@]}" sources <<<"$list"
        merged="$merged $(header "$harness" fuzz-merge-modules)"
    done
    # The union, each file once, in a stable order.
    mapfile -t sources < <(printf '%s\n' "${sources[@]}" | sort -u)
    merged=$(tr ' ' '\n' <<<"$merged" | sed '/^$/d' | sort -u | tr '\n' ' ')
    # Sources of several modules compile into one: their imports of each other go (copies in $out/src).
    if [[ -n ${merged// /} ]]; then
        local pattern="^(@_spi\([A-Za-z]+\) )?(public |internal |package |@testable )?import ($(tr ' ' '|' <<<"${merged% }"))$"
        local copies=()
        for file in "${sources[@]}"; do
            copy=$out/src/$file
            mkdir -p "$(dirname "$copy")"
            grep -Ev "$pattern" "$file" >"$copy" || true
            copies+=("$copy")
        done
        sources=("${copies[@]}")
    fi
    local harnesses=()
    if [[ $shared == 1 ]]; then
        mkdir -p "$out/src/harness"
        local cases=""
        for target in "$@"; do
            harness=$(harness_of "$target")
            copy=$out/src/harness/$target.swift
            grep -q '^public func fuzz(' "$harness" || {
                echo "fuzz.sh: $harness has no 'public func fuzz(' line to rename" >&2
                exit 2
            }
            sed -e '/^@_cdecl("LLVMFuzzerTestOneInput")$/d' -e "s/^public func fuzz(/func fuzz_$target(/" "$harness" >"$copy"
            harnesses+=("$copy")
            cases+="    case \"$target\": return fuzz_$target"$'\n'
        done
        cat >"$out/src/harness/dispatch.swift" <<EOF
// Generated by tools/fuzz.sh --build: the entry point calls the harness FUZZ_TARGET names.
import Foundation

private let selected: @Sendable (UnsafePointer<UInt8>, Int) -> CInt = {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    switch name {
$cases    default: fatalError("FUZZ_TARGET must name one of: $*")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    selected(data, size)
}
EOF
        harnesses+=("$out/src/harness/dispatch.swift")
    else
        harnesses=("$(harness_of "$1")")
    fi
    # FrameAnalysis compiles its report page's script and style in (Package.swift's .embedInCode);
    # outside SwiftPM this generates the PackageResources enum SwiftPM would.
    if printf '%s\n' "${sources[@]}" | grep -q '/Sources/FrameAnalysis/\|^Sources/FrameAnalysis/'; then
        python3 - "$out/src/embedded_resources.swift" Sources/FrameAnalysis/Rendering/Page/* <<'PYTHON'
import os, sys
lines = ["// Generated by tools/fuzz.sh: what SwiftPM's .embedInCode makes.", "enum PackageResources {"]
for path in sys.argv[2:]:
    name = os.path.basename(path).replace(".", "_").replace("-", "_")
    data = open(path, "rb").read()
    lines.append(f"    static let {name}: [UInt8] = [{','.join(str(b) for b in data)}]")
lines.append("}")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PYTHON
        sources+=("$out/src/embedded_resources.swift")
    fi
    echo "fuzz.sh: building $* from ${#sources[@]} source files" >&2
    # shellcheck disable=SC2086
    "${SWIFTC:-swiftc}" -swift-version 6 ${FUZZ_OPT:--O -wmo -num-threads $(nproc)} -sanitize=fuzzer,address -parse-as-library -package-name framescope \
        -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
        -module-name "$module" "${harnesses[@]}" "${sources[@]}" -o "$out/fuzz" \
        2> >(grep -v "Cannot export local symbol '__asan" >&2)
}

# run BINARY TARGET SECONDS: fuzzes TARGET with its own corpus and seeds.
run() {
    local binary=$1 target=$2 seconds=$3 harness entry
    harness=$(harness_of "$target")
    local seeds=() seeds_line folder
    seeds_line=$(header "$harness" fuzz-seeds)
    if [[ -n $seeds_line ]]; then
        for entry in $seeds_line; do
            if [[ -d $entry ]]; then seeds+=("$entry"); else echo "fuzz.sh: seed folder $entry not found; skipped" >&2; fi
        done
    else
        for folder in Tests/*/Fixtures; do [[ -d $folder ]] && seeds+=("$folder"); done
    fi
    local out=$root/tools/fuzz/out/$target
    mkdir -p "$out/corpus" "$out/crashes"
    echo "fuzz.sh: running $target for $seconds s; corpus $out/corpus; seeds: ${seeds[*]:-none}" >&2
    local status=0
    # Swift's own crash handler stays off: libFuzzer and AddressSanitizer report a trap, and the
    # backtracer's memory reads under AddressSanitizer hung the run after one (seen here).
    # shellcheck disable=SC2086
    FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -max_len="${FUZZ_MAX_LEN:-65536}" \
        -timeout="${FUZZ_TIMEOUT:-10}" -artifact_prefix="$out/crashes/" -print_final_stats=1 ${FUZZ_FLAGS:-} \
        "$out/corpus" "${seeds[@]}" 2>"$out/log.txt" || status=$?
    grep -E '^(stat::|#[0-9]+ +DONE|==[0-9]+==ERROR|SUMMARY|Done )' "$out/log.txt" >&2 || true
    if [[ $status -ne 0 ]]; then
        echo "fuzz.sh: $target found a problem (exit $status); inputs in $out/crashes/, log in $out/log.txt" >&2
        tail -n 40 "$out/log.txt" >&2
        exit "$status"
    fi
    echo "fuzz.sh: $target ran $seconds s without finding a problem; log in $out/log.txt" >&2
}

case $1 in
--build)
    shift
    [[ $# -ge 1 ]] || usage
    for target in "$@"; do harness_of "$target" >/dev/null; done
    out=$root/tools/fuzz/out/shared-$(tr ' ' '-' <<<"$*")
    mkdir -p "$out"
    build "$out" FuzzShared 1 "$@"
    printf '%s\n' "$out/fuzz"
    ;;
--run)
    [[ $# -ge 3 ]] || usage
    [[ -x $2 ]] || {
        echo "fuzz.sh: no fuzz binary at $2 (make one with tools/fuzz.sh --build)" >&2
        exit 2
    }
    run "$2" "$3" "${4:-60}"
    ;;
-*) usage ;;
*)
    target=$1
    harness_of "$target" >/dev/null
    out=$root/tools/fuzz/out/$target
    mkdir -p "$out"
    build "$out" "Fuzz$(tr '[:lower:]' '[:upper:]' <<<"${target:0:1}")${target:1}" 0 "$target"
    mv "$out/fuzz" "$out/fuzz-$target"
    run "$out/fuzz-$target" "$target" "${2:-60}"
    ;;
esac
