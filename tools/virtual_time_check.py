#!/usr/bin/env python3
"""Does virtual time move with the host's load? Runs the same scenario and seed twice on virtual
time while other processes keep every core busy, and compares every frame's outcome.

A measurement, not a CI gate: on a shared VM thread CPU time also moves with heavy load (caches,
frequency, time the hypervisor takes from a vCPU), and a frame whose work ends close to a vsync
can then land on the other side of it.

    python3 tools/virtual_time_check.py FRAMESCOPE_BINARY

For each run below it starts 2 x cores busy-looping processes, runs `framescope simulate` (virtual
time is the default) twice with the same seed, reads both traces back with `framescope report
--format frames-jsonl`, and compares every frame's outcome: its index, the vsync it started on (in
intervals from the first), its missed vsyncs and its hitch cause. The runs are chosen to include
hitching frames (decoding on the main thread) and a busy render lane (offscreen passes).

Exit status: 0 when every pair is identical, 1 when a frame's outcome differs, 2 when something
could not run.
"""
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile

RUNS = [
    ("feed-scroll", "manual-main+decode-main"),
    ("corner-rounding", "offscreen-clip"),
    ("diffable-update", "reload"),
    ("paper-transition", "naive"),
]
FRAMES = 60


def busy_loop():
    while True:
        pass


def outcomes(binary, trace):
    """Per frame: (index, vsync in intervals from the first, missed vsyncs, hitch cause)."""
    rows = subprocess.run([binary, "report", trace, "--format", "frames-jsonl"], capture_output=True, text=True, check=True)
    result = []
    for line in rows.stdout.splitlines():
        row = json.loads(line)
        interval = row["frame_interval_ms"] * 1e6
        result.append((row["index"], round(row["vsync_ns"] / interval), row["missed_vsyncs"], row["hitch_cause"]))
    return result


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    binary = sys.argv[1]
    loaders = [multiprocessing.Process(target=busy_loop, daemon=True) for _ in range(2 * (os.cpu_count() or 2))]
    for loader in loaders:
        loader.start()
    failures = 0
    try:
        with tempfile.TemporaryDirectory() as work:
            for scenario, strategy in RUNS:
                results = []
                for attempt in (1, 2):
                    trace = os.path.join(work, f"{scenario}--{strategy}-{attempt}.json")
                    run = subprocess.run(
                        [binary, "simulate", scenario, "--strategy", strategy, "--frames", str(FRAMES), "--seed", "1", "--out", trace],
                        capture_output=True, text=True)
                    if run.returncode != 0:
                        print(f"could not run {scenario} / {strategy}: {run.stderr.strip()}", file=sys.stderr)
                        return 2
                    results.append(outcomes(binary, trace))
                first, second = results
                late = sum(1 for frame in first if frame[3] != "none")
                missed = sum(frame[2] for frame in first)
                if first == second:
                    print(f"  ok {scenario} / {strategy}: {len(first)} frames, {late} late, {missed} missed vsyncs, identical in both runs")
                else:
                    failures += 1
                    differing = [(a, b) for a, b in zip(first, second) if a != b]
                    print(f"  FAIL {scenario} / {strategy}: {len(differing)} of {len(first)} frames differ, "
                          f"first {differing[:3]} (index, vsync, missed, cause), {len(first)} vs {len(second)} frames")
    finally:
        for loader in loaders:
            loader.terminate()
    print(f"{2 * (os.cpu_count() or 2)} busy-looping processes ran throughout")
    if failures:
        print(f"virtual time moved with the host's load in {failures} of {len(RUNS)} runs")
        return 1
    print("the same seed gave the same frame outcomes on virtual time in every run, under load")
    return 0


if __name__ == "__main__":
    sys.exit(main())
