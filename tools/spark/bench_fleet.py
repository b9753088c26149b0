#!/usr/bin/env python3
"""Benchmark: a fleet through the Parquet writer, the Spark job and `check --jobs`, on this
machine, in one run (figures, never asserts).

    python3 tools/spark/bench_fleet.py .build/release/framescope [--labels 20] [--frames 600]
        [--copies 50] [--cores 2] [--work DIR] [--no-compare]

Makes LABELS distinct traces of FRAMES frames (tools/spark/make_fleet.py: 2 builds x LABELS/2
devices, one run each, simulated on virtual time) and hard-links each COPIES times, so the
fleet has LABELS x COPIES traces (1,000 by default; --copies 500 gives the issue's 10,000) without
simulating each. Then times, on the same traces:

  1. the writers: `report --format frames-jsonl` and `--format frames-parquet` over the distinct
     traces, CPU seconds and bytes per 1,000 frames (the reading and analysis are the same in
     both; the in-process writer alone is `framescope-bench rows`);
  2. `framescope check --jobs CORES` over the whole fleet: the one-machine baseline;
  3. the Spark job (spark-submit --master local[CORES]) over the whole fleet, end to end,
     including Spark's start-up;

and prints traces/s for each, the Spark job's reading rate per core against `check`'s, and the
executors a day of 1,000,000 such traces needs at the Spark job's measured rate per core.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from make_fleet import make_fleet  # tools/spark: first on sys.path, the script's own folder
from spark_submit import spark_submit_path

HERE = os.path.dirname(os.path.abspath(__file__))


ROOT = os.path.dirname(os.path.dirname(HERE))


def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command, **kwargs):
    cpu, wall = child_cpu(), time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)
    return result, time.perf_counter() - wall, child_cpu() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("framescope")
    parser.add_argument("--labels", type=int, default=20)
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--copies", type=int, default=50)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--work")
    parser.add_argument("--no-compare", action="store_true",
                        help="run the Spark job without --compare build (its build comparisons cost per frame "
                             "row in Python; a 10,000-trace fleet's reading and figures alone)")
    arguments = parser.parse_args()
    framescope = os.path.abspath(arguments.framescope)
    work = arguments.work or tempfile.mkdtemp(prefix="framescope-bench-fleet-")
    fleet = os.path.join(work, "fleet")
    started = time.perf_counter()
    paths = make_fleet(framescope, fleet, builds=2, devices=max(1, arguments.labels // 2), runs=1, frames=arguments.frames,
                       copies=arguments.copies)
    distinct = [p for p in paths if "-copy-" not in os.path.basename(p)]
    size = sum(os.path.getsize(p) for p in distinct) / len(distinct)
    print(f"fleet: {len(paths)} traces ({len(distinct)} distinct, {arguments.frames} frames, {size / 1e6:.2f} MB each) "
          f"over {arguments.labels} labels, made in {time.perf_counter() - started:.0f} s; machine: {os.cpu_count()} cores")

    # 1. The writers, over the distinct traces.
    rows = {}
    for fmt in ("frames-jsonl", "frames-parquet"):
        cpu_total, wall_total, size_total = 0.0, 0.0, 0
        for index, path in enumerate(distinct):
            out = os.path.join(work, f"rows-{index}.{fmt}")
            result, wall, cpu = timed([framescope, "report", path, "--format", fmt, "--out", out])
            if result.returncode != 0:
                sys.exit(f"bench_fleet: report {path} --format {fmt} failed: {result.stderr.decode(errors='replace')}")
            cpu_total, wall_total, size_total = cpu_total + cpu, wall_total + wall, size_total + os.path.getsize(out)
        frames = len(distinct) * arguments.frames
        rows[fmt] = (cpu_total, size_total)
        print(f"report --format {fmt:15} {cpu_total / frames * 1e6:8.1f} µs CPU per frame (read, analysis and write), "
              f"{size_total / frames:7.1f} bytes per frame")
    print(f"  parquet/jsonl: CPU {rows['frames-parquet'][0] / rows['frames-jsonl'][0]:.2f}x, "
          f"bytes {rows['frames-parquet'][1] / rows['frames-jsonl'][1]:.2f}x")

    # 2. check --jobs over the fleet: the one-machine baseline.
    budget = os.path.join(ROOT, "Traces", "budgets", "ci-example.json")
    result, wall, cpu = timed([framescope, "check", "--budget", budget, "--jobs", str(arguments.cores), "--format", "json"] + paths)
    if result.returncode not in (0, 1):
        sys.exit(f"bench_fleet: check exited {result.returncode}: {result.stderr.decode(errors='replace')[-2000:]}")
    check_rate = len(paths) / wall
    print(f"framescope check --jobs {arguments.cores}: {len(paths)} traces in {wall:.1f} s: {check_rate:.1f} traces/s "
          f"({cpu:.1f} s CPU)")

    # 3. The Spark job, end to end.
    out = os.path.join(work, "spark-out")
    command = [spark_submit_path(), "--master", f"local[{arguments.cores}]", "--conf", "spark.ui.enabled=false",
               "--conf", "spark.log.level=WARN", "--driver-memory", "2g", "--files", framescope,
               os.path.join(HERE, "framescope_fleet.py"), "--traces", fleet, "--out", out, "--by", "build,device"]
    if not arguments.no_compare:
        command += ["--compare", "build", "--base", "1"]
    cpu_before, wall_before = child_cpu(), time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall, cpu = time.perf_counter() - wall_before, child_cpu() - cpu_before
    stages = [line for line in result.stdout.decode(errors="replace").splitlines() if line.startswith("stages: ")]
    if result.returncode != 0:
        sys.exit(f"bench_fleet: the Spark job failed: {result.stderr.decode(errors='replace')[-3000:]}")
    spark_rate = len(paths) / wall
    print(f"Spark job, local[{arguments.cores}], end to end: {len(paths)} traces in {wall:.1f} s: {spark_rate:.1f} traces/s "
          f"({spark_rate / arguments.cores:.2f} per core; {cpu:.1f} s CPU in Spark and its children)")
    if stages:
        print(f"  {stages[0]} (the rest is Spark's start-up and the printed tables)")
    day = 1_000_000
    needed = day / 86_400 / (spark_rate / arguments.cores)
    print(f"1,000,000 traces a day is {day / 86_400:.1f} traces/s: about {needed:.0f} executor cores at the end-to-end rate, "
          f"{needed * 2:.0f} with 2x headroom for peaks (traces like these)")
    import re
    read = re.search(r"traces read on the executors ([0-9.]+) s", stages[0]) if stages else None
    if read:
        per_core = len(paths) / float(read.group(1)) / arguments.cores
        print(f"  reading alone: {per_core:.2f} traces/s per core, so {day / 86_400 / per_core:.1f} cores for the rows; "
              f"the comparisons cost per build pair and group, not per trace")
        print(f"  reading per core against check --jobs {arguments.cores}'s {check_rate / arguments.cores:.1f} traces/s per core: "
              f"{per_core / (check_rate / arguments.cores):.2f}x")


if __name__ == "__main__":
    main()
