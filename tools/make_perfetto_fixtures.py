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

The fixtures are generated, never edited by hand: change this script and run it again.
"""
import argparse
import csv
import filecmp
import hashlib
import io
import json
import os
import re
import sys
import tempfile

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "Tests", "FrameTraceReaderTests", "Fixtures", "perfetto")
GENERATOR = "tools/make_perfetto_fixtures.py"

SEQ_INCREMENTAL_STATE_CLEARED = 1
SEQ_NEEDS_INCREMENTAL_STATE = 2
SLICE_BEGIN, SLICE_END, INSTANT, COUNTER = 1, 2, 3, 4

# ---------------------------------------------------------------------------------------------
# Protobuf wire format, by hand (for FrameTimeline, unknown fields and the hostile files).
# ---------------------------------------------------------------------------------------------
VARINT, FIXED64, LEN, FIXED32 = 0, 1, 2, 5


def varint(value):
    """The varint bytes of a value; negative int64 values take ten bytes (two's complement)."""
    if value < 0:
        value += 1 << 64
    assert 0 <= value < 1 << 64
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def key(field, wire_type):
    return varint((field << 3) | wire_type)


def f_varint(field, value):
    return key(field, VARINT) + varint(value)


def f_len(field, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return key(field, LEN) + varint(len(data)) + data


def f_fixed64(field, value):
    return key(field, FIXED64) + value.to_bytes(8, "little")


def f_fixed32(field, value):
    return key(field, FIXED32) + value.to_bytes(4, "little")


def u64(value):
    """A uint64 as the expected files write it: a decimal string (JSON numbers past 2^53 are lossy)."""
    return str(value)


class TraceFile:
    """A trace being assembled: each packet's bytes, framed as `Trace.packet` (field 1)."""

    def __init__(self):
        self.packets = []  # (label, bytes)

    def add(self, packet, label=None, before=b"", after=b""):
        body = packet if isinstance(packet, bytes) else packet.SerializeToString(deterministic=True)
        self.packets.append((label, before + body + after))
        return len(self.packets) - 1

    def build(self):
        """The file's bytes and, per packet, where its key, length and payload start."""
        out = bytearray()
        layout = []
        for label, body in self.packets:
            tag_offset = len(out)
            out += key(1, LEN)
            length_offset = len(out)
            out += varint(len(body))
            payload_offset = len(out)
            out += body
            layout.append({"label": label, "tag_offset": tag_offset, "length_offset": length_offset,
                           "payload_offset": payload_offset, "length": len(body)})
        return bytes(out), layout


def packet(ts=None, seq=None, flags=None, first=False):
    p = pb.TracePacket()
    if ts is not None:
        p.timestamp = ts
    if seq is not None:
        p.trusted_packet_sequence_id = seq
    if flags is not None:
        p.sequence_flags = flags
    if first:
        p.first_packet_on_sequence = True
    return p


def intern(p, names=(), categories=(), annotation_names=(), string_values=()):
    for iid, name in names:
        e = p.interned_data.event_names.add()
        e.iid, e.name = iid, name
    for iid, name in categories:
        e = p.interned_data.event_categories.add()
        e.iid, e.name = iid, name
    for iid, name in annotation_names:
        e = p.interned_data.debug_annotation_names.add()
        e.iid, e.name = iid, name
    for iid, value in string_values:
        e = p.interned_data.debug_annotation_string_values.add()
        e.iid, e.str = iid, value.encode("utf-8")


def track_event(p, type_, track, name_iid=None, name=None, category_iids=(), categories=(),
                flow_ids=(), terminating_flow_ids=()):
    e = p.track_event
    e.type = type_
    e.track_uuid = track
    if name_iid is not None:
        e.name_iid = name_iid
    if name is not None:
        e.name = name
    e.category_iids.extend(category_iids)
    e.categories.extend(categories)
    e.flow_ids.extend(flow_ids)
    e.terminating_flow_ids.extend(terminating_flow_ids)
    return e


def ann(parent, name_iid=None, name=None, **value):
    """Adds a DebugAnnotation to a repeated field; value is one of int_value, uint_value, ..."""
    a = parent.add()
    if name_iid is not None:
        a.name_iid = name_iid
    if name is not None:
        a.name = name
    for field, v in value.items():
        setattr(a, field, v)
    return a


def model_arguments(args):
    """`args` as framescope's Trace holds them, by the JSON reader's rule: scalars and arrays under
    their key; an object's members under "outer.inner" (one level: a member that is itself an
    object or array stays whole)."""
    out = []
    for k, v in args.items():
        if isinstance(v, dict):
            out += [[f"{k}.{ik}", iv] for ik, iv in v.items()]
        else:
            out.append([k, v])
    return out


def add_model_arguments(node):
    """Adds `arguments` after every event's `args` in an expected document."""
    if isinstance(node, list):
        return [add_model_arguments(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        out[k] = add_model_arguments(v)
        if k == "args" and isinstance(v, dict) and "ts" in node:
            out["arguments"] = model_arguments(v)
    return out


def file_facts(data):
    return {"file_size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


# ---------------------------------------------------------------------------------------------
# a. track-event-basics
# ---------------------------------------------------------------------------------------------
PID = 1234
MAIN_TID, WORKER_TID = 1234, 1240
PROC_UUID, MAIN_UUID, WORKER_UUID, COUNTER_UUID = 100, 101, 102, 103
FLOW_A = 1001
FLOW_B = (1 << 63) + 7  # a fixed64 flow id past Int64.max


def track_event_basics():
    t = TraceFile()
    unknown = []  # TracePacket fields of numbers Perfetto does not define, one per wire type

    # Sequence 1: the main thread's writer.
    p = packet(ts=1_000_000, seq=1, flags=SEQ_INCREMENTAL_STATE_CLEARED, first=True)
    p.track_descriptor.uuid = PROC_UUID
    p.track_descriptor.process.pid = PID
    p.track_descriptor.process.process_name = "framescope-demo"
    t.add(p, "process track")
    p = packet(ts=1_000_000, seq=1)
    p.track_descriptor.uuid = MAIN_UUID
    p.track_descriptor.parent_uuid = PROC_UUID
    p.track_descriptor.thread.pid = PID
    p.track_descriptor.thread.tid = MAIN_TID
    p.track_descriptor.thread.thread_name = "main"
    t.add(p, "main thread track")
    p = packet(ts=1_000_000, seq=1)
    p.track_descriptor.uuid = COUNTER_UUID
    p.track_descriptor.parent_uuid = PROC_UUID
    p.track_descriptor.name = "decode queue depth"
    p.track_descriptor.counter.SetInParent()
    t.add(p, "counter track")

    # frame: every scalar annotation kind; iids 1..9 name the annotations on this sequence.
    p = packet(ts=1_000_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    e = track_event(p, SLICE_BEGIN, MAIN_UUID, name_iid=1, category_iids=[1])
    ann(e.debug_annotations, name_iid=1, int_value=7)
    ann(e.debug_annotations, name_iid=2, bool_value=True)
    ann(e.debug_annotations, name_iid=3, double_value=0.5)
    ann(e.debug_annotations, name_iid=4, string_value="first")
    ann(e.debug_annotations, name_iid=5, uint_value=42)
    ann(e.debug_annotations, name_iid=6, pointer_value=0xDEADBEEF)
    ann(e.debug_annotations, name_iid=7, int_value=-3)
    ann(e.debug_annotations, name_iid=8, string_value_iid=1)
    ann(e.debug_annotations, name_iid=9, legacy_json_value='{"a":[1,2]}')
    ann(e.debug_annotations, name="plain", int_value=5)
    intern(p, names=[(1, "frame")], categories=[(1, "frame")],
           annotation_names=[(1, "index"), (2, "ok"), (3, "ratio"), (4, "label"), (5, "count"), (6, "ptr"),
                             (7, "delta"), (8, "mode"), (9, "legacy")],
           string_values=[(1, "fast")])
    t.add(p, "frame begin")

    p = packet(ts=1_000_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    p.track_event.type = COUNTER
    p.track_event.track_uuid = COUNTER_UUID
    p.track_event.counter_value = 3
    t.add(p, "counter 3 (int)")

    # layout: nested dict and array annotations; starts flow B.
    p = packet(ts=1_200_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    e = track_event(p, SLICE_BEGIN, MAIN_UUID, name_iid=2, category_iids=[2], flow_ids=[FLOW_B])
    meta = ann(e.debug_annotations, name_iid=10)
    ann(meta.dict_entries, name="width", int_value=375)
    insets = ann(meta.dict_entries, name="insets")
    ann(insets.dict_entries, name="top", int_value=20)
    ann(insets.dict_entries, name="bottom", int_value=34)
    sizes = ann(e.debug_annotations, name_iid=11)
    ann(sizes.array_values, int_value=1)
    ann(sizes.array_values, double_value=2.5)
    ann(sizes.array_values, string_value="x")
    inner = ann(sizes.array_values)
    ann(inner.dict_entries, name="k", bool_value=False)
    nested = ann(sizes.array_values)
    ann(nested.array_values, int_value=9)
    intern(p, names=[(2, "layout")], categories=[(2, "layout")], annotation_names=[(10, "meta"), (11, "sizes")])
    t.add(p, "layout begin")

    p = packet(ts=2_000_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    p.track_event.type = COUNTER
    p.track_event.track_uuid = COUNTER_UUID
    p.track_event.double_counter_value = 4.5
    # An unknown length-delimited field before every known one.
    before = f_len(5002, b"\x08\x01hello")
    index = t.add(p, "counter 4.5 (double)", before=before)
    unknown.append((index, 5002, "length-delimited", "before the packet's known fields"))

    p = packet(ts=3_000_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_END, MAIN_UUID)
    t.add(p, "layout end")

    p = packet(ts=3_500_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, INSTANT, MAIN_UUID, name="touch", categories=["input"])
    index = t.add(p, "touch instant (name and category not interned)", after=f_varint(5001, 12345))
    unknown.append((index, 5001, "varint", "after the packet's known fields"))

    p = packet(ts=5_000_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    p.track_event.type = COUNTER
    p.track_event.track_uuid = COUNTER_UUID
    p.track_event.counter_value = 0
    t.add(p, "counter 0 (int)")

    p = packet(ts=6_500_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_BEGIN, MAIN_UUID, name_iid=3, category_iids=[2], terminating_flow_ids=[FLOW_A])
    intern(p, names=[(3, "apply")])
    t.add(p, "apply begin (ends flow A)")
    p = packet(ts=7_000_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_END, MAIN_UUID)
    t.add(p, "apply end")

    # Incremental state cleared mid-sequence: iid 1 now names other strings.
    p = packet(ts=8_000_000, seq=1, flags=SEQ_INCREMENTAL_STATE_CLEARED | SEQ_NEEDS_INCREMENTAL_STATE)
    e = track_event(p, SLICE_BEGIN, MAIN_UUID, name_iid=1, category_iids=[1])
    ann(e.debug_annotations, name_iid=1, string_value="late")
    intern(p, names=[(1, "commit")], categories=[(1, "render")], annotation_names=[(1, "phase")])
    t.add(p, "commit begin (after the reset: iid 1 = commit / render / phase)")
    p = packet(ts=9_000_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_END, MAIN_UUID)
    t.add(p, "commit end")
    p = packet(ts=10_000_000, seq=1, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_END, MAIN_UUID)
    t.add(p, "frame end")

    # Sequence 2: the worker's writer; its iid 1 is "decode" / "imageDecode" / "bytes".
    p = packet(ts=500_000, seq=2, flags=SEQ_INCREMENTAL_STATE_CLEARED, first=True)
    p.track_descriptor.uuid = WORKER_UUID
    p.track_descriptor.parent_uuid = PROC_UUID
    p.track_descriptor.thread.pid = PID
    p.track_descriptor.thread.tid = WORKER_TID
    p.track_descriptor.thread.thread_name = "worker-1"
    t.add(p, "worker thread track (sequence 2)")
    p = packet(ts=500_000, seq=2, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    e = track_event(p, SLICE_BEGIN, WORKER_UUID, name_iid=1, category_iids=[1], flow_ids=[FLOW_A])
    ann(e.debug_annotations, name_iid=1, uint_value=4096)
    intern(p, names=[(1, "decode"), (2, "upload")], categories=[(1, "imageDecode")], annotation_names=[(1, "bytes")])
    t.add(p, "decode begin (starts flow A)")
    p = packet(ts=2_500_000, seq=2, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_END, WORKER_UUID)
    t.add(p, "decode end")
    p = packet(ts=3_200_000, seq=2, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_BEGIN, WORKER_UUID, name_iid=2, category_iids=[1], terminating_flow_ids=[FLOW_B])
    index = t.add(p, "upload begin (ends flow B)",
                  after=f_fixed64(5003, 0x0123456789ABCDEF) + f_fixed32(5004, 0xCAFEF00D))
    unknown.append((index, 5003, "fixed64", "after the packet's known fields"))
    unknown.append((index, 5004, "fixed32", "after the packet's known fields"))
    p = packet(ts=4_000_000, seq=2, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_END, WORKER_UUID)
    t.add(p, "upload end")

    # Sequence 3: never cleared, so both packets are dropped (Perfetto's
    # packet_skipped_seq_needs_incremental_state_invalid). Read anyway, they would add a slice at 5 ms
    # on the main thread whose name iid 1 means nothing on sequence 3.
    dropped = []
    p = packet(ts=5_000_000, seq=3, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_BEGIN, MAIN_UUID, name_iid=1, category_iids=[1])
    dropped.append(t.add(p, "dropped: begin on a sequence whose incremental state was never cleared"))
    p = packet(ts=5_500_000, seq=3, flags=SEQ_NEEDS_INCREMENTAL_STATE)
    track_event(p, SLICE_END, MAIN_UUID)
    dropped.append(t.add(p, "dropped: end on the same sequence"))

    data, layout = t.build()

    main_slices = [
        {"name": "frame", "category": "frame", "ts": 1_000_000, "dur": 9_000_000, "depth": 0,
         "args": {"index": 7, "ok": True, "ratio": 0.5, "label": "first", "count": 42, "ptr": "0xdeadbeef",
                  "delta": -3, "mode": "fast", "legacy": {"a": [1, 2]}, "plain": 5}},
        {"name": "layout", "category": "layout", "ts": 1_200_000, "dur": 1_800_000, "depth": 1,
         "args": {"meta": {"width": 375, "insets": {"top": 20, "bottom": 34}},
                  "sizes": [1, 2.5, "x", {"k": False}, [9]]}},
        {"name": "apply", "category": "layout", "ts": 6_500_000, "dur": 500_000, "depth": 1, "args": {}},
        {"name": "commit", "category": "render", "ts": 8_000_000, "dur": 1_000_000, "depth": 1,
         "args": {"phase": "late"}},
    ]
    worker_slices = [
        {"name": "decode", "category": "imageDecode", "ts": 500_000, "dur": 2_000_000, "depth": 0,
         "args": {"bytes": 4096}},
        {"name": "upload", "category": "imageDecode", "ts": 3_200_000, "dur": 800_000, "depth": 0, "args": {}},
    ]
    expected = {
        "fixture": "track-event-basics.pftrace",
        "kind": "track-event",
        "source": {"generator": GENERATOR, "case": "track_event_basics()"},
        **file_facts(data),
        "packets": len(layout),
        "processes": [{"pid": PID, "name": "framescope-demo", "track_uuid": u64(PROC_UUID)}],
        "threads": [
            {"pid": PID, "tid": MAIN_TID, "name": "main", "track_uuid": u64(MAIN_UUID), "slices": main_slices,
             "instants": [{"name": "touch", "category": "input", "ts": 3_500_000, "args": {}}]},
            {"pid": PID, "tid": WORKER_TID, "name": "worker-1", "track_uuid": u64(WORKER_UUID),
             "slices": worker_slices, "instants": []},
        ],
        "counters": [{"pid": PID, "track": "decode queue depth", "track_uuid": u64(COUNTER_UUID), "key": "value",
                      "points": [{"ts": 1_000_000, "value": 3}, {"ts": 2_000_000, "value": 4.5},
                                 {"ts": 5_000_000, "value": 0}]}],
        "flows": [
            {"id": u64(FLOW_A), "from": {"pid": PID, "tid": WORKER_TID, "slice": "decode", "ts": 500_000},
             "to": {"pid": PID, "tid": MAIN_TID, "slice": "apply", "ts": 6_500_000}},
            {"id": u64(FLOW_B), "from": {"pid": PID, "tid": MAIN_TID, "slice": "layout", "ts": 1_200_000},
             "to": {"pid": PID, "tid": WORKER_TID, "slice": "upload", "ts": 3_200_000}},
        ],
        "dropped_packets": {
            "count": len(dropped),
            "reason": "SEQ_NEEDS_INCREMENTAL_STATE on a sequence whose incremental state was never cleared",
            "trusted_packet_sequence_id": 3,
            "packet_offsets": [layout[i]["tag_offset"] for i in dropped],
        },
        "skipped_unknown_packet_fields": {
            "count": len(unknown),
            "fields": [{"field": number, "wire_type": wire, "where": where,
                        "packet_offset": layout[i]["tag_offset"], "packet": layout[i]["label"]}
                       for i, number, wire, where in unknown],
        },
        "notes": [
            "Interned iids are per sequence: iid 1 is 'frame'/'frame'/'index' on sequence 1 until its reset at "
            "8000000 ns, then 'commit'/'render'/'phase'; on sequence 2 it is 'decode'/'imageDecode'/'bytes'.",
            "Every packet writes interned_data (field 12) after track_event (field 11), as Perfetto's SDK does: "
            "a reader must take in the packet's interned_data before resolving the event's iids.",
            "TrackDescriptors are global, not per sequence: sequence 2 and 3 use tracks described on sequence 1.",
            "The file is not in time order: sequence 1's packets (1-10 ms) come before sequence 2's (0.5-4 ms); "
            "slices, flows and counters are as after sorting by timestamp (stably), as trace processor does.",
            "track_uuid and flow ids are decimal strings in every expected file (flow B's id, 2^63+7, is past "
            "Int64.max: the fixed64 flow_ids field must be read as UInt64).",
            "Annotation values: uint_value 42 and 4096 read as integers; pointer_value reads as the string "
            "'0xdeadbeef' (lower-case hex, as Chrome's JSON and trace processor show pointers); string_value_iid 1 "
            "resolves through interned debug_annotation_string_values; legacy_json_value is parsed JSON; "
            "dict_entries keep their 'name' as the key and their order; array_values become arrays.",
            "The counter's first and third values are TrackEvent.counter_value (int64), the second "
            "double_counter_value.",
            "A slice's args keep the annotations' order. Instants have no duration and no depth.",
            "The unknown fields use numbers 5001-5004, above every TracePacket field Perfetto defines (its "
            "largest, for_testing, is 900; extensions take 1000-1999).",
        ],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# b. chrome-pipeline-reporter
# ---------------------------------------------------------------------------------------------
RENDERER = 200
CR_MAIN, COMPOSITOR = 201, 207
CR_PROC_UUID, CR_MAIN_UUID, CR_COMP_UUID = 0x5A1, 0x5A2, 0x5A3
REPORTER_TRACK_1 = 0x9E3779B97F4A7C15  # perfetto::Track(id) uuids: arbitrary 64-bit values
REPORTER_TRACK_2 = 0x9E3779B97F4A7C16
CR_CATEGORIES = ["cc", "benchmark", "disabled-by-default-devtools.timeline.frame"]
STAGE_NAMES = ["BeginImplFrameToSendBeginMainFrame", "SendBeginMainFrameToCommit", "Commit",
               "EndCommitToActivation", "Activation", "EndActivateToSubmitCompositorFrame",
               "SubmitCompositorFrameToPresentationCompositorFrame", "ReceivedCompositorFrameToStartDraw",
               "StartDrawToSwapStart", "Swap", "SwapEndToPresentationCompositorFrame"]
STATE_NAMES = {v.number: v.name for v in pb.ChromeFrameReporter.State.DESCRIPTOR.values}
SCROLL_NAMES = {v.number: v.name for v in pb.ChromeFrameReporter.ScrollState.DESCRIPTOR.values}
MS = 1_000_000


def chrome_pipeline_reporter():
    t = TraceFile()
    seq = 5
    p = packet(ts=2_000_000_000, seq=seq, flags=SEQ_INCREMENTAL_STATE_CLEARED, first=True)
    p.track_descriptor.uuid = CR_PROC_UUID
    p.track_descriptor.process.pid = RENDERER
    p.track_descriptor.process.process_name = "Renderer"
    t.add(p, "renderer process track")
    for uuid, tid, name in [(CR_MAIN_UUID, CR_MAIN, "CrRendererMain"), (CR_COMP_UUID, COMPOSITOR, "Compositor")]:
        p = packet(ts=2_000_000_000, seq=seq)
        p.track_descriptor.uuid = uuid
        p.track_descriptor.parent_uuid = CR_PROC_UUID
        p.track_descriptor.thread.pid = RENDERER
        p.track_descriptor.thread.tid = tid
        p.track_descriptor.thread.thread_name = name
        t.add(p, name + " thread track")
    # Chrome's perfetto::Track(id): uuid and parent_uuid only, no name.
    for uuid in (REPORTER_TRACK_1, REPORTER_TRACK_2):
        p = packet(ts=2_000_000_000, seq=seq)
        p.track_descriptor.uuid = uuid
        p.track_descriptor.parent_uuid = CR_PROC_UUID
        t.add(p, "PipelineReporter track (unnamed)")

    interned = {}  # name -> iid, assigned at first use, as the SDK does

    def name_iid(p, name):
        if name not in interned:
            interned[name] = len(interned) + 1
            intern(p, names=[(interned[name], name)])
        return interned[name]

    categories_interned = [False]

    def cat_iids(p):
        if not categories_interned[0]:
            intern(p, categories=[(i + 1, c) for i, c in enumerate(CR_CATEGORIES)])
            categories_interned[0] = True
        return [1, 2, 3]

    def begin(ts, track, name, reporter=None, cats=True):
        p = packet(ts=ts, seq=seq, flags=SEQ_NEEDS_INCREMENTAL_STATE)
        e = track_event(p, SLICE_BEGIN, track, name_iid=name_iid(p, name), category_iids=cat_iids(p) if cats else [])
        if reporter:
            r = e.chrome_frame_reporter
            r.state = reporter["state"]
            r.frame_source = reporter["frame_source"]
            r.frame_sequence = reporter["frame_sequence"]
            r.affects_smoothness = reporter["affects_smoothness"]
            r.scroll_state = reporter["scroll_state"]
            r.layer_tree_host_id = reporter["layer_tree_host_id"]
        t.add(p, name + " begin")

    def end(ts, track, label):
        p = packet(ts=ts, seq=seq, flags=SEQ_NEEDS_INCREMENTAL_STATE)
        track_event(p, SLICE_END, track)
        t.add(p, label + " end")

    # (track, start, dur, reporter fields, stages as (name, start, dur, children))
    base = 2_000_000_000
    reporters = [
        (REPORTER_TRACK_1, base, 30 * MS,
         {"state": 1, "frame_source": 4294967296, "frame_sequence": 501, "affects_smoothness": False,
          "scroll_state": 0, "layer_tree_host_id": 1},
         [("BeginImplFrameToSendBeginMainFrame", 0, 500_000, []),
          ("SendBeginMainFrameToCommit", 500_000, 8_500_000, []),
          ("Commit", 9 * MS, 1 * MS, []),
          ("EndCommitToActivation", 10 * MS, 3 * MS, []),
          ("Activation", 13 * MS, 1 * MS, []),
          ("EndActivateToSubmitCompositorFrame", 14 * MS, 2 * MS, []),
          ("SubmitCompositorFrameToPresentationCompositorFrame", 16 * MS, 14 * MS,
           [("ReceivedCompositorFrameToStartDraw", 16 * MS, 2 * MS), ("StartDrawToSwapStart", 18 * MS, 2 * MS),
            ("Swap", 20 * MS, 2 * MS), ("SwapEndToPresentationCompositorFrame", 22 * MS, 8 * MS)])]),
        (REPORTER_TRACK_2, base + 16_666_667, 33_333_333,
         {"state": 3, "frame_source": 4294967296, "frame_sequence": 502, "affects_smoothness": True,
          "scroll_state": 0, "layer_tree_host_id": 1},
         [("BeginImplFrameToSendBeginMainFrame", 0, 400_000, []),
          ("SendBeginMainFrameToCommit", 400_000, 24_600_000, []),
          ("Commit", 25 * MS, 1 * MS, []),
          ("EndCommitToActivation", 26 * MS, 2 * MS, [])]),
        # The first reporter's object reused: the same track uuid, later.
        (REPORTER_TRACK_1, base + 50 * MS, 1 * MS,
         {"state": 0, "frame_source": 4294967296, "frame_sequence": 503, "affects_smoothness": False,
          "scroll_state": 0, "layer_tree_host_id": 1},
         [("BeginImplFrameToSendBeginMainFrame", 0, 600_000, [])]),
    ]

    # Thread slices around them (Chrome writes the reporters later, at frame termination; the
    # file's order does not matter to a reader that sorts).
    def thread_slice(track, name, ts, dur):
        begin(ts, track, name, cats=False)
        end(ts + dur, track, name)
    thread_slice(CR_COMP_UUID, "ProxyImpl::ScheduledActionDraw", base + 15 * MS, 800_000)
    thread_slice(CR_MAIN_UUID, "ThreadProxy::BeginMainFrame", base + 16_666_667 + 500_000, 24_000_000)

    expected_reporters = []
    for track, start, dur, fields, stages in reporters:
        begin(start, track, "PipelineReporter", reporter=fields)
        expected_stages = []
        for name, s_start, s_dur, children in stages:
            begin(start + s_start, track, name)
            expected_children = []
            for c_name, c_start, c_dur in children:
                begin(start + c_start, track, c_name)
                end(start + c_start + c_dur, track, c_name)
                expected_children.append({"name": c_name, "ts": start + c_start, "dur": c_dur, "depth": 2})
            end(start + s_start + s_dur, track, name)
            expected_stages.append({"name": name, "ts": start + s_start, "dur": s_dur, "depth": 1,
                                    "children": expected_children})
        end(start + dur, track, "PipelineReporter")
        chrome_json = {"state": STATE_NAMES[fields["state"]], "frame_source": fields["frame_source"],
                       "frame_sequence": fields["frame_sequence"], "affects_smoothness": fields["affects_smoothness"],
                       "scroll_state": SCROLL_NAMES[fields["scroll_state"]],
                       "layer_tree_host_id": fields["layer_tree_host_id"]}
        expected_reporters.append({
            "pid": RENDERER, "tid": 0, "track_uuid": u64(track), "track_name": None,
            "name": "PipelineReporter", "category": ",".join(CR_CATEGORIES), "ts": start, "dur": dur, "depth": 0,
            "state": chrome_json["state"], "frame_sequence": fields["frame_sequence"],
            "layer_tree_host_id": fields["layer_tree_host_id"], "affects_smoothness": fields["affects_smoothness"],
            "args": {"chrome_frame_reporter": chrome_json},
            "stages": expected_stages,
        })
    data, layout = t.build()
    expected = {
        "fixture": "chrome-pipeline-reporter.pftrace",
        "kind": "chrome-pipeline-reporter",
        "source": {"generator": GENERATOR, "case": "chrome_pipeline_reporter()",
                   "chrome": "cc/metrics/compositor_frame_reporter.cc ReportCompositorLatencyTraceEvents: "
                             "TRACE_EVENT_BEGIN(\"cc,benchmark,disabled-by-default-devtools.timeline.frame\", "
                             "\"PipelineReporter\", perfetto::Track(id), ...) with set_chrome_frame_reporter(), then "
                             "one BEGIN/END per stage (and the viz breakdown under "
                             "SubmitCompositorFrameToPresentationCompositorFrame) on the same track"},
        **file_facts(data),
        "packets": len(layout),
        "processes": [{"pid": RENDERER, "name": "Renderer", "track_uuid": u64(CR_PROC_UUID)}],
        "threads": [
            {"pid": RENDERER, "tid": CR_MAIN, "name": "CrRendererMain", "track_uuid": u64(CR_MAIN_UUID),
             "slices": [{"name": "ThreadProxy::BeginMainFrame", "category": "", "ts": base + 16_666_667 + 500_000,
                         "dur": 24_000_000, "depth": 0, "args": {}}], "instants": []},
            {"pid": RENDERER, "tid": COMPOSITOR, "name": "Compositor", "track_uuid": u64(CR_COMP_UUID),
             "slices": [{"name": "ProxyImpl::ScheduledActionDraw", "category": "", "ts": base + 15 * MS,
                         "dur": 800_000, "depth": 0, "args": {}}], "instants": []},
        ],
        "reporters": expected_reporters,
        "notes": [
            "Chrome names no PipelineReporter track: each reporter gets perfetto::Track(GetNextGlobalTraceId()) "
            "(older Chrome: perfetto::Track(this), so a reused reporter object reuses the uuid), a TrackDescriptor "
            "with uuid and parent_uuid (the process track) only. Trace processor leaves the track name NULL; its UI "
            "labels the track by the slices. Here reporters 501 and 503 share one track, 502 has its own.",
            "The reporter and its stages are async slices of the renderer process: thread (200, 0). In "
            "framescope's mapping each top-level slice on a track gets a fresh async id (501 and 503 differ "
            "although they share a track); its stages share it.",
            "Categories: the PipelineReporter and stage events carry three category_iids; the category string is "
            "them joined with ',' in order (as trace processor joins them), which is the string Chrome's JSON "
            "writes. The two thread slices carry no category (empty string).",
            "args.chrome_frame_reporter is the typed TrackEvent.chrome_frame_reporter (field 32) as Chrome's JSON "
            "writes it: proto field names, enum values by name (STATE_*, SCROLL_*), set fields only, in field-number "
            "order. Trace processor flattens the same to args 'chrome_frame_reporter.state' = 'STATE_DROPPED' etc.",
            "Packets are in the order Chrome writes them (a reporter, then its stages, after the frame ends), so "
            "the thread slices come first in the file though they start later.",
        ],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# c. atrace-android-app
# ---------------------------------------------------------------------------------------------
APP_PID, APP_RT = 5000, 5010


def atrace_android_app():
    t = TraceFile()
    p = packet(ts=100_000, seq=7)
    proc = p.process_tree.processes.add()
    proc.pid, proc.ppid = APP_PID, 1
    proc.cmdline.append("com.example.app")
    for tid, name in [(APP_PID, "com.example.app"), (APP_RT, "RenderThread")]:
        th = p.process_tree.threads.add()
        th.tid, th.tgid, th.name = tid, APP_PID, name
    t.add(p, "process_tree")

    def bundle(cpu, events, label):
        p = packet(seq=7)
        p.ftrace_events.cpu = cpu
        for ts, tid, what in events:
            ev = p.ftrace_events.event.add()
            ev.timestamp, ev.pid = ts, tid
            if isinstance(what, str):
                getattr(ev, "print").buf = what
            else:
                ss = ev.sched_switch
                for k, v in what.items():
                    setattr(ss, k, v)
        t.add(p, label)

    bundle(0, [
        (500_000, APP_PID, "S|5000|launch|7\n"),
        (900_000, 0, {"prev_comm": "swapper/0", "prev_pid": 0, "prev_prio": 120, "prev_state": 0,
                      "next_comm": "com.example.app", "next_pid": APP_PID, "next_prio": 110}),
        (1_000_000, APP_PID, "B|5000|Choreographer#doFrame 1001\n"),
        (1_500_000, APP_PID, "B|5000|traversal\n"),
        (2_000_000, APP_PID, "I|5000|input-received\n"),
        (4_000_000, APP_PID, "E|5000\n"),
        (6_000_000, APP_PID, "E|5000\n"),
        (7_000_000, APP_PID, "C|5000|pending-frames|42\n"),
        (13_000_000, APP_PID, "F|5000|launch|7\n"),
    ], "ftrace cpu 0 (UI thread)")
    bundle(1, [
        (6_500_000, APP_RT, "B|5000|DrawFrames 1001\n"),
        (12_000_000, APP_RT, "E|5000\n"),
    ], "ftrace cpu 1 (RenderThread)")
    data, layout = t.build()
    expected = {
        "fixture": "atrace-android-app.pftrace",
        "kind": "atrace",
        "source": {"generator": GENERATOR, "case": "atrace_android_app()"},
        **file_facts(data),
        "packets": len(layout),
        "processes": [{"pid": APP_PID, "name": "com.example.app"}],
        "threads": [
            {"pid": APP_PID, "tid": APP_PID, "name": "com.example.app",
             "slices": [{"name": "Choreographer#doFrame 1001", "category": "", "ts": 1_000_000, "dur": 5_000_000,
                         "depth": 0, "args": {}},
                        {"name": "traversal", "category": "", "ts": 1_500_000, "dur": 2_500_000, "depth": 1,
                         "args": {}}],
             "instants": [{"name": "input-received", "category": "", "ts": 2_000_000, "args": {}}]},
            {"pid": APP_PID, "tid": APP_RT, "name": "RenderThread",
             "slices": [{"name": "DrawFrames 1001", "category": "", "ts": 6_500_000, "dur": 5_500_000, "depth": 0,
                         "args": {}}],
             "instants": []},
        ],
        "async_slices": [{"pid": APP_PID, "tid": 0, "name": "launch", "cookie": 7, "ts": 500_000, "dur": 12_500_000,
                          "depth": 0, "args": {}}],
        "counters": [{"pid": APP_PID, "track": "pending-frames", "key": "value",
                      "points": [{"ts": 7_000_000, "value": 42}]}],
        "skipped_ftrace_events": {"count": 1, "events": [{"name": "sched_switch", "ts": 900_000, "cpu": 0}]},
        "notes": [
            "Each print buffer ends with '\\n', as the kernel's trace_marker writes it; names exclude it (trace "
            "processor strips trailing '\\n' and '\\0').",
            "The thread of B/E/I is the ftrace event's pid (a tid); the process is the tgid in the text. "
            "'E|5000' closes the innermost open slice of that thread.",
            "S/F pair by (tgid, name, cookie) into one async slice of the process (thread (5000, 0)); C is a counter "
            "of the process named by its text.",
            "Process and thread names come from process_tree: the process's cmdline[0], the threads' name.",
        ],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# d. FrameTimeline: encoding, a port of trace processor's parser, and the diff tests' cases
# ---------------------------------------------------------------------------------------------
FT_FIELD = 76
# FrameTimelineEvent oneof and message field numbers (frame_timeline_event.proto).
EDS, ADS, ESS, ASS, FEND = 1, 2, 3, 4, 5
FT_FIELDS = {
    EDS: [("cookie", 1), ("token", 2), ("pid", 3)],
    ADS: [("cookie", 1), ("token", 2), ("pid", 3), ("present_type", 4), ("on_time_finish", 5),
          ("gpu_composition", 6), ("jank_type", 7), ("prediction_type", 8), ("jank_severity_type", 9)],
    ESS: [("cookie", 1), ("token", 2), ("display_frame_token", 3), ("pid", 4), ("layer_name", 5)],
    ASS: [("cookie", 1), ("token", 2), ("display_frame_token", 3), ("pid", 4), ("layer_name", 5),
          ("present_type", 6), ("on_time_finish", 7), ("gpu_composition", 8), ("jank_type", 9),
          ("prediction_type", 10), ("is_buffer", 11), ("jank_severity_type", 12)],
    FEND: [("cookie", 1)],
}
FT_KIND_NAMES = {EDS: "expected_display_frame_start", ADS: "actual_display_frame_start",
                 ESS: "expected_surface_frame_start", ASS: "actual_surface_frame_start", FEND: "frame_end"}

# JankType bits, in the order trace processor lists them in the string.
JANK_NONE, JANK_UNSPECIFIED = 1, 0
JANK_SF_SCHEDULING, JANK_PREDICTION_ERROR, JANK_DISPLAY_HAL = 2, 4, 8
JANK_SF_CPU_DEADLINE_MISSED, JANK_SF_GPU_DEADLINE_MISSED, JANK_APP_DEADLINE_MISSED = 16, 32, 64
JANK_BUFFER_STUFFING, JANK_UNKNOWN, JANK_SF_STUFFING, JANK_DROPPED = 128, 256, 512, 1024
JANK_NON_ANIMATING, JANK_APP_RESYNCED_JITTER, JANK_DISPLAY_NOT_ON = 2048, 4096, 8192
JANK_MODE_CHANGE, JANK_POWER_MODE_CHANGE = 16384, 32768
JANK_BIT_STRINGS = [
    (JANK_SF_SCHEDULING, "SurfaceFlinger Scheduling"), (JANK_PREDICTION_ERROR, "Prediction Error"),
    (JANK_DISPLAY_HAL, "Display HAL"), (JANK_SF_CPU_DEADLINE_MISSED, "SurfaceFlinger CPU Deadline Missed"),
    (JANK_SF_GPU_DEADLINE_MISSED, "SurfaceFlinger GPU Deadline Missed"),
    (JANK_APP_DEADLINE_MISSED, "App Deadline Missed"), (JANK_APP_RESYNCED_JITTER, "App Resynced Jitter"),
    (JANK_BUFFER_STUFFING, "Buffer Stuffing"), (JANK_UNKNOWN, "Unknown Jank"),
    (JANK_SF_STUFFING, "SurfaceFlinger Stuffing"), (JANK_DROPPED, "Dropped Frame"),
    (JANK_NON_ANIMATING, "Non Animating"), (JANK_DISPLAY_NOT_ON, "Display not ON"),
    # Not in the stored parser: named as SurfaceFlinger's FrameTimeline and Perfetto's UI name them, last.
    (JANK_MODE_CHANGE, "ModeChange in progress"), (JANK_POWER_MODE_CHANGE, "PowerModeChange in progress"),
]
PRESENT_UNSPECIFIED, PRESENT_ON_TIME, PRESENT_LATE, PRESENT_EARLY, PRESENT_DROPPED, PRESENT_UNKNOWN = range(6)
PRESENT_STRINGS = ["Unspecified Present", "On-time Present", "Late Present", "Early Present", "Dropped Frame",
                   "Unknown Present"]
PREDICTION_UNSPECIFIED, PREDICTION_VALID, PREDICTION_EXPIRED, PREDICTION_UNKNOWN = range(4)
PREDICTION_STRINGS = ["Unspecified Prediction", "Valid Prediction", "Expired Prediction", "Unknown Prediction"]
SEVERITY_UNKNOWN, SEVERITY_NONE, SEVERITY_PARTIAL, SEVERITY_FULL = range(4)
SEVERITY_STRINGS = ["Unknown", "None", "Partial", "Full"]

MAPPINGS = {
    "jank_type": {"0 (JANK_UNSPECIFIED, whole value)": "Unspecified", "1 (JANK_NONE, whole value)": "None",
                  **{f"{bit}": s for bit, s in JANK_BIT_STRINGS},
                  "several bits": "the strings of the set bits in the order above, joined with ', '"},
    "present_type": {str(i): s for i, s in enumerate(PRESENT_STRINGS)},
    "present_type_note": "absent or outside 1...5: 'Unspecified Present'",
    "prediction_type": {str(i): s for i, s in enumerate(PREDICTION_STRINGS)},
    "prediction_type_note": "absent or outside 1...3: 'Unspecified Prediction'",
    "jank_severity_type": {str(i): s for i, s in enumerate(SEVERITY_STRINGS)},
    "jank_severity_type_note": "absent: 'None' if jank_type == 1 (JANK_NONE) else 'Unknown'",
}


class FTEvent:
    """One FrameTimelineEvent packet: its timestamp, oneof kind and the fields it sets."""

    def __init__(self, ts, kind, **fields):
        self.ts, self.kind, self.fields = ts, kind, fields

    def encode(self):
        numbers = dict(FT_FIELDS[self.kind])
        body = b""
        for name, number in FT_FIELDS[self.kind]:  # field-number order, as protobuf serializers write
            if name not in self.fields:
                continue
            value = self.fields[name]
            body += f_len(number, value) if name == "layer_name" else f_varint(number, int(value))
        assert set(self.fields) <= set(numbers), self.fields
        return f_len(FT_FIELD, f_len(self.kind, body))


class FTTrace:
    """The same calls as Perfetto's test/synth_common.py, with the same field presence."""

    def __init__(self):
        self.events = []

    def expected_display(self, ts, cookie, token, pid):
        self.events.append(FTEvent(ts, EDS, cookie=cookie, token=token, pid=pid))

    def actual_display(self, ts, cookie, token, pid, present_type, on_time_finish, gpu_composition, jank_type,
                       prediction_type, jank_severity_type=None):
        f = dict(cookie=cookie, token=token, pid=pid, present_type=present_type, on_time_finish=on_time_finish,
                 gpu_composition=gpu_composition, jank_type=jank_type, prediction_type=prediction_type)
        if jank_severity_type is not None:
            f["jank_severity_type"] = jank_severity_type
        self.events.append(FTEvent(ts, ADS, **f))

    def expected_surface(self, ts, cookie, token, display_frame_token, pid, layer_name):
        self.events.append(FTEvent(ts, ESS, cookie=cookie, token=token, display_frame_token=display_frame_token,
                                   pid=pid, layer_name=layer_name))

    def actual_surface(self, ts, cookie, token, display_frame_token, pid, layer_name, present_type, on_time_finish,
                       gpu_composition, jank_type, prediction_type, jank_severity_type=None):
        # synth_common always sets jank_severity_type on surface frames: 1 (None) for JANK_NONE, else 0.
        if jank_severity_type is None:
            jank_severity_type = SEVERITY_NONE if jank_type == JANK_NONE else SEVERITY_UNKNOWN
        self.events.append(FTEvent(ts, ASS, cookie=cookie, token=token, display_frame_token=display_frame_token,
                                   pid=pid, layer_name=layer_name, present_type=present_type,
                                   on_time_finish=on_time_finish, gpu_composition=gpu_composition,
                                   jank_type=jank_type, prediction_type=prediction_type,
                                   jank_severity_type=jank_severity_type))

    def frame_end(self, ts, cookie):
        self.events.append(FTEvent(ts, FEND, cookie=cookie))


def jank_string(jank):
    if jank == JANK_UNSPECIFIED:
        return "Unspecified"
    if jank == JANK_NONE:
        return "None"
    return ", ".join(s for bit, s in JANK_BIT_STRINGS if jank & bit)


NON_PERCEIVABLE = JANK_NON_ANIMATING | JANK_DISPLAY_NOT_ON | JANK_MODE_CHANGE | JANK_POWER_MODE_CHANGE


def non_perceivable(jank):
    """Only bits nobody could see (not animating, display off, a mode or power-mode change), at least one: the
    newest trace processor's 'Non-perceivable Jank' tag, and no jank."""
    return bool(jank & NON_PERCEIVABLE) and not (jank & ~(NON_PERCEIVABLE | JANK_NONE))


def display_janky(jank):
    if jank in (JANK_UNSPECIFIED, JANK_NONE) or non_perceivable(jank):
        return False
    return bool(jank & (JANK_SF_SCHEDULING | JANK_PREDICTION_ERROR | JANK_DISPLAY_HAL | JANK_SF_CPU_DEADLINE_MISSED
                        | JANK_SF_GPU_DEADLINE_MISSED))


def surface_janky(jank):
    if jank in (JANK_UNSPECIFIED, JANK_NONE) or non_perceivable(jank):
        return False
    return bool(jank & (JANK_APP_DEADLINE_MISSED | JANK_APP_RESYNCED_JITTER | JANK_UNKNOWN))


def display_jank_tag(jank):
    if jank == JANK_UNSPECIFIED:
        return "Unspecified"
    if display_janky(jank):
        return "Self Jank"
    if jank in (JANK_SF_STUFFING, JANK_DROPPED):
        return {JANK_SF_STUFFING: "SurfaceFlinger Stuffing", JANK_DROPPED: "Dropped Frame"}[jank]
    return "Non-perceivable Jank" if non_perceivable(jank) else "No Jank"


def surface_jank_tag(jank, present):
    if jank == JANK_UNSPECIFIED:
        return "Unspecified"
    if surface_janky(jank):
        return "Self Jank"
    if display_janky(jank):
        return "Other Jank"
    if jank == JANK_BUFFER_STUFFING:
        return "Buffer Stuffing"
    if present == PRESENT_DROPPED:
        return "Dropped Frame"
    return "Non-perceivable Jank" if non_perceivable(jank) else "No Jank"


def trace_processor_rows(events):
    """A port of trace processor's FrameTimelineEventParser (and the sorter in front of it):
    the expected_frame_timeline_slice and actual_frame_timeline_slice rows, in ts order (ties in the
    order the slices were created)."""
    ordered = sorted(enumerate(events), key=lambda pair: (pair[1].ts, pair[0]))  # stable by file order
    slices = []
    cookie_map = {}  # cookie -> open slice (or None: an expected surface frame dropped as a duplicate)
    expected_tokens = set()  # (pid, surface token)
    unpaired_ends = 0
    for _, e in ordered:
        f = e.fields
        if e.kind == FEND:
            if f["cookie"] not in cookie_map:
                unpaired_ends += 1
                continue
            s = cookie_map.pop(f["cookie"])
            if s is not None:
                s["dur"] = e.ts - s["ts"]
            continue
        cookie = f["cookie"]
        if e.kind == ESS:
            cookie_map[cookie] = None
            if (f["pid"], f["token"]) in expected_tokens:
                continue
            expected_tokens.add((f["pid"], f["token"]))
        row = {"table": "expected" if e.kind in (EDS, ESS) else "actual", "ts": e.ts, "dur": -1, "pid": f["pid"],
               "name": str(f["token"]),
               "track": "Expected Timeline" if e.kind in (EDS, ESS) else "Actual Timeline"}
        if e.kind in (EDS, ADS):
            row.update(display_frame_token=f["token"], surface_frame_token=None, layer_name=None)
        else:
            row.update(display_frame_token=f["display_frame_token"], surface_frame_token=f["token"],
                       layer_name=f.get("layer_name"))
        if e.kind in (ADS, ASS):
            jank = f.get("jank_type", 0)
            present = f.get("present_type")
            valid_present = present is not None and 1 <= present <= 5
            prediction = f.get("prediction_type")
            severity = f.get("jank_severity_type")
            row.update(
                present_type=PRESENT_STRINGS[present] if valid_present else PRESENT_STRINGS[0],
                on_time_finish=int(f.get("on_time_finish", 0)),
                gpu_composition=int(f.get("gpu_composition", 0)),
                jank_type=jank_string(jank),
                prediction_type=PREDICTION_STRINGS[prediction] if prediction is not None and 1 <= prediction <= 3
                else PREDICTION_STRINGS[0],
                jank_tag=(display_jank_tag(jank) if e.kind == ADS
                          else surface_jank_tag(jank, present if valid_present else None)),
                jank_severity_type=SEVERITY_STRINGS[severity] if severity is not None
                else ("None" if jank == JANK_NONE else "Unknown"))
        # The args trace processor attaches (its current parser; experimental ones left out).
        args = {}
        if e.kind in (ASS, ESS):
            args["Surface frame token"] = f["token"]
        args["Display frame token"] = row["display_frame_token"]
        if e.kind in (ASS, ESS):
            args["Layer name"] = row["layer_name"]
        if e.kind in (ADS, ASS):
            args.update({"Present type": row["present_type"], "On time finish": row["on_time_finish"],
                         "GPU composition": row["gpu_composition"], "Jank type": row["jank_type"],
                         "Jank severity type": row["jank_severity_type"], "Prediction type": row["prediction_type"],
                         "Jank tag": row["jank_tag"]})
        if e.kind == ASS:
            args["Is Buffer?"] = "Unspecified" if "is_buffer" not in f else ("Yes" if f["is_buffer"] else "No")
        row["args"] = args
        slices.append(row)
        cookie_map[cookie] = row
    slices.sort(key=lambda r: r["ts"])  # stable: ties keep creation order, as ORDER BY ts does here
    expected = [{k: v for k, v in r.items() if k != "table"} for r in slices if r["table"] == "expected"]
    actual = [{k: v for k, v in r.items() if k != "table"} for r in slices if r["table"] == "actual"]
    return expected, actual, unpaired_ends


def frame_timeline_packets(t, events):
    """Each event as a packet: TracePacket.timestamp (pb2) followed by the raw field 76."""
    for e in events:
        p = packet(ts=e.ts)
        t.add(p, FT_KIND_NAMES[e.kind] + f" cookie {e.fields['cookie']}", after=e.encode())


def process_tree_packet(t, ts, processes, threads=()):
    """processes: (pid, ppid, cmdline) or (pid, ppid, cmdline, uid); threads: (tid, tgid, name)."""
    p = packet(ts=ts)
    for pid, ppid, cmdline, *uid in processes:
        proc = p.process_tree.processes.add()
        proc.pid, proc.ppid = pid, ppid
        proc.cmdline.append(cmdline)
        if uid:
            proc.uid = uid[0]
    for tid, tgid, name in threads:
        th = p.process_tree.threads.add()
        th.tid, th.tgid, th.name = tid, tgid, name
    t.add(p, "process_tree")


ROW_COLUMNS_EXPECTED = ["ts", "dur", "pid", "display_frame_token", "surface_frame_token", "layer_name"]
ROW_COLUMNS_ACTUAL = ROW_COLUMNS_EXPECTED + ["present_type", "on_time_finish", "gpu_composition", "jank_type",
                                             "prediction_type", "jank_tag", "jank_severity_type"]

# The rows test/trace_processor/diff_tests/parser/graphics/tests.py expects (GraphicsParser,
# test_expected_frame_timeline_events and test_actual_frame_timeline_events), column for column.
DIFF_TEST_EXPECTED_ROWS = [
    (20, 6, 666, 2, None, None), (21, 15, 1000, 4, 1, "Layer1"), (40, 6, 666, 4, None, None),
    (41, 15, 1000, 6, 5, "Layer1"), (80, 6, 666, 6, None, None), (90, 16, 1000, 8, 7, "Layer1"),
    (120, 6, 666, 8, None, None), (140, 6, 666, 12, None, None), (150, 20, 1000, 15, 14, "Layer1"),
    (170, 6, 666, 15, None, None), (200, 6, 666, 17, None, None), (220, -1, 666, 18, None, None),
    (220, 10, 666, 18, None, None),
]
OTP, LP, EP, UP, DF = "On-time Present", "Late Present", "Early Present", "Unknown Present", "Dropped Frame"
VP = "Valid Prediction"
DIFF_TEST_ACTUAL_ROWS = [
    (20, 6, 666, 2, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (21, 16, 1000, 4, 1, "Layer1", OTP, 1, 0, "None", VP, "No Jank", "None"),
    (41, 33, 1000, 6, 5, "Layer1", LP, 0, 0, "App Deadline Missed", VP, "Self Jank", "Full"),
    (42, 5, 666, 4, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (80, 110, 1000, 17, 16, "Layer1", UP, 0, 0, "Unknown Jank", "Expired Prediction", "Self Jank", "Partial"),
    (81, 7, 666, 6, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (90, 16, 1000, 8, 7, "Layer1", EP, 1, 0, "SurfaceFlinger Scheduling", VP, "Other Jank", "Unknown"),
    (108, 4, 666, 8, None, None, EP, 1, 0, "SurfaceFlinger Scheduling", VP, "Self Jank", "Unknown"),
    (148, 8, 666, 12, None, None, LP, 0, 0, "SurfaceFlinger Scheduling, SurfaceFlinger CPU Deadline Missed", VP,
     "Self Jank", "Unknown"),
    (150, 17, 1000, 15, 14, "Layer1", OTP, 1, 0, "None", VP, "No Jank", "None"),
    (150, 17, 1000, 15, 14, "Layer2", OTP, 1, 0, "None", VP, "No Jank", "None"),
    (170, 6, 666, 15, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (200, 6, 666, 17, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (245, -1, 666, 18, None, None, LP, 0, 0, "SurfaceFlinger Stuffing", VP, "SurfaceFlinger Stuffing", "Unknown"),
    (245, 15, 666, 18, None, None, DF, 0, 0, "Dropped Frame", "Unspecified Prediction", "Dropped Frame", "Unknown"),
]


def frame_timeline_events_case():
    """test/trace_processor/diff_tests/parser/graphics/frame_timeline_events.py, call for call."""
    ft = FTTrace()
    V, L, E, D, U = PRESENT_ON_TIME, PRESENT_LATE, PRESENT_EARLY, PRESENT_DROPPED, PRESENT_UNKNOWN
    # DisplayFrame without a SurfaceFrame
    ft.expected_display(20, 1, 2, 666)
    ft.frame_end(26, 1)
    ft.actual_display(20, 2, 2, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(26, 2)
    # DisplayFrame with a SurfaceFrame
    ft.expected_display(40, 3, 4, 666)
    ft.frame_end(46, 3)
    ft.actual_display(42, 4, 4, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(47, 4)
    ft.expected_surface(21, 5, 1, 4, 1000, "Layer1")
    ft.frame_end(36, 5)
    ft.actual_surface(21, 6, 1, 4, 1000, "Layer1", V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(37, 6)
    # DisplayFrame with a janky SurfaceFrame
    ft.expected_display(80, 7, 6, 666)
    ft.frame_end(86, 7)
    ft.actual_display(81, 8, 6, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(88, 8)
    ft.expected_surface(41, 9, 5, 6, 1000, "Layer1")
    ft.frame_end(56, 9)
    ft.actual_surface(41, 10, 5, 6, 1000, "Layer1", L, 0, 0, JANK_APP_DEADLINE_MISSED, PREDICTION_VALID,
                      jank_severity_type=SEVERITY_FULL)
    ft.frame_end(74, 10)
    # Janky DisplayFrame with a SurfaceFrame
    ft.expected_display(120, 11, 8, 666)
    ft.frame_end(126, 11)
    ft.actual_display(108, 12, 8, 666, E, 1, 0, JANK_SF_SCHEDULING, PREDICTION_VALID)
    ft.frame_end(112, 12)
    ft.expected_surface(90, 13, 7, 8, 1000, "Layer1")
    ft.frame_end(106, 13)
    ft.actual_surface(90, 14, 7, 8, 1000, "Layer1", E, 1, 0, JANK_SF_SCHEDULING, PREDICTION_VALID)
    ft.frame_end(106, 14)
    # DisplayFrame with multiple jank reasons
    ft.expected_display(140, 15, 12, 666)
    ft.frame_end(146, 15)
    ft.actual_display(148, 16, 12, 666, L, 0, 0, JANK_SF_CPU_DEADLINE_MISSED | JANK_SF_SCHEDULING,
                      PREDICTION_VALID)
    ft.frame_end(156, 16)
    # Two SurfaceFrames with same token
    ft.expected_display(170, 17, 15, 666)
    ft.frame_end(176, 17)
    ft.actual_display(170, 18, 15, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(176, 18)
    ft.expected_surface(150, 19, 14, 15, 1000, "Layer1")
    ft.frame_end(170, 19)
    ft.actual_surface(150, 20, 14, 15, 1000, "Layer1", V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(167, 20)
    ft.expected_surface(150, 21, 14, 15, 1000, "Layer2")
    ft.frame_end(170, 21)
    ft.actual_surface(150, 22, 14, 15, 1000, "Layer2", V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(167, 22)
    # SurfaceFrame with prediction expired (no expected timeline packet)
    ft.expected_display(200, 23, 17, 666)
    ft.frame_end(206, 23)
    ft.actual_display(200, 24, 17, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(206, 24)
    ft.actual_surface(80, 25, 16, 17, 1000, "Layer1", U, 0, 0, JANK_UNKNOWN, PREDICTION_EXPIRED,
                      jank_severity_type=SEVERITY_PARTIAL)
    ft.frame_end(190, 25)
    # DisplayFrame with SF Stuffing jank
    ft.expected_display(220, 26, 18, 666)
    ft.frame_end(230, 26)
    ft.actual_display(245, 27, 18, 666, L, 0, 0, JANK_SF_STUFFING, PREDICTION_VALID)
    ft.frame_end(260, 27)
    # DisplayFrame with dropped frame jank (the same cookies again)
    ft.expected_display(220, 26, 18, 666)
    ft.frame_end(230, 26)
    ft.actual_display(245, 27, 18, 666, D, 0, 0, JANK_DROPPED, PREDICTION_UNSPECIFIED)
    ft.frame_end(260, 27)
    return ft


def rows_as_tuples(rows, columns):
    return [tuple(r[c] for c in columns) for r in rows]


def frame_timeline_events():
    ft = frame_timeline_events_case()
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    # The port must give exactly the diff tests' rows before anything is written.
    assert rows_as_tuples(expected_rows, ROW_COLUMNS_EXPECTED) == DIFF_TEST_EXPECTED_ROWS, \
        rows_as_tuples(expected_rows, ROW_COLUMNS_EXPECTED)
    assert rows_as_tuples(actual_rows, ROW_COLUMNS_ACTUAL) == DIFF_TEST_ACTUAL_ROWS, \
        rows_as_tuples(actual_rows, ROW_COLUMNS_ACTUAL)
    t = TraceFile()
    process_tree_packet(t, 0, [(666, 1, "/system/bin/surfaceflinger"), (1000, 1, "com.example.layers")])
    frame_timeline_packets(t, ft.events)
    data, layout = t.build()
    expected = {
        "fixture": "frame-timeline-events.pftrace",
        "kind": "frame-timeline",
        "source": {
            "repository": "google/perfetto",
            "trace": "test/trace_processor/diff_tests/parser/graphics/frame_timeline_events.py "
                     "(the version that passes jank_severity_type FULL and PARTIAL to two surface frames), built "
                     "with test/synth_common.py's add_*_frame_start_event / add_frame_end_event",
            "tests": ["test/trace_processor/diff_tests/parser/graphics/tests.py GraphicsParser."
                      "test_expected_frame_timeline_events",
                      "test/trace_processor/diff_tests/parser/graphics/tests.py GraphicsParser."
                      "test_actual_frame_timeline_events"],
            "parser": "src/trace_processor/importers/proto/frame_timeline_event_parser.cc",
            "added_here": "a first process_tree packet (ts 0) naming pid 666 and 1000; the diff test's trace has "
                          "none. It changes no row.",
        },
        **file_facts(data),
        "packets": len(layout),
        "processes": [{"pid": 666, "name": "/system/bin/surfaceflinger"}, {"pid": 1000, "name": "com.example.layers"}],
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "unpaired_frame_end_events": unpaired,
        "mappings": MAPPINGS,
        "notes": FRAME_TIMELINE_NOTES,
        "_ft_events": ft.events,
    }
    return data, expected


FRAME_TIMELINE_NOTES = [
    "Rows are trace processor's: ORDER BY ts, ties in the order the slices were created. pid is the process of "
    "the event's pid (upid's pid); name is the token as decimal; display frames have surface_frame_token and "
    "layer_name NULL (null).",
    "Trace processor sorts every packet by timestamp (stably: equal timestamps keep file order) before this "
    "parser sees them, and pairs a start with the FrameEnd of the same cookie. A cookie started twice before its "
    "end (cookies 26 and 27 at 220 and 245) pairs the end with the later start; the earlier slice never ends: dur "
    "-1. Without the sort both would end.",
    "An ExpectedSurfaceFrameStart whose (pid, token) already has an expected slice is dropped (token 14's Layer2): "
    "the expected timeline is per token; its FrameEnd ends nothing. ActualSurfaceFrameStart is never dropped.",
    "An ActualSurfaceFrameStart with no expected frame (token 16, PREDICTION_EXPIRED) still makes its actual row.",
    "on_time_finish and gpu_composition are 0 or 1. jank_severity_type comes from the field when present "
    "(synth_common writes it on every surface frame: 1 for JANK_NONE, else 0, unless the test passes one), else "
    "'None' for JANK_NONE and 'Unknown' otherwise (display frames here).",
    "Tracks: 'Expected Timeline' and 'Actual Timeline' of the event's pid. args are those trace processor's "
    "current parser attaches, without its experimental ones ('Present Delay (ms) (experimental)', 'Jank type "
    "(experimental)', ...). Its older parser put the surface token under 'Display frame token' on expected surface "
    "frames and wrote no 'Jank tag' arg.",
    "jank_tag follows trace processor's current parser: JANK_UNSPECIFIED gives 'Unspecified' (older: 'No Jank'); "
    "no row here has it.",
    "unpaired_frame_end_events counts FrameEnds that find no started cookie in the current parser. A FrameEnd of a "
    "dropped duplicate expected surface frame (token 14's Layer2, cookie 21) is not counted there: the current "
    "parser records its cookie before dropping it (the older parser counted it too).",
]


def frame_timeline_metric():
    """test/trace_processor/diff_tests/metrics/frame_timeline/frame_timeline_metric.py, call for call."""
    ft = FTTrace()
    L, V, D = PRESENT_LATE, PRESENT_ON_TIME, PRESENT_DROPPED
    P = PREDICTION_VALID
    ft.actual_surface(21_000_000, 6, 100201, 100211, 1002, "Layer1", V, 1, 0, JANK_NONE, P)
    ft.frame_end(37_000_000, 6)
    ft.actual_surface(31_000_000, 7, 100202, 100212, 1002, "Layer1", V, 1, 0, JANK_APP_DEADLINE_MISSED, P)
    ft.frame_end(47_000_000, 7)
    ft.actual_surface(32_000_000, 8, 100202, 100212, 1002, "Layer1", V, 1, 0, JANK_APP_DEADLINE_MISSED, P)
    ft.frame_end(40_000_000, 8)
    ft.actual_surface(41_000_000, 10, 100101, 100111, 1001, "Layer1", L, 0, 0, JANK_APP_DEADLINE_MISSED, P)
    ft.frame_end(74_000_000, 10)
    ft.actual_surface(41_000_000, 11, 100102, 100112, 1001, "Layer1", L, 0, 0,
                      JANK_APP_DEADLINE_MISSED | JANK_BUFFER_STUFFING, P)
    ft.frame_end(75_000_000, 11)
    ft.actual_surface(81_000_000, 15, 100301, 100311, 1003, "Layer1", L, 0, 0, JANK_SF_CPU_DEADLINE_MISSED, P)
    ft.frame_end(95_000_000, 15)
    ft.actual_surface(90_000_000, 16, 100302, 100312, 1003, "Layer1", D, 0, 0, JANK_DROPPED, P)
    ft.frame_end(96_000_000, 16)
    ft.actual_surface(10_000_000, 20, 100402, 100412, 1004, "Layer1", D, 0, 0, JANK_SF_STUFFING, P)
    ft.frame_end(12_000_000, 20)
    ft.actual_surface(12_500_000, 25, 100502, 100512, 1004, "Layer1", D, 0, 0, JANK_SF_SCHEDULING, P)
    ft.frame_end(14_000_000, 25)
    ft.actual_surface(14_500_000, 30, 100602, 100612, 1004, "Layer1", D, 0, 0, JANK_SF_CPU_DEADLINE_MISSED, P)
    ft.frame_end(15_000_000, 30)
    ft.actual_surface(15_500_000, 35, 100702, 100712, 1004, "Layer1", D, 0, 0, JANK_SF_GPU_DEADLINE_MISSED, P)
    ft.frame_end(16_000_000, 35)
    ft.actual_surface(16_500_000, 40, 100802, 100812, 1004, "Layer1", D, 0, 0,
                      JANK_SF_SCHEDULING | JANK_SF_STUFFING, P)
    ft.frame_end(17_000_000, 40)
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    t = TraceFile()
    processes = [(1001, 0, "process1"), (1002, 0, "process2"), (1003, 0, "process3"), (1004, 0, "process4")]
    process_tree_packet(t, 5_000_000, processes)  # trace.add_packet(ts=5000000); trace.add_process(...)
    frame_timeline_packets(t, ft.events)
    data, layout = t.build()
    # The metric's per-process figures (frame_timeline_metric.out), for cross-checking the rows.
    metric = {
        "total_frames": 11, "missed_app_frames": 3, "dropped_frames": 1,
        "process": [
            {"pid": 1001, "name": "process1", "total_frames": 2, "missed_frames": 2, "missed_app_frames": 2,
             "missed_sf_frames": 0, "frame_dur_max": 34_000_000, "frame_dur_avg": 33_500_000, "dropped_frames": 0,
             "jank_types": {"App Deadline Missed": {"total_count": 2, "present_late_count": 2},
                            "Buffer Stuffing": {"total_count": 1, "present_late_count": 1}}},
            {"pid": 1002, "name": "process2", "total_frames": 2, "missed_frames": 1, "missed_app_frames": 1,
             "missed_sf_frames": 0, "frame_dur_max": 16_000_000, "frame_dur_avg": 13_333_333, "dropped_frames": 0,
             "jank_types": {"App Deadline Missed": {"total_count": 1, "present_on_time_count": 1},
                            "None": {"total_count": 1, "present_on_time_count": 1}}},
            {"pid": 1003, "name": "process3", "total_frames": 2, "missed_frames": 2, "missed_app_frames": 0,
             "missed_sf_frames": 1, "frame_dur_max": 14_000_000, "frame_dur_avg": 14_000_000, "dropped_frames": 1,
             "jank_types": {"Dropped Frame": {"total_count": 1, "present_dropped_count": 1},
                            "SurfaceFlinger CPU Deadline Missed": {"total_count": 1, "present_late_count": 1}}},
            {"pid": 1004, "name": "process4", "total_frames": 5, "missed_frames": 4, "missed_app_frames": 0,
             "missed_sf_frames": 4, "frame_dur_max": 2_000_000, "frame_dur_avg": 1_000_000, "dropped_frames": 0,
             "jank_types": {"SurfaceFlinger CPU Deadline Missed": {"total_count": 1, "present_dropped_count": 1},
                            "SurfaceFlinger GPU Deadline Missed": {"total_count": 1, "present_dropped_count": 1},
                            "SurfaceFlinger Scheduling": {"total_count": 2, "present_dropped_count": 2},
                            "SurfaceFlinger Stuffing": {"total_count": 2, "present_dropped_count": 2}}},
        ],
        "note": "jank_types count each bit of a row's jank_type separately (the metric splits 'App Deadline Missed, "
                "Buffer Stuffing'); total_frames counts distinct tokens (token 100202 has two rows); frame_dur_* "
                "leave out dropped frames. Counts not listed are 0.",
    }
    expected = {
        "fixture": "frame-timeline-metric.pftrace",
        "kind": "frame-timeline",
        "source": {
            "repository": "google/perfetto",
            "trace": "test/trace_processor/diff_tests/metrics/frame_timeline/frame_timeline_metric.py (the version "
                     "whose add_process calls pass ppid 0), built with test/synth_common.py",
            "tests": ["test/trace_processor/diff_tests/metrics/frame_timeline/tests.py FrameTimeline."
                      "test_frame_timeline_metric (expects frame_timeline_metric.out)"],
            "parser": "src/trace_processor/importers/proto/frame_timeline_event_parser.cc",
            "rows": "The diff test checks the android_frame_timeline_metric, not rows: the rows here are what the "
                    "parser makes of these events (the same port of it that reproduces "
                    "frame-timeline-events.expected.json's rows exactly); 'metric' holds the test's figures, which "
                    "the rows agree with.",
        },
        **file_facts(data),
        "packets": len(layout),
        "processes": [{"pid": pid, "name": name} for pid, _, name in processes],
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "unpaired_frame_end_events": unpaired,
        "metric": metric,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": FRAME_TIMELINE_NOTES + [
            "This trace has actual surface frames only: no expected rows, no display frames.",
            "Its packets are in the test's order, not time order (process4's frames at 10-17 ms come last).",
        ],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# d2. frame-timeline-power-mode, and diff-test CSVs as data
# ---------------------------------------------------------------------------------------------
def diff_test_csv(text):
    """A diff test's expected output as trace processor prints it (a CSV whose strings are quoted and
    whose numbers are not) as JSON rows: one object per row, integers as integers, "[NULL]" as null."""
    reader = csv.reader(io.StringIO(text), quoting=csv.QUOTE_NONNUMERIC)
    header = next(reader)
    rows = []
    for values in reader:
        if not values:
            continue
        assert len(values) == len(header), (header, values)
        row = {}
        for column, value in zip(header, values):
            if isinstance(value, float):
                assert value.is_integer(), (column, value)
                value = int(value)
            elif value == "[NULL]":
                value = None
            row[column] = value
        rows.append(row)
    return header, rows


def require_rows(name, rows, columns, csv_text):
    """Fails, naming every differing row and column, unless `rows` (projected on `columns`) are the
    CSV's rows exactly, in order."""
    header, want = diff_test_csv(csv_text)
    if header != columns:
        raise AssertionError(f"{name}: the .out's columns {header} are not {columns}")
    got = [{c: r[c] for c in columns} for r in rows]
    problems = []
    if len(got) != len(want):
        problems.append(f"{len(got)} rows here, {len(want)} in the .out")
    for i, (g, w) in enumerate(zip(got, want)):
        for c in columns:
            if g[c] != w[c]:
                problems.append(f"row {i} (ts {w.get('ts')}) column {c}: here {g[c]!r}, .out {w[c]!r}")
    if problems:
        raise AssertionError(f"{name} disagrees with its diff test:\n  " + "\n  ".join(problems))


# test_display_power_mode_change's expected output (parser/graphics/tests.py, GraphicsParser, at
# 4b4195a5258e7fd8c34ca6732aeb7dc485bcc8cf), verbatim.
POWER_MODE_OUT = '''\
"ts","dur","pid","display_frame_token","surface_frame_token","layer_name","present_type","on_time_finish","gpu_composition","jank_type","prediction_type","jank_tag","jank_severity_type"
100,10,666,1,"[NULL]","[NULL]","On-time Present",1,0,"PowerModeChange in progress","Valid Prediction","Non-perceivable Jank","Unknown"
120,15,1000,1,2,"Layer1","On-time Present",1,0,"PowerModeChange in progress","Valid Prediction","Non-perceivable Jank","Unknown"
140,10,666,3,"[NULL]","[NULL]","On-time Present",1,0,"Non Animating","Valid Prediction","Non-perceivable Jank","Unknown"
160,10,666,4,"[NULL]","[NULL]","On-time Present",1,0,"Display not ON","Valid Prediction","Non-perceivable Jank","Unknown"
'''


def frame_timeline_power_mode():
    """test/trace_processor/diff_tests/parser/graphics/frame_timeline_power_mode.py, call for call."""
    ft = FTTrace()
    V, P = PRESENT_ON_TIME, PREDICTION_VALID
    # DisplayFrame with Power Mode Change
    ft.expected_display(100, 1, 1, 666)
    ft.frame_end(110, 1)
    ft.actual_display(100, 2, 1, 666, V, 1, 0, JANK_POWER_MODE_CHANGE, P)
    ft.frame_end(110, 2)
    # SurfaceFrame with Power Mode Change
    ft.expected_surface(120, 3, 2, 1, 1000, "Layer1")
    ft.frame_end(130, 3)
    ft.actual_surface(120, 4, 2, 1, 1000, "Layer1", V, 1, 0, JANK_POWER_MODE_CHANGE, P)
    ft.frame_end(135, 4)
    # DisplayFrame with Non Animating
    ft.expected_display(140, 5, 3, 666)
    ft.frame_end(150, 5)
    ft.actual_display(140, 6, 3, 666, V, 1, 0, JANK_NON_ANIMATING, P)
    ft.frame_end(150, 6)
    # DisplayFrame with Display Not ON
    ft.expected_display(160, 7, 4, 666)
    ft.frame_end(170, 7)
    ft.actual_display(160, 8, 4, 666, V, 1, 0, JANK_DISPLAY_NOT_ON, P)
    ft.frame_end(170, 8)
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    # The port must give test_display_power_mode_change's rows exactly (this is what checks the
    # jank strings and tags of bits 2048, 8192 and 32768).
    require_rows("frame-timeline-power-mode actual_frame_timeline_slice", actual_rows, ROW_COLUMNS_ACTUAL,
                 POWER_MODE_OUT)
    assert unpaired == 0
    t = TraceFile()
    process_tree_packet(t, 0, [(666, 1, "/system/bin/surfaceflinger"), (1000, 1, "com.example.layers")])
    frame_timeline_packets(t, ft.events)
    data, layout = t.build()
    expected = {
        "fixture": "frame-timeline-power-mode.pftrace",
        "kind": "frame-timeline",
        "source": {
            "repository": "google/perfetto",
            "trace": "test/trace_processor/diff_tests/parser/graphics/frame_timeline_power_mode.py at "
                     "4b4195a5258e7fd8c34ca6732aeb7dc485bcc8cf, built with test/synth_common.py's "
                     "add_*_frame_start_event / add_frame_end_event",
            "tests": ["test/trace_processor/diff_tests/parser/graphics/tests.py GraphicsParser."
                      "test_display_power_mode_change (at 4b4195a5258e7fd8c34ca6732aeb7dc485bcc8cf; expects "
                      "display_power_mode_change.out, the query of test_actual_frame_timeline_events)"],
            "parser": "src/trace_processor/importers/proto/frame_timeline_event_parser.cc",
            "rows": "actual_frame_timeline_slice is the test's expected output exactly (the script asserts it "
                    "against the CSV it holds); expected_frame_timeline_slice is what the same parser port makes "
                    "of the expected events (no diff test checks them for this trace).",
            "added_here": "a first process_tree packet (ts 0) naming pid 666 and 1000, as in "
                          "frame-timeline-events; the diff test's trace has none. It changes no row.",
        },
        **file_facts(data),
        "packets": len(layout),
        "processes": [{"pid": 666, "name": "/system/bin/surfaceflinger"}, {"pid": 1000, "name": "com.example.layers"}],
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "unpaired_frame_end_events": unpaired,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": FRAME_TIMELINE_NOTES[:1] + [
            "Jank bits 32768 (JANK_DISPLAY_POWER_MODE_CHANGE_IN_PROGRESS), 2048 (JANK_NON_ANIMATING) and 8192 "
            "(JANK_DISPLAY_NOT_ON), each alone: jank_type 'PowerModeChange in progress', 'Non Animating' and "
            "'Display not ON'; jank_tag 'Non-perceivable Jank' on display and surface frames alike (a jank type of "
            "only non-perceivable bits, 2048/8192/16384/32768, is no jank).",
            "jank_severity_type is 'Unknown' on every row: display frames carry none (and their jank_type is not "
            "JANK_NONE); synth_common writes 0 (UNKNOWN) on the surface frame because its jank_type is not JANK_NONE.",
        ],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# e. android-app-frames: atrace and FrameTimeline for the same tokens
# ---------------------------------------------------------------------------------------------
FEED_PID, FEED_RT, SF_PID = 7000, 7015, 600
PERIOD = 16_666_667  # 60 Hz
FEED_LAYER = "com.example.feed/com.example.feed.MainActivity#0"


def android_app_frames():
    base = 1_000_000_000
    us = 1_000
    # Per frame: doFrame (start, dur), an optional child of doFrame, DrawFrames (start, dur), the app's
    # present type, jank, on_time_finish and severity, the display frame's jank and present type, whether
    # the display frame is one period later (the app missed its own), and the display frame's actual end.
    # Offsets are from the frame's vsync. Frames are two vsyncs apart so each frame's work is alone.
    frames = [
        dict(do=(500 * us, 5_500 * us), child=("traversal", 1_000 * us, 4_000 * us), draw=(6_200 * us, 4_800 * us),
             present=PRESENT_ON_TIME, jank=JANK_NONE, finish=1, severity=SEVERITY_NONE,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=False, sf_end=2 * PERIOD,
             lane=None, cause="on time"),
        dict(do=(500 * us, 21_500 * us), child=("traversal", 1_000 * us, 20_500 * us), draw=(22_200 * us, 4_300 * us),
             present=PRESENT_LATE, jank=JANK_APP_DEADLINE_MISSED, finish=0, severity=SEVERITY_FULL,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=True, sf_end=3 * PERIOD,
             lane="main", cause="doFrame (UI thread) ran 21.5 ms, past the 16.67 ms budget"),
        dict(do=(500 * us, 4_000 * us), child=None, draw=(4_700 * us, 20_000 * us),
             present=PRESENT_LATE, jank=JANK_APP_DEADLINE_MISSED, finish=0, severity=SEVERITY_FULL,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=True, sf_end=3 * PERIOD,
             lane="render", cause="DrawFrames (RenderThread) ran 20 ms while doFrame took 4 ms"),
        dict(do=(500 * us, 5_000 * us), child=None, draw=(5_700 * us, 4_500 * us),
             present=PRESENT_LATE, jank=JANK_SF_CPU_DEADLINE_MISSED, finish=1, severity=None,
             sf_jank=JANK_SF_CPU_DEADLINE_MISSED, sf_present=PRESENT_LATE, sf_late=False, sf_end=3 * PERIOD,
             lane=None, cause="SurfaceFlinger's CPU work missed its deadline; the app was on time"),
        dict(do=(500 * us, 5_000 * us), child=None, draw=(5_800 * us, 4_600 * us),
             present=PRESENT_LATE, jank=JANK_BUFFER_STUFFING, finish=1, severity=None,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=False, sf_end=2 * PERIOD,
             lane=None, cause="buffer stuffing: the app was on time but its buffer queued behind an earlier one"),
        dict(do=(500 * us, 4_800 * us), child=None, draw=(5_600 * us, 4_600 * us),
             present=PRESENT_LATE, jank=JANK_DISPLAY_HAL, finish=1, severity=None,
             sf_jank=JANK_DISPLAY_HAL, sf_present=PRESENT_LATE, sf_late=False, sf_end=3 * PERIOD,
             lane=None, cause="the display HAL presented late"),
        dict(do=(500 * us, 4_700 * us), child=None, draw=(5_500 * us, 4_400 * us),
             present=PRESENT_LATE, jank=JANK_PREDICTION_ERROR, finish=1, severity=None,
             sf_jank=JANK_PREDICTION_ERROR, sf_present=PRESENT_LATE, sf_late=False, sf_end=2 * PERIOD + 4_000 * us,
             lane=None, cause="the vsync prediction was wrong"),
        dict(do=(500 * us, 5_200 * us), child=None, draw=(6_000 * us, 5_500 * us),
             present=PRESENT_DROPPED, jank=JANK_DROPPED, finish=1, severity=None,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=False, sf_end=2 * PERIOD,
             lane=None, cause="dropped: SurfaceFlinger presented another buffer instead"),
    ]
    t = TraceFile()
    process_tree_packet(t, base - PERIOD, [(FEED_PID, 1, "com.example.feed"), (SF_PID, 1, "/system/bin/surfaceflinger")],
                        [(FEED_PID, FEED_PID, "om.example.feed"), (FEED_RT, FEED_PID, "RenderThread"),
                         (SF_PID, SF_PID, "surfaceflinger")])
    ui_events, rt_events = [], []
    ft = FTTrace()
    cookie = 0
    summary = []
    ui_slices, rt_slices = [], []
    for i, fr in enumerate(frames, start=1):
        vsync = base + (2 * i - 2) * PERIOD
        token, display_token = 1000 + i, 2000 + i
        do_start, do_dur = fr["do"]
        draw_start, draw_dur = fr["draw"]
        ui_events.append((vsync + do_start, FEED_PID, f"B|{FEED_PID}|Choreographer#doFrame {token}\n"))
        ui_slices.append({"name": f"Choreographer#doFrame {token}", "category": "", "ts": vsync + do_start,
                          "dur": do_dur, "depth": 0, "args": {}})
        if fr["child"]:
            name, c_start, c_dur = fr["child"]
            ui_events.append((vsync + c_start, FEED_PID, f"B|{FEED_PID}|{name}\n"))
            ui_events.append((vsync + c_start + c_dur, FEED_PID, f"E|{FEED_PID}\n"))
            ui_slices.append({"name": name, "category": "", "ts": vsync + c_start, "dur": c_dur, "depth": 1,
                              "args": {}})
        ui_events.append((vsync + do_start + do_dur, FEED_PID, f"E|{FEED_PID}\n"))
        rt_events.append((vsync + draw_start, FEED_RT, f"B|{FEED_PID}|DrawFrames {token}\n"))
        rt_events.append((vsync + draw_start + draw_dur, FEED_RT, f"E|{FEED_PID}\n"))
        rt_slices.append({"name": f"DrawFrames {token}", "category": "", "ts": vsync + draw_start, "dur": draw_dur,
                          "depth": 0, "args": {}})

        app_end = vsync + draw_start + draw_dur
        sf_start = vsync + (2 if fr["sf_late"] else 1) * PERIOD
        # SurfaceFlinger's frame: expected one period, actual from just after its vsync to present.
        cookie += 1
        ft.expected_surface(vsync, cookie, token, display_token, FEED_PID, FEED_LAYER)
        ft.frame_end(vsync + PERIOD, cookie)
        cookie += 1
        ft.actual_surface(vsync, cookie, token, display_token, FEED_PID, FEED_LAYER, fr["present"], fr["finish"], 0,
                          fr["jank"], PREDICTION_VALID, jank_severity_type=fr["severity"])
        ft.frame_end(app_end, cookie)
        cookie += 1
        ft.expected_display(sf_start, cookie, display_token, SF_PID)
        ft.frame_end(sf_start + PERIOD, cookie)
        cookie += 1
        sf_actual_end = vsync + fr["sf_end"]
        ft.actual_display(sf_start + 300 * us, cookie, display_token, SF_PID, fr["sf_present"],
                          0 if fr["sf_jank"] == JANK_SF_CPU_DEADLINE_MISSED else 1, 0, fr["sf_jank"], PREDICTION_VALID)
        ft.frame_end(sf_actual_end, cookie)
        summary.append({
            "token": token, "display_frame_token": display_token, "vsync_ts": vsync, "budget_ns": PERIOD,
            "deadline_ts": vsync + PERIOD,
            "doFrame": {"tid": FEED_PID, "ts": vsync + do_start, "dur": do_dur},
            "DrawFrames": {"tid": FEED_RT, "ts": vsync + draw_start, "dur": draw_dur},
            "app_work_end_ts": app_end,
            "overrun_lane": fr["lane"],
            "jank_type": jank_string(fr["jank"]),
            "present_type": PRESENT_STRINGS[fr["present"]],
            "jank_tag": surface_jank_tag(fr["jank"], fr["present"]),
            "display_jank_type": jank_string(fr["sf_jank"]),
            "cause": fr["cause"],
        })
    for cpu, events, label in [(0, sorted(ui_events), "ftrace cpu 0 (UI thread)"),
                               (1, sorted(rt_events), "ftrace cpu 1 (RenderThread)")]:
        p = packet(seq=9)
        p.ftrace_events.cpu = cpu
        for ts, tid, buf in events:
            ev = p.ftrace_events.event.add()
            ev.timestamp, ev.pid = ts, tid
            getattr(ev, "print").buf = buf
        t.add(p, label)
    frame_timeline_packets(t, ft.events)
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    assert unpaired == 0
    # Each frame's rows agree with the summary.
    for s in summary:
        surface = [r for r in actual_rows if r["surface_frame_token"] == s["token"]]
        assert len(surface) == 1 and surface[0]["jank_type"] == s["jank_type"], surface
        assert surface[0]["ts"] + surface[0]["dur"] == s["app_work_end_ts"]
        lane = None
        if s["doFrame"]["dur"] > PERIOD:
            lane = "main"
        elif s["DrawFrames"]["dur"] > PERIOD:
            lane = "render"
        assert lane == s["overrun_lane"], (s["token"], lane)
    data, layout = t.build()
    expected = {
        "fixture": "android-app-frames.pftrace",
        "kind": "android-app-frames",
        "source": {"generator": GENERATOR, "case": "android_app_frames()",
                   "rows": "expected/actual rows as trace processor's FrameTimeline parser makes them (the port "
                           "that reproduces frame-timeline-events.expected.json's diff-test rows)"},
        **file_facts(data),
        "packets": len(layout),
        "frame_interval_ns": PERIOD,
        "processes": [{"pid": FEED_PID, "name": "com.example.feed"}, {"pid": SF_PID, "name": "/system/bin/surfaceflinger"}],
        "threads": [
            {"pid": FEED_PID, "tid": FEED_PID, "name": "om.example.feed", "slices": ui_slices, "instants": []},
            {"pid": FEED_PID, "tid": FEED_RT, "name": "RenderThread", "slices": rt_slices, "instants": []},
        ],
        "frames": summary,
        "lane_rule": "overrun_lane is 'main' when the frame's Choreographer#doFrame <token> slice (UI thread) is "
                     "longer than budget_ns, else 'render' when its DrawFrames <token> slice (RenderThread) is, "
                     "else null (the app's own work fit; the jank, if any, is elsewhere).",
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": [
            "60 Hz: vsync period 16666667 ns. Frame i (token 1000+i) starts at its app vsync 1000000000 + "
            "(2i-2)*16666667 ns; frames are two vsyncs apart so each frame's work is alone on its threads.",
            "Expected surface frame: [vsync, vsync + period]. Actual surface frame: from the vsync (FrameTimeline "
            "uses the expected start) to the end of DrawFrames. Display frame 2000+i: expected one period from the "
            "next vsync (two for frames 2 and 3, whose buffers came late), actual from 0.3 ms after that to present.",
            "The main thread's comm is 'om.example.feed' (Android keeps the last 15 characters of the package): "
            "the process is named by its cmdline, the thread by process_tree's thread name.",
            "Surface frames carry jank_severity_type FULL on frames 2 and 3, NONE on frame 1 and UNKNOWN (0) on the "
            "others; display frames carry none.",
            "The FrameTimeline packets come after the ftrace bundles, frame by frame (start, end, start, end), "
            "not in time order: a reader pairs each start with the FrameEnd of its cookie after sorting by "
            "timestamp, as trace processor does.",
        ] + FRAME_TIMELINE_NOTES[:1],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# e1. android-rate-switch: a phone that switches from 60 Hz to 120 Hz mid-recording
# ---------------------------------------------------------------------------------------------
RATE_SWITCH_STRETCHES = [(16_666_667, 24), (8_333_333, 48)]  # (period ns, frames): 60 Hz, then 120 Hz
RATE_SWITCH_APP_DEADLINE = 16_600_000  # the app's deadline in both stretches (nowinandroid's at 120 Hz)


def android_rate_switch():
    """FrameTimeline alone (no atrace slices) for one app whose display runs at 60 Hz for 24 frames,
    then at 120 Hz for 48, one frame per vsync: each frame's vsync figures must use its stretch's period."""
    base = 3_000_000_000
    ms = 1_000_000
    # Frames by position in the recording: how long after its vsync the app's buffer was done, and
    # its jank. The same shapes in each stretch, so that the two periods give them different figures:
    # 12 ms of work is on time in both, slow only at 120 Hz; 10 ms past the app's deadline misses one
    # 60 Hz vsync and two 120 Hz vsyncs.
    shapes = {3: (12 * ms, JANK_NONE), 5: (RATE_SWITCH_APP_DEADLINE + 10 * ms, JANK_APP_DEADLINE_MISSED),
              30: (12 * ms, JANK_NONE), 40: (RATE_SWITCH_APP_DEADLINE + 10 * ms, JANK_APP_DEADLINE_MISSED)}
    ft = FTTrace()
    t = TraceFile()
    process_tree_packet(t, base - ms, [(FEED_PID, 1, "com.example.feed"), (SF_PID, 1, "/system/bin/surfaceflinger")],
                        [(FEED_PID, FEED_PID, "om.example.feed"), (SF_PID, SF_PID, "surfaceflinger")])
    cookie = 0
    frames = []
    stretches = []
    vsync = base
    position = 0
    for period, count in RATE_SWITCH_STRETCHES:
        stretches.append({"start_ts": vsync, "period_ns": period, "frames": count})
        for _ in range(count):
            token, display_token = 5000 + position, 9000 + position
            work, jank = shapes.get(position, (period * 6 // 10, JANK_NONE))
            late = jank != JANK_NONE
            present = PRESENT_LATE if late else PRESENT_ON_TIME
            cookie += 1
            ft.expected_surface(vsync, cookie, token, display_token, FEED_PID, FEED_LAYER)
            ft.frame_end(vsync + RATE_SWITCH_APP_DEADLINE, cookie)
            cookie += 1
            ft.actual_surface(vsync, cookie, token, display_token, FEED_PID, FEED_LAYER, present, 0 if late else 1, 0,
                              jank, PREDICTION_VALID)
            ft.frame_end(vsync + work, cookie)
            # SurfaceFlinger composes the frame's buffer one period later, on time.
            cookie += 1
            ft.expected_display(vsync + period, cookie, display_token, SF_PID)
            ft.frame_end(vsync + 2 * period, cookie)
            cookie += 1
            ft.actual_display(vsync + period + 300_000, cookie, display_token, SF_PID, PRESENT_ON_TIME, 1, 0, JANK_NONE,
                              PREDICTION_VALID)
            ft.frame_end(vsync + 2 * period, cookie)
            overrun = work - RATE_SWITCH_APP_DEADLINE
            frames.append({
                "token": token, "vsync_ts": vsync, "period_ns": period, "expected_end": vsync + RATE_SWITCH_APP_DEADLINE,
                "actual_end": vsync + work, "jank_type": jank_string(jank), "janky": late,
                "slow": work > period, "missed_vsyncs": -(-overrun // period) if late else 0,
            })
            vsync += period
            position += 1
    frame_timeline_packets(t, ft.events)
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    assert unpaired == 0
    assert [f["missed_vsyncs"] for f in frames if f["janky"]] == [1, 2], frames
    assert [f["slow"] for f in frames].count(True) == 2 + 1  # 12 ms at 120 Hz; both late frames
    data, layout = t.build()
    expected = {
        "fixture": "android-rate-switch.pftrace",
        "kind": "android-rate-switch",
        "source": {"generator": GENERATOR, "case": "android_rate_switch()",
                   "rows": "expected/actual rows as trace processor's FrameTimeline parser makes them (the port "
                           "that reproduces frame-timeline-events.expected.json's diff-test rows)"},
        **file_facts(data),
        "packets": len(layout),
        "app_pid": FEED_PID,
        "processes": [{"pid": FEED_PID, "name": "com.example.feed"}, {"pid": SF_PID, "name": "/system/bin/surfaceflinger"}],
        "stretches": stretches,
        "frame_interval_ns": max(stretches, key=lambda s: s["frames"])["period_ns"],
        "frames": frames,
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": [
            "60 Hz (16666667 ns) for frames 0-23 from 3000000000 ns, then 120 Hz (8333333 ns) for frames 24-71; "
            "one app frame per vsync, token 5000+i, display frame 9000+i.",
            "Expected surface frame: [vsync, vsync + 16.6 ms] in both stretches (the app's deadline, which is not "
            "the display's period: at 120 Hz it spans two). Actual surface frame: from the vsync to when the "
            "buffer was done: 60% of the period, 12 ms for frames 3 and 30, 26.6 ms (10 ms late: App Deadline "
            "Missed) for frames 5 and 40.",
            "slow: longer than the frame's own period (framescope's slow frame); missed_vsyncs: the lateness "
            "(actual_end - expected_end) in the frame's own periods, rounded up, for janky frames.",
            "Display frame 9000+i: expected [vsync + period, vsync + 2 period], actual from 0.3 ms later to its "
            "expected end, on time.",
        ] + FRAME_TIMELINE_NOTES[:1],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# e2. android-frames-stdlib: the trace of trace processor's android.frames stdlib diff tests
# ---------------------------------------------------------------------------------------------
JC_PID, JC_RT, JC_GPU, JC_JIT = 1000, 1555, 1666, 1777  # com.android.systemui, RenderThread, GPU completion, JIT
JC_SF_PID, JC_SF_RE = 1050, 1055  # /system/bin/surfaceflinger and its RenderEngine thread
JC_LAYER = "TX - NotificationShade#0"
JC_COMMIT = "f62b11e6b5d34d0b0f1af3d60eb4d40a57b652b6"  # android_jank_cuj.py
JC_TESTS_COMMIT = "d5ffabdfdc4f2c2fff3c2faa3ddd2e16af9e491c"  # stdlib/android/frames_tests.py

# stdlib/android/frames_tests.py (class Frames) at JC_TESTS_COMMIT: each test that runs on
# android_jank_cuj.py, its expected output verbatim (the Csv(...) block without its indentation).
JC_OUTPUTS = {
    "android_frames_choreographer_do_frame": ("test_android_frames_choreographer_do_frame", '''\
"id","frame_id","ui_thread_utid","upid","ts"
2,10,2,2,0
15,20,2,2,20000000
22,30,2,2,30000000
35,40,2,2,40000000
46,60,2,2,70000000
55,90,2,2,100000000
63,100,2,2,200000000
73,110,2,2,300000000
79,120,2,2,400000000
87,130,2,2,550000000
93,140,2,2,608500000
99,145,2,2,655000000
102,150,2,2,700000000
108,160,2,2,800000000
140,1000,2,2,1100000000
'''),
    "android_frames_draw_frame": ("test_android_frames_draw_frame", '''\
"id","frame_id","render_thread_utid","upid"
8,10,4,2
16,20,4,2
23,30,4,2
41,40,4,2
50,60,4,2
57,90,4,2
60,90,4,2
66,100,4,2
69,100,4,2
74,110,4,2
80,120,4,2
89,130,4,2
95,140,4,2
100,145,4,2
105,150,4,2
109,160,4,2
146,1000,4,2
'''),
    "android_frames": ("test_android_frames", '''\
"frame_id","ts","dur","do_frame_id","draw_frame_id","actual_frame_timeline_id","expected_frame_timeline_id","render_thread_utid","ui_thread_utid","actual_frame_timeline_count","expected_frame_timeline_count"
10,0,16000000,2,8,1,0,4,2,1,1
20,8000000,28000000,15,16,12,11,4,2,1,1
30,30000000,25000000,22,23,21,20,4,2,1,1
40,40000000,40000000,35,41,37,36,4,2,1,1
60,70000000,20000000,46,50,48,47,4,2,2,1
90,100000000,23000000,55,57,54,53,4,2,1,1
90,100000000,23000000,55,60,54,53,4,2,1,1
100,200000000,22000000,63,66,65,64,4,2,1,1
100,200000000,22000000,63,69,65,64,4,2,1,1
110,300000000,80000000,73,74,71,70,4,2,3,2
120,400000000,61000000,79,80,78,77,4,2,2,2
130,500000000,16000000,87,89,85,84,4,2,3,2
140,608600000,17000000,93,95,94,91,4,2,2,2
145,650000000,20000000,99,100,98,97,4,2,1,1
150,700500000,14500000,102,105,104,103,4,2,1,1
160,1070000000,16000000,108,109,132,107,4,2,1,2
1000,1100000000,500000000,140,146,138,137,4,2,1,1
'''),
    "android_first_frame_after": ("test_android_first_frame_after", '''\
"frame_id"
100
'''),
    "android_frames_overrun": ("test_android_frames_overrun", '''\
"frame_id","overrun"
10,0
20,8000000
30,5000000
40,20000000
60,-10000000
90,3000000
100,2000000
110,41000000
120,41000000
130,-18000000
140,5600000
145,0
150,-5000000
160,266000000
190,0
200,16000000
1000,480000000
'''),
    "android_app_vsync_delay_per_frame": ("test_android_app_vsync_delay_per_frame", '''\
"frame_id","app_vsync_delay"
10,0
20,0
30,0
40,0
60,0
90,0
100,0
110,0
120,0
130,0
140,8600000
145,0
150,500000
160,270000000
1000,0
'''),
    "android_cpu_time_per_frame": ("test_android_cpu_time_per_frame", '''\
"frame_id","app_vsync_delay","do_frame_dur","draw_frame_dur","cpu_time"
10,0,5000000,1000000,6000000
20,0,3000000,4000000,7000000
30,0,3000000,19000000,22000000
40,0,13000000,7000000,20000000
60,0,10000000,9000000,19000000
90,0,15000000,8000000,23000000
100,0,15000000,8000000,23000000
110,0,15000000,2000000,17000000
120,0,15000000,2000000,17000000
130,0,5000000,4000000,9000000
140,8600000,1500000,17000000,27100000
145,0,20000000,3000000,23000000
150,500000,2000000,13800000,16300000
160,270000000,2000000,1000000,273000000
1000,0,100000000,150000000,250000000
'''),
    "android_frame_stats": ("test_android_frame_stats", '''\
"frame_id","overrun","cpu_time","ui_time","was_jank","was_slow_frame","was_big_jank","was_huge_jank"
10,0,6000000,5000000,"[NULL]","[NULL]","[NULL]","[NULL]"
20,8000000,7000000,3000000,1,"[NULL]","[NULL]","[NULL]"
30,5000000,22000000,3000000,1,1,"[NULL]","[NULL]"
40,20000000,20000000,13000000,1,"[NULL]","[NULL]","[NULL]"
60,-10000000,19000000,10000000,"[NULL]","[NULL]","[NULL]","[NULL]"
90,3000000,23000000,15000000,1,1,"[NULL]","[NULL]"
100,2000000,23000000,15000000,1,1,"[NULL]","[NULL]"
110,41000000,17000000,15000000,1,"[NULL]","[NULL]","[NULL]"
120,41000000,17000000,15000000,1,"[NULL]","[NULL]","[NULL]"
130,-18000000,9000000,5000000,"[NULL]","[NULL]","[NULL]","[NULL]"
140,5600000,27100000,1500000,1,1,"[NULL]","[NULL]"
145,0,23000000,20000000,"[NULL]",1,"[NULL]","[NULL]"
150,-5000000,16300000,2000000,"[NULL]","[NULL]","[NULL]","[NULL]"
160,266000000,273000000,2000000,1,1,1,1
1000,480000000,250000000,100000000,1,1,1,1
'''),
}

# metrics/graphics/android_jank_cuj.out at JC_CUJ_COMMIT: the `frame` blocks of its second CUJ
# (id 2, SHADE_ROW_EXPAND, 0 to 901 ms: every app frame of the generator's but 160 and 1000),
# verbatim. A frame is missed when any of the token's actual slices on the CUJ's layer is janky:
# the metric's own per-token verdict, which framescope's must equal (frame 130 among them).
JC_CUJ_COMMIT = "a236c81a9f5d2fe7777022babfa0d0c298bda39b"
JC_CUJ_FRAMES = """\
    frame {
      frame_number: 1
      vsync: 10
      ts: 0
      dur: 16000000
      app_missed: false
      sf_missed: false
      dur_expected: 16000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 2
      vsync: 20
      ts: 8000000
      dur: 28000000
      app_missed: true
      sf_missed: true
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 3
      vsync: 30
      ts: 30000000
      dur: 25000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 4
      vsync: 40
      ts: 40000000
      dur: 40000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 5
      vsync: 60
      ts: 70000000
      dur: 20000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 6
      vsync: 90
      ts: 100000000
      dur: 23000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 7
      vsync: 100
      ts: 200000000
      dur: 22000000
      app_missed: false
      sf_missed: true
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 8
      vsync: 110
      ts: 300000000
      dur: 61000000
      app_missed: false
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 9
      vsync: 120
      ts: 400000000
      dur: 61000000
      app_missed: false
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 10
      vsync: 130
      ts: 500000000
      dur: 56000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 11
      vsync: 140
      ts: 600000000
      dur: 25600000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 12
      vsync: 145
      ts: 650000000
      dur: 20000000
      app_missed: false
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 13
      vsync: 150
      ts: 700000000
      dur: 15000000
      app_missed: false
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: true
      hwui_callback_missed: true
    }
"""


def cuj_frames(text):
    """The `frame { ... }` blocks of a metric's text proto as rows: integers, and true/false as bools."""
    rows = []
    for block in re.findall(r"frame \{(.*?)\}", text, re.S):
        row = {}
        for key, value in re.findall(r"(\w+): (\S+)", block):
            row[key] = {"true": True, "false": False}.get(value, None)
            if row[key] is None:
                row[key] = int(value)
        rows.append(row)
    return rows


def atrace_slices(prints):
    """Thread slices from atrace B/E prints ((ts, tid, buf) in file order), as trace processor makes
    them: each thread's events in time order (stable: equal times keep file order), an E closing the
    thread's innermost open slice. {(pid, tid): [{name, category, ts, dur, depth, args}]} in begin order."""
    by_thread = {}
    for index, (ts, tid, buf) in enumerate(prints):
        by_thread.setdefault(tid, []).append((ts, index, buf))
    out = {}
    for tid, events in by_thread.items():
        events.sort()
        stack, slices, pid = [], [], None
        for ts, _, buf in events:
            parts = buf.split("|")
            pid = int(parts[1])
            if parts[0] == "B":
                s = {"name": "|".join(parts[2:]), "category": "", "ts": ts, "dur": -1, "depth": len(stack),
                     "args": {}}
                stack.append(s)
                slices.append(s)
            else:
                assert parts[0] == "E" and stack, buf
                s = stack.pop()
                s["dur"] = ts - s["ts"]
        assert not stack, tid
        out[(pid, tid)] = slices
    return out


def sqlite_cast_int(text):
    """SQLite's CAST(text AS INT): leading spaces, an optional sign and the digits after it; 0 if none."""
    text = text.lstrip(" \t\n\r")
    sign = 1
    if text[:1] in ("+", "-"):
        sign, text = (-1 if text[0] == "-" else 1), text[1:]
    digits = ""
    for ch in text:
        if not ch.isdigit():
            break
        digits += ch
    return sign * int(digits) if digits else 0


def stdlib_frame_id(name):
    """The android.frames stdlib's frame id of a slice name: CAST(STR_SPLIT(name, ' ', 1) AS INT), kept
    only if it is neither NULL (no second word), 0 nor -1."""
    words = name.split(" ")
    if len(words) < 2:
        return None
    value = sqlite_cast_int(words[1])
    return None if value in (0, -1) else value


def fail_unless(condition, message):
    """An assertion that `python3 -O` does not remove."""
    if not condition:
        raise AssertionError(message)


def android_doframe_depth():
    """test/trace_processor/diff_tests/metrics/graphics/android_doframe_depth.py, call for call: the
    input of stdlib/android frames_tests.py test_android_frames_get_frame_table_with_id, whose
    expected rows keep the doFrames at depth 0 and 1 only."""
    pid, rtid, gpu = 1000, 1555, 1666
    prints = []  # (ts, tid, buf), in the generator's order, one cpu-0 bundle

    def main_thread_from_depth(ts, ts_end, buf, depth):
        # The generator's parents are all named '<depth %d>': its '...'.format(i) formats nothing.
        for i in range(depth):
            prints.append((ts - (depth - i), pid, f"B|{pid}|<depth %d>"))
        prints.append((ts, pid, f"B|{pid}|{buf}"))
        prints.append((ts_end, pid, f"E|{pid}"))
        for i in range(depth):
            prints.append((ts_end + (i + 1), pid, f"E|{pid}"))

    def add_frame(vsync, ts_do, ts_end_do, ts_draw, ts_end_draw, ts_gpu=None, ts_end_gpu=None, resync=False, depth=0):
        main_thread_from_depth(ts_do, ts_end_do, f"Choreographer#doFrame {vsync}", depth)
        if resync:
            main_thread_from_depth(ts_do, ts_end_do, f"Choreographer#doFrame - resynced to {vsync + 1} in 0.0s", depth)
        fence = 1000 + vsync * 10 + 1
        message = ("GPU completion fence %d has signaled" if ts_gpu is None else "Trace GPU completion fence %d") % fence
        prints.append((ts_draw, rtid, f"B|{pid}|DrawFrames {vsync}"))
        prints.append((ts_end_draw - 100, rtid, f"B|{pid}|{message}"))
        prints.append((ts_end_draw - 1, rtid, f"E|{pid}"))
        prints.append((ts_end_draw, rtid, f"E|{pid}"))
        if ts_gpu is not None:
            prints.append((ts_gpu, gpu, f"B|{pid}|waiting for GPU completion {fence}"))  # never ended, as there

    add_frame(10, 1_000_000, 5_000_000, 5_000_000, 10_000_000, depth=0)
    add_frame(11, 30_000_000, 35_000_000, 33_000_000, 38_000_000, depth=1)
    add_frame(12, 60_000_000, 65_000_000, 6_500_000, 70_000_000, resync=True, depth=2)  # 65_00_000 there
    add_frame(13, 90_000_000, 98_000_000, 96_000_000, 102_000_000, ts_gpu=100_000_000, ts_end_gpu=115_000_000, depth=3)

    t = TraceFile()
    process_tree_packet(t, 0, [(pid, 1, "com.android.systemui", 10001)], [(rtid, pid, "RenderThread")])
    p = packet()
    p.ftrace_events.cpu = 0
    for ts, tid, buf in prints:
        ev = p.ftrace_events.event.add()
        ev.timestamp, ev.pid = ts, tid
        getattr(ev, "print").buf = buf
    t.add(p, "ftrace cpu 0: atrace prints, in the generator's order")
    data, layout = t.build()
    # The test's expected rows (frames_tests.py, test_android_frames_get_frame_table_with_id).
    _, table = diff_test_csv('''"frame_id","name","depth"
10,"Choreographer#doFrame 10",0
11,"Choreographer#doFrame 11",1''')
    # Cross-check from the slices: doFrames with a frame id at depth 0 or 1.
    complete = [(ts, tid, buf) for ts, tid, buf in prints if tid != gpu]
    slices = atrace_slices(complete)[(pid, pid)]
    mine = [{"frame_id": stdlib_frame_id(x["name"]), "name": x["name"], "depth": x["depth"]} for x in slices
            if x["name"].startswith("Choreographer#doFrame") and stdlib_frame_id(x["name"]) is not None and x["depth"] <= 1]
    fail_unless(mine == table, (mine, table))
    expected = {
        "fixture": "android-doframe-depth.pftrace",
        "kind": "android-frames",
        "source": {
            "repository": "google/perfetto",
            "trace": "test/trace_processor/diff_tests/metrics/graphics/android_doframe_depth.py "
                     "(286b8f7a6587d2148540f33a929ec6192f7ef3e3), built with test/synth_common.py",
            "tests": ["test/trace_processor/diff_tests/stdlib/android/frames_tests.py "
                      "test_android_frames_get_frame_table_with_id (d5ffabdf)"],
        },
        **file_facts(data),
        "packets": len(layout),
        "app_pid": pid,
        "android_frames_get_frame_table_with_id": table,
        "notes": [
            "Choreographer#doFrame 10..13 on the main thread at depths 0..3 under parents named '<depth %d>', "
            "each with a DrawFrames on the RenderThread; vsync 12 also has a nested resynced doFrame (frame id 0, "
            "no frame). The test keeps the doFrames at depth 0 or 1 (the stdlib's _get_frame_table_with_id as of "
            "that test), so frames 10 and 11 only.",
            "The GPU thread's 'waiting for GPU completion' slice is begun and never ended, as in the generator.",
        ],
    }
    return data, expected


def android_frames_stdlib():
    """test/trace_processor/diff_tests/metrics/graphics/android_jank_cuj.py, call for call, reduced to
    what trace processor's android.frames tables read (its doFrame and DrawFrames slices, the process
    tree and every FrameTimeline event)."""
    prints = []  # (ts, tid, buf): the one ftrace bundle synth_common writes, in the generator's order

    def main_thread_atrace(ts, ts_end, buf):
        prints.append((ts, JC_PID, f"B|{JC_PID}|{buf}"))
        prints.append((ts_end, JC_PID, f"E|{JC_PID}"))

    def render_thread_begin(ts, buf):
        prints.append((ts, JC_RT, f"B|{JC_PID}|{buf}"))

    def render_thread_end(ts):
        prints.append((ts, JC_RT, f"E|{JC_PID}"))

    def add_frame(vsync, ts_do_frame, ts_end_do_frame, ts_draw_frame, ts_end_draw_frame, resync=False):
        main_thread_atrace(ts_do_frame, ts_end_do_frame, f"Choreographer#doFrame {vsync}")
        if resync:
            main_thread_atrace(ts_do_frame, ts_end_do_frame, f"Choreographer#doFrame - resynced to {vsync + 1} in 0.0s")
        render_thread_begin(ts_draw_frame, f"DrawFrames {vsync}")
        # Left out: the "GPU completion fence" slice inside DrawFrames and the GPU thread's wait.
        render_thread_end(ts_end_draw_frame)

    # The generator's add_frame calls, in order (its binder, flush layers, dispatchFrameCallbacks, JIT,
    # SurfaceFlinger and GPU-thread slices, counters, sched_switch and CUJ track events left out).
    add_frame(10, 0, 5_000_000, 4_000_000, 5_000_000, resync=True)
    add_frame(20, 20_000_000, 23_000_000, 22_000_000, 26_000_000)
    add_frame(30, 30_000_000, 33_000_000, 31_000_000, 50_000_000)
    add_frame(40, 40_000_000, 53_000_000, 52_000_000, 59_000_000)
    add_frame(60, 70_000_000, 80_000_000, 78_000_000, 87_000_000)
    add_frame(90, 100_000_000, 115_000_000, 102_000_000, 104_000_000)
    render_thread_begin(108_000_000, "DrawFrames 90")  # a second DrawFrames for vsync 90
    render_thread_end(114_000_000)
    add_frame(100, 200_000_000, 215_000_000, 202_000_000, 204_000_000)
    render_thread_begin(208_000_000, "DrawFrames 100")  # and for vsync 100
    render_thread_end(214_000_000)
    add_frame(110, 300_000_000, 315_000_000, 302_000_000, 304_000_000)
    add_frame(120, 400_000_000, 415_000_000, 402_000_000, 404_000_000)
    add_frame(130, 550_000_000, 555_000_000, 552_000_000, 556_000_000)  # after a 49.5 ms binder call
    add_frame(140, 608_500_000, 610_000_000, 609_000_000, 626_000_000)  # after an 8 ms binder call
    add_frame(145, 655_000_000, 675_000_000, 657_000_000, 660_000_000)
    add_frame(150, 700_000_000, 702_000_000, 701_200_000, 715_000_000)
    add_frame(160, 800_000_000, 802_000_000, 801_000_000, 802_000_000)  # no actual timeline slice
    add_frame(1000, 1_100_000_000, 1_200_000_000, 1_150_000_000, 1_300_000_000)

    ft = FTTrace()

    def expected_display(ts, dur, token):
        ft.expected_display(ts, token, 100 + token, JC_SF_PID)
        ft.frame_end(ts + dur, token)

    def actual_display(ts, dur, token, jank=None):
        ft.actual_display(ts, token + 1, 100 + token, JC_SF_PID, PRESENT_ON_TIME if jank is None else PRESENT_LATE,
                          1 if jank is None else 0, 0, JANK_NONE if jank is None else jank, PREDICTION_UNKNOWN)
        ft.frame_end(ts + dur, token + 1)

    def expected_surface(ts, dur, token):
        ft.expected_surface(ts, 100_000 + token, token, 100 + token, JC_PID, "")
        ft.frame_end(ts + dur, 100_000 + token)

    def actual_surface(ts, dur, token, cookie=None, jank=None, on_time_finish=None, display_frame_token=None,
                       layer_name=JC_LAYER):
        cookie = 100_002 + (token + 1 if cookie is None else cookie)
        if on_time_finish is None:
            on_time_finish = 1 if jank is None else 0
        ft.actual_surface(ts, cookie, token, display_frame_token or token + 100, JC_PID, layer_name,
                          PRESENT_ON_TIME if jank is None else PRESENT_LATE, on_time_finish, 0,
                          JANK_NONE if jank is None else jank, PREDICTION_UNKNOWN)
        ft.frame_end(ts + dur, cookie)

    expected_display(1_000_000_000, 16_000_000, 10)
    actual_display(1_000_000_000, 16_000_000, 10)
    expected_surface(0, 16_000_000, 10)
    actual_surface(0, 16_000_000, 10)
    expected_display(1_016_000_000, 20_000_000, 20)
    actual_display(1_016_000_000, 10_000_000, 20)
    expected_surface(8_000_000, 20_000_000, 20)
    actual_surface(8_000_000, 28_000_000, 20, jank=JANK_APP_DEADLINE_MISSED | JANK_SF_SCHEDULING)  # 66
    expected_display(1_032_000_000, 16_000_000, 30)
    actual_display(1_032_000_000, 16_000_000, 30)
    expected_surface(30_000_000, 20_000_000, 30)
    actual_surface(30_000_000, 25_000_000, 30, jank=JANK_APP_DEADLINE_MISSED)
    expected_display(1_048_000_000, 16_000_000, 40)
    actual_display(1_048_000_000, 16_000_000, 40)
    expected_surface(40_000_000, 20_000_000, 40)
    actual_surface(40_000_000, 40_000_000, 40, jank=JANK_APP_DEADLINE_MISSED)
    expected_display(1_070_000_000, 16_000_000, 60)
    actual_display(1_070_000_000, 16_000_000, 60)
    expected_surface(70_000_000, 20_000_000, 60)
    actual_surface(70_000_000, 10_000_000, 60, jank=JANK_APP_DEADLINE_MISSED)
    # A second layer finished later and was picked up by the next SurfaceFlinger frame (190).
    actual_surface(70_000_000, 20_000_000, 60, cookie=62, jank=JANK_APP_DEADLINE_MISSED, display_frame_token=190)
    expected_display(1_100_000_000, 16_000_000, 90)
    actual_display(1_100_000_000, 16_000_000, 90)
    expected_surface(100_000_000, 20_000_000, 90)
    actual_surface(100_000_000, 23_000_000, 90, jank=JANK_APP_DEADLINE_MISSED)
    expected_display(1_200_000_000, 16_000_000, 100)
    actual_display(1_200_000_000, 32_000_000, 100, jank=JANK_SF_CPU_DEADLINE_MISSED)
    expected_surface(200_000_000, 20_000_000, 100)
    actual_surface(200_000_000, 22_000_000, 100, jank=JANK_SF_GPU_DEADLINE_MISSED | JANK_SF_SCHEDULING)  # 34
    expected_surface(300_000_000, 20_000_000, 110)
    actual_surface(300_000_000, 61_000_000, 110, cookie=112)
    actual_surface(300_000_000, 80_000_000, 110, cookie=114, jank=JANK_APP_DEADLINE_MISSED,
                   layer_name="TX - JankyLayer#1")
    expected_surface(400_000_000, 20_000_000, 120)
    actual_surface(400_000_000, 61_000_000, 120, jank=JANK_BUFFER_STUFFING, on_time_finish=1)
    # Several layers, only one of them janky.
    expected_surface(500_000_000, 20_000_000, 130)
    actual_surface(500_000_000, 2_000_000, 130)
    actual_surface(550_000_000, 6_000_000, 130, cookie=132, jank=JANK_APP_DEADLINE_MISSED)
    # One layer; the actual frame starts after doFrame does.
    expected_surface(600_000_000, 20_000_000, 140)
    actual_surface(608_600_000, 17_000_000, 140, jank=JANK_APP_DEADLINE_MISSED)
    # SurfaceFlinger stuffing.
    expected_surface(650_000_000, 20_000_000, 145)
    actual_surface(650_000_000, 20_000_000, 145, jank=JANK_SF_STUFFING)
    expected_surface(700_000_000, 20_000_000, 150)
    actual_surface(700_500_000, 14_500_000, 150)
    # No actual frame for 160.
    expected_surface(800_000_000, 20_000_000, 160)
    expected_surface(1_100_000_000, 20_000_000, 1000)
    actual_surface(1_100_000_000, 500_000_000, 1000, jank=JANK_APP_DEADLINE_MISSED)

    t = TraceFile()
    # synth_common puts the process tree in the packet of the last add_package_list (ts 0).
    process_tree_packet(t, 0, [(JC_PID, 1, "com.android.systemui", 10001),
                               (JC_SF_PID, 1, "/system/bin/surfaceflinger", 1000)],
                        [(JC_RT, JC_PID, "RenderThread"), (JC_GPU, JC_PID, "GPU completion"),
                         (JC_JIT, JC_PID, "Jit thread pool"), (JC_SF_RE, JC_SF_PID, "RenderEngine")])
    p = packet()
    p.ftrace_events.cpu = 0
    for ts, tid, buf in prints:
        ev = p.ftrace_events.event.add()
        ev.timestamp, ev.pid = ts, tid
        getattr(ev, "print").buf = buf
    t.add(p, "ftrace cpu 0: atrace prints, in the generator's order (not time order)")
    frame_timeline_packets(t, ft.events)
    data, layout = t.build()

    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    fail_unless(unpaired == 0, unpaired)
    thread_slices = atrace_slices(prints)

    # The app's doFrame and DrawFrame slices with their stdlib frame ids (any thread of the app).
    app_slices = [s for (pid, _), slices in sorted(thread_slices.items()) for s in slices if pid == JC_PID]
    do_frames = sorted(((stdlib_frame_id(s["name"]), s) for s in app_slices
                        if s["name"].startswith("Choreographer#doFrame") and stdlib_frame_id(s["name"]) is not None),
                       key=lambda pair: pair[1]["ts"])
    draw_frames = sorted(((stdlib_frame_id(s["name"]), s) for s in app_slices
                          if s["name"].startswith("DrawFrame") and stdlib_frame_id(s["name"]) is not None),
                         key=lambda pair: pair[1]["ts"])

    # Rows are in trace processor's id order among FrameTimeline slices (time order, ties in parse order).
    app_actual = [r for r in actual_rows if r["pid"] == JC_PID and r["surface_frame_token"] is not None]
    app_expected = [r for r in expected_rows if r["pid"] == JC_PID and r["surface_frame_token"] is not None]
    frames = []
    for frame_id in sorted({r["surface_frame_token"] for r in app_actual}):
        layers = [r for r in app_actual if r["surface_frame_token"] == frame_id]
        first = layers[0]
        expected_slices = [r for r in app_expected if r["surface_frame_token"] == frame_id]
        fail_unless(len(expected_slices) <= 1, expected_slices)  # the parser keeps one per (process, token)
        exp = expected_slices[0] if expected_slices else None
        dos = [s for fid, s in do_frames if fid == frame_id]
        draws = [s for fid, s in draw_frames if fid == frame_id]
        frame = {
            "frame_id": frame_id,
            "expected_start": exp["ts"] if exp else None,
            "expected_end": exp["ts"] + exp["dur"] if exp else None,
            "actual_start": first["ts"],
            "actual_end": first["ts"] + first["dur"],
            "layers": [{"layer_name": r["layer_name"], "ts": r["ts"], "dur": r["dur"],
                        "display_frame_token": r["display_frame_token"], "jank_type": r["jank_type"],
                        "present_type": r["present_type"]} for r in layers],
            "jank_type": first["jank_type"],
            "present_type": first["present_type"],
            "jank_tag": first["jank_tag"],
            "on_time_finish": first["on_time_finish"],
            "do_frame_ts": dos[0]["ts"] if dos else None,
            "do_frame_dur": dos[0]["dur"] if dos else None,
            "draw_frame_dur": sum(s["dur"] for s in draws) if draws else None,
            "draw_frame_count": len(draws),
        }
        frame["overrun"] = frame["actual_end"] - frame["expected_end"] if exp else None
        frame["app_vsync_delay"] = frame["actual_start"] - frame["expected_start"] if exp else None
        parts = (frame["app_vsync_delay"], frame["do_frame_dur"], frame["draw_frame_dur"])
        frame["cpu_time"] = sum(parts) if None not in parts else None
        frames.append(frame)

    # --- The frames agree with trace processor's outputs, except where these explain why not. ---
    outputs = {key: diff_test_csv(text)[1] for key, (_, text) in JC_OUTPUTS.items()}
    by_id = {f["frame_id"]: f for f in frames}
    # Trace processor's per-frame tables pool every actual (and expected) slice whose name is the
    # frame id, in every process: SurfaceFlinger's display frames are named by display tokens
    # (100 + the app's token), and 110..160 are also app tokens.
    pooled_actual = {}
    for r in actual_rows:  # id order: the first is MIN(id)
        pooled_actual.setdefault(int(r["name"]), []).append(r)
    pooled_expected = {}
    for r in expected_rows:
        pooled_expected.setdefault(int(r["name"]), []).append(r)
    not_app_frames = {
        160: "the app has no actual surface frame for 160; trace processor's actual slice for frame 160 is "
             "SurfaceFlinger's display frame 160 (display token of app token 60, at 1070 ms), against the "
             "app's expected surface frame 160 (800-820 ms): overrun 266 ms, app_vsync_delay 270 ms, "
             "cpu_time 270 + 2 + 1 ms",
        190: "SurfaceFlinger's display frame 190 (display token of app token 90), not an app frame",
        200: "SurfaceFlinger's display frame 200 (display token of app token 100), not an app frame",
    }

    def pooled_explains(frame_id, overrun=None, delay=None):
        """Whether trace processor's pooling (MIN(id) actual of any process, an expected slice of that
        name of any process) gives these values."""
        actual = pooled_actual[frame_id][0]
        return any((overrun is None or actual["ts"] + actual["dur"] - (e["ts"] + e["dur"]) == overrun)
                   and (delay is None or actual["ts"] - e["ts"] == delay) for e in pooled_expected[frame_id])

    def check(table, key_columns, compute, explained):
        rows = {r["frame_id"]: r for r in outputs[table]}
        fail_unless(len(rows) == len(outputs[table]), f"{table}: a frame_id twice")
        mine = {f["frame_id"]: compute(f) for f in frames if None not in compute(f).values()}
        for frame_id, values in mine.items():
            fail_unless(frame_id in rows, f"{table}: frame {frame_id} computed here, absent from the .out")
            for column in key_columns:
                fail_unless(values[column] == rows[frame_id][column],
                            f"{table}: frame {frame_id} {column}: computed {values[column]}, .out "
                            f"{rows[frame_id][column]}")
        extra = set(rows) - set(mine)
        fail_unless(extra == set(explained), f"{table}: rows not computed here {sorted(extra)}, explained "
                                             f"{sorted(explained)}")
        return rows

    overrun_rows = check("android_frames_overrun", ["overrun"], lambda f: {"overrun": f["overrun"]},
                         [160, 190, 200])
    for frame_id in (160, 190, 200):
        fail_unless(pooled_explains(frame_id, overrun=overrun_rows[frame_id]["overrun"]), frame_id)
    delay_rows = check("android_app_vsync_delay_per_frame", ["app_vsync_delay"],
                       lambda f: {"app_vsync_delay": f["app_vsync_delay"]}, [160])
    fail_unless(pooled_explains(160, delay=delay_rows[160]["app_vsync_delay"]), 160)
    cpu_columns = ["app_vsync_delay", "do_frame_dur", "draw_frame_dur", "cpu_time"]
    cpu_rows = check("android_cpu_time_per_frame", cpu_columns, lambda f: {c: f[c] for c in cpu_columns}, [160])
    do_160 = [s for fid, s in do_frames if fid == 160]
    draw_160 = [s for fid, s in draw_frames if fid == 160]
    fail_unless((cpu_rows[160]["do_frame_dur"], cpu_rows[160]["draw_frame_dur"])
                == (do_160[0]["dur"], sum(s["dur"] for s in draw_160)), "frame 160's doFrame/DrawFrames")
    fail_unless(cpu_rows[160]["cpu_time"] == sum(cpu_rows[160][c] for c in cpu_columns[:3]), 160)

    def stats(f):
        flag = lambda condition: 1 if condition else None  # noqa: E731
        return {"overrun": f["overrun"], "cpu_time": f["cpu_time"], "ui_time": f["do_frame_dur"],
                "was_jank": flag(f["overrun"] is not None and f["overrun"] > 0),
                "was_slow_frame": flag(f["cpu_time"] is not None and f["cpu_time"] > 20_000_000),
                "was_big_jank": flag(f["cpu_time"] is not None and f["cpu_time"] > 50_000_000),
                "was_huge_jank": flag(f["cpu_time"] is not None and f["cpu_time"] > 200_000_000)}

    stat_columns = ["overrun", "cpu_time", "ui_time"]
    check("android_frame_stats", stat_columns, lambda f: {c: stats(f)[c] for c in stat_columns}, [160])
    for row in outputs["android_frame_stats"]:  # the flags, from the row's own figures
        f = {"overrun": row["overrun"], "cpu_time": row["cpu_time"], "do_frame_dur": row["ui_time"]}
        for column in ("was_jank", "was_slow_frame", "was_big_jank", "was_huge_jank"):
            fail_unless(stats(f)[column] == row[column], (row["frame_id"], column))
    # doFrame and DrawFrame tables: the same frame ids (and doFrame starts) in the same order.
    fail_unless([(r["frame_id"], r["ts"]) for r in outputs["android_frames_choreographer_do_frame"]]
                == [(fid, s["ts"]) for fid, s in do_frames], "android_frames_choreographer_do_frame")
    fail_unless([r["frame_id"] for r in outputs["android_frames_draw_frame"]] == [fid for fid, _ in draw_frames],
                "android_frames_draw_frame")
    # android_frames (this trace processor's version): one row per DrawFrame of the frame id; ts, dur
    # and counts over the pooled slices named by the frame id.
    for frame_id in sorted({r["frame_id"] for r in outputs["android_frames"]}):
        rows = [r for r in outputs["android_frames"] if r["frame_id"] == frame_id]
        actual, expected_named = pooled_actual[frame_id], pooled_expected[frame_id]
        fail_unless(len(rows) == len([1 for fid, _ in draw_frames if fid == frame_id]), (frame_id, "rows"))
        for r in rows:
            fail_unless((r["ts"], r["dur"], r["actual_frame_timeline_count"], r["expected_frame_timeline_count"])
                        == (min(a["ts"] for a in actual), max(a["dur"] for a in actual), len(actual),
                            len(expected_named)), (frame_id, r))
        if frame_id in by_id:
            fail_unless(rows[0]["ts"] == by_id[frame_id]["actual_start"], frame_id)
    # android_jank_cuj: a token is missed exactly when any of its actual slices on the layer is janky.
    janky_types = {"App Deadline Missed", "App Resynced Jitter", "SurfaceFlinger CPU Deadline Missed",
                   "SurfaceFlinger GPU Deadline Missed", "SurfaceFlinger Scheduling", "Prediction Error",
                   "Display HAL", "Dropped Frame"}
    cuj = cuj_frames(JC_CUJ_FRAMES)
    fail_unless([r["frame_number"] for r in cuj] == list(range(1, 14)), "android_jank_cuj: frames 1 to 13")
    for r in cuj:
        reasons = {part.strip() for layer in by_id[r["vsync"]]["layers"] if layer["layer_name"] == JC_LAYER
                   for part in (layer["jank_type"] or "").split(",")}
        fail_unless(bool(reasons & janky_types) == (r["app_missed"] or r["sf_missed"]), ("android_jank_cuj", r))
    fail_unless(outputs["android_first_frame_after"] == [{"frame_id": min(
        (f for f in frames if f["actual_start"] > 100_000_000), key=lambda f: f["actual_start"])["frame_id"]}],
        "android_first_frame_after")

    threads = [{"pid": JC_PID, "tid": JC_PID, "name": None, "slices": thread_slices[(JC_PID, JC_PID)],
                "instants": []},
               {"pid": JC_PID, "tid": JC_RT, "name": "RenderThread", "slices": thread_slices[(JC_PID, JC_RT)],
                "instants": []}]
    threads += [{"pid": pid, "tid": tid, "name": name, "slices": [], "instants": []}
                for tid, pid, name in [(JC_GPU, JC_PID, "GPU completion"), (JC_JIT, JC_PID, "Jit thread pool"),
                                       (JC_SF_RE, JC_SF_PID, "RenderEngine")]]
    tests = [f"test/trace_processor/diff_tests/stdlib/android/frames_tests.py Frames.{test}"
             for test, _ in JC_OUTPUTS.values()]
    expected = {
        "fixture": "android-frames-stdlib.pftrace",
        "kind": "android-frames-stdlib",
        "source": {
            "repository": "google/perfetto",
            "trace": f"test/trace_processor/diff_tests/metrics/graphics/android_jank_cuj.py at {JC_COMMIT} "
                     "(frames_tests.py names it '../../metrics/graphics/android_jank_cuj.py'), built with "
                     "test/synth_common.py, reduced to what the frame tables read (see notes)",
            "generator_commit": JC_COMMIT,
            "tests": tests,
            "tests_commit": JC_TESTS_COMMIT,
            "cuj_metric": f"test/trace_processor/diff_tests/metrics/graphics/android_jank_cuj.out at {JC_CUJ_COMMIT}: "
                          "android_jank_cuj_frames are its second CUJ's frame blocks (SHADE_ROW_EXPAND), verbatim",
            "expected_outputs": "each test's Csv(...) block at tests_commit, verbatim, as JSON rows: integers as "
                                "integers, \"[NULL]\" as null",
            "parser": "src/trace_processor/importers/proto/frame_timeline_event_parser.cc",
            "stdlib": "src/trace_processor/perfetto_sql/stdlib/android/frames/timeline.sql and "
                      "per_frame_metrics.sql (the version the outputs come from: see notes)",
        },
        **file_facts(data),
        "packets": len(layout),
        "app_pid": JC_PID,
        "processes": [{"pid": JC_PID, "name": "com.android.systemui"},
                      {"pid": JC_SF_PID, "name": "/system/bin/surfaceflinger"}],
        "threads": threads,
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "unpaired_frame_end_events": unpaired,
        "frames": frames,
        **outputs,
        "android_jank_cuj_frames": cuj,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": [
            "Reduced from the generator: kept are its process tree (processes 1000 com.android.systemui uid 10001 "
            "and 1050 /system/bin/surfaceflinger uid 1000; threads 1555 RenderThread, 1666 GPU completion, 1777 "
            "Jit thread pool, 1055 RenderEngine), every Choreographer#doFrame and DrawFrames slice (ftrace print "
            "B/E, in the generator's order in one cpu-0 bundle, 'B|1000|name' and 'E|1000' without a trailing "
            "newline, as synth_common writes them) and every FrameTimeline event with its timestamp, cookie, token, "
            "display token, pid, layer name, present/jank/prediction type and on_time_finish. Left out: the empty "
            "first packet, packages_list, the CUJ track descriptors and slices/instants, atrace counters, "
            "sched_switch, and the atrace slices no frame table reads (binder transaction, flush layers, "
            "dispatchFrameCallbacks, the GPU completion fence inside each DrawFrames, the GPU thread's waits, JIT "
            "and SurfaceFlinger slices). Timestamps are the generator's.",
            "The outputs' id, do_frame_id, draw_frame_id, actual/expected_frame_timeline_id columns are trace "
            "processor's slice ids for the full generator trace (its CUJ slices, binder and fence slices take ids "
            "too), and utid/upid are its thread/process ids: they are not positions in this file.",
            "frames (computed here from the events, not from the outputs): one per frame id with an actual surface "
            "frame of app_pid, in frame-id order. actual_* and jank_type/present_type/jank_tag/on_time_finish are "
            "the app's first actual surface slice for the token (trace processor's lowest id: earliest start, "
            "ties in file order); layers are all of them; expected_* the app's expected surface slice (one per "
            "token); do_frame_* the app's first 'Choreographer#doFrame <id>'; draw_frame_dur the sum of its "
            "'DrawFrame* <id>' slices. overrun = actual_end - expected_end, app_vsync_delay = actual_start - "
            "expected_start, cpu_time = app_vsync_delay + do_frame_dur + draw_frame_dur.",
            "Frame ids from slice names as the stdlib takes them: CAST(STR_SPLIT(name, ' ', 1) AS INT), kept unless "
            "NULL, 0 or -1; 'Choreographer#doFrame - resynced to 11 in 0.0s' gives 0 and is no frame. It begins "
            "and ends with doFrame 10, after it in the file, so it nests inside it (depth 1).",
            "The script asserts that frames agree with android_frames_overrun, android_app_vsync_delay_per_frame, "
            "android_cpu_time_per_frame and android_frame_stats for every frame id in both, and with the frame "
            "ids of android_frames_choreographer_do_frame and android_frames_draw_frame.",
            "Rows of the outputs with no entry in frames: 160 (overrun, app_vsync_delay, cpu_time, frame_stats, "
            "android_frames): " + not_app_frames[160] + ". 190 and 200 (overrun only): "
            + not_app_frames[190] + "; " + not_app_frames[200] + ". Trace processor pools actual slices by name "
            "across processes for these tables (MIN(id)).",
            "android_frames in this trace processor version has one row per DrawFrame slice (frames 90 and 100 "
            "twice) and takes ts = MIN(ts), dur = MAX(dur) and the counts over every actual/expected slice named "
            "by the frame id in any process: frames 110, 120, 130 and 140 also count SurfaceFlinger's display "
            "frames 110-140 (130's dur 16 ms is display frame 130's), and 160's row is display frame 160's. The "
            "script asserts these pooled figures too.",
            "No frame_interval_ns: the generator has no vsync period (expected surface frames last 16 or 20 ms and "
            "tokens are not vsync-spaced).",
            "The main thread (tid 1000) has no process_tree thread entry: its name is null.",
        ] + FRAME_TIMELINE_NOTES[:1],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# f. hostile files, written byte by byte
# ---------------------------------------------------------------------------------------------
H_PROC, H_THREAD = 10, 11


def h_descriptor_packets():
    """Three valid packets: process and thread TrackDescriptors, interned names on sequence 1."""
    proc = f_len(60, f_varint(1, H_PROC) + f_len(3, f_varint(1, 42) + f_len(6, "hostile")))
    thread = f_len(60, f_varint(1, H_THREAD) + f_varint(5, H_PROC)
                   + f_len(4, f_varint(1, 42) + f_varint(2, 42) + f_len(5, "main")))
    return [f_varint(8, 1000) + f_varint(10, 1) + f_varint(13, 1) + proc,
            f_varint(8, 1000) + f_varint(10, 1) + thread]


def h_event(ts, type_, name_iid=None, extra=b"", interned=b""):
    body = f_varint(9, type_) + f_varint(11, H_THREAD)
    if name_iid is not None:
        body = f_varint(10, name_iid) + body
    return f_varint(8, ts) + f_varint(10, 1) + f_len(11, body + extra) + (f_len(12, interned) if interned else b"") \
        + f_varint(13, 2)


def h_names(*pairs):
    return b"".join(f_len(2, f_varint(1, iid) + f_len(2, name)) for iid, name in pairs)


def frame(packets):
    t = TraceFile()
    for label, body in packets:
        t.add(body, label)
    return t.build()


def hostile_expected(name, data, layout, outcome, **more):
    return {
        "fixture": name,
        "kind": "hostile",
        "source": {"generator": GENERATOR},
        **file_facts(data),
        "packets": [{"label": p["label"], "tag_offset": p["tag_offset"], "length_offset": p["length_offset"],
                     "payload_offset": p["payload_offset"], "length": p["length"]} for p in layout],
        **outcome,
        **more,
    }


def truncated_last_packet():
    d = h_descriptor_packets()
    packets = [("process track", d[0]), ("thread track", d[1]),
               ("work begin", h_event(2000, SLICE_BEGIN, 1, interned=h_names((1, "work"), (2, "tail")))),
               ("work end", h_event(5000, SLICE_END)),
               ("tail instant", h_event(6000, INSTANT, 2, extra=f_len(4, f_len(10, "note") + f_len(6, "x" * 40))))]
    full, layout = frame(packets)
    last = layout[-1]
    cut = last["payload_offset"] + last["length"] // 2
    data = full[:cut]
    outcome = {
        "outcome": "truncated",
        "expected": {
            "complete_packets": len(layout) - 1,
            "threads": [{"pid": 42, "tid": 42, "name": "main",
                         "slices": [{"name": "work", "category": "", "ts": 2000, "dur": 3000, "depth": 0, "args": {}}],
                         "instants": []}],
            "processes": [{"pid": 42, "name": "hostile"}],
        },
        "truncation": {
            "packet_tag_offset": last["tag_offset"],
            "length_varint_offset": last["length_offset"],
            "payload_offset": last["payload_offset"],
            "declared_length": last["length"],
            "bytes_available": len(data) - last["payload_offset"],
        },
        "diagnostic": {"kind": "truncated", "byte_offset": last["tag_offset"],
                       "missing_bytes": last["length"] - (len(data) - last["payload_offset"])},
        "notes": [
            "A writer killed mid-packet: every packet before the last is whole, the last declares "
            f"{last['length']} bytes and has {len(data) - last['payload_offset']}.",
            "The reader reads the complete packets (the 'work' slice) and reports a 'truncated' diagnostic at the "
            "cut packet's key byte, with the bytes missing, as the JSON reader does for stream-killed-mid-write.json; "
            "repair cuts the torn packet.",
        ],
    }
    layout[-1]["label"] += " (cut here)"
    return data, hostile_expected("truncated-last-packet.pftrace", data, layout, outcome)


def varint_too_long():
    d = h_descriptor_packets()
    bad_varint = b"\xff" * 10 + b"\x01"  # 11 bytes: continuation bits on the first ten
    bad_packet = key(8, VARINT) + bad_varint + f_varint(10, 1) + f_len(11, f_varint(9, INSTANT) + f_varint(11, H_THREAD))
    packets = [("process track", d[0]), ("thread track", d[1]),
               ("instant whose timestamp varint has 11 bytes", bad_packet),
               ("a valid packet after it", h_event(9000, INSTANT, 1, interned=h_names((1, "after"))))]
    data, layout = frame(packets)
    varint_offset = layout[2]["payload_offset"] + 1
    assert data[varint_offset:varint_offset + 11] == bad_varint
    outcome = {
        "outcome": "error",
        "error": {"code": "invalid-protobuf", "byte_offset": varint_offset,
                  "message_contains": "varint"},
        "varint": {"byte_offset": varint_offset, "bytes": bad_varint.hex(), "field": "TracePacket.timestamp (8)"},
        "notes": [
            "The third packet's timestamp varint has eleven bytes; a varint has at most ten. byte_offset is its "
            "first byte (the byte after the field's key), absolute in the file.",
            "Its tenth byte is 0xff: past 63 bits of value, so ProtobufInput's 'longer than 64 bits' check fires "
            "first, at the same offset (its 'longer than ten bytes' branch cannot be reached: a tenth byte that "
            "continues is always > 1).",
            "Trace processor fails the whole trace on such a packet ('Failed to parse proto packet fully').",
        ],
    }
    return data, hostile_expected("varint-too-long.pftrace", data, layout, outcome)


def length_beyond_file():
    d = h_descriptor_packets()
    declared = 100_000
    inner = f_varint(9, INSTANT)  # a few real bytes of the TrackEvent
    bad_packet = f_varint(8, 3000) + f_varint(10, 1) + key(11, LEN) + varint(declared) + inner
    packets = [("process track", d[0]), ("thread track", d[1]),
               ("packet whose track_event claims 100000 bytes", bad_packet),
               ("a valid packet after it", h_event(9000, INSTANT, 1, interned=h_names((1, "after"))))]
    data, layout = frame(packets)
    bad = layout[2]
    field_offset = bad["payload_offset"] + len(f_varint(8, 3000) + f_varint(10, 1))
    length_offset = field_offset + 1
    assert data[field_offset] == (11 << 3) | LEN
    outcome = {
        "outcome": "error",
        "error": {"code": "invalid-protobuf", "byte_offset": length_offset, "message_contains": "length"},
        "length_field": {"field": "TracePacket.track_event (11)", "key_offset": field_offset,
                         "length_varint_offset": length_offset, "declared_length": declared,
                         "bytes_left_in_packet": bad["payload_offset"] + bad["length"] - (length_offset + len(varint(declared))),
                         "bytes_left_in_file": len(data) - (length_offset + len(varint(declared)))},
        "notes": [
            "The packet's own length is right (a valid packet follows it); inside it, track_event declares 100000 "
            "bytes, past the end of the packet and of the file. That is corruption, not a cut-off file: "
            "invalid-protobuf at the length varint (ProtobufInput.lengthDelimited: the length runs past its "
            "message), not unexpected-end.",
        ],
    }
    return data, hostile_expected("length-beyond-file.pftrace", data, layout, outcome)


def first_packet_beyond_file():
    declared = 1 << 40
    body = f_varint(8, 100_000) + f_varint(10, 1) + f_varint(13, 1)  # the first 8 bytes of a packet
    data = key(1, LEN) + varint(declared) + body
    assert len(data) == 15
    layout = [{"label": "the first packet, claiming 2^40 bytes", "tag_offset": 0, "length_offset": 1,
               "payload_offset": 1 + len(varint(declared)), "length": declared}]
    outcome = {
        "outcome": "error",
        "error": {"code": "invalid-protobuf", "byte_offset": 0,
                  "message": f"the first packet claims {declared} bytes but only {len(body)} follow its length, "
                             f"in an input of {len(data)} bytes: not a whole Perfetto packet",
                  "message_contains": "first packet"},
        "notes": [
            "No packet is whole, so nothing can be read: an error (exit 3), not an empty trace with a 'truncated' "
            "diagnostic. A first packet cut by the end of the file is unexpected-end; this one's length is also "
            "2 GiB or more, which no protobuf message can be, so its code is invalid-protobuf.",
        ],
    }
    return data, hostile_expected("first-packet-beyond-file.pftrace", data, layout, outcome)


def last_packet_length_over_2gib():
    d = h_descriptor_packets()
    whole, layout = frame([("process track", d[0]), ("thread track", d[1])])
    declared = 1 << 40
    tail = f_varint(8, 7000) + f_varint(10, 1)
    data = whole + key(1, LEN) + varint(declared) + tail
    start = len(whole)
    layout.append({"label": "a packet claiming 2^40 bytes (the end of the file)", "tag_offset": start,
                   "length_offset": start + 1, "payload_offset": start + 1 + len(varint(declared)),
                   "length": declared})
    outcome = {
        "outcome": "error",
        "error": {"code": "invalid-protobuf", "byte_offset": start,
                  "message": f"the packet claims {declared} bytes, and no protobuf message is 2 GiB or more: "
                             "a corrupt length, not a packet cut off mid-write",
                  "message_contains": "2 GiB"},
        "notes": [
            "Two whole packets, then one whose length runs past the end of the file like a torn packet's, but "
            "declares 2^40 bytes. Protobuf's encoding allows no message of 2 GiB or more, so no writer was writing "
            "it: a corrupt length, an error wherever it is, where a torn packet of a possible length loads with a "
            "'truncated' diagnostic.",
        ],
    }
    return data, hostile_expected("last-packet-length-over-2gib.pftrace", data, layout, outcome)


def deep_nesting():
    d = h_descriptor_packets()
    levels = 200
    # Level 200 is the leaf (int 1); levels 199..2 are dict entries named d199..d2; level 1 is the
    # slice's annotation, named by iid 1 ("nest"): 199 dicts around an int.
    inner = f_len(10, "leaf") + f_varint(4, 1)
    for level in range(levels - 1, 1, -1):
        inner = f_len(10, f"d{level}") + f_len(11, inner)
    nest = f_varint(1, 1) + f_len(11, inner)
    shallow = f_varint(1, 2) + f_varint(4, 1)
    annotations = f_len(4, shallow) + f_len(4, nest)
    begin = f_varint(8, 2000) + f_varint(10, 1) + f_len(11, f_varint(10, 1) + f_varint(9, SLICE_BEGIN)
                                                         + f_varint(11, H_THREAD) + annotations) \
        + f_len(12, h_names((1, "deep")) + b"".join(f_len(3, f_varint(1, iid) + f_len(2, n))
                                                    for iid, n in [(1, "nest"), (2, "shallow")])) + f_varint(13, 2)
    packets = [("process track", d[0]), ("thread track", d[1]), ("deep begin", begin),
               ("deep end", h_event(7000, SLICE_END))]
    data, layout = frame(packets)
    nest_offset = data.index(f_len(4, nest))
    outcome = {
        "outcome": "loads",
        "expected": {
            "threads": [{"pid": 42, "tid": 42, "name": "main",
                         "slices": [{"name": "deep", "category": "", "ts": 2000, "dur": 5000, "depth": 0,
                                     "args": {"shallow": 1}}], "instants": []}],
        },
        "diagnostic": {"kind": "skipped-argument", "count": 1, "byte_offset": nest_offset},
        "nesting": {"annotation": "nest", "dict_levels": levels - 1, "annotation_levels": levels,
                    "kept_nesting_depth": 64, "annotation_key_offset": nest_offset,
                    "bytes": len(f_len(4, nest))},
        "notes": [
            "The slice's second annotation, 'nest', is a dict_entries chain 200 DebugAnnotations deep (199 "
            "dicts, then int 1). It must not overflow the stack. Recommended, as the JSON reader does with "
            "TraceReader.keptNestingDepth (64): skip that argument with a 'skipped-argument' diagnostic and "
            "keep the slice and its other argument.",
            "byte_offset is the key byte of the 'nest' annotation (TrackEvent.debug_annotations, field 4).",
            "The file is well-formed protobuf (203 nested messages at the deepest), but Python's protobuf (upb) "
            "refuses it: it allows 100 nested messages.",
        ],
    }
    return data, hostile_expected("deep-nesting.pftrace", data, layout, outcome)


def undefined_iid():
    d = h_descriptor_packets()
    good = h_event(2000, SLICE_BEGIN, 1, interned=h_names((1, "known"), (2, "other")))
    bad = h_event(3000, SLICE_BEGIN, 7)
    packets = [("process track", d[0]), ("thread track", d[1]), ("known begin", good),
               ("begin naming iid 7, never defined", bad),
               ("end (iid 7 slice)", h_event(4000, SLICE_END)), ("end (known)", h_event(6000, SLICE_END))]
    data, layout = frame(packets)
    bad_layout = layout[3]
    # h_event writes timestamp, sequence id, then track_event whose first field is name_iid.
    prefix = f_varint(8, 3000) + f_varint(10, 1)
    event_length = len(f_varint(10, 7) + f_varint(9, SLICE_BEGIN) + f_varint(11, H_THREAD))
    name_offset = bad_layout["payload_offset"] + len(prefix) + len(key(11, LEN)) + len(varint(event_length))
    assert data[name_offset:name_offset + 2] == f_varint(10, 7)
    outcome = {
        "outcome": "loads",
        "expected": {
            "threads": [{"pid": 42, "tid": 42, "name": "main",
                         "slices": [{"name": "known", "category": "", "ts": 2000, "dur": 4000, "depth": 0, "args": {}},
                                    {"name": None, "name_is_placeholder": True, "category": "", "ts": 3000,
                                     "dur": 1000, "depth": 1, "args": {}}],
                         "instants": []}],
        },
        "diagnostic": {"kind": "invalid-event", "count": 1, "byte_offset": name_offset},
        "undefined": {"field": "TrackEvent.name_iid (10)", "iid": 7, "defined_iids": [1, 2],
                      "name_iid_key_offset": name_offset, "packet_tag_offset": bad_layout["tag_offset"]},
        "notes": [
            "Trace processor keeps the slice with a NULL name (ParseTrackEventName returns kNullStringId when the "
            "iid is not interned). Expected: keep it (its time is real work on the thread) under a placeholder "
            "name (name_is_placeholder: any name that says the iid is undefined, e.g. '(undefined name iid 7)', or "
            "an empty one) with an 'invalid-event' diagnostic; byte_offset is the name_iid field's key byte "
            "(its packet starts at packet_tag_offset). Its END still closes it, so 'known' keeps its duration.",
        ],
    }
    return data, hostile_expected("undefined-iid.pftrace", data, layout, outcome)


def huge_timestamp():
    d = h_descriptor_packets()
    limit = 1 << 60  # TraceEvent.timeLimitNanoseconds
    near = limit - 3000
    packets = [("process track", d[0]), ("thread track", d[1]),
               ("begin at 2^60-3000", h_event(near, SLICE_BEGIN, 1,
                                              interned=h_names((1, "near-limit"), (2, "at-limit"), (3, "2^62"),
                                                               (4, "past-int64")))),
               ("end at 2^60-2000", h_event(near + 1000, SLICE_END)),
               ("instant at 2^60 (the limit itself)", h_event(limit, INSTANT, 2)),
               ("instant at 2^62 (fits Int64, past the limit)", h_event(1 << 62, INSTANT, 3)),
               ("instant at 2^63+5 (past Int64.max)", h_event((1 << 63) + 5, INSTANT, 4))]
    data, layout = frame(packets)
    rejected = []
    for index, value in [(5, 1 << 62), (6, (1 << 63) + 5)]:
        packet_layout = layout[index]
        assert data[packet_layout["payload_offset"]] == (8 << 3) | VARINT
        rejected.append({"ts": u64(value), "timestamp_varint_offset": packet_layout["payload_offset"] + 1,
                         "packet_tag_offset": packet_layout["tag_offset"]})
    outcome = {
        "outcome": "loads",
        "expected": {
            "threads": [{"pid": 42, "tid": 42, "name": "main",
                         "slices": [{"name": "near-limit", "category": "", "ts": u64(near), "dur": 1000, "depth": 0,
                                     "args": {}}],
                         "instants": [{"name": "at-limit", "category": "", "ts": u64(limit), "args": {}}]}],
        },
        "diagnostic": {"kind": "invalid-event", "count": 2, "byte_offsets": [r["timestamp_varint_offset"] for r in rejected]},
        "timestamps": {"time_limit_ns": u64(limit), "kept": [u64(near), u64(near + 1000), u64(limit)],
                       "rejected": rejected},
        "notes": [
            "framescope's model keeps times within TraceEvent.timeLimitNanoseconds (2^60 ns) and drops events "
            "beyond it with a diagnostic, in both readers. TracePacket.timestamp is uint64: 2^62 fits an Int64 but "
            "is past the limit; 2^63+5 does not fit an Int64 at all (a reader that converts before checking traps "
            "or wraps negative, as trace processor's int64 does). Both instants are dropped, each with an "
            "'invalid-event' diagnostic; byte_offsets are their timestamp varints' first bytes.",
            "The slice near the limit must stay exact: dur 1000 and ts 2^60-3000, which Doubles cannot give "
            "(their spacing there is 256). An instant exactly at the limit is kept.",
            "Trace processor itself would keep the 2^62 instant.",
        ],
    }
    return data, hostile_expected("huge-timestamp.pftrace", data, layout, outcome)


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


def frame_timeline_descriptor_check(data):
    """Decodes every field 76 in a file through a descriptor built from the .proto's numbers, and
    checks it against what was encoded (a second, independent reading of the same bytes)."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    fd = descriptor_pb2.FileDescriptorProto(name="ft_check.proto", package="ftcheck", syntax="proto2")
    T = descriptor_pb2.FieldDescriptorProto
    types = {"cookie": T.TYPE_INT64, "token": T.TYPE_INT64, "display_frame_token": T.TYPE_INT64,
             "pid": T.TYPE_INT32, "layer_name": T.TYPE_STRING, "present_type": T.TYPE_INT32,
             "on_time_finish": T.TYPE_BOOL, "gpu_composition": T.TYPE_BOOL, "jank_type": T.TYPE_INT32,
             "prediction_type": T.TYPE_INT32, "is_buffer": T.TYPE_BOOL, "jank_severity_type": T.TYPE_INT32}
    event = fd.message_type.add(name="FrameTimelineEvent")
    for kind, fields in FT_FIELDS.items():
        msg = event.nested_type.add(name=FT_KIND_NAMES[kind].title().replace("_", ""))
        for name, number in fields:
            msg.field.add(name=name, number=number, type=types[name], label=T.LABEL_OPTIONAL)
        event.field.add(name=FT_KIND_NAMES[kind], number=kind, type=T.TYPE_MESSAGE, label=T.LABEL_OPTIONAL,
                        type_name=".ftcheck.FrameTimelineEvent." + msg.name)
    pkt = fd.message_type.add(name="Packet")
    pkt.field.add(name="timestamp", number=8, type=T.TYPE_UINT64, label=T.LABEL_OPTIONAL)
    pkt.field.add(name="frame_timeline_event", number=FT_FIELD, type=T.TYPE_MESSAGE, label=T.LABEL_OPTIONAL,
                  type_name=".ftcheck.FrameTimelineEvent")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    Packet = message_factory.GetMessageClass(pool.FindMessageTypeByName("ftcheck.Packet"))
    decoded = []
    for p in pb.Trace.FromString(data).packet:
        q = Packet.FromString(p.SerializeToString())
        if not q.HasField("frame_timeline_event"):
            continue
        kinds = [(kind, getattr(q.frame_timeline_event, name)) for kind, name in FT_KIND_NAMES.items()
                 if q.frame_timeline_event.HasField(name)]
        assert len(kinds) == 1
        kind, msg = kinds[0]
        decoded.append((q.timestamp, kind, {f.name: v for f, v in msg.ListFields()}))
    return decoded


def check_frame_timeline(data, events):
    decoded = frame_timeline_descriptor_check(data)
    want = [(e.ts, e.kind, {k: (bool(v) if k in ("on_time_finish", "gpu_composition", "is_buffer") else v)
                            for k, v in e.fields.items()}) for e in events]
    assert decoded == want, "FrameTimeline bytes do not decode back to the events"
    return len(decoded)


# Which length-delimited fields the wire walker descends into (the rest it skips).
WALK_SCHEMA = {
    "Trace": {1: "TracePacket"},
    "TracePacket": {1: "FtraceEventBundle", 2: "ProcessTree", 11: "TrackEvent", 12: "InternedData",
                    60: "TrackDescriptor", 76: "FrameTimelineEvent"},
    "TrackEvent": {4: "DebugAnnotation", 32: "ChromeFrameReporter"},
    "DebugAnnotation": {11: "DebugAnnotation", 12: "DebugAnnotation"},
    "InternedData": {1: "Interned", 2: "Interned", 3: "Interned", 29: "Interned"},
    "TrackDescriptor": {3: "ProcessDescriptor", 4: "ThreadDescriptor", 8: "CounterDescriptor"},
    "ProcessTree": {1: "Process", 2: "Thread"},
    "FtraceEventBundle": {2: "FtraceEvent"},
    "FtraceEvent": {3: "Print", 4: "SchedSwitch"},
    "FrameTimelineEvent": {1: "Start", 2: "Start", 3: "Start", 4: "Start", 5: "Start"},
}


# Protobuf's limit on a message (2 GiB): a declared length this large is corrupt, never cut off.
LENGTH_LIMIT = 1 << 31


def wire_walk(data):
    """Reads a file's wire format without recursion, the way ProtobufInput and framescope's rule
    for a torn file do (same outcomes and offsets): ("ok", deepest message nesting),
    ("truncated", byte_offset of the torn top-level field's key, missing bytes or None when its
    length is cut), or ("error", code, byte_offset, message).

    The input running out inside a top-level field is a writer killed mid-packet ("truncated")
    after at least one whole field; in the first one (byte 0) it is an error, unexpected-end at
    byte 0; a declared length of 2 GiB or more is invalid-protobuf at the field's key wherever it
    is. Inside a whole packet every overrun is invalid-protobuf where ProtobufInput reports it."""
    stack = [(len(data), "Trace")]
    pos = 0
    deepest = 1

    def read_varint(pos, end):
        start, result, shift = pos, 0, 0
        while True:
            if pos >= end:
                return None, ("cut", start, "a varint runs past the end of its message")
            byte = data[pos]
            pos += 1
            if shift == 63 and byte > 1:
                return None, ("invalid-protobuf", start, "a varint is longer than 64 bits")
            result |= (byte & 0x7F) << shift
            if byte < 0x80:
                return (result, pos), None
            shift += 7
            if shift > 63:
                return None, ("invalid-protobuf", start, "a varint is longer than ten bytes")

    def cut(field_start, error, declared=None, present=None):
        """The outcome of running out of bytes: a torn top-level field, or an error."""
        code, offset, message = error
        if code != "cut":
            return ("error", code, offset, message)
        if len(stack) > 1:
            return ("error", "invalid-protobuf", offset, message)
        if declared is not None and declared >= LENGTH_LIMIT:
            return ("error", "invalid-protobuf", field_start, f"a length of {declared} bytes: past protobuf's 2 GiB")
        if field_start == 0:
            return ("error", "unexpected-end", 0, "no whole packet: " + message)
        return ("truncated", field_start, None if declared is None else declared - present)

    while stack:
        end, kind = stack[-1]
        if pos >= end:
            stack.pop()
            continue
        start = pos
        value, error = read_varint(pos, end)
        if error:
            return cut(start, error)
        field_key, pos = value
        field, wire = field_key >> 3, field_key & 7
        if field == 0 or wire not in (VARINT, FIXED64, LEN, FIXED32):
            return ("error", "invalid-protobuf", start, f"field {field}, wire type {wire}")
        if wire == VARINT:
            value, error = read_varint(pos, end)
            if error:
                return cut(start, error)
            pos = value[1]
        elif wire in (FIXED64, FIXED32):
            size = 8 if wire == FIXED64 else 4
            if end - pos < size:
                return cut(start, ("cut", pos, "a fixed field runs past the end of its message"), size, end - pos)
            pos += size
        else:
            length_start = pos
            value, error = read_varint(pos, end)
            if error:
                return cut(start, error)
            length, pos = value
            if length > end - pos:
                return cut(start, ("cut", length_start, f"a length of {length} bytes runs past the end of its "
                                                        f"{'file' if len(stack) == 1 else 'message'}"),
                           length, end - pos)
            child = WALK_SCHEMA.get(kind, {}).get(field)
            if child is not None:
                stack.append((pos + length, child))
                deepest = max(deepest, len(stack))
            else:
                pos += length
    return ("ok", deepest)


# ---------------------------------------------------------------------------------------------
# legacy-events: Chrome's TrackEvent.legacy_event (type unspecified), as Chrome's tracing writes
# events from its TRACE_EVENT macros that have no typed form: the JSON phase and its fields.
# ---------------------------------------------------------------------------------------------
LG_PID, LG_MAIN, LG_OTHER = 4321, 4321, 4377
LG_PROC_UUID, LG_MAIN_UUID = 0x700, 0x701


def legacy_events():
    t = TraceFile()
    p = packet(ts=0, seq=1, flags=SEQ_INCREMENTAL_STATE_CLEARED, first=True)
    p.track_descriptor.uuid = LG_PROC_UUID
    p.track_descriptor.process.pid = LG_PID
    p.track_descriptor.process.process_name = "Renderer"
    t.add(p, "process track")
    p = packet(ts=0, seq=1)
    p.track_descriptor.uuid = LG_MAIN_UUID
    p.track_descriptor.parent_uuid = LG_PROC_UUID
    p.track_descriptor.thread.pid = LG_PID
    p.track_descriptor.thread.tid = LG_MAIN
    p.track_descriptor.thread.thread_name = "CrRendererMain"
    t.add(p, "main thread track")

    def legacy(ts, name, phase, label, dur_us=None, unscoped_id=None, global_id=None, tid_override=None,
               category="devtools.timeline", args=()):
        p = packet(ts=ts, seq=1)
        e = p.track_event
        e.track_uuid = LG_MAIN_UUID
        e.name = name
        e.categories.append(category)
        for key, value in args:
            ann(e.debug_annotations, name=key, int_value=value)
        e.legacy_event.phase = ord(phase)
        if dur_us is not None:
            e.legacy_event.duration_us = dur_us
        if unscoped_id is not None:
            e.legacy_event.unscoped_id = unscoped_id
        if global_id is not None:
            e.legacy_event.global_id = global_id
        if tid_override is not None:
            e.legacy_event.tid_override = tid_override
        return t.add(p, label)

    legacy(1_000_000, "ParseHTML", "X", "X: a complete event, 2000 us", dur_us=2000, args=[("line", 12)])
    legacy(1_500_000, "EvaluateScript", "X", "X nested in ParseHTML, 250 us", dur_us=250)
    legacy(2_000_000, "Load", "b", "b: nestable async begin, unscoped id 0x42", unscoped_id=0x42, category="loading")
    legacy(3_000_000, "WorkerTask", "X", "X on another thread (tid_override)", dur_us=500, tid_override=LG_OTHER)
    legacy(4_000_000, "RunTask", "B", "B: begin")
    legacy(5_000_000, "RunTask", "E", "E: end")
    legacy(6_000_000, "Mark", "I", "I: an instant")
    legacy(7_000_000, "Load", "e", "e: nestable async end, unscoped id 0x42", unscoped_id=0x42, category="loading")
    legacy(7_500_000, "Navigation", "S", "S: async begin, global id 7", global_id=7, category="navigation")
    legacy(8_000_000, "Navigation", "F", "F: async end, global id 7", global_id=7, category="navigation")
    skipped = [
        legacy(8_500_000, "Counter", "C", "C: a legacy counter (not read; counted)"),
        legacy(9_000_000, "Orphan", "b", "b without an id (not read; counted)"),
    ]
    data, layout = t.build()

    def ev(phase, name, category, tid, ts, dur=None, id_=None, args=None):
        out = {"phase": phase, "name": name, "category": category, "pid": LG_PID, "tid": tid, "ts": ts}
        if dur is not None:
            out["dur"] = dur
        if id_ is not None:
            out["id"] = u64(id_)
        out["args"] = args or {}
        return out

    expected = {
        "fixture": "legacy-events.pftrace",
        "kind": "legacy-events",
        "source": {"generator": GENERATOR, "case": "legacy_events()"},
        **file_facts(data),
        "packets": len(layout),
        "threads": [{"pid": LG_PID, "tid": LG_MAIN, "name": "CrRendererMain"}],
        "events": [
            ev("X", "ParseHTML", "devtools.timeline", LG_MAIN, 1_000_000, dur=2_000_000, args={"line": 12}),
            ev("X", "EvaluateScript", "devtools.timeline", LG_MAIN, 1_500_000, dur=250_000),
            ev("b", "Load", "loading", LG_MAIN, 2_000_000, id_=0x42),
            ev("X", "WorkerTask", "devtools.timeline", LG_OTHER, 3_000_000, dur=500_000),
            ev("X", "RunTask", "devtools.timeline", LG_MAIN, 4_000_000, dur=1_000_000),
            ev("i", "Mark", "devtools.timeline", LG_MAIN, 6_000_000),
            ev("e", "Load", "loading", LG_MAIN, 7_000_000, id_=0x42),
            ev("b", "Navigation", "navigation", LG_MAIN, 7_500_000, id_=7),
            ev("e", "Navigation", "navigation", LG_MAIN, 8_000_000, id_=7),
        ],
        "skipped": {
            "count": len(skipped),
            "packet_offsets": [layout[i]["tag_offset"] for i in skipped],
            "kinds": ["legacy event of phase 'C'", "legacy event of phase 'b' without an id"],
        },
        "notes": [
            "Every event is a TrackEvent of type unspecified (0) with legacy_event set, on the thread's track: "
            "phase is the JSON phase's character code.",
            "B/E and X become the thread's slices (X ends duration_us later); I is a thread instant.",
            "b/e (nestable async) and S/F (async) pair by id in the thread's process, as Chrome's JSON pairs them; "
            "the id is whichever of unscoped_id, local_id or global_id is set.",
            "tid_override moves an event to that thread of the same process.",
            "Phases framescope does not read (here a legacy counter) and async events without an id are skipped "
            "and counted, never fatal.",
        ],
    }
    return data, expected


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
