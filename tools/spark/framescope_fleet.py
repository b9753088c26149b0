#!/usr/bin/env python3
"""framescope on a Spark cluster: per-frame rows of a fleet of traces, figures per label, and
build-against-build verdicts with `framescope compare`'s own statistics.

    spark-submit --master yarn --files /path/to/framescope \\
        tools/spark/framescope_fleet.py --traces s3a://lab/traces/ --out s3a://lab/frames/ \\
        --compare build --base 4812

Every trace is read once, on an executor, by one framescope process per partition (per
200 traces): Spark lists the traces (`binaryFile`), each partition's paths reach Python as Arrow
batches (`mapInArrow`), and the executor runs the `framescope` binary shipped with `--files`
(`SparkFiles.get`, copied once per executor) as `report TRACE... --format frames-parquet
--summary-out FILE --errors-out FILE`: the frame rows and the summary row of every trace from
one read, and a record for each trace it cannot read. Their Parquet goes back to Spark as Arrow
record batches, never as a Python object per row. Traces on the local file system are read by
path; on any other (s3a, hdfs) Spark reads their bytes, which the executor writes to a
temporary file. The driver only lists inputs and prints the (small) per-label tables.

Labels come from the traces' paths: every `key=value` directory (Hive style:
`.../build=4812/device=pixel-8/run-3.json`), then `--label-regex` named groups, then
`--label key=value` for every trace. They are the `labels` map of every row.

Written under --out, as Parquet:
  frames/       one row per frame (framescope.frames columns; labels as a map)
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
                        help="input partitions, each read by one framescope process per "
                             f"{TRACES_PER_RUN} traces (default: two per core for traces on the local "
                             "file system; Spark's file splits for others)")
    parser.add_argument("--ship-bytes", action="store_true",
                        help="hand framescope each trace's bytes read by Spark (through a temporary "
                             "file), as for any file system but the local one, even for local traces")
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


def framescope_executable(binary):
    """The framescope binary on this executor: --framescope, else the one shipped with --files
    (SparkFiles, copied once per executor), else `framescope` on PATH."""
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


def is_local(path, context):
    """Whether `path` (a --traces or --trace-list entry) is on the local file system: a `file:`
    URI, or a plain path when Hadoop's default file system is the local one."""
    scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", path)
    if scheme:
        return scheme.group(1).lower() == "file"
    default = context._jsc.hadoopConfiguration().get("fs.defaultFS") or "file:///"
    return default.startswith("file:")


def local_path(uri):
    """The local file a `file:` URI names (Spark lists `file:/a/b`, its text unescaped)."""
    path = uri[len("file:"):]
    return path[2:] if path.startswith("///") else path


def flat(column, kind):
    """A table column as one Arrow array of `kind` (a Spark column's Arrow type)."""
    import pyarrow as pa
    array = pa.concat_arrays(column.chunks) if column.num_chunks else pa.array([], type=column.type)
    return array if array.type == kind else array.cast(kind)


def arrow_rows(table, kind, arrow_schema, uris, label_maps, local_paths):
    """framescope's rows (`table`, read from its Parquet) as record batches of the job's wide
    schema: `kind`, the trace's URI and labels (taken by the row's local path), then every
    column of the schema the table has (cast to Spark's type), null in the others."""
    import pyarrow as pa
    import pyarrow.compute as pc
    count = table.num_rows
    at = pc.index_in(flat(table.column("trace"), pa.string()), value_set=local_paths)
    arrays = []
    for field in arrow_schema:
        if field.name == "kind":
            arrays.append(pa.repeat(kind, count).cast(field.type))
        elif field.name == "trace":
            arrays.append(uris.take(at).cast(field.type))
        elif field.name == "labels":
            arrays.append(label_maps.take(at).cast(field.type))
        elif field.name in table.column_names:
            arrays.append(flat(table.column(field.name), field.type))
        else:
            arrays.append(pa.nulls(count, field.type))
    return pa.RecordBatch.from_arrays(arrays, schema=arrow_schema)


def error_rows(errors, arrow_schema):
    """Error records (trace URI, labels, stage, exit status, message) as a record batch of the
    wide schema."""
    import pyarrow as pa
    values = {"kind": ["error"] * len(errors), "trace": [e["trace"] for e in errors],
              "labels": [sorted(e["labels"].items()) for e in errors], "stage": [e["stage"] for e in errors],
              "exit_status": [e["exit_status"] for e in errors], "message": [e["message"] for e in errors]}
    return pa.RecordBatch.from_arrays(
        [pa.array(values[f.name], type=f.type) if f.name in values else pa.nulls(len(errors), f.type) for f in arrow_schema],
        schema=arrow_schema)


# Traces per framescope run: enough that starting a process is a small part of the work, few
# enough that one run's reports (and the argv of their paths) stay small.
TRACES_PER_RUN = 200


def run_framescope(framescope, traces, work, fps, jobs):
    """One `framescope report TRACE... --format frames-parquet --summary-out --errors-out` over
    `traces` (local paths). Returns (frames table, summary table, error records by local path),
    or None when the run itself failed (crashed, timed out, wrote nothing), with its status and
    line."""
    import pyarrow.parquet as parquet
    outputs = {name: os.path.join(work, name) for name in ("frames.parquet", "summary.parquet", "errors.jsonl")}
    for path in outputs.values():
        if os.path.exists(path):
            os.remove(path)
    command = [framescope, "report", "--format", "frames-parquet", "--out", outputs["frames.parquet"],
               "--summary-out", outputs["summary.parquet"], "--errors-out", outputs["errors.jsonl"],
               "--jobs", str(jobs)]
    if fps:
        command += ["--fps", fps]
    # An argv list, never a shell: paths are untrusted text; `--` so none is taken for an option.
    command += ["--"] + traces
    try:
        result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, -1, f"could not run {framescope}: {error}"
    if result.returncode not in (0, 3) or not os.path.exists(outputs["errors.jsonl"]):
        return None, result.returncode, first_line(result.stderr)
    with open(outputs["errors.jsonl"], encoding="utf-8") as file:
        errors = {record["trace"]: record for record in map(json.loads, file)}
    if len(errors) < len(traces) and not os.path.exists(outputs["frames.parquet"]):
        return None, result.returncode, first_line(result.stderr)
    if len(errors) == len(traces):
        return (None, None, errors), 0, None
    return (parquet.read_table(outputs["frames.parquet"]), parquet.read_table(outputs["summary.parquet"]), errors), 0, None


def read_traces_on_executor(batches, binary, fps, regex, constant, arrow_schema):
    """Runs on the executors (mapInArrow): a partition's traces, `path` (and `content` when they
    are not on the local file system), through framescope `TRACES_PER_RUN` at a time, each trace
    read once for its frame rows and its summary row; yields record batches of frame, summary
    and error rows. A trace framescope cannot read is an error row, never a failed task."""
    import pyarrow as pa
    from pyspark import TaskContext

    framescope = framescope_executable(binary)
    context = TaskContext.get()
    jobs = max(1, context.cpus() if context else 1)
    map_type = pa.map_(pa.string(), pa.string())
    with tempfile.TemporaryDirectory(prefix="framescope-fleet-") as work:
        pending = []  # (URI, local path, labels)

        def flush():
            runs = [pending[:]]
            pending.clear()
            while runs:
                traces = runs.pop()
                local_paths = [local for _, local, _ in traces]
                read, status, message = run_framescope(framescope, local_paths, work, fps, jobs)
                if read is None and len(traces) > 1:
                    # The run failed as a whole (a crash on one trace?): each trace alone finds which.
                    runs += [[trace] for trace in traces]
                    continue
                if read is None:
                    uri, local, labels = traces[0]
                    yield error_rows([{"trace": uri, "labels": labels, "stage": "report", "exit_status": status,
                                       "message": message if local == local_path(uri) else message.replace(local, uri)}],
                                     arrow_schema)
                    continue
                frames, summaries, errors = read
                uris = pa.array([uri for uri, _, _ in traces], type=pa.string())
                label_maps = pa.array([sorted(labels.items()) for _, _, labels in traces], type=map_type)
                paths = pa.array(local_paths, type=pa.string())
                if frames is not None:
                    yield arrow_rows(frames, "frame", arrow_schema, uris, label_maps, paths)
                    yield arrow_rows(summaries, "summary", arrow_schema, uris, label_maps, paths)
                failed = []
                for uri, local, labels in traces:
                    record = errors.get(local)
                    if record is not None:
                        # framescope names the file it read; the row names the trace.
                        message = record["message"] if local == local_path(uri) else record["message"].replace(local, uri)
                        failed.append({"trace": uri, "labels": labels, "stage": "report",
                                       "exit_status": record["exit_status"], "message": message})
                if failed:
                    yield error_rows(failed, arrow_schema)
                for uri, local, _ in traces:
                    if local != local_path(uri) and os.path.exists(local):
                        os.remove(local)

        copied = 0
        for batch in batches:
            uris = batch.column("path").to_pylist()
            contents = batch.column("content") if "content" in batch.schema.names else None
            for index, uri in enumerate(uris):
                if contents is None:
                    local = local_path(uri)
                else:
                    copied += 1
                    local = os.path.join(work, f"trace-{copied}")
                    with open(local, "wb") as file:
                        file.write(contents[index].as_py())
                pending.append((uri, local, labels_of(uri, regex, constant)))
                if len(pending) >= TRACES_PER_RUN:
                    yield from flush()
        if pending:
            yield from flush()


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
    framescope = framescope_executable(binary)
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


def fleet_schemas():
    """The three tables' columns, and one wide schema for the rows of all three (a column means the
    same in every kind that has it), so each trace is read once; the tables are its slices by kind."""
    from pyspark.sql import types as T
    decimal = T.DecimalType(38, 6)  # framescope writes DECIMAL(18, 6); 38 digits hold any Int64 of nanoseconds
    labels_type = T.MapType(T.StringType(), T.StringType())
    frame_fields = [
        ("trace", T.StringType()), ("labels", labels_type), ("frame_source", T.StringType()),
        ("frame_interval_ms", decimal), ("index", T.LongType()), ("vsync_ns", T.LongType()), ("deadline_ns", T.LongType()),
        ("main_ms", decimal), ("overrun_ms", decimal), ("missed_vsyncs", T.LongType()), ("outcome", T.StringType()),
        ("hitch_cause", T.StringType()), ("held_by_frame", T.LongType()), ("hitch_stage", T.StringType()),
    ] + [(f"{lane}_ms", decimal) for lane in LANES] + [("main_by_category_ms", T.MapType(T.StringType(), decimal))]
    summary_fields = [
        ("trace", T.StringType()), ("labels", labels_type), ("frame_source", T.StringType()), ("frames", T.LongType()),
        ("late_frames", T.LongType()), ("slow_frames", T.LongType()), ("frozen_frames", T.LongType()),
        ("missed_vsyncs", T.LongType()), ("hitch_ms", decimal), ("measured_ms", decimal),
    ]
    error_fields = [("trace", T.StringType()), ("labels", labels_type), ("stage", T.StringType()),
                    ("exit_status", T.LongType()), ("message", T.StringType())]
    wide = [("kind", T.StringType())]
    for name, kind in frame_fields + summary_fields + error_fields:
        if name not in dict(wide):
            wide.append((name, kind))
    wide_schema = T.StructType([T.StructField(name, kind, True) for name, kind in wide])
    return frame_fields, summary_fields, error_fields, wide_schema


def trace_inputs(spark, arguments):
    """The traces to read, listed by Spark. An executor reads each where it is processed: by its path
    when the traces are on the local file system (every executor sees the same files), else Spark
    reads its bytes (Arrow, no per-row objects) and the executor writes them to a temporary file.
    Directories are read recursively (build=.../device=.../run.json), with no partition columns."""
    context = spark.sparkContext
    paths = list(arguments.traces)
    if arguments.trace_list:
        with open(arguments.trace_list, encoding="utf-8") as file:
            paths += [line.strip() for line in file if line.strip() and not line.startswith("#")]
    listing = spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(paths)
    by_path = not arguments.ship_bytes and all(is_local(path, context) for path in paths)
    inputs = listing.select("path") if by_path else listing.select("path", "content")
    if by_path or arguments.partitions:
        inputs = inputs.repartition(arguments.partitions or max(2, 2 * context.defaultParallelism))
    return inputs


def write_tables(spark, arguments, out, schemas):
    """Reads every trace on the executors and writes frames, summaries and errors; returns them read back."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import to_arrow_schema
    frame_fields, summary_fields, error_fields, wide_schema = schemas
    constant = dict(label.split("=", 1) for label in arguments.label)
    binary, fps, regex = arguments.framescope, arguments.fps, arguments.label_regex
    arrow_schema = to_arrow_schema(wide_schema)
    rows = trace_inputs(spark, arguments).mapInArrow(
        lambda batches: read_traces_on_executor(batches, binary, fps, regex, constant, arrow_schema), wide_schema)
    rows = rows.persist(StorageLevel.MEMORY_AND_DISK)

    def table(kind, fields):
        return rows.where(F.col("kind") == kind).select(*[name for name, _ in fields])

    table("frame", frame_fields).write.mode("overwrite").parquet(f"{out}/frames")
    table("summary", summary_fields).write.mode("overwrite").parquet(f"{out}/summaries")
    table("error", error_fields).write.mode("overwrite").parquet(f"{out}/errors")
    rows.unpersist()
    return spark.read.parquet(f"{out}/frames"), spark.read.parquet(f"{out}/summaries"), spark.read.parquet(f"{out}/errors")


def pooled_figures(summaries, group_columns, group_names):
    """Per label group: traces, frames, late and slow shares, compare's hitch time ratio."""
    from pyspark.sql import functions as F
    pooled = summaries.groupBy(*group_columns).agg(
        F.count("*").alias("traces"), F.sum("frames").alias("frames"), F.sum("late_frames").alias("late_frames"),
        F.sum("slow_frames").alias("slow_frames"), F.sum("frozen_frames").alias("frozen_frames"),
        F.sum("hitch_ms").alias("hitch_ms"), F.sum("measured_ms").alias("measured_ms"))
    return pooled.select(
        *group_names, "traces", "frames", "late_frames", "slow_frames", "frozen_frames",
        F.when(F.col("frames") > 0, F.col("late_frames") / F.col("frames")).otherwise(F.lit(0.0)).alias("late_share"),
        F.when(F.col("frames") > 0, F.col("slow_frames") / F.col("frames")).otherwise(F.lit(0.0)).alias("slow_share"),
        # framescope compare's hitch time ratio: pooled hitch ms per second of measured time.
        F.when(F.col("measured_ms") > 0, F.col("hitch_ms").cast("double") / (F.col("measured_ms").cast("double") / 1000.0))
         .otherwise(F.lit(0.0)).alias("hitch_time_ratio_ms_per_s"))


def percentile_figures(figures, frames, group_columns, group_names):
    """Per-frame percentiles, nearest rank as framescope computes them, without collecting a group's
    values in one place: rank within the group, then pick the ranks."""
    from pyspark.sql import Window, functions as F, types as T
    decimal = T.DecimalType(38, 6)
    grouped_frames = frames.select(*group_columns, "trace", "index", "main_ms", *[f"{lane}_ms" for lane in LANES])
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
    return figures.orderBy(*group_names) if group_names else figures


def write_figures(frames, summaries, arguments, out):
    """The label groups (--by keys, or every key any trace has) and their figures; returns the keys."""
    from pyspark.sql import functions as F
    if arguments.by:
        keys = [key.strip() for key in arguments.by.split(",") if key.strip()]
    else:
        keys = sorted({key for row in summaries.select(F.explode(F.map_keys("labels"))).distinct().collect() for key in row})
    group_columns = [F.col("labels").getItem(key).alias(f"label_{key}") for key in keys]
    group_names = [f"label_{key}" for key in keys]
    figures = percentile_figures(pooled_figures(summaries, group_columns, group_names), frames, group_columns, group_names)
    figures.write.mode("overwrite").parquet(f"{out}/figures")
    return keys


def write_comparisons(spark, frames, arguments, keys, frame_fields, out):
    """--compare: each group's frames compared build against build by framescope compare, on the executors."""
    from pyspark.sql import types as T
    labels_type = T.MapType(T.StringType(), T.StringType())
    frame_keys = [name for name, _ in frame_fields if name not in ("trace", "labels", "main_by_category_ms")]
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


def print_results(spark, arguments, out, tables, keys, timings):
    """What the driver prints: small aggregated tables, never per-trace work. Label values are
    untrusted text: control characters are shown escaped, never sent to the terminal."""
    frames, summaries, errors = tables
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
        print(f"\n{visible(arguments.compare)}: against {visible(arguments.base)}, {len(changed)} metric(s) changed")
        print_table(["group", "head", "metric", "verdict", "base p95", "head p95"], [
            [", ".join(f"{k}={v}" for k, v in sorted((row["group"] or {}).items())) or "(all)", row["head"], row["metric"],
             row["verdict"], millis(row["base_p95"]), millis(row["head_p95"])] for row in changed], "lllrrr")


def main(argv):
    arguments = parse_arguments(argv)
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("framescope-fleet").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    schemas = fleet_schemas()
    out = arguments.out.rstrip("/")
    timings = []
    started = time.perf_counter()
    tables = write_tables(spark, arguments, out, schemas)
    timings.append(("traces read on the executors", time.perf_counter() - started))
    started = time.perf_counter()
    keys = write_figures(tables[0], tables[1], arguments, out)
    timings.append(("figures", time.perf_counter() - started))
    started = time.perf_counter()
    if arguments.compare:
        write_comparisons(spark, tables[0], arguments, keys, schemas[0], out)
        timings.append(("comparisons", time.perf_counter() - started))
    print_results(spark, arguments, out, tables, keys, timings)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
