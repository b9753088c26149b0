"""The hostile Perfetto fixtures, written byte by byte: torn and corrupt files with the error or
diagnostic and byte offset a reader must report, deep nesting, an undefined iid, huge timestamps."""
from .perfetto_wire import LEN, VARINT, f_len, f_varint, key, u64, varint
from .perfetto_packets import GENERATOR, INSTANT, SLICE_BEGIN, SLICE_END, file_facts, frame


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
