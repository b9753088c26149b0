#!/usr/bin/env bash
# Checks from Linux what it can of an Apple build: the C target (Sources/CFrameScope) compiled for
# arm64 and x86_64 macOS with zig's clang and the macOS libc headers zig bundles, warnings as
# errors; and the Swift of FrameTrace and FrameScope, `#if canImport(os)` and `#if canImport(Darwin)`
# branches included, type-checked against interface stubs of Apple's `os` and `Darwin` modules
# (tools/darwin-stubs). tools/check_darwin.sh [--self-test]
#
# No Apple machine runs framescope's tests, so this is the part of an Apple build that Linux can
# check. What it proves and does not prove is printed at the end; in short:
# - C: the hot path (counter reads through mach_absolute_time, clock_gettime_nsec_np(CLOCK_UPTIME_RAW),
#   the `__APPLE__` branches, pthread_main_np, thread-local storage, C11 atomics) compiles against
#   macOS's own headers for both architectures with -Wall -Wextra -Wpedantic -Werror.
# - Swift: a copy of Sources/FrameTrace and Sources/FrameScope in which every `canImport(Glibc)` and
#   `canImport(Musl)` is false (those conditions come first, so on Linux the Darwin branch would
#   never be chosen) is type-checked with the package's settings against
#   tools/darwin-stubs/os.swift (OSSignposter, OSSignpostID, OSSignpostIntervalState and the
#   OSLogMessage interpolation, transcribed from Apple's documentation and the Swift project's OSLog
#   sources) and tools/darwin-stubs/Darwin.swift (Glibc re-exported, plus mach_absolute_time,
#   Darwin's `_CLOCK_…` ids and pthread_main_np). A misspelt name, a wrong argument label, a wrong
#   type or a missing import in the signpost mirror or a Darwin clock branch fails this step. It
#   cannot check os_log's compile-time rules (constant privacy and format arguments), Darwin's own
#   C types where they differ from Glibc's (`pthread_t`, `clockid_t`), availability, linking or
#   running; the Darwin branches of the other modules (FrameSupport, FrameTraceReader, the CLI,
#   the benchmarks) are not checked.
# - --self-test: after the checks, type-checks copies of Recorder+Signposts.swift with a wrong
#   argument label (`beginState(identifier:)`) and with a misspelt name (`makeSignpostId()`), and
#   fails unless both copies fail to type-check: the Swift check is not vacuous.
#
# zig comes from PyPI (`ziglang`), installed for the run with pip when it is missing; it is never
# a package dependency. swiftc is the toolchain's. Exit status: 0 when everything checks cleanly;
# 1 when something does not; 2 when zig cannot be installed or swiftc is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
self_test=false
case "${1:-}" in
    "") ;;
    --self-test) self_test=true ;;
    *) echo "usage: tools/check_darwin.sh [--self-test]" >&2; exit 2 ;;
esac
if ! command -v swiftc >/dev/null; then
    echo "check_darwin: swiftc not found: nothing checked" >&2
    exit 2
fi

python=${PYTHON:-python3}
if ! "$python" -c "import ziglang" 2>/dev/null; then
    echo "check_darwin: installing ziglang from PyPI for this run"
    "$python" -m pip install --quiet ziglang 2>/dev/null \
        || "$python" -m pip install --quiet --user --break-system-packages ziglang \
        || { echo "check_darwin: cannot install ziglang with pip: nothing checked" >&2; exit 2; }
    "$python" -c "import ziglang" || { echo "check_darwin: ziglang installed but not importable: nothing checked" >&2; exit 2; }
fi
zig_version=$("$python" -m ziglang version)
echo "check_darwin: zig $zig_version (its clang and its bundled macOS libc headers)"

out=$(mktemp -d "${TMPDIR:-/tmp}/framescope-check-darwin.XXXXXX")
trap 'rm -rf "$out"' EXIT
# The flags SwiftPM's C targets are built with would not add warnings; these are stricter.
flags=(-std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -ISources/CFrameScope/include)
status=0
for target in aarch64-macos x86_64-macos; do
    object="$out/framescope-$target.o"
    # The __APPLE__ branches must be the ones compiled: fail if the target did not define it.
    if ! printf '#if !defined(__APPLE__) || !defined(__MACH__)\n#error not an Apple target\n#endif\n' \
        | "$python" -m ziglang cc -target "$target" -x c -c -o "$out/probe-$target.o" -; then
        echo "check_darwin: $target does not define __APPLE__: nothing checked for it" >&2
        status=1
        continue
    fi
    if "$python" -m ziglang cc -target "$target" "${flags[@]}" -c -o "$object" Sources/CFrameScope/framescope.c; then
        # The object must be Mach-O for the architecture asked for (magic 0xfeedfacf, then the CPU type).
        magic=$(od -An -tx1 -N8 "$object" | tr -d ' \n')
        case "$target:$magic" in
            aarch64-macos:cffaedfe0c000001 | x86_64-macos:cffaedfe07000001)
                echo "check_darwin: $target: Sources/CFrameScope compiles with ${flags[*]}: 0 warnings (Mach-O object, $(wc -c <"$object") bytes)" ;;
            *)
                echo "check_darwin: $target: compiled, but the object is not a Mach-O for $target (header $magic)" >&2
                status=1 ;;
        esac
    else
        echo "check_darwin: $target: Sources/CFrameScope does not compile cleanly (above)" >&2
        status=1
    fi
done


# --- Swift: FrameTrace and FrameScope with their Darwin branches chosen, against the stubs ---
stubs="$out/stubs"
mkdir -p "$stubs" "$out/modules" "$out/cframescope"
# The settings every target is built with (Package.swift's `strict` list), in Swift 6 mode.
swift_flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
    -package-name framescope -parse-as-library -I "$stubs" -I "$out/modules" -I "$out/cframescope")
swiftc -swift-version 6 -parse-as-library -module-name Darwin -emit-module \
    -emit-module-path "$stubs/Darwin.swiftmodule" tools/darwin-stubs/Darwin.swift
swiftc -swift-version 6 -parse-as-library -module-name os -I "$stubs" -emit-module \
    -emit-module-path "$stubs/os.swiftmodule" tools/darwin-stubs/os.swift
# CFrameScope as SwiftPM presents it, a module over include/framescope.h (its Linux side: the zig
# step above compiles its Apple side).
printf 'module CFrameScope {\n    header "%s"\n    export *\n}\n' "$PWD/Sources/CFrameScope/include/framescope.h" \
    >"$out/cframescope/module.modulemap"
# The stubs must make the Apple branches the ones compiled: fail if `canImport` does not see them.
printf '#if !canImport(os) || !canImport(Darwin)\n#error("the stub modules are not visible")\n#endif\n' \
    >"$out/probe.swift"
swiftc "${swift_flags[@]}" -module-name Probe -typecheck "$out/probe.swift"

# Copies Sources/<$3> of the tree at $1 into $2/<$3>, with every `canImport(Glibc)` and
# `canImport(Musl)` made false so that the Darwin branches are the ones chosen.
darwin_copy() {
    mkdir -p "$2/$3"
    for file in "$1/Sources/$3"/*.swift; do
        sed -e 's/canImport(Glibc)/canImport(FramescopeNotGlibc)/g' \
            -e 's/canImport(Musl)/canImport(FramescopeNotMusl)/g' "$file" >"$2/$3/$(basename "$file")"
    done
}

# Type-checks FrameScope from the tree at $1 (a copy named $2) against FrameTrace's module.
check_frame_scope() {
    rm -rf "$out/copy-$2"
    darwin_copy "$1" "$out/copy-$2" FrameScope
    swiftc "${swift_flags[@]}" -module-name FrameScope -typecheck "$out/copy-$2"/FrameScope/*.swift
}

swift_status=0
darwin_copy "$PWD" "$out/copy-tree" FrameTrace
if swiftc "${swift_flags[@]}" -module-name FrameTrace -wmo -emit-module \
    -emit-module-path "$out/modules/FrameTrace.swiftmodule" "$out/copy-tree"/FrameTrace/*.swift \
    && check_frame_scope "$PWD" tree; then
    echo "check_darwin: Swift: FrameTrace and FrameScope type-check with their Darwin branches chosen," \
        "canImport(os) included, against tools/darwin-stubs"
else
    echo "check_darwin: Swift: FrameTrace or FrameScope does not type-check with its Darwin branches (above)" >&2
    swift_status=1
fi

if "$self_test" && [ "$swift_status" = 0 ]; then
    for mangle in 's/beginState(id:/beginState(identifier:/' 's/makeSignpostID()/makeSignpostId()/'; do
        rm -rf "$out/broken"
        mkdir -p "$out/broken/Sources"
        cp -R Sources/FrameScope "$out/broken/Sources/"
        sed -i "$mangle" "$out/broken/Sources/FrameScope/Recorder+Signposts.swift"
        if cmp -s Sources/FrameScope/Recorder+Signposts.swift "$out/broken/Sources/FrameScope/Recorder+Signposts.swift"
        then
            echo "check_darwin: self-test: '$mangle' changes nothing in Recorder+Signposts.swift" >&2
            swift_status=1
        elif errors=$(check_frame_scope "$out/broken" broken 2>&1); then
            echo "check_darwin: self-test: Recorder+Signposts.swift with '$mangle' type-checks: the check is vacuous" >&2
            swift_status=1
        else
            echo "check_darwin: self-test: Recorder+Signposts.swift with '$mangle' fails to type-check, as it must:"
            grep -m1 'error:' <<<"$errors" | sed "s|$out/copy-broken/||"
        fi
    done
fi
[ "$swift_status" = 0 ] || status=1

cat <<'EOF'
check_darwin: what this proves
  - Sources/CFrameScope (framescope.c and the inline hot path in include/framescope.h) compiles as
    C11 for arm64 and x86_64 macOS against the macOS libc headers zig bundles, with the __APPLE__
    branches taken (mach_absolute_time, clock_gettime_nsec_np(CLOCK_UPTIME_RAW), pthread_main_np,
    pthread_getname_np), and with -Wall -Wextra -Wpedantic -Werror: no warning at all.
  - The Swift of FrameTrace and FrameScope with their Darwin branches chosen (a copy in which
    canImport(Glibc) and canImport(Musl) are false), everything under `#if canImport(os)` (the
    signpost mirror) included, type-checks in Swift 6 mode with the package's settings against
    tools/darwin-stubs: names, argument labels, types and imports agree with the os and Darwin
    declarations the stubs transcribe from Apple's documentation.
check_darwin: what it does not prove
  - That the stubs are Apple's modules: they declare only what framescope uses, as documented.
    os_log's compile-time rules (constant privacy and format arguments, enforced by the compiler's
    os_log pass with Apple's SDK), availability, and Darwin's own C types where they differ from
    Glibc's (pthread_t, clockid_t) are not checked.
  - Nothing about the Darwin branches of FrameSupport, FrameTraceReader, the CLI or the benchmarks.
  - Nothing about iOS, tvOS, watchOS or visionOS: zig bundles macOS's headers only.
  - Not that Apple's compilers accept it identically; nothing is linked or run, so no behaviour
    (counter frequency, thread names, what Instruments shows) is tested.
EOF
exit "$status"
