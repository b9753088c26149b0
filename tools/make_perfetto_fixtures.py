#!/usr/bin/env python3
"""Writes the Perfetto protobuf fixtures the Swift reader tests read, each with what a correct
reader must produce (deterministic: the same bytes on every run, no inputs, no clock, no network).

    python3 tools/make_perfetto_fixtures.py            # writes Tests/FrameTraceReaderTests/Fixtures/perfetto/
    python3 tools/make_perfetto_fixtures.py --check    # regenerates into a temporary folder and exits 1,
                                                       # naming each file, if a committed one differs
    python3 tools/make_perfetto_fixtures.py --out DIR  # writes somewhere else

Needs `pip install perfetto protobuf` (the `perfetto` package's perfetto_trace_pb2 builds the
TrackEvent, ftrace and ProcessTree packets). SurfaceFlinger's FrameTimelineEvent (TracePacket
field 76) is not in that module: it is encoded here from its field numbers, checked against
protos/perfetto/trace/android/frame_timeline_event.proto, and decoded back through a descriptor
built from the same numbers before anything is written.

Every `X.pftrace` has an `X.expected.json` written from the same data: what the reader must
produce, times in integer nanoseconds as they are in the file (TracePacket.timestamp; nothing is
rebased). Track uuids and flow ids are decimal strings, and so are times past 2^53 (JSON numbers
that large are not exact everywhere). Each expected file says what its keys mean in its `schema`
member; `args` is an event's arguments as Chrome's JSON writes them, `arguments` the same as
framescope's Trace holds them.

Before writing, the script checks its own output: every file but the broken ones decodes with
perfetto_trace_pb2 (deep-nesting is well-formed but deeper than upb allows); a recursion-free wire
walker, reading as framescope's ProtobufInput does, finds each broken file's error at the offset
its expected file names; a Python port of trace processor's FrameTimeline parser must give the
frame_timeline_events and display_power_mode_change diff tests' rows exactly (it then makes the other
FrameTimeline rows); and the frames android-frames-stdlib computes from its events must agree with
the android.frames stdlib diff tests' outputs (held here verbatim), frame by frame, except the rows
its notes explain. Any disagreement stops the script with the row and column.

Fixtures (named after the case they test):
- track-event-basics: TrackDescriptors (process, two threads, a counter), nested slices, an
  instant, interned names/categories/annotation names/string values on two sequences that reuse
  the same iids for different strings, an incremental-state reset that redefines iids, two packets
  on a never-cleared sequence that need incremental state (dropped, counted), int and double
  counter values, two flows across threads, every debug annotation kind, and four TracePacket
  fields of unknown numbers (one per wire type) that must be skipped.
- chrome-pipeline-reporter: a renderer's PipelineReporter slices with the typed
  chrome_frame_reporter argument on unnamed process-scoped async tracks (as Chrome's
  perfetto::Track(id) writes them), with nested stage slices.
- atrace-android-app: an app's ftrace print (atrace) events with a process_tree, and a
  sched_switch that must be skipped and counted.
- frame-timeline-events / frame-timeline-metric: the inputs of Perfetto's trace processor diff
  tests for FrameTimeline, reproduced event for event; the expected rows are the first test's
  rows, and the second's metric figures with the rows the parser makes.
- frame-timeline-power-mode: the input of trace processor's test_display_power_mode_change
  (frame_timeline_power_mode.py), event for event: jank bits 32768, 2048 and 8192 alone on display
  and surface frames; its expected rows are the test's (jank_tag "Non-perceivable Jank").
- android-app-frames: one app's eight frames with atrace doFrame/DrawFrames slices and
  FrameTimeline surface and display frames for the same tokens, one frame per jank kind.
- android-rate-switch: FrameTimeline alone for one app on a display that runs at 60 Hz for 24
  frames, then at 120 Hz for 48; the same frame shapes in both stretches (12 ms of work, 10 ms
  past the app's deadline), with each frame's period, slow verdict and missed vsyncs.
- android-frames-stdlib: the trace of trace processor's stdlib/android/frames_tests.py
  (metrics/graphics/android_jank_cuj.py), reduced to what the android.frames tables read: the
  process tree, every Choreographer#doFrame and DrawFrames atrace slice and every FrameTimeline
  event, timestamps unchanged. Its expected file holds the tests' outputs verbatim and the frames
  computed here from the events.
- android-doframe-depth: the input of trace processor's stdlib/android frames_tests.py
  test_android_frames_get_frame_table_with_id (android_doframe_depth.py, call for call): doFrames
  nested at depths 0-3; the test keeps the frame ids at depth 0 and 1.
- truncated-last-packet, varint-too-long, length-beyond-file, deep-nesting, undefined-iid,
  huge-timestamp: hostile bytes, written by hand, with the error or diagnostic and its byte offset.
- first-packet-beyond-file (a first packet claiming 2^40 bytes in a 15-byte file: no whole
  packet, an error) and last-packet-length-over-2gib (whole packets, then a length no protobuf
  message can have: an error, not a torn packet): the two sides of the rule for a torn file.

The fixtures are generated, never edited by hand: change this script and run it again. The cases,
the wire walker and the two ports live in tools/fstools: perfetto_cases, frametimeline_cases,
android_stdlib and perfetto_broken_cases build each file; perfetto_wire, perfetto_packets and
frametimeline encode and read back. This script checks and writes them.
"""
import argparse
import filecmp
import json
import os
import sys
import tempfile

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

from fstools.perfetto_wire import wire_walk
from fstools.perfetto_packets import GENERATOR, add_model_arguments
from fstools.perfetto_cases import atrace_android_app, chrome_pipeline_reporter, legacy_events, track_event_basics
from fstools.frametimeline import check_frame_timeline
from fstools.frametimeline_cases import (
    android_app_frames, android_rate_switch, frame_timeline_events, frame_timeline_metric,
    frame_timeline_power_mode,
)
from fstools.android_stdlib import android_doframe_depth, android_frames_stdlib
from fstools.perfetto_broken_cases import (
    deep_nesting, first_packet_beyond_file, huge_timestamp, last_packet_length_over_2gib, length_beyond_file,
    truncated_last_packet, undefined_iid, varint_too_long,
)


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "Tests", "FrameTraceReaderTests", "Fixtures", "perfetto")

# ---------------------------------------------------------------------------------------------
# Schema descriptions, verification, output
# ---------------------------------------------------------------------------------------------
SCHEMAS = {
    "legacy-events": {
        "threads": "[{pid, tid, name}]",
        "events": "[{phase (JSON's: X with dur, b/e with id, i), name, category, pid, tid, ts, dur?, id?, args}] "
                  "in ts order: what framescope's Trace holds after the read",
        "skipped": "{count, packet_offsets, kinds}: legacy events not read, each counted",
    },
    "track-event": {
        "processes": "[{pid, name, track_uuid}]",
        "threads": "[{pid, tid, name, track_uuid, slices: [{name, category, ts, dur, depth, args}], "
                   "instants: [{name, category, ts, args}]}] (slices in ts order; depth 0 = top level)",
        "counters": "[{pid, track (the counter track's name), track_uuid, key: 'value', points: [{ts, value}]}]",
        "flows": "[{id (string), from: {pid, tid, slice, ts}, to: {pid, tid, slice, ts}}] (ts = the bound slice's begin)",
        "dropped_packets": "{count, reason, trusted_packet_sequence_id, packet_offsets}",
        "skipped_unknown_packet_fields": "{count, fields: [{field, wire_type, where, packet_offset, packet}]}",
    },
    "chrome-pipeline-reporter": {
        "processes": "as track-event", "threads": "as track-event",
        "reporters": "[{pid, tid: 0, track_uuid, track_name: null, name: 'PipelineReporter', category, ts, dur, "
                     "depth: 0, state ('STATE_*'), frame_sequence, layer_tree_host_id, affects_smoothness, "
                     "args: {chrome_frame_reporter: {...as Chrome's JSON}}, stages: [{name, ts, dur, depth: 1, "
                     "children: [{name, ts, dur, depth: 2}]}]}]",
    },
    "atrace": {
        "processes": "[{pid, name}]", "threads": "as track-event (no track_uuid)",
        "async_slices": "[{pid, tid: 0, name, cookie, ts, dur, depth, args}]",
        "counters": "[{pid, track, key: 'value', points: [{ts, value}]}]",
        "skipped_ftrace_events": "{count, events: [{name, ts, cpu}]}",
    },
    "frame-timeline": {
        "processes": "[{pid, name}]",
        "expected_frame_timeline_slice": "[{ts, dur, pid, name, track, display_frame_token, surface_frame_token "
                                         "(null for display frames), layer_name (null for display frames), args}] "
                                         "in ts order (dur -1: never ended)",
        "actual_frame_timeline_slice": "the same plus present_type, on_time_finish, gpu_composition, jank_type, "
                                       "prediction_type, jank_tag, jank_severity_type (trace processor's strings)",
        "unpaired_frame_end_events": "FrameEnds whose cookie had no start",
        "source": "{repository, trace, tests, parser}: the diff test reproduced",
        "metric": "(frame-timeline-metric only) the diff test's android_frame_timeline_metric figures",
        "mappings": "the enum/bit -> string tables used",
    },
    "android-app-frames": {
        "threads": "as atrace", "frames": "[{token, display_frame_token, vsync_ts, budget_ns, deadline_ts, doFrame: "
                                          "{tid, ts, dur}, DrawFrames: {tid, ts, dur}, app_work_end_ts, "
                                          "overrun_lane ('main' | 'render' | null), jank_type, present_type, jank_tag, "
                                          "display_jank_type, cause}]",
        "lane_rule": "how overrun_lane is decided",
        "expected_frame_timeline_slice": "as frame-timeline", "actual_frame_timeline_slice": "as frame-timeline",
    },
    "android-rate-switch": {
        "app_pid": "the app's pid", "processes": "[{pid, name}]",
        "stretches": "[{start_ts, period_ns, frames}]: the display's rate in time order",
        "frame_interval_ns": "the period of the stretch with the most frames",
        "frames": "[{token, vsync_ts, period_ns (its stretch's), expected_end, actual_end, jank_type, janky, slow "
                  "(longer than period_ns), missed_vsyncs (janky: ceil((actual_end - expected_end) / period_ns), "
                  "else 0)}]",
        "expected_frame_timeline_slice": "as frame-timeline", "actual_frame_timeline_slice": "as frame-timeline",
    },
    "android-frames-stdlib": {
        "app_pid": "the app's pid (com.android.systemui)",
        "processes": "[{pid, name}]", "threads": "as atrace (the app's doFrame/DrawFrames slices; name null: "
                                                 "no process_tree name)",
        "expected_frame_timeline_slice": "as frame-timeline", "actual_frame_timeline_slice": "as frame-timeline",
        "frames": "[{frame_id, expected_start, expected_end (null: no expected surface frame), actual_start, "
                  "actual_end, overrun, app_vsync_delay, layers: [{layer_name, ts, dur, display_frame_token, "
                  "jank_type, present_type}], jank_type, present_type, jank_tag, on_time_finish, do_frame_ts, "
                  "do_frame_dur, draw_frame_dur, draw_frame_count, cpu_time}] computed from the events (see notes)",
        "android_frames_choreographer_do_frame, android_frames_draw_frame, android_frames, "
        "android_first_frame_after, android_frames_overrun, android_app_vsync_delay_per_frame, "
        "android_cpu_time_per_frame, android_frame_stats": "the diff tests' expected outputs verbatim: "
                                                            "[{column: value}] (null for [NULL]; ids are trace "
                                                            "processor's slice/thread/process ids)",
    },
    "android-frames": {
        "app_pid": "the app's pid (com.android.systemui)",
        "android_frames_get_frame_table_with_id": "the diff test's expected output verbatim: [{frame_id, name, depth}]",
    },
    "hostile": {
        "packets": "[{label, tag_offset, length_offset, payload_offset, length}] (the file's framing; offsets are "
                   "0-based bytes from the start of the file)",
        "outcome": "'error' | 'truncated' | 'loads'",
        "error": "{code (TraceReadError.Code raw value), byte_offset, message_contains, message (the whole "
                 "message, when given)} when outcome is 'error'",
        "diagnostic": "{kind (TraceDiagnostic.Kind raw value), count, byte_offset or byte_offsets, missing_bytes "
                      "(for 'truncated': the torn packet's bytes not in the file)} when the file loads",
        "expected": "what loads, in the track-event shapes",
    },
}


COMMON_SCHEMA = {
    "args": "an event's arguments as Chrome's JSON would write them (objects and arrays nested)",
    "arguments": "the same as framescope's Trace holds them, in order: [[key, value]], scalars and arrays under "
                 "their key, an object's members as 'outer.inner' one level deep (deeper values whole), as "
                 "ChromeJSONImporter reads the JSON form",
    "ts, dur": "integer nanoseconds as in the file; strings where past 2^53; dur -1: never ended",
    "track_uuid, id": "decimal strings (uint64)",
}
CASES = [
    ("track-event-basics", track_event_basics, True),
    ("chrome-pipeline-reporter", chrome_pipeline_reporter, True),
    ("atrace-android-app", atrace_android_app, True),
    ("frame-timeline-events", frame_timeline_events, True),
    ("frame-timeline-metric", frame_timeline_metric, True),
    ("frame-timeline-power-mode", frame_timeline_power_mode, True),
    ("android-app-frames", android_app_frames, True),
    ("android-rate-switch", android_rate_switch, True),
    ("android-frames-stdlib", android_frames_stdlib, True),
    ("android-doframe-depth", android_doframe_depth, True),
    ("truncated-last-packet", truncated_last_packet, False),
    ("varint-too-long", varint_too_long, False),
    ("length-beyond-file", length_beyond_file, False),
    ("first-packet-beyond-file", first_packet_beyond_file, False),
    ("last-packet-length-over-2gib", last_packet_length_over_2gib, False),
    ("deep-nesting", deep_nesting, True),
    ("undefined-iid", undefined_iid, True),
    ("huge-timestamp", huge_timestamp, True),
    ("legacy-events", legacy_events, True),
]


def generate(out_dir, quiet=False):
    os.makedirs(out_dir, exist_ok=True)
    written = []
    rows = []
    for name, build, decodes in CASES:
        data, expected = build()
        ft_events = expected.pop("_ft_events", None)
        expected = add_model_arguments({**expected, "schema": {**SCHEMAS[expected["kind"]], **COMMON_SCHEMA}})
        walk = wire_walk(data)
        if decodes:
            assert walk[0] == "ok", (name, walk)
            try:
                trace = pb.Trace.FromString(data)  # raises if the bytes are not a Trace
                status = f"decodes with perfetto_trace_pb2 ({len(trace.packet)} packets)"
            except Exception as error:
                # Only deep-nesting may get here: well-formed, but past upb's 100 nested messages.
                assert name == "deep-nesting", (name, error)
                status = f"well-formed ({walk[1]} nested messages); perfetto_trace_pb2 refuses it: {error}"
            if ft_events is not None:
                status += f", {check_frame_timeline(data, ft_events)} FrameTimeline events re-decoded"
        else:
            if expected["outcome"] == "truncated":
                want = expected["diagnostic"]
                assert walk == ("truncated", want["byte_offset"], want["missing_bytes"]), (name, walk, want)
                walk = ("torn", "truncated", walk[1], f"{walk[2]} bytes missing")
            else:
                want = expected["error"]
                assert walk[0] == "error", (name, walk)
                assert (walk[1], walk[2]) == (want["code"], want["byte_offset"]), (name, walk, want)
            try:
                pb.Trace.FromString(data)
                pb_says = "perfetto_trace_pb2 accepts it"
            except Exception as error:
                pb_says = f"perfetto_trace_pb2: {type(error).__name__}"
            status = f"broken on purpose: {walk[1]} at byte {walk[2]} ({walk[3]}); {pb_says}"
        trace_path = os.path.join(out_dir, name + ".pftrace")
        json_path = os.path.join(out_dir, name + ".expected.json")
        with open(trace_path, "wb") as handle:
            handle.write(data)
        with open(json_path, "w", encoding="utf-8") as handle:
            json.dump(expected, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
        written += [name + ".pftrace", name + ".expected.json"]
        rows.append((name + ".pftrace", len(data), status))
    if not quiet:
        width = max(len(r[0]) for r in rows)
        for file, size, status in rows:
            print(f"{file:<{width}}  {size:>6} B  {status}")
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="regenerate into a temporary folder and exit 1 if a committed file differs")
    parser.add_argument("--out", default=DEFAULT_OUT, help=f"output folder (default {DEFAULT_OUT})")
    args = parser.parse_args()
    if not args.check:
        generate(args.out)
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        written = generate(scratch, quiet=True)
        problems = []
        for file in written:
            committed = os.path.join(args.out, file)
            if not os.path.exists(committed):
                problems.append(f"missing: {committed}")
            elif not filecmp.cmp(committed, os.path.join(scratch, file), shallow=False):
                problems.append(f"differs: {committed}")
        generated = set(written)
        if os.path.isdir(args.out):
            for file in sorted(os.listdir(args.out)):
                if (file.endswith(".pftrace") or file.endswith(".expected.json")) and file not in generated:
                    problems.append(f"not generated by this script: {os.path.join(args.out, file)}")
        for problem in problems:
            print(problem)
        if problems:
            print(f"{len(problems)} fixture file(s) out of date: run python3 {GENERATOR}")
            return 1
        print(f"{len(written)} fixture files match {GENERATOR}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
