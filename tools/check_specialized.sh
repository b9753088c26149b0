#!/usr/bin/env bash
# Does the release reader inline and specialize FrameJSON's scanner, or call it generically?
# tools/check_specialized.sh [--scratch-path DIR]
#
# The JSON scanner lives in FrameJSON and is generic over the error it throws; the Chrome reader
# is fast only when the compiler specializes the scanner's hot steps for TraceReadError and
# inlines them into the event tokenizer. `@inlinable` alone does not do it: with Swift 6.3 a
# member of a `package` type must also be `@usableFromInline` (the type and its stored
# properties), or other modules call it out of line, unspecialized, with no warning, and the
# reader gets about 25% slower (issue 31). A speed test cannot catch that on a noisy machine; the
# object files can. This builds FrameTraceReader in release mode and lists the scanner symbols
# its object files call. It fails when a hot step is called unspecialized.
#
# Exit status: 0 when every hot step the reader calls is a specialization (or inlined away);
# 1 when one is called generically (each printed); 2 when nothing was checked: the build failed,
# no object files, no nm, or no reference to FrameJSON at all (the reader no longer uses it, or
# the symbols could not be read).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
scratch=.build
while [[ $# -gt 0 ]]; do
    case "$1" in
        --scratch-path) [[ $# -ge 2 ]] || { echo "check_specialized: --scratch-path needs a directory" >&2; exit 2; }; scratch=$2; shift 2 ;;
        *) echo "usage: tools/check_specialized.sh [--scratch-path DIR]" >&2; exit 2 ;;
    esac
done
command -v nm >/dev/null || { echo "check_specialized: nm not found; nothing was checked" >&2; exit 2; }
swift build -c release --scratch-path "$scratch" --target FrameTraceReader >&2 ||
    { echo "check_specialized: the release build failed; nothing was checked" >&2; exit 2; }
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path) || exit 2
shopt -s nullglob
objects=("$bin"/FrameTraceReader.build/*.o)
[[ ${#objects[@]} -gt 0 ]] || { echo "check_specialized: no object files in $bin/FrameTraceReader.build; nothing was checked" >&2; exit 2; }
calls=$(nm -u "${objects[@]}" 2>/dev/null | swift demangle | grep 'FrameJSON\.') || true
[[ -n "$calls" ]] || { echo "check_specialized: the reader's objects call nothing in FrameJSON; nothing was checked" >&2; exit 2; }
hot='(JSONScanner|JSONStringToken)\.(scanString|scanPlainDecimal|peekValue|skipCommaBeforeName|skipWhitespace|length)'
generic=$(grep -E "$hot" <<<"$calls" | grep -v 'specialization' | sed 's/^ *U //' | sort -u)
echo "check_specialized: ${#objects[@]} object files, $(wc -l <<<"$calls") calls into FrameJSON"
if [[ -n "$generic" ]]; then
    while IFS= read -r line; do echo "unspecialized call from the reader: $line"; done <<<"$generic"
    echo "check_specialized: the reader calls FrameJSON's hot scanner steps generically; mark the types and stored properties they use @usableFromInline" >&2
    exit 1
fi
echo "check_specialized: ok, every hot scanner step the reader calls is specialized or inlined"
