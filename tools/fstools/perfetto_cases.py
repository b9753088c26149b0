"""The TrackEvent and ftrace fixtures: track-event-basics, chrome-pipeline-reporter,
atrace-android-app and legacy-events, each as (bytes, expected)."""
from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

from .perfetto_wire import f_fixed32, f_fixed64, f_len, f_varint, u64
from .perfetto_packets import (
    COUNTER, GENERATOR, INSTANT, SEQ_INCREMENTAL_STATE_CLEARED, SEQ_NEEDS_INCREMENTAL_STATE, SLICE_BEGIN, SLICE_END,
    TraceFile, ann, file_facts, intern, packet, track_event,
)


# ---------------------------------------------------------------------------------------------
# a. track-event-basics
# ---------------------------------------------------------------------------------------------
PID = 1234
MAIN_TID, WORKER_TID = 1234, 1240
PROC_UUID, MAIN_UUID, WORKER_UUID, COUNTER_UUID = 100, 101, 102, 103
FLOW_A = 1001
FLOW_B = (1 << 63) + 7  # a fixed64 flow id past Int64.max


BASICS_NOTES = [
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
]


def basics_tracks(t):
    """Sequence 1 describes the process, main thread and counter tracks."""
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


def basics_frame_begin(t):
    """The frame and layout slices begin with every annotation kind; the first counter value."""
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


def basics_main_thread(t, unknown):
    """The rest of sequence 1: counters, the instant, apply, the reset that redefines iid 1, commit."""
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


def basics_worker(t, unknown):
    """Sequence 2: the worker's track and slices, reusing iid 1 for other strings."""
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


def basics_dropped(t):
    """Sequence 3: never cleared, so both its packets are dropped."""
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
    return dropped


def basics_expected(data, layout, unknown, dropped):
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
        "notes": BASICS_NOTES,
    }
    return expected


def track_event_basics():
    t = TraceFile()
    unknown = []  # TracePacket fields of numbers Perfetto does not define, one per wire type
    basics_tracks(t)
    basics_frame_begin(t)
    basics_main_thread(t, unknown)
    basics_worker(t, unknown)
    dropped = basics_dropped(t)
    data, layout = t.build()
    return data, basics_expected(data, layout, unknown, dropped)



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


CHROME_NOTES = [
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
]


def chrome_tracks(t, seq):
    """The renderer's process and thread tracks, and the two unnamed PipelineReporter tracks."""
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


class ReporterWriter:
    """Writes slices on one sequence as Chrome's SDK does: names interned at first use, the three
    categories interned once."""

    def __init__(self, t, seq):
        self.t, self.seq = t, seq
        self.interned = {}  # name -> iid, assigned at first use, as the SDK does
        self.categories_interned = False

    def name_iid(self, p, name):
        if name not in self.interned:
            self.interned[name] = len(self.interned) + 1
            intern(p, names=[(self.interned[name], name)])
        return self.interned[name]

    def cat_iids(self, p):
        if not self.categories_interned:
            intern(p, categories=[(i + 1, c) for i, c in enumerate(CR_CATEGORIES)])
            self.categories_interned = True
        return [1, 2, 3]

    def begin(self, ts, track, name, reporter=None, cats=True):
        p = packet(ts=ts, seq=self.seq, flags=SEQ_NEEDS_INCREMENTAL_STATE)
        e = track_event(p, SLICE_BEGIN, track, name_iid=self.name_iid(p, name), category_iids=self.cat_iids(p) if cats else [])
        if reporter:
            r = e.chrome_frame_reporter
            r.state = reporter["state"]
            r.frame_source = reporter["frame_source"]
            r.frame_sequence = reporter["frame_sequence"]
            r.affects_smoothness = reporter["affects_smoothness"]
            r.scroll_state = reporter["scroll_state"]
            r.layer_tree_host_id = reporter["layer_tree_host_id"]
        self.t.add(p, name + " begin")

    def end(self, ts, track, label):
        p = packet(ts=ts, seq=self.seq, flags=SEQ_NEEDS_INCREMENTAL_STATE)
        track_event(p, SLICE_END, track)
        self.t.add(p, label + " end")

    def thread_slice(self, track, name, ts, dur):
        self.begin(ts, track, name, cats=False)
        self.end(ts + dur, track, name)


def chrome_reporters(base):
    """The reporters: (track, start, dur, reporter fields, stages as (name, start, dur, children))."""
    return [
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


def write_reporters(w, reporters):
    """Each reporter and its stages, written as Chrome writes them; what the reader must make of each."""
    expected_reporters = []
    for track, start, dur, fields, stages in reporters:
        w.begin(start, track, "PipelineReporter", reporter=fields)
        expected_stages = []
        for name, s_start, s_dur, children in stages:
            w.begin(start + s_start, track, name)
            expected_children = []
            for c_name, c_start, c_dur in children:
                w.begin(start + c_start, track, c_name)
                w.end(start + c_start + c_dur, track, c_name)
                expected_children.append({"name": c_name, "ts": start + c_start, "dur": c_dur, "depth": 2})
            w.end(start + s_start + s_dur, track, name)
            expected_stages.append({"name": name, "ts": start + s_start, "dur": s_dur, "depth": 1,
                                    "children": expected_children})
        w.end(start + dur, track, "PipelineReporter")
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
    return expected_reporters


def chrome_expected(data, layout, base, expected_reporters):
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
        "notes": CHROME_NOTES,
    }
    return expected


def chrome_pipeline_reporter():
    t = TraceFile()
    seq = 5
    chrome_tracks(t, seq)
    w = ReporterWriter(t, seq)
    base = 2_000_000_000
    reporters = chrome_reporters(base)
    # Thread slices around them (Chrome writes the reporters later, at frame termination; the
    # file's order does not matter to a reader that sorts).
    w.thread_slice(CR_COMP_UUID, "ProxyImpl::ScheduledActionDraw", base + 15 * MS, 800_000)
    w.thread_slice(CR_MAIN_UUID, "ThreadProxy::BeginMainFrame", base + 16_666_667 + 500_000, 24_000_000)
    expected_reporters = write_reporters(w, reporters)
    data, layout = t.build()
    return data, chrome_expected(data, layout, base, expected_reporters)



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
