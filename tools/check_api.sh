#!/usr/bin/env bash
# Does the public API of the library products still compile for code written against the
# baseline, or is each break written down? tools/check_api.sh [--changes FILE] [--scratch-path DIR]
#
# Reads the baseline commit and the intended breaks from the DocC article
# Sources/FrameScope/FrameScope.docc/Changes.md (or FILE):
#   API baseline: `<40-hex commit>`
#   ## Intended API breaks since the baseline
#   - `<text of a break, as the tool prints it>`: why, and what to use instead
# then runs `swift package diagnose-api-breaking-changes` for FrameScope, FrameScopeTesting and
# FrameTrace. The tool clones this repository into .build-api, checks the baseline out, builds it
# and records its API with swift-api-digester; it then builds the working tree there and compares.
# Baselines are kept in .build-api/api-baselines/<toolchain>/<commit>, so a second run only
# rebuilds the working tree. .build-api keeps all of this away from the .build that `swift build`
# uses, so a developer's build is never locked or replanned by it; the price is one more debug
# build of the tree. CI, whose steps run one after another, passes --scratch-path .build and so
# reuses the debug build of its first step.
#
# Exit status: 0 when the tool reports no break or every break is listed; 1 when a break is not
# listed (each printed on one line); 2 when nothing was checked: no baseline line, a baseline that
# is not a commit in the history of HEAD (a shallow clone has too little history), or a tool that
# failed or printed what this script cannot read. A break in a declaration the baseline's API dump
# marks internal (a `package` declaration, which the digester records but no user can name) is
# printed as such and needs no entry. An entry that names no reported break is a
# warning: it hides nothing, since entries match a break's whole text.
#
# Text from Changes.md and from the tool is printed with control characters escaped and behind a
# fixed prefix, so no line it prints can become a GitHub Actions workflow command.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
changes=Sources/FrameScope/FrameScope.docc/Changes.md
scratch=.build-api
products=(FrameScope FrameScopeTesting FrameTrace)

while [[ $# -gt 0 ]]; do
    case "$1" in
        --changes) [[ $# -ge 2 ]] || { echo "check_api: --changes needs a file" >&2; exit 2; }; changes=$2; shift 2 ;;
        --scratch-path) [[ $# -ge 2 ]] || { echo "check_api: --scratch-path needs a directory" >&2; exit 2; }; scratch=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set /p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: tools/check_api.sh [--changes FILE] [--scratch-path DIR]" >&2; exit 2 ;;
    esac
done

fail2() { printf 'check_api: %s\n' "$*" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/framescope-check-api.XXXXXX") || fail2 "cannot make a temporary directory"
trap 'rm -rf "$work"' EXIT

# The one Python program, in two modes: `changes` reads Changes.md, `compare` reads the tool's output.
cat >"$work/check_api.py" <<'PY'
import json, re, sys

API_PREFIX = "API breakage: "
SECTION = "Intended API breaks since the baseline"


def shown(text):
    """Untrusted text as one inert line: control and other invisible characters escaped, a
    backslash doubled, and `##[` (a workflow command anywhere in a line) broken up. The caller
    always prints it after a fixed prefix, so `::` can never start the line."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append("\\u{%04x}" % ord(ch))
    return "".join(out).replace("##[", "##\\x5b")


def normalized(text):
    return text[len(API_PREFIX):] if text.startswith(API_PREFIX) else text


def outside_fences(lines):
    """(line number, line) for the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(lines, 1):
        match = re.match(r"^ {0,3}(`{3,}|~{3,})", line)
        if match:
            if fence is None:
                fence = match.group(1)
            elif match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        if fence is None:
            yield number, line


def read_changes(path, entries_out):
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
    except (OSError, UnicodeDecodeError) as error:
        return fail(f"cannot read {shown(path)}: {shown(str(error))}")
    baselines, entries, in_section, seen_section = [], [], False, False
    for number, line in outside_fences(lines):
        if line.startswith("API baseline:"):
            baselines.append((number, line))
        heading = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if heading:
            if heading.group(2) == SECTION and len(heading.group(1)) == 2:
                in_section, seen_section = True, True
            elif len(heading.group(1)) <= 2:
                in_section = False
            continue
        if in_section and re.match(r"^[-*+] ", line):
            span = re.match(r"^[-*+] (`+)(.+?)(?<!`)\1(?!`)", line)
            if not span:
                return fail(f"{shown(path)}:{number}: an entry must start with the break's text in backticks, "
                            f"as the tool prints it: {shown(line)}")
            text = span.group(2)
            if text.startswith(" ") and text.endswith(" ") and text.strip():
                text = text[1:-1]
            entries.append({"line": number, "text": normalized(text)})
    if not baselines:
        return fail(f"{shown(path)} has no line 'API baseline: `<40-hex commit>`', so there is nothing to compare with")
    if len(baselines) > 1:
        return fail(f"{shown(path)} has {len(baselines)} 'API baseline:' lines (lines "
                    f"{', '.join(str(n) for n, _ in baselines)}); keep one")
    number, line = baselines[0]
    value = re.match(r"^API baseline:\s*`([0-9a-fA-F]{40})`\s*$", line)
    if not value:
        return fail(f"{shown(path)}:{number}: the baseline must be a full 40-hex commit in backticks, "
                    f"like API baseline: `<commit>`; found: {shown(line)}")
    if not seen_section:
        return fail(f"{shown(path)} has no heading '## {SECTION}' (its list may be empty: 'None yet.')")
    with open(entries_out, "w", encoding="utf-8") as handle:
        json.dump(entries, handle)
    print(value.group(1).lower())
    return 0


def fail(message):
    print(f"check_api: {message}", file=sys.stderr)
    return 2


def tool_tail(err_path, out_path, count=30):
    """The last lines the tool printed, each behind a prefix, for a failure's diagnosis."""
    lines = []
    for path in (out_path, err_path):
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines += [line for line in handle.read().split("\n") if line.strip()]
        except OSError:
            pass
    for line in lines[-count:]:
        print(f"  tool | {shown(line)}", file=sys.stderr)


def package_only(baseline_dir, module):
    """Qualified names (`Array.adviseHugePages()`, `SeededGenerator`) of the declarations the
    baseline's API dump marks internal: `package` declarations, which the digester records beside
    the public API but which no code outside this package can name. Removing or changing one
    breaks nothing for a user, so such a break is reported but not held against Changes.md. A
    dump that is missing or unreadable exempts nothing."""
    names = set()
    try:
        with open(f"{baseline_dir}/{module}.json", encoding="utf-8") as handle:
            root = json.load(handle)["ABIRoot"]
    except (OSError, ValueError, KeyError, TypeError):
        return names

    def walk(node, prefix, inside):
        for child in node.get("children", []) if isinstance(node, dict) else []:
            if not isinstance(child, dict) or child.get("kind") in ("TypeNominal", "TypeFunc", "TypeNameAlias"):
                continue
            name = f"{prefix}{child.get('printedName', '')}"
            internal = inside or child.get("isInternal") is True
            if internal:
                names.add(name)
            walk(child, name + ".", internal)

    walk(root, "", False)
    return names


def is_package_only(text, names):
    match = re.match(r"^(?:[a-z]+ )+(.+?) has ", normalized(text))
    return bool(match) and match.group(1) in names


def compare(status, out_path, err_path, entries_path, changes_path, baseline_dir, modules):
    status = int(status)
    with open(entries_path, encoding="utf-8") as handle:
        entries = json.load(handle)
    with open(out_path, encoding="utf-8", errors="replace") as handle:
        out = handle.read().split("\n")
    with open(err_path, encoding="utf-8", errors="replace") as handle:
        err = handle.read().split("\n")

    def broken(message):
        print(f"check_api: {message}; nothing was checked", file=sys.stderr)
        tool_tail(err_path, out_path)
        return 2

    results, breaks, skipped, index = {}, [], [], 0
    while index < len(out):
        line = out[index]
        index += 1
        if not line.strip():
            continue
        clean = re.match(r"^No breaking changes detected in (\S+)$", line)
        counted = re.match(r"^(\d+) breaking changes? detected in (\S+):$", line)
        skip = re.match(r"^Skipping (\S+) because it does not exist in the baseline$", line)
        if clean:
            module = clean.group(1)
            results.setdefault(module, []).append(0)
        elif counted:
            count, module = int(counted.group(1)), counted.group(2)
            items = out[index:index + count]
            if count == 0 or len(items) < count or not all(item.startswith("  \U0001f494 ") for item in items):
                return broken(f"the tool announced {count} break(s) in {shown(module)} but did not list them")
            breaks += [(module, item[len("  \U0001f494 "):]) for item in items]
            results.setdefault(module, []).append(count)
            index += count
        elif skip:
            skipped.append(skip.group(1))
        else:
            return broken(f"the tool printed a line this script cannot read: {shown(line)}")

    # A compile error, or an error the API digester raised beside its breaks, is a failed check.
    errors = [line for line in err if re.match(r"^(error|fatal error): |^\S.*?:\d+:(\d+:)? (error|fatal error): ", line)]
    if errors:
        return broken(f"the tool reported an error (exit {status}): {shown(errors[0])}")
    if skipped:
        return broken(f"the baseline has no module {', '.join(shown(m) for m in skipped)}: "
                      "is the baseline line the commit that declared the API stable?")
    missing = [m for m in modules if m not in results]
    if missing:
        return broken(f"the tool exited {status} without a result for {', '.join(missing)}")
    twice = [m for m, counts in results.items() if len(counts) > 1]
    if twice:
        return broken(f"the tool reported {', '.join(shown(m) for m in twice)} more than once")
    if status not in (0, 1) or (status == 0) != (not breaks):
        return broken(f"the tool exited {status} after reporting {len(breaks)} break(s)")

    listed = {entry["text"] for entry in entries}
    reported = {normalized(text) for _, text in breaks}
    internal = {module: package_only(baseline_dir, module) for module in results}
    package_breaks = [(module, text) for module, text in breaks
                      if normalized(text) not in listed and is_package_only(text, internal[module])]
    breaks = [item for item in breaks if item not in package_breaks]
    for module in sorted(results):
        count = results[module][0]
        print(f"  {shown(module)}: " + ("no breaking change" if count == 0 else f"{count} breaking change(s)"))
    for entry in entries:
        if entry["text"] not in reported:
            print(f"warning: {shown(changes_path)}:{entry['line']} names a break the tool does not report "
                  f"(the API came back, or the text differs); remove it: {shown(entry['text'])}")
    unlisted = [(module, text) for module, text in breaks if normalized(text) not in listed]
    for module, text in package_breaks:
        print(f"package declaration, not API, in {shown(module)}: {shown(text)}")
    for module, text in breaks:
        if normalized(text) in listed:
            print(f"listed API break in {shown(module)}: {shown(text)}")
    for module, text in unlisted:
        print(f"unlisted API break in {shown(module)}: {shown(text)}")
    if unlisted:
        print(f"check_api: {len(unlisted)} API break(s) not listed under '## {SECTION}' in {shown(changes_path)}. "
              "Restore the API, or, if the break is intended, add an entry with the break's text in backticks, "
              "why, and what to use instead.", file=sys.stderr)
        return 1
    aside = f" ({len(package_breaks)} more in package declarations, which are not API)" if package_breaks else ""
    print(f"check_api: ok, {len(breaks)} break(s) reported, all listed in {shown(changes_path)}{aside}")
    return 0


if __name__ == "__main__":
    # A crash here must not read as exit 1 ("a break"): anything unexpected is exit 2.
    try:
        if sys.argv[1] == "changes":
            sys.exit(read_changes(sys.argv[2], sys.argv[3]))
        sys.exit(compare(*sys.argv[2:8], sys.argv[8:]))
    except Exception as error:
        print(f"check_api: internal error, nothing was checked: {shown(repr(error))}", file=sys.stderr)
        sys.exit(2)
PY

baseline=$(python3 "$work/check_api.py" changes "$changes" "$work/entries.json") || exit 2

# The baseline must be a commit in the history being checked: the tool clones this repository and
# checks the baseline out, and a commit off to the side would compare against the wrong API.
git rev-parse --git-dir >/dev/null 2>&1 || fail2 "$root is not a git repository; the check needs the repository with its history"
if ! git cat-file -e "$baseline^{commit}" 2>/dev/null; then
    hint=""
    [[ $(git rev-parse --is-shallow-repository 2>/dev/null) == true ]] && hint=" (this is a shallow clone: clone with full history)"
    fail2 "the API baseline $baseline in $changes is not a commit in this repository$hint"
fi
git merge-base --is-ancestor "$baseline" HEAD 2>/dev/null ||
    fail2 "the API baseline $baseline in $changes is not in the history of HEAD ($(git rev-parse --short HEAD))"

# Baselines are cached per toolchain: another compiler may record the same API differently.
toolchain=$(swift --version 2>/dev/null | head -n 1) || fail2 "swift is not on PATH"
[[ -n "$toolchain" ]] || fail2 "swift --version printed nothing"
baseline_dir="$scratch/api-baselines/$(printf '%s' "$toolchain" | sha256sum | cut -c 1-12)"
# A cached baseline that is not a JSON API dump with symbols is thrown away and made again.
for product in "${products[@]}"; do
    cached="$baseline_dir/$baseline/$product.json"
    if [[ -e "$cached" ]] && ! python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["ABIRoot"]["children"]' "$cached" 2>/dev/null; then
        echo "check_api: the cached baseline $cached is unreadable; making it again"
        rm -rf "$baseline_dir/$baseline"
    fi
done

printf 'check_api: %s against baseline %s (%s)\n' "${products[*]}" "$baseline" "$toolchain"
started=$SECONDS
swift package --scratch-path "$scratch" diagnose-api-breaking-changes "$baseline" \
    --products "${products[@]}" --baseline-dir "$baseline_dir" >"$work/tool.out" 2>"$work/tool.err"
status=$?
echo "check_api: swift package diagnose-api-breaking-changes exited $status after $((SECONDS - started)) s"
python3 "$work/check_api.py" compare "$status" "$work/tool.out" "$work/tool.err" "$work/entries.json" "$changes" "$baseline_dir/$baseline" "${products[@]}"
verdict=$?
[[ $verdict -le 2 ]] || verdict=2  # python3 missing or killed: nothing was checked
exit "$verdict"
