#!/usr/bin/env python3
"""CI check: a framescope recording, exported as Instruments would export it, reports as itself.

    python3 tools/check_instruments.py FRAMESCOPE [--frames N] [--keep DIR]

For each run below, at 60 and at 120 Hz, on real time (the loop waits for each vsync and the
lanes compete for the host's cores, as in an app):
  1. `framescope simulate ... --clock real --out run.json` records a trace;
  2. tools/xctrace_export.py renders it as `xcrun xctrace export` XML: the signpost intervals the
     mirror writes (spans, and frames with `index N since-vsync S ns budget B ns`), the display's
     refresh rate, and the run's TOC;
  3. `framescope report --format json` of the export and of the trace must agree: frames, late
     frames, missed vsyncs, hitch time (within 1 us a frame: the export's times are whole
     nanoseconds of the trace's microseconds), main-thread time per category (the same bound) and
     the frame interval;
  4. with Apple's `hitches` table beside the signposts (--hitches), Apple's rows decide: late
     frames are the rows, hitch time their summed durations to the nanosecond, missed vsyncs each
     duration in intervals, rounded.
Every export is also converted to Chrome JSON and Perfetto by `framescope convert`, and the JSON
passes ../shared/tools/validate_trace.py (the rules Perfetto and the Chrome trace viewer rely on).
Prints one line per check and a closing 'N passed, N failed' line; exit 1 on any failure.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from xml.etree import ElementTree

from fstools.common import VALIDATOR, run_or_exit

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = [
    ("feed-scroll", "manual-main+decode-main"),
    ("diffable-update", "reload"),
    ("paper-transition", "naive"),
]
# Not corner-rounding: its hitches are the simulated render server's, a lane of framescope's own
# trace that an app's signposts never hold on a device (the render server is another process,
# whose lateness Apple's hitches-renders table reports); the writer does not imitate it.
RATES = [60, 120]

passed = 0
failed = 0


def expect(condition, message):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {message}")


def run(command):
    return run_or_exit(command, text=True).stdout


def report(framescope, *paths):
    return json.loads(run([framescope, "report", *paths, "--format", "json"]))


def categories(report_json):
    return {entry["name"]: entry["main-ns"] for entry in report_json["categories"]}


def compare(what, trace, export, tolerance):
    """Figures of the trace's own report against the export's."""
    mine, theirs = trace["summary"], export["summary"]
    for key in ("frames", "late-frames", "missed-vsyncs", "slow-frames"):
        expect(mine[key] == theirs[key], f"{what}: {key} {theirs[key]} from the export, {mine[key]} from the trace")
    expect(abs(mine["hitch-ns"] - theirs["hitch-ns"]) <= tolerance,
           f"{what}: hitch time {theirs['hitch-ns']} ns from the export, {mine['hitch-ns']} ns from the trace")
    expect(trace["method"]["frame-interval-ns"] == export["method"]["frame-interval-ns"],
           f"{what}: frame interval {export['method']['frame-interval-ns']} ns from the export, "
           f"{trace['method']['frame-interval-ns']} ns from the trace")
    mine_categories, their_categories = categories(trace), categories(export)
    for name in sorted(set(mine_categories) | set(their_categories)):
        a, b = mine_categories.get(name, 0), their_categories.get(name, 0)
        expect(abs(a - b) <= tolerance, f"{what}: main-thread time of {name!r} {b} ns from the export, {a} ns from the trace")


def hitch_rows(export_path):
    """Apple's hitch rows in an export: (duration ns) for each app hitch, resolving id/ref."""
    root = ElementTree.parse(export_path).getroot()
    values = {}
    for element in root.iter():
        if "id" in element.attrib:
            values[element.attrib["id"]] = element
    durations = []
    for node in root.iter("node"):
        schema = node.find("schema")
        if schema is None or schema.get("name") != "hitches":
            continue
        mnemonics = [col.findtext("mnemonic") for col in schema.findall("col")]
        for row in node.findall("row"):
            cells = dict(zip(mnemonics, list(row)))
            cell = cells.get("duration")
            if cell is not None and "ref" in cell.attrib:
                cell = values[cell.attrib["ref"]]
            system = cells.get("is-system")
            if system is not None and "ref" in system.attrib:
                system = values[system.attrib["ref"]]
            if system is not None and (system.text or "").strip() in ("1", "true"):
                continue
            durations.append(int(cell.text))
    return durations


def check_run(framescope, work, scenario, strategy, fps, frames):
    name = f"{scenario}-{strategy}-{fps}hz"
    trace_path = os.path.join(work, name + ".json")
    run([framescope, "simulate", scenario, "--strategy", strategy, "--fps", str(fps), "--frames", str(frames),
         "--clock", "real", "--out", trace_path])
    export_path = os.path.join(work, name + ".xml")
    run([sys.executable, os.path.join(HERE, "xctrace_export.py"), trace_path, "--out", export_path])
    trace = report(framescope, trace_path)
    export = report(framescope, export_path)
    tolerance = 1000 * max(1, trace["summary"]["frames"])
    compare(f"{name} (signposts)", trace, export, tolerance)
    expect(export["method"]["frame-interval-ns"] == round(1e9 / fps) or abs(export["method"]["frame-interval-ns"] - 1e9 / fps) < 1,
           f"{name}: the export is judged at {export['method']['frame-interval-ns']} ns, not {fps} Hz")

    # Apple's hitches beside the signposts: its rows decide.
    apple_path = os.path.join(work, name + "-hitches.xml")
    run([sys.executable, os.path.join(HERE, "xctrace_export.py"), trace_path, "--hitches", "--out", apple_path])
    durations = hitch_rows(apple_path)
    apple = report(framescope, apple_path)["summary"]
    interval = 1e9 / fps
    expect(apple["late-frames"] == len(durations), f"{name}: {apple['late-frames']} late frames, Apple's hitches table has {len(durations)}")
    expect(apple["hitch-ns"] == sum(durations), f"{name}: hitch time {apple['hitch-ns']} ns, Apple's rows sum to {sum(durations)} ns")
    missed = sum(round(duration / interval) for duration in durations)
    expect(apple["missed-vsyncs"] == missed, f"{name}: {apple['missed-vsyncs']} missed vsyncs, Apple's rows give {missed}")

    # Both convert to the formats other viewers open.
    validator = VALIDATOR
    for path in (export_path, apple_path):
        for suffix in (".converted.json", ".converted.pftrace"):
            run([framescope, "convert", path, "--out", path + suffix])
        if os.path.exists(validator):
            result = subprocess.run([sys.executable, validator, path + ".converted.json"], capture_output=True, text=True)
            expect(result.returncode == 0, f"{name}: the export converted to Chrome JSON fails validate_trace.py: "
                   f"{(result.stdout + result.stderr).strip()[-400:]}")
    print(f"ok   {name}: {trace['summary']['frames']} frames, {trace['summary']['late-frames']} late; "
          f"with Apple's table {len(durations)} hitches, {sum(durations) / 1e6:.2f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("framescope")
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--keep", help="keep the traces and exports here")
    arguments = parser.parse_args()
    framescope = os.path.abspath(arguments.framescope)
    work = arguments.keep or tempfile.mkdtemp(prefix="framescope-instruments-")
    os.makedirs(work, exist_ok=True)
    for fps in RATES:
        for scenario, strategy in RUNS:
            check_run(framescope, work, scenario, strategy, fps, arguments.frames)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
