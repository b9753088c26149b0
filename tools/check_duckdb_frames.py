#!/usr/bin/env python3
"""Runs the documented DuckDB query over the demo's per-frame rows and checks it against `report`.

    python3 tools/check_duckdb_frames.py FRAMESCOPE_BINARY TRACE_DIR

For every trace in TRACE_DIR, writes `framescope report TRACE --format frames-jsonl` and
`--format frames-csv` into a scratch `frames/` folder exactly as the documented loop does,
labelling each trace's rows with `--label branch=<trace name>` so that the query's `GROUP BY branch`
gives one row per trace. Then runs the query shown under "Per-frame rows for many traces" in the
command-line reference (Sources/FrameScope/FrameScope.docc/CommandLineReference.md) — read from
that file itself, so the two cannot drift apart — once over the JSON Lines files and once in its CSV form, and checks, per
trace, that the frame count, p95 of main-thread cost and p95 of overrun equal
`framescope report TRACE --format json` exactly (nanoseconds).

Needs the `duckdb` Python package (CI installs it with pip; without it this script fails).
Exit status: 0 when every figure matches, 1 on a mismatch, 2 when something could not run.
"""
import json
import os
import re
import sys
import tempfile

from fstools.common import ROOT, exit_failed, run_or_exit

# The article that shows the query (the FrameScope DocC catalog's command-line reference).
DOCUMENT = os.path.join("Sources", "FrameScope", "FrameScope.docc", "CommandLineReference.md")


fail = exit_failed  # something could not run: say what, exit 2


def documented_queries():
    """The documented JSON Lines query, and the same query in the CSV form the document names."""
    with open(os.path.join(ROOT, DOCUMENT), encoding="utf-8") as file:
        document = file.read()
    match = re.search(r'duckdb -c "(.*?)"\n', document, re.S)
    if not match:
        fail(f"{DOCUMENT}: no `duckdb -c \"...\"` query found")
    query = match.group(1)
    json_source = re.search(r"read_json_auto\('frames/\*\.jsonl',\s*union_by_name = true\)", query)
    csv_source = re.search(r"read_csv_auto\('frames/\*\.csv',\s*union_by_name = true\)", " ".join(document.split()))
    if not json_source or not csv_source:
        fail(f"{DOCUMENT}: the query's read_json_auto(...) source or the CSV form read_csv_auto(...) is missing")
    return query, query.replace(json_source.group(0), csv_source.group(0))


def run(arguments, **kwargs):
    return run_or_exit(arguments, **kwargs).stdout


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, trace_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    try:
        import duckdb
    except ImportError:
        print("FAILED: the duckdb Python package is not installed (python3 -m pip install duckdb)", file=sys.stderr)
        return 2
    json_query, csv_query = documented_queries()
    traces = sorted(name for name in os.listdir(trace_dir) if name.endswith(".json"))
    if not traces:
        print(f"FAILED: no traces in {trace_dir}", file=sys.stderr)
        return 2
    expected = {}
    with tempfile.TemporaryDirectory() as scratch:
        frames = os.path.join(scratch, "frames")
        os.makedirs(frames)
        for name in traces:
            stem = name[: -len(".json")]
            path = os.path.join(trace_dir, name)
            for form, extension in (("frames-jsonl", "jsonl"), ("frames-csv", "csv")):
                rows = run([binary, "report", path, "--format", form, "--label", f"branch={stem}"])
                with open(os.path.join(frames, f"{stem}.{extension}"), "wb") as file:
                    file.write(rows)
            summary = json.loads(run([binary, "report", path, "--format", "json"]))["summary"]
            expected[stem] = (summary["frames"], summary["main-thread-cost-ns"]["p95"], summary["overrun-ns"]["p95"])
        failures = 0
        for form, query in (("frames-jsonl", json_query), ("frames-csv", csv_query)):
            connection = duckdb.connect()
            os.chdir(scratch)  # the documented query reads frames/*, relative to where it runs
            result = connection.execute(query).fetchall()
            got = {row[0]: row[1:] for row in result}
            print(f"{form}: the documented query returned {len(result)} rows for {len(traces)} traces")
            for stem, (frame_count, main_p95_ns, overrun_p95_ns) in sorted(expected.items()):
                if stem not in got:
                    print(f"  MISMATCH {stem}: no row", file=sys.stderr)
                    failures += 1
                    continue
                count, main_ms, overrun_ms = got[stem]
                figures = (int(count), round(float(main_ms) * 1e6), round(float(overrun_ms) * 1e6))
                wanted = (frame_count, main_p95_ns, overrun_p95_ns)
                status = "ok" if figures == wanted else "MISMATCH"
                print(f"  {status} {stem}: frames {figures[0]} / {wanted[0]}, p95 main {figures[1]} / {wanted[1]} ns, "
                      f"p95 overrun {figures[2]} / {wanted[2]} ns (duckdb / report)")
                failures += figures != wanted
    if failures:
        print(f"FAILED: {failures} figures differ between DuckDB's quantile_disc and framescope report", file=sys.stderr)
        return 1
    print("DuckDB's quantile_disc over frames-jsonl and frames-csv equals report's p95 for every trace")
    return 0


if __name__ == "__main__":
    sys.exit(main())
