#!/usr/bin/env bash
# The steps of framescope's GitHub Action (action.yml, at the repository root): run.sh setup,
# run.sh build and run.sh run, each one step of the composite action.
#
#   setup  reads the Swift version and the framescope revision to build; writes the cache key's
#          parts and the binary's cached directory as step outputs
#   build  builds framescope in release when the restored binary is missing or does not run
#   run    runs framescope check (with a budget) and framescope compare (with base traces),
#          writes the step summary, the annotations, JUnit and JSON, and the action's outputs,
#          and exits as framescope did
#
# Values come in as FRAMESCOPE_ACTION_* environment variables that action.yml sets from its
# inputs: a composite action's run steps get no INPUT_* variables (actions/runner#665), and an
# input written into a script's text with ${{ }} would run as code.
#
# Trace, category, thread and file names are untrusted (a pull request chose them), and so are
# paths and globs (a workflow may build them from a branch name). This script never prints
# them: framescope writes the report, the step summary and the annotations, escaped for each
# reader; this script prints fixed text, numbers and the paths it made itself, and passes on
# only those lines of framescope's output that have the form of framescope's annotations.
#
# Runs under bash 3.2 (macOS's /bin/bash) as well as bash 5: no mapfile, no associative arrays,
# no ${x,,}, and no empty "${array[@]}" under set -u.
set -eo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)   # the action's own checkout: GITHUB_ACTION_PATH on a runner

# The action's own workflow commands: fixed text only, never a value from an input or a trace.
action_error() { printf '::error title=framescope action::%s\n' "$1"; }
action_warning() { printf '::warning title=framescope action::%s\n' "$1"; }

# One step output. Values are fixed words, numbers, hex revisions and paths without a line
# break (checked), so the single-line form name=value is enough.
output() {
    case "$2" in
    *$'\n'* | *$'\r'*) action_error "internal: an output value holds a line break"; exit 3 ;;
    esac
    if [ -n "${GITHUB_OUTPUT:-}" ]; then
        printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
    fi
}

# sha256sum on Linux, shasum on macOS; both print "HASH  NAME" lines.
if command -v sha256sum >/dev/null 2>&1; then sha256="sha256sum"; else sha256="shasum -a 256"; fi
sha256() { $sha256 "$@"; }

# A hash of what the binary is built from: Package.swift and every file under Sources/, names
# and contents, in a fixed order. Two checkouts with equal sources build the same binary.
source_hash() {
    (
        cd "$1"
        # shellcheck disable=SC2086 # $sha256 is a command and its option
        find Package.swift Sources -type f -print0 | LC_ALL=C sort -z | xargs -0 $sha256 | sha256 | cut -c1-40
    )
}

temp_root() {
    local base=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
    printf '%s/framescope-action' "$base"
}

# --- setup -----------------------------------------------------------------------------------

setup() {
    if ! command -v swift >/dev/null 2>&1; then
        action_error "swift is not on PATH: set up Swift 6 before this step (swift-actions/setup-swift, a swift container, or Xcode on macOS)"
        exit 3
    fi
    local version_text number toolchain revision fetch_url=""
    version_text=$(swift --version 2>&1) || {
        action_error "swift --version failed"
        exit 3
    }
    number=$(printf '%s\n' "$version_text" | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
    if [ -z "$number" ]; then
        action_error "swift --version did not say which Swift version it is"
        exit 3
    fi
    # The toolchain's full version text and where it lives: a binary built by one toolchain
    # loads that toolchain's runtime libraries (on Linux through a run path into the toolchain),
    # so a different build or install location is a different cache entry.
    toolchain=$(printf '%s\n%s\n' "$version_text" "$(command -v swift)" | sha256 | cut -c1-12)

    local ref=${FRAMESCOPE_ACTION_REF:-} repository=${FRAMESCOPE_ACTION_REPOSITORY:-}
    if [ -z "$ref" ]; then
        # The revision the workflow's `uses: OWNER/framescope@REF` downloaded, keyed by its
        # sources rather than by github.action_ref, which is a movable name (v1) and empty in a
        # composite action's steps on some runners (actions/runner#2473).
        revision="tree-$(source_hash "$root")"
    else
        case "$repository" in
        "")
            action_error "framescope-ref is set but no repository is known: set framescope-repository (OWNER/framescope or a git URL)"
            exit 2
            ;;
        *://* | /* | ./* | ../* | *@*:*) fetch_url=$repository ;;
        */*) fetch_url="https://github.com/$repository.git" ;;
        *)
            action_error "framescope-repository must be OWNER/NAME or a git URL"
            exit 2
            ;;
        esac
        if printf '%s' "$ref" | grep -Eq '^[0-9a-f]{40}$'; then
            revision=$ref
        else
            local refs
            if ! refs=$(git ls-remote "$fetch_url" "refs/tags/$ref" "refs/tags/$ref^{}" "refs/heads/$ref" "$ref" 2>/dev/null); then
                action_error "git ls-remote could not read framescope-repository"
                exit 3
            fi
            # A tag's commit (an annotated tag peeled), else a branch's, else a full ref's.
            revision=$(printf '%s\n' "$refs" | awk -v r="$ref" '
                $2 == "refs/tags/" r "^{}" { peeled = $1 }
                $2 == "refs/tags/" r { tag = $1 }
                $2 == "refs/heads/" r { head = $1 }
                $2 == r { full = $1 }
                END { print (peeled != "" ? peeled : tag != "" ? tag : head != "" ? head : full) }')
            if [ -z "$revision" ]; then
                action_error "framescope-ref names no tag or branch of framescope-repository (give a tag, a branch or a full 40-character commit)"
                exit 3
            fi
        fi
        if ! printf '%s' "$revision" | grep -Eq '^[0-9a-f]{40}$'; then
            action_error "framescope-ref did not resolve to a commit"
            exit 3
        fi
    fi
    output swift "$number-$toolchain"
    output revision "$revision"
    output fetch-url "$fetch_url"
    output bin-dir "$(temp_root)/bin-$revision"
    printf 'framescope: Swift %s (toolchain %s), framescope revision %s\n' "$number" "$toolchain" "$revision"
}

# --- build -----------------------------------------------------------------------------------

build() {
    local bin_dir=${FRAMESCOPE_ACTION_BIN_DIR:?} revision=${FRAMESCOPE_ACTION_REVISION:?} fetch_url=${FRAMESCOPE_ACTION_FETCH_URL:-}
    local binary="$bin_dir/framescope"
    if [ -x "$binary" ] && "$binary" --version >/dev/null 2>&1; then
        printf 'framescope: the cached binary of revision %s runs; nothing to build\n' "$revision"
        output built false
        return
    fi
    if [ -e "$binary" ]; then
        echo "framescope: the restored binary does not run with this toolchain; building it again"
    fi
    local source=$root scratch
    scratch="$(temp_root)/build-$revision"
    if [ -n "$fetch_url" ]; then
        source="$(temp_root)/source-$revision"
        rm -rf "$source"
        git init -q "$source"
        if ! git -C "$source" fetch -q --depth 1 "$fetch_url" "$revision"; then
            action_error "git could not fetch the framescope revision to build"
            exit 3
        fi
        git -C "$source" checkout -q --detach FETCH_HEAD
    fi
    printf 'framescope: building revision %s in release (minutes; the binary is cached for the next run)\n' "$revision"
    swift build -c release --product framescope --package-path "$source" --scratch-path "$scratch"
    local built
    built=$(swift build -c release --product framescope --package-path "$source" --scratch-path "$scratch" --show-bin-path)
    mkdir -p "$bin_dir"
    cp "$built/framescope" "$binary"
    "$binary" --version
    output built true
}

# --- run -------------------------------------------------------------------------------------

# Splits a paths-or-globs input at spaces, tabs and line breaks and expands each word as a
# glob, relative to the working directory (the workspace). A word that matches nothing stays
# as written, so framescope reports it as a missing file (exit 3) instead of it vanishing.
# A word that begins with '-' gets './' in front, so no file name can become an option.
# Prints one path per NUL-terminated record.
expand_paths() {
    local words word path
    set -f
    # shellcheck disable=SC2206 # splitting is the point; globbing is off until the loop
    words=($1)
    set +f
    shopt -s globstar 2>/dev/null || true   # ** where bash has it (not bash 3.2)
    shopt -u nullglob
    for word in ${words[@]+"${words[@]}"}; do
        local -a matches
        # shellcheck disable=SC2206
        matches=($word)
        for path in "${matches[@]}"; do
            case "$path" in -*) path="./$path" ;; esac
            printf '%s\0' "$path"
        done
    done
}

# Reads NUL-terminated records from a file into the array named by $1.
read_records() {
    local name=$1 file=$2 record index=0
    eval "$name=()"
    while IFS= read -r -d '' record; do
        eval "$name[$index]=\$record"
        index=$((index + 1))
    done <"$file"
}

# Runs one framescope gate with --format json; its stdout goes to a file. The JSON report is
# the first line; after it come the annotations, which are passed on to the log (where the
# runner turns them into annotations) when they have framescope's form, and only then.
# Sets gate_status.
run_gate() {
    local name=$1 out=$2 json=$3 summary=$4
    shift 4
    set +e
    GITHUB_STEP_SUMMARY=$summary "$binary" "$name" "$@" >"$out"
    gate_status=$?
    set -e
    head -n 1 "$out" >"$json"
    local dropped
    tail -n +2 "$out" | grep -E "^::(error|warning|notice) title=framescope( $name%3A [^:]*)?::" || true
    dropped=$(tail -n +2 "$out" | grep -cvE "^::(error|warning|notice) title=framescope( $name%3A [^:]*)?::" || true)
    if [ "${dropped:-0}" -gt 0 ]; then
        action_warning "framescope $name wrote $dropped lines after its JSON report that are not annotations; they were not shown"
    fi
}

# The figure a JSON report gives. The report is framescope's one-line JSON, in a fixed key
# order; inside a JSON string every quote is escaped, so a name cannot hold the "key": patterns
# matched here. Prints nothing when the report is not the schema this script knows.
failed_rules() {
    sed -n 's/^{"schema":"framescope\.check","version":2,.*,"counts":{"rules":[0-9]*,"passed":[0-9]*,"near-limit":[0-9]*,"failed":\([0-9]*\),"not-in-trace":[0-9]*}.*/\1/p' "$1"
}
rule_count() {
    sed -n 's/^{"schema":"framescope\.check","version":2,.*,"counts":{"rules":\([0-9]*\),.*/\1/p' "$1"
}
regressions() {
    if grep -q '^{"schema":"framescope\.compare","version":1,' "$1"; then
        { grep -o '"verdict":"regression"' "$1" || true; } | wc -l | tr -d ' '
    fi
}
compared_metrics() {
    if grep -q '^{"schema":"framescope\.compare","version":1,' "$1"; then
        { grep -o '"verdict":"[a-z-]*"' "$1" || true; } | wc -l | tr -d ' '
    fi
}

run() {
    local traces_input=${FRAMESCOPE_ACTION_TRACES:-} budget=${FRAMESCOPE_ACTION_BUDGET:-} base_input=${FRAMESCOPE_ACTION_BASE:-}
    local junit=${FRAMESCOPE_ACTION_JUNIT:-} annotations=${FRAMESCOPE_ACTION_ANNOTATIONS:-true}
    local fps=${FRAMESCOPE_ACTION_FPS:-} jobs=${FRAMESCOPE_ACTION_JOBS:-}
    binary=${FRAMESCOPE_ACTION_BINARY:?}

    # Outputs a failed run still has: the verdict says what went wrong.
    local usage=""
    case "$annotations" in
    true | True | TRUE) annotations=true ;;
    false | False | FALSE) annotations=false ;;
    *) usage="the annotations input must be true or false" ;;
    esac
    case "$junit" in *$'\n'* | *$'\r'*) usage="the junit input must be one path" ;; esac
    case "$budget" in *$'\n'* | *$'\r'*) usage="the budget input must be one path" ;; esac
    [ -n "$budget" ] || [ -n "$base_input" ] || usage="give a budget (framescope check), base traces (framescope compare), or both"

    local work
    mkdir -p "$(temp_root)"
    work=$(mktemp -d "$(temp_root)/report-XXXXXX")
    local -a traces=() base=()
    expand_paths "$traces_input" >"$work/traces.list"
    read_records traces "$work/traces.list"
    expand_paths "$base_input" >"$work/base.list"
    read_records base "$work/base.list"
    [ "${#traces[@]}" -gt 0 ] || usage="the traces input names no trace"
    [ -z "$base_input" ] || [ "${#base[@]}" -gt 0 ] || usage="the base input names no trace"
    if [ -n "$usage" ]; then
        action_error "$usage"
        output verdict error
        output exit-code 2
        output broken-rules 0
        output failed-rules 0
        output regressions 0
        exit 2
    fi
    if [ ! -x "$binary" ]; then
        action_error "the framescope binary is missing: the build step did not run or failed"
        output verdict error
        output exit-code 3
        exit 3
    fi

    local -a common=(--format json)
    [ "$annotations" = false ] || common+=(--github-annotations)
    [ -z "$fps" ] || common+=(--fps "$fps")
    [ -z "$jobs" ] || common+=(--jobs "$jobs")

    local final=0 failed="" regressed="" check_json="" compare_json="" check_junit="" compare_junit=""
    : >"$work/summary.md"
    if [ -n "$budget" ]; then
        local -a junit_option=()
        if [ -n "$junit" ]; then
            mkdir -p -- "$(dirname -- "$junit")"
            check_junit=$junit
            junit_option=(--junit "$junit")
        fi
        check_json="$work/check.json"
        run_gate check "$work/check.out" "$check_json" "$work/check.md" \
            --budget "$budget" "${common[@]}" ${junit_option[@]+"${junit_option[@]}"} -- "${traces[@]}"
        final=$gate_status
        failed=$(failed_rules "$check_json")
        local rules
        rules=$(rule_count "$check_json")
        if [ -n "$failed" ]; then
            printf 'framescope check: exit %s; %s of %s rules failed\n' "$gate_status" "$failed" "$rules"
        else
            printf 'framescope check: exit %s; no report (see the error above)\n' "$gate_status"
            [ -s "$check_json" ] || check_json=""
        fi
    fi
    if [ -n "$base_input" ]; then
        local -a sides=() junit_option=()
        local trace
        for trace in "${base[@]}"; do sides+=(--base "$trace"); done
        for trace in "${traces[@]}"; do sides+=(--head "$trace"); done
        [ -z "$budget" ] || sides+=(--budget "$budget")
        if [ -n "$junit" ]; then
            # With a budget, check's JUnit file has the given path and compare's goes beside it.
            if [ -n "$budget" ]; then
                case "$junit" in
                *.xml) compare_junit="${junit%.xml}-compare.xml" ;;
                *) compare_junit="$junit-compare.xml" ;;
                esac
            else
                compare_junit=$junit
            fi
            mkdir -p -- "$(dirname -- "$compare_junit")"
            junit_option=(--junit "$compare_junit")
        fi
        compare_json="$work/compare.json"
        run_gate compare "$work/compare.out" "$compare_json" "$work/compare.md" \
            "${sides[@]}" "${common[@]}" ${junit_option[@]+"${junit_option[@]}"}
        # Exit 2 and 3 (and a crash) win over 1: a run that could not judge everything is an
        # error, even when what it could judge also failed.
        if [ "$final" -eq 0 ] || { [ "$final" -eq 1 ] && [ "$gate_status" -ne 0 ]; }; then
            final=$gate_status
        fi
        regressed=$(regressions "$compare_json")
        if [ -n "$regressed" ]; then
            printf 'framescope compare: exit %s; %s of %s metrics regressed\n' "$gate_status" "$regressed" "$(compared_metrics "$compare_json")"
        else
            printf 'framescope compare: exit %s; no report (see the error above)\n' "$gate_status"
            compare_json=""
        fi
    fi

    # framescope wrote each Markdown report (bounded at 1,000,000 bytes) to a file of ours; the
    # step's summary gets them byte for byte, as many as fit in GitHub's 1 MiB per step.
    local part size total=0 limit=1000000
    for part in "$work/check.md" "$work/compare.md"; do
        [ -s "$part" ] || continue
        cat "$part" >>"$work/summary.md"
        [ -n "${GITHUB_STEP_SUMMARY:-}" ] || continue
        size=$(wc -c <"$part" | tr -d ' ')
        if [ $((total + size)) -gt "$limit" ]; then
            printf '\nframescope: the compare report is left out: with the check report it is over GitHub'"'"'s 1 MiB per step. The summary output names a file with both.\n' >>"$GITHUB_STEP_SUMMARY"
            continue
        fi
        cat "$part" >>"$GITHUB_STEP_SUMMARY"
        total=$((total + size))
    done

    local verdict=error
    case "$final" in 0) verdict=pass ;; 1) verdict=fail ;; esac
    output verdict "$verdict"
    output exit-code "$final"
    output failed-rules "${failed:-0}"
    output regressions "${regressed:-0}"
    output broken-rules "$((${failed:-0} + ${regressed:-0}))"
    output summary "$work/summary.md"
    output check-json "$check_json"
    output compare-json "$compare_json"
    # The JUnit paths are the workflow's own input; written only when framescope wrote them.
    if [ -n "$check_junit" ] && [ -f "$check_junit" ]; then output check-junit "$check_junit"; else output check-junit ""; fi
    if [ -n "$compare_junit" ] && [ -f "$compare_junit" ]; then output compare-junit "$compare_junit"; else output compare-junit ""; fi
    printf 'framescope: verdict %s, %s broken rules, exit %s\n' "$verdict" "$((${failed:-0} + ${regressed:-0}))" "$final"
    exit "$final"
}

case "${1:-}" in
setup) setup ;;
build) build ;;
run) run ;;
*)
    echo "usage: run.sh setup|build|run (the steps of action.yml)" >&2
    exit 2
    ;;
esac
