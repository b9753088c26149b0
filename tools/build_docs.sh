#!/usr/bin/env bash
# DocC documentation for the library products: tools/build_docs.sh [OUTPUT_DIR]
#
# Builds FrameScope, FrameScopeTesting and FrameTrace with symbol graphs (public symbols only),
# then converts each module's catalog (Sources/<Module>/<Module>.docc) with the toolchain's own
# `docc` into OUTPUT_DIR/<Module>.doccarchive, ready for static hosting: serve OUTPUT_DIR with
# `python3 -m http.server --directory OUTPUT_DIR` and open
# http://127.0.0.1:8000/FrameTrace.doccarchive/documentation/frametrace/ (or the index.html this
# script writes at OUTPUT_DIR's root, which links all three).
#
# Fails (non-zero) on any DocC warning (--warnings-as-errors) and on any public symbol declared
# in the sources without a doc comment of its own. Prints one line per module to stdout,
# "FrameTrace: N public symbols, N documented"; progress goes to stderr.
# OUTPUT_DIR defaults to .build-docs/archives. Symbol graphs are built in .build-docs (its own
# scratch path, so the normal .build is left alone); no swift-docc-plugin, no package dependency.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
modules=(FrameScope FrameScopeTesting FrameTrace)
# Targets the products import internally (FrameScopeTesting's budgets use the analysis and the
# reader): built with the flags too, so they emit graphs, which no catalog takes, since they are
# not products and no public API names them.
engine=(FrameAnalysis FrameJSON FrameParquet FrameSupport FrameTraceReader)
scratch="$root/.build-docs"
out=${1:-$scratch/archives}
mkdir -p "$out"
out=$(cd "$out" && pwd)
graphs="$scratch/symbol-graphs"
log() { printf '[build_docs] %s\n' "$*" >&2; }

command -v docc >/dev/null 2>&1 || { echo "docc not found: it ships with the Swift toolchain (usr/bin/docc)" >&2; exit 1; }

# One build emits the graphs of all three modules (FrameScopeTesting depends on the other two,
# and on the engine targets above).
# The compiler writes a module's graphs only when it emits that module, so an up-to-date build
# would write nothing into a fresh folder: removing the three .swiftmodule files makes it emit
# them again (seconds; the object files are kept), and a fresh folder means no stale graph of an
# extension that no longer exists survives.
swift_flags=(
    -Xswiftc -emit-symbol-graph
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs/all"
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
    -Xswiftc -emit-extension-block-symbols
)
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
for module in "${modules[@]}"; do
    rm -f "$bin/Modules/$module.swiftmodule" "$bin/$module.swiftmodule"
done
rm -rf "$graphs"
mkdir -p "$graphs/all"
log "building symbol graphs in $scratch"
swift build --scratch-path "$scratch" --target FrameScopeTesting "${swift_flags[@]}" >&2

# Each catalog gets its own module's graph and the graphs of the extensions that module declares
# on other modules' types (<Module>@<Extended>.symbols.json, e.g. FrameTrace@Swift): those are
# documented where they are declared, under "Extended Modules" (which needs the extension block
# symbols; without them DocC leaves such members out). Another module's graphs never go in, so no symbol is
# documented twice.
for module in "${modules[@]}"; do
    [ -f "$graphs/all/$module.symbols.json" ] || { echo "no symbol graph for $module in $graphs/all" >&2; exit 1; }
    mkdir -p "$graphs/$module"
    cp "$graphs/all/$module.symbols.json" "$graphs/$module/"
    for extension in "$graphs/all/$module@"*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "$graphs/$module/"
    done
done
known=("${modules[@]}" "${engine[@]}")
unclaimed=$(cd "$graphs/all" && ls | grep -Ev "^($(IFS='|'; echo "${known[*]}"))(@[^/]*)?\.symbols\.json$" || true)
[ -z "$unclaimed" ] || { echo "symbol graphs no catalog takes: $unclaimed" >&2; exit 1; }

failed=0
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    archive="$out/$module.doccarchive"
    catalog_args=()
    if [ -d "$catalog" ]; then
        catalog_args=("$catalog")
    else
        # Only until the catalog lands: DocC documents the symbols alone, with a generated landing page.
        log "NOTE: $catalog does not exist; converting $module's symbol graphs without a catalog"
    fi
    rm -rf "$archive"
    log "docc convert $module -> $archive"
    if ! docc convert "${catalog_args[@]}" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.framescope.$module" \
        --output-path "$archive" \
        --warnings-as-errors \
        --transform-for-static-hosting \
        --hosting-base-path "$module.doccarchive" >&2; then
        echo "$module: docc convert failed (warnings are errors)" >&2
        failed=1
    fi
done

# Coverage from the symbol graphs: a public symbol is one declared in the sources (it has a
# location) other than an extension block; what the compiler adds (an enum's init(rawValue:), Equatable's != and the like from
# the standard library) has none and carries the standard library's comment, not ours.
python3 - "$graphs" "$root" "${modules[@]}" <<'PY' || failed=1
import glob, json, os, sys

graphs, root, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
failed = False
for module in modules:
    total, undocumented = 0, []
    for path in sorted(glob.glob(os.path.join(graphs, module, "*.symbols.json"))):
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            location = symbol.get("location")
            if location is None or symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol["kind"]["identifier"] == "swift.extension":
                continue  # an extension block groups its members (each counted); DocC names its page
            total += 1
            comment = symbol.get("docComment") or {}
            text = "".join(line.get("text", "") for line in comment.get("lines", []))
            if comment.get("module", module) != module or not text.strip():
                file_path = location["uri"].removeprefix("file://")
                where = f'{os.path.relpath(file_path, root)}:{location["position"]["line"] + 1}'
                undocumented.append(f'{where}: {".".join(symbol["pathComponents"])}')
    print(f"{module}: {total} public symbols, {total - len(undocumented)} documented", flush=True)
    for line in undocumented:
        print(f"  undocumented: {line}", file=sys.stderr)
    failed = failed or bool(undocumented) or total == 0
sys.exit(1 if failed else 0)
PY

cat >"$out/index.html" <<HTML
<!doctype html>
<meta charset="utf-8">
<title>framescope documentation</title>
<h1>framescope documentation</h1>
<ul>
  <li><a href="FrameScope.doccarchive/documentation/framescope/">FrameScope</a>: what apps link</li>
  <li><a href="FrameScopeTesting.doccarchive/documentation/framescopetesting/">FrameScopeTesting</a>: recorder doubles for tests</li>
  <li><a href="FrameTrace.doccarchive/documentation/frametrace/">FrameTrace</a>: the trace as values, and its writers</li>
</ul>
HTML

if [ "$failed" -ne 0 ]; then
    echo "documentation check failed: see the DocC warnings and undocumented symbols above" >&2
    exit 1
fi
log "archives in $out (serve with: python3 -m http.server --directory $out)"
