#!/usr/bin/env bash
# Compiles the C target (Sources/CFrameScope) for arm64 and x86_64 macOS from Linux, with zig's
# clang and the macOS libc headers zig bundles, warnings as errors. tools/check_darwin.sh
#
# No Apple machine runs framescope's tests, so this is the part of an Apple build that Linux can
# check. What it proves and does not prove is printed at the end; in short: the C hot path
# (counter reads through mach_absolute_time, clock_gettime_nsec_np(CLOCK_UPTIME_RAW), the
# `__APPLE__` branches, pthread_main_np, thread-local storage, C11 atomics) compiles against
# macOS's own headers for both architectures with -Wall -Wextra -Wpedantic -Werror. It says
# nothing about the Swift sources, iOS's headers, linking or running.
#
# zig comes from PyPI (`ziglang`), installed for the run with pip when it is missing; it is never
# a package dependency. Exit status: 0 when both architectures compile cleanly; 1 when one does
# not; 2 when zig cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."

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

cat <<'EOF'
check_darwin: what this proves
  - Sources/CFrameScope (framescope.c and the inline hot path in include/framescope.h) compiles as
    C11 for arm64 and x86_64 macOS against the macOS libc headers zig bundles, with the __APPLE__
    branches taken (mach_absolute_time, clock_gettime_nsec_np(CLOCK_UPTIME_RAW), pthread_main_np,
    pthread_getname_np), and with -Wall -Wextra -Wpedantic -Werror: no warning at all.
check_darwin: what it does not prove
  - Nothing about the Swift sources: no Darwin Swift SDK exists on Linux, so no Swift file is
    type-checked against Darwin's modules (Darwin, os, Foundation); `#if canImport(os)` code,
    including the signpost mirror, is uncompiled.
  - Nothing about iOS, tvOS, watchOS or visionOS: zig bundles macOS's headers only.
  - Not that Apple's clang (Xcode's) accepts it identically, nor the module map the Swift importer
    reads; nothing is linked or run, so no behaviour (counter frequency, thread names) is tested.
EOF
exit "$status"
