#!/usr/bin/env python3
"""Makes a fleet of traces laid out as a device lab keeps them, for the Spark job's check and
benchmark: DIR/build=B/device=D/run-R.json, Hive-style directories the job reads as labels.

    python3 tools/spark/make_fleet.py FRAMESCOPE DIR [--builds 2] [--devices 2] [--runs 3]
        [--frames 60] [--copies 1] [--hostile]

Build 1 is `diffable-update` with `reload`, every later build `snapshot-diff` (the fix), so
build-against-build comparisons have a real change to find; devices alternate 60 and 120 Hz;
each run has its own seed. Traces are simulated on virtual time, so the same arguments give the
same traces on any machine. `--copies N` hard-links every simulated trace N times under new run
names (a large fleet for the benchmark without simulating every trace). `--hostile` adds a
device whose name is hostile text (an escape sequence, HTML, a workflow command), a trace cut off
mid-write (framescope reads what is complete, with a diagnostic) and two files that cannot be
read (a malformed JSON trace and a file that is no trace).
"""
import argparse
import os
import subprocess
import sys

HOSTILE_DEVICE = "\x1b[2Jdev<b>ice</b>::error::forged"


def simulate(framescope, out, strategy, fps, frames, seed):
    command = [framescope, "simulate", "diffable-update", "--strategy", strategy, "--fps", str(fps), "--frames", str(frames),
               "--seed", str(seed), "--out", out]
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        sys.exit(f"make_fleet: {' '.join(command)} exited {result.returncode}: {result.stderr.decode(errors='replace')}")


def make_fleet(framescope, directory, builds=2, devices=2, runs=3, frames=60, copies=1, hostile=False, progress=True):
    """Writes the fleet; returns the list of trace paths (readable ones first, then the broken)."""
    paths = []
    device_names = [f"{'phone' if d % 2 == 0 else 'tablet'}-{60 if d % 2 == 0 else 120}hz-{d + 1}" for d in range(devices)]
    if hostile:
        device_names.append(HOSTILE_DEVICE)
    simulated = 0
    total = builds * len(device_names) * runs
    for build in range(1, builds + 1):
        strategy = "reload" if build == 1 else "snapshot-diff"
        for d, device in enumerate(device_names):
            folder = os.path.join(directory, f"build={build}", f"device={device}")
            os.makedirs(folder, exist_ok=True)
            fps = 120 if "120hz" in device else 60
            for run in range(1, runs + 1):
                first = os.path.join(folder, f"run-{run}.json")
                simulate(framescope, first, strategy, fps, frames, seed=run * 100 + d * 10 + build)
                paths.append(first)
                for copy in range(2, copies + 1):
                    linked = os.path.join(folder, f"run-{run}-copy-{copy}.json")
                    if os.path.exists(linked):
                        os.remove(linked)
                    os.link(first, linked)
                    paths.append(linked)
                simulated += 1
                if progress:
                    print(f"\rmake_fleet: simulated {simulated} of {total} traces", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    broken = []
    if hostile:
        folder = os.path.join(directory, "build=2", f"device={device_names[0]}")
        cut = os.path.join(folder, "cut-off.json")
        with open(paths[0], "rb") as source, open(cut, "wb") as target:
            target.write(source.read()[:5000])
        not_a_trace = os.path.join(folder, "notes.json")
        with open(not_a_trace, "wb") as target:
            target.write(b"\x00\x01 this is not a trace\n")
        malformed = os.path.join(folder, "malformed.json")
        with open(malformed, "wb") as target:
            target.write(b'{"traceEvents": [{"ph": "X", "name": "a",, "ts": 1}]}\n')
        broken = [cut, not_a_trace, malformed]
    return paths + broken


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("framescope")
    parser.add_argument("directory")
    parser.add_argument("--builds", type=int, default=2)
    parser.add_argument("--devices", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--hostile", action="store_true")
    arguments = parser.parse_args()
    paths = make_fleet(arguments.framescope, arguments.directory, arguments.builds, arguments.devices, arguments.runs,
                       arguments.frames, arguments.copies, arguments.hostile)
    print(f"make_fleet: {len(paths)} traces under {arguments.directory}")


if __name__ == "__main__":
    main()
