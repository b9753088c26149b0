#!/usr/bin/env python3
"""framescope on a Spark cluster: per-frame rows of a fleet of traces, figures per label, and
build-against-build verdicts with `framescope compare`'s own statistics.

    spark-submit --master yarn --files /path/to/framescope \\
        tools/spark/framescope_fleet.py --traces s3a://lab/traces/ --out s3a://lab/frames/ \\
        --compare build --base 4812

Every trace is read on an executor: `binaryFiles` hands each executor its traces' bytes, the
executor runs the `framescope` binary shipped with `--files` (`SparkFiles.get`) as
`report --format frames-parquet` and `--format summary-parquet`, and the Parquet rows become
the DataFrames. The driver only lists inputs and prints the (small) per-label tables.

Labels come from the traces' paths: every `key=value` directory (Hive style:
`.../build=4812/device=pixel-8/run-3.json`), then `--label-regex` named groups, then
`--label key=value` for every trace. They are `--label` columns of the rows, as on one machine.

Written under --out, as Parquet:
  frames/       one row per frame (framescope.frames columns; labels as a map and as label_KEY)
  summaries/    one row per trace (framescope.summary columns)
  errors/       one row per trace that could not be read: path, stage, exit status, message
  figures/      per label group: traces, frames, late and slow share, hitch time ratio, and
                p50/p95/p99 of the main thread's and each lane's cost per frame
  comparisons/  with --compare KEY --base VALUE: every other VALUE of KEY against the base,
                within each group of the other --by keys, one row per metric, judged by
                `framescope compare --rows` on an executor (same statistics as the CLI)

A trace that fails to read is an error row, never a failed job. Exit status: 0 when the job ran
(errors are rows; their count is printed), 2 for a usage error, 1 when Spark itself failed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from decimal import Decimal

# The lanes framescope's rows can carry besides main (FrameRows: render and background always,
# Chrome's compositor, raster and gpu when the trace has them).
LANES = ["render", "background", "compositor", "raster", "gpu"]
PERCENTILES = [50, 95, 99]
HIVE_SEGMENT = re.compile(r"^([A-Za-z0-9_-]+)=(.*)$")
LABEL_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="framescope_fleet.py",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0 the job ran (unreadable traces are error rows), 2 usage error, 1 Spark failed.")
    parser.add_argument("--traces", action="append", default=[], metavar="PATH",
                        help="a directory (read recursively), file or glob Spark can read; repeatable")
    parser.add_argument("--trace-list", metavar="FILE",
                        help="a local file with one trace path or URI per line (for object stores)")
    parser.add_argument("--out", required=True, metavar="DIR", help="where the tables are written (overwritten)")
    parser.add_argument("--framescope", metavar="PATH",
                        help="the framescope binary on the executors (default: the one shipped with "
                             "--files, else `framescope` on PATH)")
    parser.add_argument("--label", action="append", default=[], metavar="KEY=VALUE",
                        help="a label for every trace (repeatable)")
    parser.add_argument("--label-regex", metavar="REGEX",
                        help="named groups matched against each path become labels, e.g. "
                             "'(?P<project>[^/]+)__[^/]+$'")
    parser.add_argument("--by", metavar="KEYS",
                        help="comma-separated label keys to group figures by (default: every label key)")
    parser.add_argument("--compare", metavar="KEY", help="a label key whose values are compared (e.g. build)")
    parser.add_argument("--base", metavar="VALUE", help="with --compare: the base value; every other is a head")
    parser.add_argument("--fps", metavar="N", help="passed to framescope report")
    parser.add_argument("--partitions", type=int, default=0, metavar="N",
                        help="input partitions (default: Spark's, at least two per core)")
    arguments = parser.parse_args(argv)
    if not arguments.traces and not arguments.trace_list:
        parser.error("give --traces PATH or --trace-list FILE")
    if (arguments.compare is None) != (arguments.base is None):
        parser.error("--compare KEY and --base VALUE go together")
    for label in arguments.label:
        key, equals, _ = label.partition("=")
        if not equals or not LABEL_KEY.match(key):
            parser.error(f"--label expects KEY=VALUE with a key of letters, digits, _ or -, got {label!r}")
    if arguments.label_regex is not None:
        try:
            re.compile(arguments.label_regex)
        except re.error as error:
            parser.error(f"--label-regex {arguments.label_regex!r} is not a regular expression: {error}")
    if arguments.partitions < 0:
        parser.error("--partitions must be 0 or more")
    return arguments


def labels_of(path, regex, constant):
    """The labels of one trace: Hive-style directories, then the regex's named groups, then the
    constant labels; a later source wins for the same key. Keys framescope would refuse are
    skipped (they could not be `--label` columns)."""
    labels = {}
    for segment in path.split("/")[:-1]:
        match = HIVE_SEGMENT.match(segment)
        if match:
            labels[match.group(1)] = match.group(2)
    if regex is not None:
        match = re.search(regex, path)
        if match:
            labels.update({key: value for key, value in match.groupdict().items() if value is not None})
    labels.update(constant)
    return {key: value for key, value in labels.items() if LABEL_KEY.match(key)}


def first_line(stderr_bytes):
    """framescope's one-line reason (its last non-empty stderr line, progress lines aside)."""
    text = stderr_bytes.decode("utf-8", "replace").strip()
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "(no message)"


def read_traces_on_executor(records, binary, fps, regex, constant):
    """Runs on the executors: each (path, bytes) trace through `framescope report`, yielding
    ("frame", row), ("summary", row) or ("error", row) tuples."""
    import pyarrow.parquet as parquet

    def executable():
        if binary:
            return binary
        try:
            from pyspark import SparkFiles
            shipped = SparkFiles.get("framescope")
            if os.path.exists(shipped):
                return shipped
        except Exception:
            pass
        return shutil.which("framescope") or "framescope"

    framescope = executable()
    for path, content in records:
        labels = labels_of(path, regex, constant)
        with tempfile.TemporaryDirectory(prefix="framescope-fleet-") as work:
            trace = os.path.join(work, "trace")
            with open(trace, "wb") as file:
                file.write(content)
            del content
            tables = {}
            failed = None
            for stage in ("frames", "summary"):
                out = os.path.join(work, stage + ".parquet")
                command = [framescope, "report", trace, "--format", stage + "-parquet", "--out", out]
                command += [f"--label={key}={value}" for key, value in sorted(labels.items())]
                if fps:
                    command += ["--fps", fps]
                try:
                    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=3600)
                except (OSError, subprocess.TimeoutExpired) as error:
                    failed = (stage, -1, f"could not run {framescope}: {error}")
                    break
                if result.returncode != 0:
                    # framescope names its temporary copy; the row names the trace.
                    failed = (stage, result.returncode, first_line(result.stderr).replace(trace, path))
                    break
                tables[stage] = parquet.read_table(out).to_pylist()
            if failed is not None:
                yield ("error", {"trace": path, "labels": labels, "stage": failed[0], "exit_status": failed[1],
                                 "message": failed[2]})
                continue
            for row in tables["frames"]:
                row["trace"] = path
                row["labels"] = labels
                yield ("frame", row)
            for row in tables["summary"]:
                row["trace"] = path
                row["labels"] = labels
                yield ("summary", row)


def jsonl_value(value):
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(key)}:{jsonl_value(item)}" for key, item in value.items()) + "}"
    return json.dumps(value)


def frames_jsonl_line(row, keys):
    """A frames row as framescope's frames-jsonl writes it: exact milliseconds, labels as
    label_KEY columns, categories as an object."""
    members = [("schema", "framescope.frames"), ("version", 1), ("trace", row["trace"])]
    members += [(f"label_{key}", value) for key, value in sorted((row["labels"] or {}).items())]
    members += [(key, row[key]) for key in keys]
    members.append(("main_by_category_ms", dict(row["main_by_category_ms"] or {})))
    return "{" + ",".join(f"{json.dumps(key)}:{jsonl_value(value)}" for key, value in members) + "}\n"


def compare_on_executor(groups, binary, compare_key, base_value, keys):
    """Runs on the executors: for one group of the other --by keys, every head value's rows
    against the base value's, through `framescope compare --rows`."""
    framescope = binary
    if not framescope:
        try:
            from pyspark import SparkFiles
            framescope = SparkFiles.get("framescope") if os.path.exists(SparkFiles.get("framescope")) else None
        except Exception:
            framescope = None
        framescope = framescope or shutil.which("framescope") or "framescope"
    for group, rows in groups:
        by_value = {}
        for row in rows:
            by_value.setdefault(row["labels"].get(compare_key), []).append(row)
        base_rows = by_value.pop(base_value, None)
        for head_value in sorted(value for value in by_value if value is not None):
            head_rows = by_value[head_value]
            common = {"group": dict(group), "compare_key": compare_key, "base": base_value, "head": head_value}
            if base_rows is None:
                yield dict(common, metric="(none)", verdict="no-base", reason=f"no trace has {compare_key}={base_value}")
                continue
            with tempfile.TemporaryDirectory(prefix="framescope-compare-") as work:
                files = {}
                for side, side_rows in (("base", base_rows), ("head", head_rows)):
                    files[side] = os.path.join(work, side + ".jsonl")
                    with open(files[side], "w", encoding="utf-8") as file:
                        # The order framescope compare pools traces in: by path, then frame.
                        for row in sorted(side_rows, key=lambda row: (row["trace"], row["index"])):
                            file.write(frames_jsonl_line(row, keys))
                command = [framescope, "compare", "--rows", "--base", files["base"], "--head", files["head"], "--format", "json"]
                result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                try:
                    comparison = json.loads(result.stdout)
                except ValueError:
                    yield dict(common, metric="(none)", verdict="error",
                               reason=f"framescope compare exited {result.returncode}: {first_line(result.stderr)}")
                    continue
                for metric in comparison.get("metrics", []):
                    interval = metric.get("p95-interval") or {}
                    base, head = metric.get("base") or {}, metric.get("head") or {}
                    yield dict(
                        common, metric=metric["id"], verdict=metric["verdict"], reason=metric.get("reason"),
                        base_frames=base.get("count"), head_frames=head.get("count"),
                        base_p50=real(base.get("p50")), head_p50=real(head.get("p50")),
                        base_p95=real(base.get("p95")), head_p95=real(head.get("p95")),
                        shift_ms=real(metric.get("shift-ms")), p_value=real(metric.get("p-value")),
                        p95_delta_ms=real(metric.get("p95-delta-ms")), p95_interval_lower=real(interval.get("lower")),
                        p95_interval_upper=real(interval.get("upper")))


def real(value):
    """A JSON number as a float column's value (JSON writes 0, not 0.0); None stays None."""
    return None if value is None else float(value)


def visible(text):
    """Untrusted text made safe for a terminal: control, bidi and other format characters shown as
    \\u{XX}, as framescope shows them."""
    import unicodedata
    text = str(text)
    # Control characters, and format characters (bidi overrides, zero-width) and line separators,
    # which a terminal would act on or hide.
    return "".join(f"\\u{{{ord(c):X}}}" if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0
                   or unicodedata.category(c) in ("Cf", "Zl", "Zp") else c for c in text)


def millis(value):
    return "-" if value is None else f"{float(value):.2f} ms"


def group_text(row, keys):
    return ", ".join(f"{key}={row['label_' + key]}" for key in keys) or "(all traces)"


def print_table(header, rows, align, width=100):
    """A plain table cut to `width` columns (`align`: one `l` or `r` per column; the first column
    is shortened with … to fit), every cell passed through visible()."""
    cells = [[visible(cell) for cell in header]] + [[visible(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    widths[0] = min(widths[0], max(12, width - sum(widths[1:]) - 2 * (len(header) - 1)))
    for row in cells:
        row[0] = row[0] if len(row[0]) <= widths[0] else row[0][: widths[0] - 1] + "…"
        line = "  ".join(cell.ljust(widths[i]) if align[i] == "l" else cell.rjust(widths[i]) for i, cell in enumerate(row))
        print(line[:width].rstrip())

def nearest_rank_index(column_count, percentile):
    """framescope's nearest-rank percentile (SortedSample.nearestRankIndex) as a Spark
    expression: the zero-based index among `column_count` sorted values."""
    return f"(greatest(1, cast(ceil({percentile} * {column_count} / 100.0 * (1 - 1e-12)) as bigint)) - 1)"


def main(argv):
    arguments = parse_arguments(argv)
    from pyspark.sql import SparkSession, functions as F, types as T, Window

    # Directories are read recursively (build=.../device=.../run.json).
    spark = SparkSession.builder.appName("framescope-fleet") \
        .config("spark.hadoop.mapreduce.input.fileinputformat.input.dir.recursive", "true").getOrCreate()
    context = spark.sparkContext
    context.setLogLevel("WARN")
    paths = list(arguments.traces)
    if arguments.trace_list:
        with open(arguments.trace_list, encoding="utf-8") as file:
            paths += [line.strip() for line in file if line.strip() and not line.startswith("#")]
    constant = dict(label.split("=", 1) for label in arguments.label)
    partitions = arguments.partitions or max(2, 2 * context.defaultParallelism)
    # binaryFiles reads each trace where it is processed: its bytes never pass through the driver.
    inputs = context.binaryFiles(",".join(paths), minPartitions=partitions).repartition(partitions)
    binary, fps, regex = arguments.framescope, arguments.fps, arguments.label_regex
    records = inputs.mapPartitions(lambda part: read_traces_on_executor(part, binary, fps, regex, constant)).cache()

    decimal = T.DecimalType(38, 6)  # framescope writes DECIMAL(18, 6); 38 digits hold any Int64 of nanoseconds
    labels_type = T.MapType(T.StringType(), T.StringType())
    frame_fields = [
        ("trace", T.StringType()), ("labels", labels_type), ("frame_source", T.StringType()),
        ("frame_interval_ms", decimal), ("index", T.LongType()), ("vsync_ns", T.LongType()), ("deadline_ns", T.LongType()),
        ("main_ms", decimal), ("overrun_ms", decimal), ("missed_vsyncs", T.LongType()), ("outcome", T.StringType()),
        ("hitch_cause", T.StringType()), ("held_by_frame", T.LongType()), ("hitch_stage", T.StringType()),
    ] + [(f"{lane}_ms", decimal) for lane in LANES] + [("main_by_category_ms", T.MapType(T.StringType(), decimal))]
    frame_keys = [name for name, _ in frame_fields if name not in ("trace", "labels", "main_by_category_ms")]
    frame_schema = T.StructType([T.StructField(name, kind, True) for name, kind in frame_fields])
    summary_fields = [
        ("trace", T.StringType()), ("labels", labels_type), ("frame_source", T.StringType()), ("frames", T.LongType()),
        ("late_frames", T.LongType()), ("slow_frames", T.LongType()), ("frozen_frames", T.LongType()),
        ("missed_vsyncs", T.LongType()), ("hitch_ms", decimal), ("measured_ms", decimal),
    ]
    summary_schema = T.StructType([T.StructField(name, kind, True) for name, kind in summary_fields])
    error_schema = T.StructType([
        T.StructField("trace", T.StringType()), T.StructField("labels", labels_type), T.StructField("stage", T.StringType()),
        T.StructField("exit_status", T.LongType()), T.StructField("message", T.StringType())])

    def project(kind, names):
        def rows(record):
            if record[0] != kind:
                return []
            row = record[1]
            values = []
            for name in names:
                value = row.get(name)
                if name == "main_by_category_ms" and value is not None and not isinstance(value, dict):
                    value = dict(value)  # pyarrow reads a Parquet MAP as (key, value) pairs
                values.append(value)
            return [tuple(values)]
        return rows

    frames = spark.createDataFrame(records.flatMap(project("frame", [n for n, _ in frame_fields])), frame_schema)
    summaries = spark.createDataFrame(records.flatMap(project("summary", [n for n, _ in summary_fields])), summary_schema)
    errors = spark.createDataFrame(records.flatMap(project("error", [f.name for f in error_schema.fields])), error_schema)
    out = arguments.out.rstrip("/")
    timings = []
    started = time.perf_counter()
    frames.write.mode("overwrite").parquet(f"{out}/frames")
    summaries.write.mode("overwrite").parquet(f"{out}/summaries")
    errors.write.mode("overwrite").parquet(f"{out}/errors")
    timings.append(("traces read on the executors", time.perf_counter() - started))
    started = time.perf_counter()
    frames = spark.read.parquet(f"{out}/frames")
    summaries = spark.read.parquet(f"{out}/summaries")
    errors = spark.read.parquet(f"{out}/errors")

    # The label groups: --by keys, or every key any trace has.
    if arguments.by:
        keys = [key.strip() for key in arguments.by.split(",") if key.strip()]
    else:
        keys = sorted({key for row in summaries.select(F.explode(F.map_keys("labels"))).distinct().collect() for key in row})
    group_columns = [F.col("labels").getItem(key).alias(f"label_{key}") for key in keys]
    group_names = [f"label_{key}" for key in keys]

    pooled = summaries.groupBy(*group_columns).agg(
        F.count("*").alias("traces"), F.sum("frames").alias("frames"), F.sum("late_frames").alias("late_frames"),
        F.sum("slow_frames").alias("slow_frames"), F.sum("frozen_frames").alias("frozen_frames"),
        F.sum("hitch_ms").alias("hitch_ms"), F.sum("measured_ms").alias("measured_ms"))
    pooled = pooled.select(
        *group_names, "traces", "frames", "late_frames", "slow_frames", "frozen_frames",
        F.when(F.col("frames") > 0, F.col("late_frames") / F.col("frames")).otherwise(F.lit(0.0)).alias("late_share"),
        F.when(F.col("frames") > 0, F.col("slow_frames") / F.col("frames")).otherwise(F.lit(0.0)).alias("slow_share"),
        # framescope compare's hitch time ratio: pooled hitch ms per second of measured time.
        F.when(F.col("measured_ms") > 0, F.col("hitch_ms").cast("double") / (F.col("measured_ms").cast("double") / 1000.0))
         .otherwise(F.lit(0.0)).alias("hitch_time_ratio_ms_per_s"))

    # Per-frame percentiles, nearest rank as framescope computes them, without collecting a
    # group's values in one place: rank within the group, then pick the ranks.
    grouped_frames = frames.select(*group_columns, "trace", "index", "main_ms", *[f"{lane}_ms" for lane in LANES])
    figures = pooled
    for lane in ["main"] + LANES:
        column = f"{lane}_ms"
        if lane != "main":
            # A lane counts in a group when any of its frames has it (compare's rule: a frame
            # without work in a lane the side has counts 0); otherwise the group has no figure.
            present = grouped_frames.groupBy(*group_names).agg(F.count(column).alias("present"))
            values = grouped_frames.join(present.where("present > 0").select(*group_names), group_names, "left_semi") \
                .select(*group_names, F.coalesce(F.col(column), F.lit(0).cast(decimal)).alias("value"))
        else:
            values = grouped_frames.select(*group_names, F.col(column).alias("value"))
        window = Window.partitionBy(*group_names).orderBy("value")
        ranked = values.select(*group_names, "value", (F.row_number().over(window) - 1).alias("rank"),
                               F.count("*").over(Window.partitionBy(*group_names)).alias("n"))
        picks = [F.max(F.when(F.col("rank") == F.expr(nearest_rank_index("n", p)), F.col("value"))).alias(f"{lane}_p{p}_ms")
                 for p in PERCENTILES]
        figures = figures.join(ranked.groupBy(*group_names).agg(*picks), group_names, "left") if group_names \
            else figures.crossJoin(ranked.agg(*picks))
    figures = figures.orderBy(*group_names) if group_names else figures
    figures.write.mode("overwrite").parquet(f"{out}/figures")
    timings.append(("figures", time.perf_counter() - started))
    started = time.perf_counter()

    if arguments.compare:
        others = [key for key in keys if key != arguments.compare]
        compare_key, base_value, binary = arguments.compare, arguments.base, arguments.framescope
        keyed = frames.rdd.map(lambda row: (tuple((key, (row["labels"] or {}).get(key)) for key in others), row.asDict(recursive=True)))
        comparison_rows = keyed.groupByKey().mapPartitions(
            lambda part: compare_on_executor(part, binary, compare_key, base_value, frame_keys))
        comparison_schema = T.StructType([
            T.StructField("group", labels_type), T.StructField("compare_key", T.StringType()), T.StructField("base", T.StringType()),
            T.StructField("head", T.StringType()), T.StructField("metric", T.StringType()), T.StructField("verdict", T.StringType()),
            T.StructField("reason", T.StringType()), T.StructField("base_frames", T.LongType()), T.StructField("head_frames", T.LongType()),
            T.StructField("base_p50", T.DoubleType()), T.StructField("head_p50", T.DoubleType()),
            T.StructField("base_p95", T.DoubleType()), T.StructField("head_p95", T.DoubleType()),
            T.StructField("shift_ms", T.DoubleType()), T.StructField("p_value", T.DoubleType()),
            T.StructField("p95_delta_ms", T.DoubleType()), T.StructField("p95_interval_lower", T.DoubleType()),
            T.StructField("p95_interval_upper", T.DoubleType())])
        names = [field.name for field in comparison_schema.fields]
        comparisons = spark.createDataFrame(comparison_rows.map(lambda row: tuple(row.get(name) for name in names)), comparison_schema)
        comparisons.write.mode("overwrite").parquet(f"{out}/comparisons")
        timings.append(("comparisons", time.perf_counter() - started))

    # What the driver prints: small aggregated tables, never per-trace work. Label values are
    # untrusted text: control characters are shown escaped, never sent to the terminal.
    error_count = errors.count()
    print(f"framescope fleet: {summaries.count()} traces read, {frames.count()} frames, {error_count} unreadable "
          f"(rows in {visible(out)}/errors); tables in {visible(out)}/", flush=True)
    print("stages: " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in timings))
    shown = spark.read.parquet(f"{out}/figures").collect()
    print_table(["group", "traces", "frames", "late", "hitch ms/s", "main p95", "render p95"], [
        [group_text(row, keys), row["traces"], row["frames"], f"{row['late_share']:.1%}", f"{row['hitch_time_ratio_ms_per_s']:.1f}",
         millis(row["main_p95_ms"]), millis(row["render_p95_ms"])] for row in shown], "lrrrrrr")
    if arguments.compare:
        changed = spark.read.parquet(f"{out}/comparisons").where("verdict != 'unchanged'").orderBy("head", "metric").collect()
        print(f"\n{visible(compare_key)}: against {visible(base_value)}, {len(changed)} metric(s) changed")
        print_table(["group", "head", "metric", "verdict", "base p95", "head p95"], [
            [", ".join(f"{k}={v}" for k, v in sorted((row["group"] or {}).items())) or "(all)", row["head"], row["metric"],
             row["verdict"], millis(row["base_p95"]), millis(row["head_p95"])] for row in changed], "lllrrr")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
