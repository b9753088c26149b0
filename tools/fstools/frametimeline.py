"""SurfaceFlinger's FrameTimelineEvent (TracePacket field 76): its encoding from the .proto's field
numbers, a second decoding through a descriptor built from the same numbers, and a port of
Perfetto trace processor's FrameTimeline parser (the rows its tables hold, jank tags included)."""
from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

from .perfetto_wire import f_len, f_varint
from .perfetto_packets import packet


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
