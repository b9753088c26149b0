#!/usr/bin/env python3
"""CI check: the Spark job (tools/spark/framescope_fleet.py, run with spark-submit in local mode)
gives the figures `framescope` gives on one machine, on a generated fleet and on the
third-party corpus.

    python3 tools/spark/check_fleet.py FRAMESCOPE [--corpus DIR] [--parquet-dir DIR] [--keep DIR]

For the generated fleet (tools/spark/make_fleet.py: 2 builds x 2 devices x 3 runs, a device with a
hostile name, a trace cut off mid-write, a malformed trace and a file that is no trace), it asserts:
  - every readable trace's frames are rows, value for value equal to `report --format frames-jsonl`;
  - every unreadable trace is an error row with framescope's exit status (3) and its one line,
    naming the trace, and the job still succeeds;
  - per label group: traces, frames, late share (from `report --format json`), slow share, hitch
    time ratio, and p50/p95/p99 of the main thread's and every lane's cost per frame equal what
    `framescope compare --base GROUP --head GROUP --format json` reports for the group's traces;
  - build 2 against build 1, per device: every metric's verdict, p-value, shift, p95s and p95
    interval equal `framescope compare --base BUILD1 --head BUILD2 --format json`;
  - the hostile device name reaches the tables unchanged and the job's printed tables carry no
    control character.
The fleet's traces reach framescope by path; the corpus's as bytes Spark read (--ship-bytes, as
for an object store). For the corpus: frames and figures against the CLI the same way (grouped by project). Every
Parquet file in --parquet-dir (the files the Swift tests wrote) is read by Spark and its row
count checked against pyarrow's.

Needs pyspark, pyarrow and pandas (pip) and a Java runtime (Debian's openjdk-17-jre-headless); .ci/run
installs them. Exit 0 when every assertion holds, 1 otherwise.
"""
import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from decimal import Decimal

from make_fleet import make_fleet  # tools/spark: first on sys.path, the script's own folder
from spark_submit import spark_submit_path

HERE = os.path.dirname(os.path.abspath(__file__))
# The one path set by hand in tools/: the fstools package is in tools/, this script in tools/spark.
sys.path.insert(1, os.path.dirname(HERE))
from fstools.corpus import trace_files  # noqa: E402  (after the path it needs)


failures = []
checked = 0


def expect(condition, message):
    global checked
    checked += 1
    if not condition:
        failures.append(message)
        if len(failures) <= 30:
            print(f"FAIL: {message!r}", file=sys.stderr)


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return float(a) == float(b) or math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-12)


def run(command, **kwargs):
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def spark_submit(framescope, arguments, log):
    command = [spark_submit_path(), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
               "--conf", "spark.log.level=WARN", "--files", framescope,
               os.path.join(HERE, "framescope_fleet.py")] + arguments
    result = run(command)
    with open(log, "wb") as file:
        file.write(result.stdout + b"\n--- stderr ---\n" + result.stderr)
    if result.returncode != 0:
        sys.stderr.write(result.stderr.decode(errors="replace")[-4000:])
        sys.exit(f"check_fleet: the Spark job failed (exit {result.returncode}); log in {log}")
    return result.stdout.decode("utf-8", "replace")


def read_table(directory):
    import pyarrow.parquet as parquet
    files = sorted(glob.glob(os.path.join(directory, "*.parquet")))
    rows = []
    for file in files:
        rows += parquet.read_table(file).to_pylist()
    return rows


def labels_key(labels, keys):
    return tuple((key, (dict(labels) if labels else {}).get(key)) for key in keys)


def check_errors(framescope, errors, unreadable):
    """Unreadable traces: an error row each, with framescope's status and line."""
    error_paths = {row["trace"]: row for row in errors}
    for path in unreadable:
        row = error_paths.get("file:" + path)
        expect(row is not None, f"no error row for the unreadable trace {path}")
        if row:
            cli = run([framescope, "report", path, "--format", "frames-parquet", "--out", os.devnull + ".parquet"])
            expect(row["exit_status"] == cli.returncode == 3, f"{path}: error row status {row['exit_status']}, CLI {cli.returncode}")
            expect(path in row["message"], f"{path}: the error row's message does not name the trace: {row['message']!r}")
    expect(len(errors) == len(unreadable), f"{len(errors)} error rows for {len(unreadable)} unreadable traces")


def check_frames(framescope, frames, traces_by_path):
    """Frames: value for value against frames-jsonl of the same trace with the same labels."""
    by_trace = {}
    for row in frames:
        by_trace.setdefault(row["trace"], []).append(row)
    for path, labels in traces_by_path.items():
        uri = "file:" + path
        command = [framescope, "report", path, "--format", "frames-jsonl"] + [f"--label={k}={v}" for k, v in sorted(labels.items())]
        result = run(command)
        expect(result.returncode == 0, f"report {path} exited {result.returncode}")
        expected = [json.loads(line, parse_float=Decimal) for line in result.stdout.decode().splitlines()]
        got = sorted(by_trace.get(uri, []), key=lambda row: row["index"])
        expect(len(got) == len(expected), f"{path}: {len(got)} frame rows in Spark, {len(expected)} in frames-jsonl")
        for want, have in zip(expected, got):
            for key, value in want.items():
                if key in ("schema", "version", "trace") or key.startswith(("label_", "meta_")) or key in (
                        "frame_id", "jank_type", "jank_tag", "present_type", "stuffing_latency_ms"):
                    continue
                if key == "main_by_category_ms":
                    expect(dict(have[key] or {}) == value, f"{path} frame {want['index']}: categories {have[key]} != {value}")
                    continue
                expect(have.get(key) == value, f"{path} frame {want['index']}: {key} {have.get(key)!r} != {value!r}")
            expect(dict(have["labels"]) == labels, f"{path}: labels {have['labels']} != {labels}")


def check_figures(framescope, figures, traces_by_path, keys):
    """Figures per group against compare (the group's traces as both sides) and report's summaries."""
    groups = {}
    for path, labels in traces_by_path.items():
        groups.setdefault(labels_key(labels, keys), []).append(path)
    figure_of = {tuple((key, row[f"label_{key}"]) for key in keys): row for row in figures}
    expect(len(figure_of) == len(groups), f"{len(figure_of)} figure rows for {len(groups)} groups")
    for group, paths in sorted(groups.items(), key=lambda item: str(item[0])):
        row = figure_of.get(group)
        expect(row is not None, f"no figures for group {group}")
        if row is None:
            continue
        paths = sorted(paths)
        compare = json.loads(run([framescope, "compare", "--format", "json"] + sum((["--base", p] for p in paths), [])
                                 + sum((["--head", p] for p in paths), [])).stdout)
        metrics = {metric["id"]: metric for metric in compare["metrics"]}
        reports = [json.loads(run([framescope, "report", p, "--format", "json"]).stdout)["summary"] for p in paths]
        frames_total = sum(r["frames"] for r in reports)
        expect(row["traces"] == len(paths), f"{group}: traces {row['traces']} != {len(paths)}")
        expect(row["frames"] == frames_total, f"{group}: frames {row['frames']} != {frames_total}")
        late = sum(r["late-frames"] for r in reports)
        expect(close(row["late_share"], late / frames_total if frames_total else 0.0), f"{group}: late share {row['late_share']}")
        summaries_by_id = {s["id"]: s for s in compare.get("summary", [])} if isinstance(compare.get("summary"), list) else {}
        for summary_id, column in (("hitch-time-ratio", "hitch_time_ratio_ms_per_s"), ("slow-frame-share", "slow_share")):
            if summary_id in summaries_by_id:
                expect(close(row[column], summaries_by_id[summary_id]["base"]),
                       f"{group}: {column} {row[column]} != compare's {summaries_by_id[summary_id]['base']}")
        for lane, metric_id in [("main", "main-thread-ms")] + [(lane, f"lane-ms.{lane}") for lane in
                                                                ("render", "background", "compositor", "raster", "gpu")]:
            metric = metrics.get(metric_id)
            for p in (50, 95, 99):
                have = row.get(f"{lane}_p{p}_ms")
                want = metric["base"][f"p{p}"] if metric and metric.get("base") else None
                expect(close(have, want), f"{group}: {lane} p{p} {have} != compare's {want}")


def check_comparisons(framescope, out, traces_by_path, keys, compare_key, base):
    """Each build against the base build, per group, against framescope compare of the same traces."""
    comparisons = read_table(os.path.join(out, "comparisons"))
    others = [key for key in keys if key != compare_key]
    sides = {}
    for path, labels in traces_by_path.items():
        sides.setdefault((labels_key(labels, others), labels.get(compare_key)), []).append(path)
    pairs = 0
    for (group, value), head_paths in sorted(sides.items(), key=lambda item: str(item[0])):
        if value == base or (group, base) not in sides:
            continue
        base_paths = sorted(sides[(group, base)])
        compare = json.loads(run([framescope, "compare", "--format", "json"] + sum((["--base", p] for p in base_paths), [])
                                 + sum((["--head", p] for p in sorted(head_paths)), [])).stdout)
        rows = {row["metric"]: row for row in comparisons
                if row["head"] == value and tuple((k, dict(row["group"] or {}).get(k)) for k in others) == group}
        pairs += 1
        expect(set(rows) == {metric["id"] for metric in compare["metrics"]},
               f"{group} {value}: metrics {sorted(rows)} != {[m['id'] for m in compare['metrics']]}")
        for metric in compare["metrics"]:
            row = rows.get(metric["id"])
            if row is None:
                continue
            interval = metric.get("p95-interval") or {}
            expect(row["verdict"] == metric["verdict"], f"{group} {value} {metric['id']}: verdict {row['verdict']} != {metric['verdict']}")
            for column, want in (("p_value", metric.get("p-value")), ("shift_ms", metric.get("shift-ms")),
                                 ("p95_delta_ms", metric.get("p95-delta-ms")), ("base_p95", (metric.get("base") or {}).get("p95")),
                                 ("head_p95", (metric.get("head") or {}).get("p95")),
                                 ("p95_interval_lower", interval.get("lower")), ("p95_interval_upper", interval.get("upper"))):
                expect(close(row[column], want), f"{group} {value} {metric['id']}: {column} {row[column]} != {want}")
    expect(pairs > 0, "no build-against-build pair was compared")


def check_job(framescope, out, traces_by_path, keys, compare_key=None, base=None, unreadable=()):
    """Compares the job's tables under `out` with the CLI on the same traces."""
    frames = read_table(os.path.join(out, "frames"))
    errors = read_table(os.path.join(out, "errors"))
    figures = read_table(os.path.join(out, "figures"))
    check_errors(framescope, errors, unreadable)
    check_frames(framescope, frames, traces_by_path)
    check_figures(framescope, figures, traces_by_path, keys)
    if compare_key:
        check_comparisons(framescope, out, traces_by_path, keys, compare_key, base)
    return len(frames), len(figures)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("framescope")
    parser.add_argument("--corpus")
    parser.add_argument("--parquet-dir")
    parser.add_argument("--keep", help="keep the fleet and the job's output here")
    parser.add_argument("--parquet-only", action="store_true",
                        help="only Spark's read of --parquet-dir (CI runs the fleet and corpus jobs before the tests end)")
    arguments = parser.parse_args()
    if arguments.parquet_only and not arguments.parquet_dir:
        parser.error("--parquet-only reads --parquet-dir: give one")
    framescope = os.path.abspath(arguments.framescope)
    # Spark names a file by its path with `.` and `..` taken out (Hadoop's Path), so the CLI's side
    # uses the same spelling: `shared/../x` is `x`.
    if arguments.corpus:
        arguments.corpus = os.path.normpath(os.path.abspath(arguments.corpus))
    work = os.path.normpath(os.path.abspath(arguments.keep or tempfile.mkdtemp(prefix="framescope-check-fleet-")))
    os.makedirs(work, exist_ok=True)

    phase_start = [time.monotonic()]

    def took():
        """Seconds since the previous phase's line, for the CI log."""
        now = time.monotonic()
        seconds, phase_start[0] = now - phase_start[0], now
        return f"({seconds:.1f} s)"

    if not arguments.parquet_only:
        check_fleet_and_corpus(framescope, work, arguments.corpus, took)
    if arguments.parquet_dir:
        check_parquet_dir(arguments.parquet_dir, work, took)

    if failures:
        print(f"check_fleet: {len(failures)} of {checked} checks failed (work in {work})", file=sys.stderr)
        sys.exit(1)
    print(f"check_fleet: ok, {checked} checks")


def check_fleet_and_corpus(framescope, work, corpus_dir, took):
    """The job over a generated fleet (hostile names, unreadable files, two builds compared), then
    over the third-party corpus, each compared with the CLI."""
    fleet = os.path.join(work, "fleet")
    paths = make_fleet(framescope, fleet, builds=2, devices=2, runs=3, frames=60, hostile=True, progress=False)
    # Readable is what framescope reads (a trace cut off mid-write is, with a diagnostic).
    unreadable = [p for p in paths if run([framescope, "report", p, "--format", "json"]).returncode != 0]
    readable = [p for p in paths if p not in unreadable]
    expect(len(unreadable) == 2, f"the fleet has two unreadable files, framescope refuses {len(unreadable)}")
    hive = re.compile(r"^([A-Za-z0-9_-]+)=(.*)$")
    traces = {}
    for path in readable:
        labels = {}
        for segment in path.split("/")[:-1]:
            match = hive.match(segment)
            if match:
                labels[match.group(1)] = match.group(2)
        labels["lab"] = "ci"
        traces[path] = labels
    out = os.path.join(work, "fleet-out")
    printed = spark_submit(framescope, ["--traces", fleet, "--out", out, "--label", "lab=ci", "--by", "build,device",
                                        "--compare", "build", "--base", "1"], os.path.join(work, "fleet-job.log"))
    expect(not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", printed), "the job printed a control character")
    expect("\\u{1B}[2J" in printed, "the job's table does not show the hostile device name escaped")
    rows, groups = check_job(framescope, out, traces, ["build", "device"], "build", "1", unreadable)
    print(f"check_fleet: fleet: {len(readable)} traces, {len(unreadable)} unreadable, {rows} frame rows, {groups} groups {took()}")

    if corpus_dir:
        # The job reads exactly the files the check compares, each named by its own --traces.
        corpus = trace_files(corpus_dir)
        expect(len(corpus) > 0, f"{corpus_dir} holds no trace: a check of nothing must not pass")
        out = os.path.join(work, "corpus-out")
        spark_submit(framescope, sum((["--traces", path] for path in corpus), []) + [
            "--out", out, "--label-regex", r"(?P<project>[A-Za-z0-9-]+)__[^/]+$", "--ship-bytes"],
            os.path.join(work, "corpus-job.log"))
        readable, unreadable = {}, []
        for path in corpus:
            project = os.path.basename(path).split("__")[0]
            status = run([framescope, "report", path, "--format", "json"]).returncode
            if status == 0:
                readable[path] = {"project": project}
            else:
                unreadable.append(path)
        rows, groups = check_job(framescope, out, readable, ["project"],
                                 unreadable=unreadable)
        print(f"check_fleet: corpus: {len(readable)} traces, {len(unreadable)} unreadable, {rows} frame rows, {groups} groups {took()}")

def check_parquet_dir(parquet_dir, work, took):
    """Spark reads every Parquet file the tests wrote, with pyarrow's row counts."""
    files = sorted(glob.glob(os.path.join(parquet_dir, "**", "*.parquet"), recursive=True))
    script = os.path.join(work, "read_all.py")
    with open(script, "w") as file:
        file.write("import sys, json\nfrom pyspark.sql import SparkSession\n"
                   "s = SparkSession.builder.getOrCreate()\n"
                   "print(json.dumps({p: s.read.parquet('file://' + p).count() for p in sys.argv[1:]}))\n")
    result = run([spark_submit_path(), "--master", "local[2]", "--conf", "spark.ui.enabled=false", "--conf", "spark.log.level=WARN", script] + files)
    expect(result.returncode == 0, f"Spark could not read the tests' Parquet files: {result.stderr.decode(errors='replace')[-2000:]}")
    if result.returncode == 0:
        import pyarrow.parquet as parquet
        counts = json.loads(result.stdout.decode().strip().splitlines()[-1])
        for path in files:
            expect(counts.get(path) == parquet.read_metadata(path).num_rows, f"{path}: Spark read {counts.get(path)} rows")
    expect(len(files) > 0, f"no Parquet file in {parquet_dir}: the tests wrote none")
    print(f"check_fleet: Spark read the {len(files)} Parquet files the tests wrote {took()}")


if __name__ == "__main__":
    main()
