"""Building a Perfetto trace packet by packet with perfetto_trace_pb2 (sequences, interning,
TrackEvents, debug annotations) beside the arguments framescope's Trace must hold for it."""
import hashlib

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

from .perfetto_wire import LEN, key, varint


GENERATOR = "tools/make_perfetto_fixtures.py"
SEQ_INCREMENTAL_STATE_CLEARED = 1
SEQ_NEEDS_INCREMENTAL_STATE = 2
SLICE_BEGIN, SLICE_END, INSTANT, COUNTER = 1, 2, 3, 4


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


def frame(packets):
    t = TraceFile()
    for label, body in packets:
        t.add(body, label)
    return t.build()
