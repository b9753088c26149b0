"""Protobuf's wire format by hand: field encoders for what perfetto_trace_pb2 has no message for
(FrameTimeline, unknown fields, broken files), and a recursion-free walker that reads a file as
framescope's ProtobufInput does, with its rule for a torn file."""


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
