#!/usr/bin/env python3
"""Does virtual time move with the host's load? Runs the same scenario and seed twice on virtual
time while other processes keep every core busy, and compares every frame's outcome.

On virtual time (the default clock) every piece of work is priced from what it counted by the
reference device's cost model, so the outcome cannot depend on the host: CI runs this as a gate.
(`--clock cpu-time` takes each piece's thread CPU time instead, which moves a few percent with heavy
load on a shared VM: pass `--clock cpu-time` after the binary to measure that.)

    python3 tools/check_virtual_time.py FRAMESCOPE_BINARY [--clock virtual|cpu-time] [--frames N]

(60 frames per run by default; CI runs them with the release build.)

For each run below it starts one busy-looping process per core, runs `framescope simulate` twice
with the same seed, reads both traces back with `framescope report --format frames-jsonl`, and
compares every frame's outcome: its index, the vsync it started on (in intervals from the first),
its missed vsyncs and its hitch cause. The runs are chosen to include hitching frames (decoding on
the main thread) and a busy render lane (offscreen passes).

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
    usage = "usage: python3 tools/check_virtual_time.py FRAMESCOPE_BINARY [--clock virtual|cpu-time] [--frames N]"
    arguments = sys.argv[1:]
    options = dict(zip(arguments[1::2], arguments[2::2]))
    clock = options.get("--clock", "virtual")
    frames = options.get("--frames", str(FRAMES))
    if len(arguments) % 2 != 1 or not set(options) <= {"--clock", "--frames"} or clock not in ("virtual", "cpu-time") \
            or not frames.isdigit() or int(frames) < 1:
        print(usage, file=sys.stderr)
        return 2
    frames = int(frames)
    binary = arguments[0]
    loaders = [multiprocessing.Process(target=busy_loop, daemon=True) for _ in range(os.cpu_count() or 2)]
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
                        [binary, "simulate", scenario, "--strategy", strategy, "--frames", str(frames), "--seed", "1", "--clock", clock,
                         "--out", trace],
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
    print(f"{os.cpu_count() or 2} busy-looping processes ran throughout")
    if failures:
        print(f"{clock} time moved with the host's load in {failures} of {len(RUNS)} runs")
        return 1
    print(f"the same seed gave the same frame outcomes on {clock} time in every run, under load")
    return 0


if __name__ == "__main__":
    sys.exit(main())
