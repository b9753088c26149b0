#!/usr/bin/env bash
# Self-test of tools/check_api.sh without a build: tools/check_api_selftest.sh
#
# Puts a fake `swift` first on PATH that prints a canned result of diagnose-api-breaking-changes
# (and exits with a canned status), then checks the script's exit status and output for each:
# breaks listed or not, the tool failing, output it cannot read, a module missing or skipped, a
# bad baseline line, breaks in package declarations (which are not API), and hostile text in an entry and in a break (no raw control character and no
# line that GitHub Actions would take for a workflow command). Takes a few seconds.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/framescope-check-api-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
cat >"$work/bin/swift" <<'SH'
#!/usr/bin/env bash
if [[ "$1" == --version ]]; then echo "Swift version 0.0-selftest"; exit 0; fi
cat "$FAKE_DIR/out"
cat "$FAKE_DIR/err" >&2
exit "$(cat "$FAKE_DIR/status")"
SH
chmod +x "$work/bin/swift"
export FAKE_DIR=$work

head=$(git -C "$root" rev-parse HEAD)
changes() {  # changes BASELINE_LINE ENTRY...
    {
        printf '# Changes\n\nA test.\n\n%s\n\n## Intended API breaks since the baseline\n\n' "$1"
        shift
        if [[ $# -eq 0 ]]; then echo "None yet."; fi
        for entry in "$@"; do printf -- '- %s: why\n' "$entry"; done
    } >"$work/changes.md"
}
clean_modules=$'\nNo breaking changes detected in FrameScopeTesting\n\nNo breaking changes detected in FrameTrace\n'
removed=$'\n1 breaking change detected in FrameScope:\n  \U0001f494 API breakage: func Recorder.annotate(_:_:) has been removed\n'
failures=0 cases=0
expect() {  # expect NAME STATUS [GREP_PATTERN]
    local name=$1 want=$2 pattern=${3:-}
    cases=$((cases + 1))
    (cd "$root" && PATH="$work/bin:$PATH" bash tools/check_api.sh --changes "$work/changes.md" --scratch-path "$work/scratch") >"$work/got" 2>&1
    local got=$?
    if [[ $got -ne $want ]]; then
        echo "FAIL $name: exit $got, expected $want"; sed 's/^/    /' "$work/got"; failures=$((failures + 1)); return
    fi
    if [[ -n "$pattern" ]] && ! grep -Eq -- "$pattern" "$work/got"; then
        echo "FAIL $name: output lacks /$pattern/"; sed 's/^/    /' "$work/got"; failures=$((failures + 1)); return
    fi
    # Nothing printed may carry a raw control character or start (after blanks) a workflow command.
    if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$work/got" || grep -Eq '^[[:space:]]*::|##\[' "$work/got"; then
        echo "FAIL $name: output carries a control character or a workflow command"; cat -A "$work/got" | sed 's/^/    /'
        failures=$((failures + 1)); return
    fi
    echo "ok   $name (exit $got)"
}
tool() { printf '%s' "$1" >"$work/out"; printf '%s' "${2:-Building for debugging...}" >"$work/err"; echo "$3" >"$work/status"; }

changes "API baseline: \`$head\`"
tool $'\nNo breaking changes detected in FrameScope\n'"$clean_modules" "" 0
expect "no break" 0 "ok, 0 break"
tool "$removed$clean_modules" "" 1
expect "an unlisted break fails, on one line" 1 '^unlisted API break in FrameScope: API breakage: func Recorder.annotate\(_:_:\) has been removed$'
changes "API baseline: \`$head\`" '`func Recorder.annotate(_:_:) has been removed`'
expect "a listed break passes" 0 '^listed API break in FrameScope'
changes "API baseline: \`$head\`" '`API breakage: func Recorder.annotate(_:_:) has been removed`' '`func Recorder.gone() has been removed`'
expect "the API breakage: prefix may be written; a stale entry is a warning" 0 '^warning: .*Recorder.gone'
changes "API baseline: \`$head\`" $'`::error::forged\x1b[31m ##[group]x\x07`'
tool $'\n1 breaking change detected in FrameScope:\n  \U0001f494 API breakage: ::warning::x ##[error]y\n'"$clean_modules" "" 1
expect "hostile text in an entry and in a break stays inert" 1 '^unlisted API break in FrameScope: API breakage: ::warning::x ##\\x5berror\]y$'

# The baseline's API dump marks package declarations internal: a break in one needs no entry, a
# break in a public declaration beside it still does.
dump="$work/scratch/api-baselines/$(printf '%s' "Swift version 0.0-selftest" | sha256sum | cut -c 1-12)/$head"
mkdir -p "$dump"
cat >"$dump/FrameTrace.json" <<'JSON'
{"ABIRoot": {"kind": "Root", "name": "TopLevel", "printedName": "TopLevel", "children": [
  {"kind": "TypeDecl", "name": "SeededGenerator", "printedName": "SeededGenerator", "isInternal": true, "children": [
    {"kind": "Function", "name": "next", "printedName": "next()", "children": [{"kind": "TypeNominal", "printedName": "UInt64"}]}]},
  {"kind": "TypeDecl", "name": "Array", "printedName": "Array", "children": [
    {"kind": "Function", "name": "adviseHugePages", "printedName": "adviseHugePages()", "isInternal": true}]},
  {"kind": "TypeDecl", "name": "ChromeTraceWriter", "printedName": "ChromeTraceWriter"}]}}
JSON
package_breaks=$'
3 breaking changes detected in FrameTrace:
  💔 API breakage: struct SeededGenerator has been removed
  💔 API breakage: func Array.adviseHugePages() has been removed
  💔 API breakage: func SeededGenerator.next() has return type change from UInt64 to Int
'
changes "API baseline: \`$head\`"
tool $'\nNo breaking changes detected in FrameScope\n\nNo breaking changes detected in FrameScopeTesting\n'"$package_breaks" "" 1
expect "breaks in package declarations need no entry" 0 'ok, 0 break.*3 more in package declarations'
expect "and each is named" 0 '^package declaration, not API, in FrameTrace: API breakage: func Array.adviseHugePages\(\) has been removed$'
tool $'\nNo breaking changes detected in FrameScope\n\nNo breaking changes detected in FrameScopeTesting\n\n2 breaking changes detected in FrameTrace:\n  \U0001f494 API breakage: struct SeededGenerator has been removed\n  \U0001f494 API breakage: struct ChromeTraceWriter has been removed\n' "" 1
expect "a public declaration beside them still needs one" 1 '^unlisted API break in FrameTrace: API breakage: struct ChromeTraceWriter has been removed$'
rm -rf "$work/scratch"

changes "API baseline: \`$head\`"
tool "$removed$clean_modules" "" 0
expect "exit 0 with a break is not believed" 2
tool $'\nNo breaking changes detected in FrameScope\n'"$clean_modules" "error: failed to compare API to baseline" 1
expect "exit 1 with no break is a tool failure" 2 "nothing was checked"
tool "$removed$clean_modules" "error: failed to read API digester output for FrameTrace" 1
expect "an error beside breaks is a tool failure" 2 "reported an error"
tool $'\nNo breaking changes detected in FrameScope\n\nNo breaking changes detected in FrameTrace\n' "" 0
expect "a module without a result" 2 "without a result for FrameScopeTesting"
tool $'\nNo breaking changes detected in FrameScope\n\nSkipping FrameTrace because it does not exist in the baseline\n\nNo breaking changes detected in FrameScopeTesting\n' "" 0
expect "a module missing from the baseline" 2 "baseline has no module FrameTrace"
tool $'\nNo breaking changes detected in FrameScope\nsomething new\n'"$clean_modules" "" 0
expect "a line it cannot read" 2 "cannot read"
tool $'\n2 breaking changes detected in FrameScope:\n  \U0001f494 API breakage: one\n'"$clean_modules" "" 1
expect "fewer breaks than announced" 2 "did not list them"
tool "" "Killed" 137
expect "a killed tool" 2 "nothing was checked"

tool $'\nNo breaking changes detected in FrameScope\n'"$clean_modules" "" 0
changes "Baseline: none"
expect "no baseline line" 2 "has no line 'API baseline"
changes "API baseline: \`${head:0:7}\`"
expect "a short hash" 2 "full 40-hex commit"
changes "API baseline: \`0123456789abcdef0123456789abcdef01234567\`"
expect "a baseline that is not a commit" 2 "is not a commit in this repository"
# A commit outside HEAD's history: HEAD's tree with no parent, unreferenced (so git gc drops it),
# with a fixed identity and date so that every run makes the same object and needs no git config.
side=$(GIT_AUTHOR_NAME=selftest GIT_AUTHOR_EMAIL=selftest@invalid GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" \
    GIT_COMMITTER_NAME=selftest GIT_COMMITTER_EMAIL=selftest@invalid GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
    git -C "$root" commit-tree "HEAD^{tree}" -m "check_api selftest: a commit outside HEAD's history")
changes "API baseline: \`$side\`"
expect "a baseline outside HEAD's history" 2 "is not in the history of HEAD"
changes "API baseline: \`$head\`" "an entry without backticks"
expect "an entry that names no break text" 2 "must start with the break's text"

echo "$((cases - failures)) passed, $failures failed"
[[ $failures -eq 0 ]]
