#!/usr/bin/env python3
"""Reads framescope's Parquet with two independent readers and checks it value for value (a CI step).

    python3 tools/check_parquet.py FRAMESCOPE_BINARY [--corpus DIR] [--parquet-dir DIR] [--demo-dir DIR]

framescope writes Parquet with a writer of its own (Sources/FrameParquet), so this is its oracle:
for the demo's traces (`framescope demo --frames 60`, or the finished demo in --demo-dir), the sample traces in Traces/, the hostile
corpus (regenerated with tools/make_hostile_corpus.py), the overflow fixtures (values at and past
DECIMAL(18, 6)'s 18 digits), the readable Perfetto fixtures (Android's FrameTimeline columns) and
every trace in --corpus (the
third-party corpus), each with labels that include a hostile value, it writes

- `report --format frames-parquet --out` and `--format frames-jsonl`, and checks that pyarrow and
  DuckDB both read the Parquet with the JSON Lines' column names, in order, and the same values:
  integers and strings equal, `*_ms` columns as Decimal equal to the JSON's six-decimal number,
  doubles equal, `main_by_category_ms` as a mapping equal to the JSON object, in its order;
- `--format summary-parquet` and `summary-jsonl`, checked the same way, and the summary's figures
  against `report --format json`'s `summary` (nanoseconds equal to the milliseconds x 10^6);
- every top-level column chunk's statistics (null count; min and max, strings in unsigned byte
  order) against the values pyarrow reads, and that DELTA_BINARY_PACKED and RLE_DICTIONARY chunks
  were among those read;

and reads every `*.parquet` under --parquet-dir (where the Swift tests drop the files they write,
when FRAMESCOPE_PARQUET_DIR is set), comparing it with a `.jsonl` of the same stem when there is
one. Then the bad inputs: an unreadable trace (exit 3), an unwritable --out (exit 3, found before
the trace is read), a bad
--label (exit 2), Parquet to a terminal (a pty; exit 2, nothing written).

Installs pyarrow and duckdb with pip when missing, and fails (exit 2) when it cannot.
Exit status: 0 when every value matches, 1 on a mismatch, 2 when something could not run.
"""
import argparse
import glob
import json
import os
import pty
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal

from fstools.common import ROOT, exit_failed, run_or_exit
from fstools.corpus import trace_files

HOSTILE_LABEL = "main\n::error::from-label \x1b[31m\u202e é e\u0301 \"q\" ,;"
LANES = ["main", "render", "compositor", "raster", "gpu", "background"]
PERCENTILES = ["p50", "p90", "p95", "p99", "max", "total"]

failures = []
counts = {"files": 0, "rows": 0, "values": 0}
encodings = {}


fail = exit_failed


def expect(condition, what):
    if not condition:
        failures.append(what)
        if len(failures) <= 40:
            print(f"  FAIL {what}", file=sys.stderr)
    return condition


def readers():
    try:
        import duckdb
        import pyarrow.parquet
    except ImportError:
        install = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pyarrow", "duckdb"])
        if install.returncode != 0:
            fail("pyarrow and duckdb are needed and pip could not install them")
        import duckdb
        import pyarrow.parquet
    return pyarrow.parquet, duckdb


PARQUET, DUCKDB = readers()


def run(arguments, expect_code=0):
    return run_or_exit(arguments, status=expect_code)


def json_rows(text):
    return [json.loads(line, parse_float=Decimal) for line in text.splitlines()]


def normalized_map(value):
    """A Parquet map as pyarrow (list of pairs) or DuckDB (dict) gives it: a list of pairs."""
    if value is None:
        return None
    if isinstance(value, dict):
        return list(value.items())
    return [tuple(pair) for pair in value]


def same(expected, actual):
    """One JSON value (floats parsed as Decimal) against one Parquet value."""
    if isinstance(expected, dict):
        pairs = normalized_map(actual)
        return pairs is not None and [key for key, _ in pairs] == list(expected) and all(
            same(expected[key], value) for key, value in pairs)
    if expected is None or actual is None:
        return expected is None and actual is None
    if isinstance(actual, float):
        return isinstance(expected, (Decimal, int)) and float(expected) == actual
    if isinstance(actual, Decimal):
        return isinstance(expected, (Decimal, int)) and Decimal(expected) == actual and not isinstance(expected, bool)
    if isinstance(actual, bool) or isinstance(expected, bool):
        return False
    return type(expected) is type(actual) and expected == actual


def read_both(path):
    """The file's columns and rows, as pyarrow and as DuckDB read them."""
    table = PARQUET.read_table(path)
    arrow = (table.column_names, table.to_pylist())
    relation = DUCKDB.execute("SELECT * FROM read_parquet(?)", [path])
    names = [column[0] for column in relation.description]
    duck = (names, [dict(zip(names, row)) for row in relation.fetchall()])
    return arrow, duck


def compare_with_jsonl(path, rows, what):
    """Both readers' view of `path` against the JSON Lines rows of the same table."""
    counts["files"] += 1
    for reader, (names, parquet_rows) in zip(["pyarrow", "duckdb"], read_both(path)):
        if not expect(len(parquet_rows) == len(rows), f"{what} ({reader}): {len(parquet_rows)} rows, JSON Lines has {len(rows)}"):
            continue
        if rows and not expect(names == list(rows[0]), f"{what} ({reader}): columns {names} differ from the JSON keys {list(rows[0])}"):
            continue
        for index, (expected, actual) in enumerate(zip(rows, parquet_rows)):
            for key, value in expected.items():
                counts["values"] += 1
                expect(same(value, actual[key]), f"{what} ({reader}) row {index} {key!r}: Parquet {actual[key]!r}, JSON {value!r}")
        counts["rows"] += len(rows)
    check_statistics(path, what)
    metadata = PARQUET.ParquetFile(path).metadata
    keys = {key.decode(): value.decode() for key, value in (metadata.metadata or {}).items()}
    expect(keys.get("framescope.schema") in ("framescope.frames", "framescope.summary"), f"{what}: framescope.schema is {keys.get('framescope.schema')!r}")
    expect(keys.get("framescope.schema.version") == "1", f"{what}: framescope.schema.version is {keys.get('framescope.schema.version')!r}")
    expect(metadata.created_by.startswith("framescope "), f"{what}: created_by is {metadata.created_by!r}")


def check_statistics(path, what):
    """Each top-level column chunk's statistics (null count, min, max as pyarrow decodes them) against
    the row group's values, and a tally of the chunks' value encodings."""
    parquet_file = PARQUET.ParquetFile(path)
    metadata = parquet_file.metadata
    for group in range(metadata.num_row_groups):
        table = parquet_file.read_row_group(group)
        for index in range(metadata.num_columns):
            chunk = metadata.row_group(group).column(index)
            for encoding in chunk.encodings:
                encodings[encoding] = encodings.get(encoding, 0) + 1
            name = chunk.path_in_schema
            if "." in name or chunk.physical_type == "DOUBLE":
                continue
            values = [value for value in table.column(name).to_pylist() if value is not None]
            statistics = chunk.statistics
            if not expect(statistics is not None, f"{what}: {name} row group {group} has no statistics"):
                continue
            expect(statistics.null_count == table.column(name).null_count,
                   f"{what}: {name} null_count {statistics.null_count}, {table.column(name).null_count} nulls read")
            if not values or not statistics.has_min_max:
                continue
            if isinstance(values[0], str):
                low, high = min(values, key=str.encode), max(values, key=str.encode)  # unsigned bytewise
            else:
                low, high = min(values), max(values)
            expect(statistics.min == low and statistics.max == high,
                   f"{what}: {name} statistics {statistics.min!r}...{statistics.max!r}, values {low!r}...{high!r}")


def milliseconds(nanoseconds):
    return None if nanoseconds is None else Decimal(nanoseconds).scaleb(-6)


def expected_summary(summary):
    """The summary-parquet columns that `report --format json`'s summary determines."""
    figures = {
        "frames": summary["frames"], "late_frames": summary["late-frames"], "slow_frames": summary["slow-frames"],
        "frozen_frames": summary["frozen-frames"], "missed_vsyncs": summary["missed-vsyncs"],
        "hitch_ms": milliseconds(summary["hitch-ns"]), "measured_ms": milliseconds(summary["measured-ns"]),
        "hitch_time_ratio_ms_per_s": summary["hitch-time-ratio-ms-per-s"], "hitch_band": summary["hitch-band"],
        "frame_delay_s": summary["frame-delay-s"], "main_outside_frames_ms": milliseconds(summary["main-outside-frames-ns"]),
        "dropped_frames": summary["dropped-frames"], "partial_frames": summary["partial-frames"],
        "dropped_frames_affecting_smoothness": summary["dropped-frames-affecting-smoothness"],
        "chrome_dropped_frame_events": summary["chrome-dropped-frame-events"], "stuffed_frames": summary["stuffed-frames"],
        "background_in_frames_ms": milliseconds(summary["background-in-frames-ns"]),
        "background_outside_frames_ms": milliseconds(summary["background-outside-frames-ns"]),
        "hitch_ms_by_cause": {cause: milliseconds(value) for cause, value in summary["hitch-ns-by-cause"].items()},
    }
    for prefix, source in [("main_thread_cost", summary["main-thread-cost-ns"]), ("overrun", summary["overrun-ns"])] + [
            (f"{lane}_cost", summary["lane-cost-ns"].get(lane)) for lane in LANES]:
        for percentile in PERCENTILES:
            figures[f"{prefix}_{percentile}_ms"] = milliseconds(source[percentile]) if source else None
    return figures


def check_trace(binary, trace, scratch, labels, name):
    arguments = [argument for label in labels for argument in ("--label", label)]
    frames_parquet = os.path.join(scratch, f"{name}.frames.parquet")
    summary_parquet = os.path.join(scratch, f"{name}.summary.parquet")
    run([binary, "report", trace, "--format", "frames-parquet", "--out", frames_parquet] + arguments)
    run([binary, "report", trace, "--format", "summary-parquet", "--out", summary_parquet] + arguments)
    frames = json_rows(run([binary, "report", trace, "--format", "frames-jsonl"] + arguments).stdout.decode("utf-8"))
    summary_rows = json_rows(run([binary, "report", trace, "--format", "summary-jsonl"] + arguments).stdout.decode("utf-8"))
    report = json.loads(run([binary, "report", trace, "--format", "json"]).stdout, parse_float=Decimal)
    compare_with_jsonl(frames_parquet, frames, f"{name} frames")
    compare_with_jsonl(summary_parquet, summary_rows, f"{name} summary")
    for reader, (_, rows) in zip(["pyarrow", "duckdb"], read_both(summary_parquet)):
        if not expect(len(rows) == 1, f"{name} summary ({reader}): {len(rows)} rows, expected 1"):
            continue
        for key, value in expected_summary(report["summary"]).items():
            counts["values"] += 1
            expect(same(value, rows[0].get(key)), f"{name} summary ({reader}) {key}: Parquet {rows[0].get(key)!r}, report json {value!r}")
        if frames:
            expect(rows[0]["trace"] == frames[0]["trace"], f"{name} summary: trace differs from the frames' trace")


def check_bad_inputs(binary, scratch):
    trace = os.path.join(ROOT, "Traces", "diffable-update--reload.json")
    unreadable = run([binary, "report", os.path.join(scratch, "missing.json"), "--format", "frames-parquet", "--out",
                      os.path.join(scratch, "x.parquet")], expect_code=3)
    expect(unreadable.stderr.decode().count("\n") == 1, "unreadable trace: not one line on stderr")
    unwritable = run([binary, "report", trace, "--format", "frames-parquet", "--out", os.path.join(scratch, "no", "such", "x.parquet")],
                     expect_code=3)
    expect(unwritable.stderr.decode().count("\n") == 1 and "x.parquet" in unwritable.stderr.decode(),
           f"unwritable --out: {unwritable.stderr!r}")
    # Found before the analysis: with a trace that cannot be read either, the error is --out's.
    first = run([binary, "report", os.path.join(scratch, "missing.json"), "--format", "frames-parquet", "--out",
                 os.path.join(scratch, "no", "such", "x.parquet")], expect_code=3)
    expect("cannot write --out" in first.stderr.decode(), f"unwritable --out not found before the trace: {first.stderr!r}")
    run([binary, "report", trace, "--format", "frames-parquet", "--out", os.path.join(scratch, "y.parquet"), "--label", "novalue"],
        expect_code=2)
    expect(not os.path.exists(os.path.join(scratch, "y.parquet")), "bad label: a file was written")
    for form in ["frames-parquet", "summary-parquet"]:
        leader, follower = pty.openpty()
        result = subprocess.run([binary, "report", trace, "--format", form], stdout=follower, stderr=subprocess.PIPE)
        os.close(follower)
        os.set_blocking(leader, False)
        try:
            written = os.read(leader, 4096)
        except (BlockingIOError, OSError):
            written = b""
        os.close(leader)
        expect(result.returncode == 2, f"{form} to a terminal: exit {result.returncode}, expected 2")
        expect(not written, f"{form} to a terminal: wrote {len(written)} bytes")
        expect(result.stderr.decode().count("\n") == 1, f"{form} to a terminal: stderr {result.stderr!r}")


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("binary")
    options.add_argument("--corpus", action="append", default=[])
    options.add_argument("--parquet-dir", action="append", default=[])
    options.add_argument("--demo-dir", help="a finished `framescope demo --out-dir DIR` to use instead of running the demo")
    arguments = options.parse_args()
    binary = os.path.abspath(arguments.binary)
    if not os.access(binary, os.X_OK):
        fail(f"{binary}: not an executable")
    scratch = tempfile.mkdtemp(prefix="framescope-parquet-")
    try:
        demo = arguments.demo_dir or os.path.join(scratch, "demo")
        if not arguments.demo_dir:
            run([binary, "demo", "--out-dir", demo, "--frames", "60"])
        hostile = os.path.join(scratch, "hostile")
        run([sys.executable, os.path.join(ROOT, "tools", "make_hostile_corpus.py"), hostile])
        traces = sorted(glob.glob(os.path.join(demo, "*.json"))) + sorted(glob.glob(os.path.join(ROOT, "Traces", "*.json")))
        traces += sorted(path for path in glob.glob(os.path.join(hostile, "*.json")) if "budget" not in os.path.basename(path))
        # Times at the reader's bound and totals saturated at Int64.max: DECIMAL(18, 6) values past 18 digits.
        traces += sorted(glob.glob(os.path.join(ROOT, "Tests", "FrameAnalysisTests", "Fixtures", "overflow-*.json")))
        # Perfetto fixtures that read (Android FrameTimeline's columns among them); the malformed ones are exit 3.
        traces += [path for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "FrameTraceReaderTests", "Fixtures", "perfetto", "*.pftrace")))
                   if subprocess.run([binary, "report", path, "--format", "summary-jsonl"], capture_output=True).returncode == 0]
        for corpus in arguments.corpus:
            traces += trace_files(corpus)
        if not traces:
            fail("no traces found")
        out = os.path.join(scratch, "out")
        os.makedirs(out)
        for number, trace in enumerate(traces):
            labels = ["branch=main", f"run={number}", f"hostile={HOSTILE_LABEL}"]
            check_trace(binary, trace, out, labels, f"{number:03d}-{os.path.basename(trace)[:40]}")
        for directory in arguments.parquet_dir:
            for path in sorted(glob.glob(os.path.join(directory, "**", "*.parquet"), recursive=True)):
                sibling = path[: -len(".parquet")] + ".jsonl"
                if os.path.exists(sibling):
                    with open(sibling, encoding="utf-8") as file:
                        compare_with_jsonl(path, json_rows(file.read()), os.path.relpath(path, directory))
                else:
                    counts["files"] += 1
                    for reader, (_, rows) in zip(["pyarrow", "duckdb"], read_both(path)):
                        counts["rows"] += len(rows)
        check_bad_inputs(binary, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    expect(encodings.get("DELTA_BINARY_PACKED", 0) > 0 and encodings.get("RLE_DICTIONARY", 0) > 0,
           f"no delta-packed or no dictionary chunk among the files: {encodings}")
    summary = (f"{len(traces)} traces, {counts['files']} Parquet files, {counts['rows']} rows and {counts['values']} values "
               f"compared in pyarrow and DuckDB; chunk encodings {dict(sorted(encodings.items()))}")
    if failures:
        print(f"check_parquet: {len(failures)} mismatches; {summary}")
        sys.exit(1)
    print(f"check_parquet: OK: {summary}")


if __name__ == "__main__":
    main()
