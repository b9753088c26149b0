#!/usr/bin/env python3
"""Checks framescope's Perfetto protobuf traces against the contract in the Perfetto mapping spec.

Usage: check_perfetto.py FRAMESCOPE_BINARY [--work-dir DIR] [--keep] [--demo-frames N] [--corpus DIR]
       check_perfetto.py --self-test [TRACE.json ...]

Needs `pip install perfetto protobuf` (fails, never skips, when they are missing).

With a binary, in a scratch folder (kept with --keep or when --work-dir is given):
 1. simulates corner-rounding offscreen-clip, feed-scroll specs-background and diffable-update
    snapshot-diff (60 frames, seed 3, virtual clock) once to .json and once to .pftrace, and runs
    `demo --frames 30 --trace-format perfetto`, which must write .pftrace traces only;
 2. decodes every .pftrace with perfetto_trace_pb2.Trace and walks it packet by packet (every
    top-level field is `packet`) and checks the spec's structure: sequence ids and flags,
    interning, track descriptors before use, thread tracks under their process, slices nesting
    on every track, timestamps;
 3. compares each simulated .pftrace with the .json of the same run: threads, slices per thread,
    instants, async slices (frame timeline included), counters, flows and their binding, debug
    annotations against args, the metadata packet;
 4. `report --format json` of the .json and of the .pftrace agree (the input's name aside);
 5. `convert` JSON -> protobuf -> JSON keeps the report, the converted protobuf matches the JSON,
    and the output format follows the extension when --to is absent;
 6. a .pftrace cut in the middle of its last packet (a writer killed mid-flush): `report` reads
    the complete packets (exit 0) with one `truncated` diagnostic naming the torn packet's byte, as
    a cut JSON stream reads; `repair` cuts the torn packet and makes a file that reads cleanly;
 7. prints the sizes of the .json and .pftrace of each run;
 8. with --corpus DIR (other tools' Chrome JSON traces): `convert` writes each as protobuf, and
    the protobuf decodes, and `report --format json` of the two agree on every figure (the input's name aside, and the
    diagnostics, which describe the source file and are not carried into the conversion).
Prints one line per check passed; on the first failure prints FAIL and the evidence, exits 1.

--self-test builds small traces in Python with perfetto_trace_pb2 following the spec, with the
matching JSON, runs checks 2-3 on them, then checks that a set of deliberate corruptions are caught;
given JSON traces, it also writes each as protobuf with a Python writer that follows the spec and runs
checks 2-3 on the pair.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

try:
    from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
    from google.protobuf import unknown_fields as _unknown_fields
except Exception as error:  # ImportError, or a protobuf too old for the generated code
    print('FAIL: cannot import the Perfetto protos (%s: %s); install them with '
          '`pip install perfetto protobuf`' % (type(error).__name__, error), file=sys.stderr)
    sys.exit(1)


class CheckFailed(Exception):
    pass


def fail(message):
    raise CheckFailed(message)


def ok(message):
    print('ok    %s' % message, flush=True)


def note(message):
    print('note  %s' % message, flush=True)


# ----------------------------------------------------------------------------------------------
# Raw walk: the file is a concatenation of Trace.packet fields (tag 0x0A, varint length, bytes).

def read_varint(data, pos, what):
    result = shift = 0
    start = pos
    while True:
        if pos >= len(data):
            fail('byte %d: %s varint runs past the end of the file (%d bytes)' % (start, what, len(data)))
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            fail('byte %d: %s varint is longer than 10 bytes' % (start, what))


def raw_packets(data):
    """[(offset of the tag, offset of the payload, payload length)] for every top-level field."""
    packets = []
    pos = 0
    while pos < len(data):
        start = pos
        tag, pos = read_varint(data, pos, 'top-level tag')
        if tag != 0x0A or data[start] != 0x0A:
            fail('byte %d: top-level field %d (wire type %d), tag byte 0x%02X; every top-level field '
                 'must be Trace.packet (tag 0x0A)' % (start, tag >> 3, tag & 7, data[start]))
        length, pos = read_varint(data, pos, 'packet length')
        if pos + length > len(data):
            fail('byte %d: packet %d declares %d bytes but only %d remain (truncated file)'
                 % (start, len(packets), length, len(data) - pos))
        packets.append((start, pos, length))
        pos += length
    return packets


def unknown_field_paths(message, path):
    """Paths of fields the schema does not know (a wrong field number in the writer)."""
    found = []
    unknown = _unknown_fields.UnknownFieldSet(message)
    if len(unknown):
        found.append('%s: unknown field(s) %s' % (path, sorted({field.field_number for field in unknown})))
    for descriptor, value in message.ListFields():
        if descriptor.message_type is None:
            continue
        repeated = descriptor.is_repeated if hasattr(descriptor, 'is_repeated') else descriptor.label == descriptor.LABEL_REPEATED
        if repeated:
            for index, item in enumerate(value):
                found += unknown_field_paths(item, '%s.%s[%d]' % (path, descriptor.name, index))
        else:
            found += unknown_field_paths(value, '%s.%s' % (path, descriptor.name))
    return found


# ----------------------------------------------------------------------------------------------
# The protobuf model: decode, check the structure, rebuild slices per track.

class Track:
    def __init__(self, uuid, kind, name, parent, pid=None, tid=None, merge=None):
        self.uuid, self.kind, self.name, self.parent = uuid, kind, name, parent
        self.pid, self.tid, self.merge = pid, tid, merge
        self.events = []   # (timestamp, order, event dict) in file order
        self.slices = []
        self.instants = []
        self.counts = []   # (timestamp, value)


class EmptyContainer:
    """A DebugAnnotation with no value: an empty JSON object or array."""
    def __repr__(self):
        return '{}/[]'


EMPTY = EmptyContainer()

INTERN_KINDS = (('event_names', 'event name'), ('event_categories', 'category'),
                ('debug_annotation_names', 'debug annotation name'))


def decode_pftrace(data, label):
    """Decodes and checks the structure; returns a model (dict). Raises CheckFailed."""
    spans = raw_packets(data)
    try:
        trace = pb.Trace.FromString(data)
    except Exception as error:
        fail('%s: perfetto_trace_pb2.Trace.FromString failed: %s' % (label, error))
    if len(trace.packet) != len(spans):
        fail('%s: Trace decodes %d packets, the raw walk finds %d' % (label, len(trace.packet), len(spans)))
    if not spans:
        fail('%s: no packets' % label)
    unknown = unknown_field_paths(trace, 'Trace')
    if unknown:
        fail('%s: %s' % (label, unknown[0]))

    tracks = {}
    sequences = {}      # sequence id -> interning state or None before the first clear
    metadata = []
    order = 0
    out_of_order = []
    for index, packet in enumerate(trace.packet):
        where = '%s packet %d (byte %d)' % (label, index, spans[index][0])
        if not packet.HasField('trusted_packet_sequence_id'):
            fail('%s: no trusted_packet_sequence_id' % where)
        sequence = packet.trusted_packet_sequence_id
        if sequence != 1:
            fail('%s: trusted_packet_sequence_id %d, the spec writes 1' % (where, sequence))
        flags = packet.sequence_flags
        if index == 0:
            if not flags & 1:
                fail('%s: the first packet lacks SEQ_INCREMENTAL_STATE_CLEARED (sequence_flags %d)' % (where, flags))
            if not packet.first_packet_on_sequence:
                fail('%s: the first packet lacks first_packet_on_sequence = true' % where)
        if flags & 1:
            sequences[sequence] = {kind: {} for kind, _ in INTERN_KINDS}
        state = sequences.get(sequence)
        if packet.HasField('timestamp') and packet.timestamp >= 1 << 63:
            fail('%s: timestamp %d is negative as int64 (%d)' % (where, packet.timestamp, packet.timestamp - (1 << 64)))

        defined_here = set()
        if packet.HasField('interned_data'):
            if state is None:
                fail('%s: interned_data before any SEQ_INCREMENTAL_STATE_CLEARED on sequence %d' % (where, sequence))
            for kind, what in INTERN_KINDS:
                table = state[kind]
                for entry in getattr(packet.interned_data, kind):
                    if entry.iid in table:
                        if table[entry.iid] != entry.name:
                            fail('%s: %s iid %d redefined from %r to %r' % (where, what, entry.iid, table[entry.iid], entry.name))
                        fail('%s: %s iid %d (%r) defined again; the spec defines each once, in the first '
                             'packet that uses it' % (where, what, entry.iid, entry.name))
                    expected = len(table) + 1
                    if entry.iid != expected:
                        fail('%s: %s iid %d defined where %d was next (the spec numbers iids from 1 per kind)'
                             % (where, what, entry.iid, expected))
                    table[entry.iid] = entry.name
                    defined_here.add((kind, entry.iid))

        used = set()

        def intern(kind, iid, what):
            if state is None:
                fail('%s: uses %s iid %d before any SEQ_INCREMENTAL_STATE_CLEARED' % (where, what, iid))
            if iid not in state[kind]:
                fail('%s: %s iid %d is not defined in this packet or an earlier one on sequence %d '
                     '(after the last clear)' % (where, what, iid, sequence))
            used.add((kind, iid))
            return state[kind][iid]

        def annotation_value(annotation, path):
            if annotation.HasField('bool_value'):
                return annotation.bool_value
            if annotation.HasField('int_value'):
                return annotation.int_value
            if annotation.HasField('uint_value'):
                return annotation.uint_value
            if annotation.HasField('double_value'):
                return annotation.double_value
            if annotation.HasField('string_value'):
                return annotation.string_value
            if len(annotation.dict_entries):
                return annotations(annotation.dict_entries, path)
            if len(annotation.array_values):
                return [annotation_value(item, '%s[%d]' % (path, i)) for i, item in enumerate(annotation.array_values)]
            for other in ('pointer_value', 'nested_value', 'legacy_json_value', 'string_value_iid', 'proto_value'):
                if annotation.HasField(other):
                    fail('%s: debug annotation %s uses %s, which the spec does not write' % (where, path, other))
            return EMPTY

        def annotations(items, path):
            result = {}
            for item in items:
                if item.HasField('name_iid'):
                    name = intern('debug_annotation_names', item.name_iid, 'debug annotation name')
                elif item.HasField('name'):
                    name = item.name
                else:
                    fail('%s: a debug annotation in %s has no name' % (where, path or 'the event'))
                if name in result:
                    fail('%s: debug annotation %r appears twice in %s' % (where, name, path or 'the event'))
                result[name] = annotation_value(item, (path + '.' if path else '') + name)
            return result

        if packet.HasField('track_descriptor'):
            descriptor = packet.track_descriptor
            uuid = descriptor.uuid
            if not descriptor.HasField('uuid') or uuid == 0:
                fail('%s: TrackDescriptor without a uuid' % where)
            if uuid in tracks:
                fail('%s: track uuid %d described twice' % (where, uuid))
            parent = tracks.get(descriptor.parent_uuid) if descriptor.HasField('parent_uuid') else None
            if descriptor.HasField('parent_uuid') and parent is None:
                fail('%s: track %d names parent_uuid %d, which no earlier TrackDescriptor describes'
                     % (where, uuid, descriptor.parent_uuid))
            if descriptor.HasField('process'):
                if not descriptor.process.HasField('pid'):
                    fail('%s: process track %d has no pid' % (where, uuid))
                track = Track(uuid, 'process', descriptor.process.process_name if descriptor.process.HasField('process_name') else None,
                              None, pid=descriptor.process.pid)
                if any(t.kind == 'process' and t.pid == track.pid for t in tracks.values()):
                    fail('%s: a second process track for pid %d' % (where, track.pid))
            elif descriptor.HasField('thread'):
                thread = descriptor.thread
                if not thread.HasField('pid') or not thread.HasField('tid'):
                    fail('%s: thread track %d lacks pid or tid' % (where, uuid))
                if parent is None or parent.kind != 'process' or parent.pid != thread.pid:
                    fail('%s: thread track %d (pid %d tid %d) has parent_uuid %s, not the track of process %d'
                         % (where, uuid, thread.pid, thread.tid,
                            descriptor.parent_uuid if descriptor.HasField('parent_uuid') else 'unset', thread.pid))
                track = Track(uuid, 'thread', thread.thread_name if thread.HasField('thread_name') else None,
                              parent, pid=thread.pid, tid=thread.tid)
                if any(t.kind == 'thread' and (t.pid, t.tid) == (track.pid, track.tid) for t in tracks.values()):
                    fail('%s: a second thread track for %d:%d' % (where, track.pid, track.tid))
            else:
                kind = 'counter' if descriptor.HasField('counter') else 'async'
                if parent is None or parent.kind != 'process':
                    fail('%s: %s track %d (%r) has no process track as parent' % (where, kind, uuid, descriptor.name))
                if not descriptor.HasField('name'):
                    fail('%s: %s track %d has no name' % (where, kind, uuid))
                if kind == 'async' and descriptor.sibling_merge_behavior != 1:
                    fail('%s: async track %d (%r) has sibling_merge_behavior %d, the spec writes 1 (BY_TRACK_NAME)'
                         % (where, uuid, descriptor.name, descriptor.sibling_merge_behavior))
                track = Track(uuid, kind, descriptor.name, parent, pid=parent.pid,
                              merge=descriptor.sibling_merge_behavior)
                if kind == 'counter' and any(t.kind == 'counter' and t.parent is parent and t.name == track.name
                                             for t in tracks.values()):
                    fail('%s: a second counter track %r in process %d' % (where, track.name, track.pid))
            track.uuid_order = len(tracks)
            tracks[uuid] = track

        if packet.HasField('track_event'):
            event = packet.track_event
            if not packet.HasField('timestamp'):
                fail('%s: a TrackEvent packet without timestamp' % where)
            if not event.HasField('track_uuid'):
                fail('%s: a TrackEvent without track_uuid' % where)
            track = tracks.get(event.track_uuid)
            if track is None:
                fail('%s: TrackEvent on track_uuid %d, which no earlier TrackDescriptor describes' % (where, event.track_uuid))
            kind = event.type
            if kind not in (1, 2, 3, 4):
                fail('%s: TrackEvent type %d (the spec writes SLICE_BEGIN, SLICE_END, INSTANT, COUNTER)' % (where, kind))
            if track.kind == 'process':
                fail('%s: TrackEvent on process track %d; the spec puts events on thread, async and counter tracks' % (where, track.uuid))
            if (kind == 4) != (track.kind == 'counter'):
                fail('%s: TrackEvent type %d on %s track %d (%r)' % (where, kind, track.kind, track.uuid, track.name))
            name = None
            if event.HasField('name_iid'):
                name = intern('event_names', event.name_iid, 'event name')
            elif event.HasField('name'):
                name = event.name
            categories = [intern('event_categories', iid, 'category') for iid in event.category_iids] + list(event.categories)
            if len(categories) > 1:
                fail('%s: %d categories %r; the spec writes the JSON cat as one category' % (where, len(categories), categories))
            category = categories[0] if categories else ''
            args = annotations(event.debug_annotations, '')
            if kind in (1, 3) and name is None:
                fail('%s: a %s without a name' % (where, 'SLICE_BEGIN' if kind == 1 else 'INSTANT'))
            if kind == 2 and (event.flow_ids or event.terminating_flow_ids):
                fail('%s: flow ids on a SLICE_END; the spec puts them on the SLICE_BEGIN' % where)
            if event.flow_ids_old or event.terminating_flow_ids_old:
                fail('%s: flow ids in the deprecated fields 36/42; the spec writes 47/48' % where)
            if kind == 4:
                if event.HasField('counter_value'):
                    fail('%s: a COUNTER event on %r with counter_value (field 30, int64) %d; the spec writes '
                         'double_counter_value (44)' % (where, track.name, event.counter_value))
                if not event.HasField('double_counter_value'):
                    fail('%s: a COUNTER event without double_counter_value' % where)
                value = event.double_counter_value
                track.counts.append((packet.timestamp, value))
            else:
                if track.events and packet.timestamp < track.events[-1][0]:
                    out_of_order.append('%s: timestamp %d after %d on track %r' % (where, packet.timestamp, track.events[-1][0], track.name))
                track.events.append((packet.timestamp, order, dict(
                    type=kind, name=name, cat=category, ts=packet.timestamp, args=args,
                    flows=list(event.flow_ids), terminating=list(event.terminating_flow_ids), where=where)))
                order += 1

        if used and not flags & 2:
            fail('%s: uses interned ids but lacks SEQ_NEEDS_INCREMENTAL_STATE (sequence_flags %d)' % (where, flags))
        unused = defined_here - used
        if unused:
            kind, iid = sorted(unused)[0]
            fail('%s: interned %s iid %d (%r) is defined in a packet that does not use it (the spec defines '
                 'each in the first packet that uses it)' % (where, dict(INTERN_KINDS)[kind], iid, state[kind][iid]))

        if packet.HasField('chrome_events'):
            for entry in packet.chrome_events.metadata:
                metadata.append((index, entry))

    # Slices per track: a stack, in timestamp order (as trace processor sorts; stable for ties).
    for track in tracks.values():
        stack = []
        for timestamp, _, event in sorted(track.events, key=lambda item: (item[0], item[1])):
            if event['type'] == 1:
                event = dict(event, depth=len(stack), parent=stack[-1] if stack else None, track=track)
                stack.append(event)
            elif event['type'] == 2:
                if not stack:
                    fail('%s: SLICE_END at %d on track %d (%r) closes no open slice' % (event['where'], timestamp, track.uuid, track.name))
                begin = stack.pop()
                begin['start'], begin['end'] = begin['ts'], timestamp
                track.slices.append(begin)
            else:
                track.instants.append(dict(event, depth=len(stack), track=track))
        if stack:
            open_slice = stack[-1]
            fail('%s: %d slice(s) left open at the end on track %d (%r), innermost %r begun at %d (%s)'
                 % (label, len(stack), track.uuid, track.name, open_slice['name'], open_slice['ts'], open_slice['where']))

    framescope_metadata = [entry for _, entry in metadata if entry.name == 'framescope']
    if metadata and metadata[-1][0] != len(trace.packet) - 1:
        fail('%s: the metadata packet is packet %d, not the last (%d)' % (label, metadata[-1][0], len(trace.packet) - 1))
    meta = None
    if framescope_metadata:
        if len(framescope_metadata) > 1:
            fail('%s: %d framescope metadata entries' % (label, len(framescope_metadata)))
        try:
            meta = json.loads(framescope_metadata[0].json_value)
        except ValueError as error:
            fail('%s: the framescope metadata json_value is not JSON: %s' % (label, error))

    return dict(label=label, tracks=tracks, metadata=meta, packets=len(spans), spans=spans,
                out_of_order=out_of_order)


def structure_summary(model):
    counts = collections.Counter(track.kind for track in model['tracks'].values())
    slices = sum(len(track.slices) for track in model['tracks'].values())
    return '%d packets; %d process, %d thread, %d async, %d counter tracks; %d slices' % (
        model['packets'], counts['process'], counts['thread'], counts['async'], counts['counter'], slices)


# ----------------------------------------------------------------------------------------------
# The JSON model.

def ns(microseconds):
    return int(round(microseconds * 1000))


def load_json_trace(path):
    with open(path, encoding='utf-8') as handle:
        document = json.load(handle)
    return json_model(document, path)


def json_model(document, path):
    events = document.get('traceEvents', []) if isinstance(document, dict) else document
    metadata = document.get('metadata') if isinstance(document, dict) else None
    model = dict(label=path, processes={}, thread_names={}, thread_order=[], event_threads=set(),
                 slices=collections.defaultdict(list), instants=collections.defaultdict(list),
                 counters=[], async_groups=collections.defaultdict(list), flows=collections.defaultdict(list),
                 metadata=metadata)
    open_b = collections.defaultdict(list)
    for order, event in enumerate(events):
        phase = event.get('ph')
        pid, tid = event.get('pid'), event.get('tid')
        thread = (pid, tid)
        args = event.get('args') or {}
        if 'ts' in event and event['ts'] < 0:
            fail('%s: event %d has a negative ts %r' % (path, order, event['ts']))
        if phase == 'M':
            if event.get('name') == 'process_name':
                model['processes'][pid] = args.get('name')
            elif event.get('name') == 'thread_name':
                model['thread_names'][thread] = args.get('name')
                model['thread_order'].append(thread)
            continue
        record = dict(name=event.get('name'), cat=event.get('cat', ''), order=order, args=args)
        if phase == 'X':
            start = ns(event['ts'])
            model['slices'][thread].append(dict(record, start=start, end=start + ns(event.get('dur', 0))))
            model['event_threads'].add(thread)
        elif phase == 'B':
            open_b[thread].append(dict(record, start=ns(event['ts'])))
            model['event_threads'].add(thread)
        elif phase == 'E':
            if not open_b[thread]:
                fail('%s: E event %d closes nothing on %s' % (path, order, thread))
            begin = open_b[thread].pop()
            begin['end'] = ns(event['ts'])
            begin['args'] = dict(begin['args'], **args)
            model['slices'][thread].append(begin)
        elif phase in ('i', 'I'):
            model['instants'][thread].append(dict(record, ts=ns(event['ts'])))
            model['event_threads'].add(thread)
        elif phase == 'C':
            for key, value in args.items():
                name = record['name'] if key == 'value' else '%s %s' % (record['name'], key)
                model['counters'].append((pid, name, ns(event['ts']), value))
        elif phase in ('b', 'e', 'n'):
            model['async_groups'][(pid, str(event.get('id')))].append(dict(record, phase=phase, ts=ns(event['ts'])))
        elif phase in ('s', 't', 'f'):
            model['flows'][str(event.get('id'))].append(dict(record, phase=phase, ts=ns(event['ts']), thread=thread,
                                                             bp=event.get('bp')))
    for thread, stack in open_b.items():
        if stack:
            fail('%s: %d B event(s) never ended on %s' % (path, len(stack), thread))

    # Async groups -> slices with depth inside the group.
    async_slices = collections.defaultdict(list)    # pid -> slices
    async_instants = collections.defaultdict(list)
    group_first_name = {}
    for (pid, group_id), items in model['async_groups'].items():
        stack = []
        for item in sorted(items, key=lambda item: (item['ts'], item['order'])):
            if item['phase'] == 'b':
                if (pid, group_id) not in group_first_name:
                    group_first_name[(pid, group_id)] = item['name']
                stack.append(dict(item, start=item['ts'], depth=len(stack), group=group_id))
            elif item['phase'] == 'e':
                if not stack:
                    fail('%s: async e %r (id %s) closes nothing' % (path, item['name'], group_id))
                begin = stack.pop()
                begin['end'] = item['ts']
                async_slices[pid].append(begin)
            else:
                async_instants[pid].append(dict(item, depth=len(stack), group=group_id))
        if stack:
            fail('%s: async group pid %s id %s leaves %r open' % (path, pid, group_id, stack[-1]['name']))
    model['async_slices'] = async_slices
    model['async_instants'] = async_instants
    model['group_first_name'] = group_first_name
    return model


# ----------------------------------------------------------------------------------------------
# Comparison.

def sort_key(item):
    def one(value):
        if value is None:
            return (0, 0)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return (1, value)
        if isinstance(value, tuple):
            return (2, tuple(one(v) for v in value))
        return (3, str(value))
    return tuple(one(value) for value in item) if isinstance(item, tuple) else one(item)


def compare_multisets(what, json_items, proto_items, describe=repr):
    left, right = collections.Counter(json_items), collections.Counter(proto_items)
    if left == right:
        return
    only_json = sorted((left - right).elements(), key=sort_key)
    only_proto = sorted((right - left).elements(), key=sort_key)
    parts = ['%s differ: JSON has %d, protobuf %d' % (what, len(json_items), len(proto_items))]
    if only_json:
        parts.append('first only in JSON: %s' % describe(only_json[0]))
    if only_proto:
        parts.append('first only in protobuf: %s' % describe(only_proto[0]))
    fail('; '.join(parts))


def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def value_difference(json_value, proto_value, path):
    """None when equal under the spec's rules, else a description of the first difference."""
    if isinstance(json_value, bool) or isinstance(proto_value, bool):
        if type(json_value) is not type(proto_value) or json_value != proto_value:
            return '%s: JSON %r, protobuf %r' % (path, json_value, proto_value)
        return None
    if isinstance(json_value, int) and isinstance(proto_value, int):
        return None if json_value == proto_value else '%s: JSON %r, protobuf %r' % (path, json_value, proto_value)
    if isinstance(json_value, int) and isinstance(proto_value, float):
        # A double the JSON writer printed without a fraction (0, 38) is a JSON int.
        return None if close(float(json_value), proto_value) else '%s: JSON %r, protobuf double %r' % (path, json_value, proto_value)
    if isinstance(json_value, float):
        if not isinstance(proto_value, float):
            return '%s: JSON float %r, protobuf %s %r' % (path, json_value, type(proto_value).__name__, proto_value)
        return None if close(json_value, proto_value) else '%s: JSON %r, protobuf %r' % (path, json_value, proto_value)
    if isinstance(json_value, str):
        return None if json_value == proto_value else '%s: JSON %r, protobuf %r' % (path, json_value, proto_value)
    if isinstance(json_value, (dict, list)) and not json_value and proto_value is EMPTY:
        return None
    if isinstance(json_value, dict):
        if not isinstance(proto_value, dict):
            return '%s: JSON object, protobuf %r' % (path, proto_value)
        return args_difference(json_value, proto_value, path + '.')
    if isinstance(json_value, list):
        if not isinstance(proto_value, list) or len(proto_value) != len(json_value):
            return '%s: JSON array of %d, protobuf %r' % (path, len(json_value), proto_value)
        for index, (a, b) in enumerate(zip(json_value, proto_value)):
            difference = value_difference(a, b, '%s[%d]' % (path, index))
            if difference:
                return difference
        return None
    return '%s: JSON %r (unexpected type), protobuf %r' % (path, json_value, proto_value)


def args_difference(json_args, proto_args, prefix=''):
    json_args = {key: value for key, value in json_args.items() if value is not None}
    if set(json_args) != set(proto_args):
        return '%sargs keys: JSON %s, protobuf %s' % (prefix, sorted(json_args), sorted(proto_args))
    for key in sorted(json_args):
        difference = value_difference(json_args[key], proto_args[key], prefix + key)
        if difference:
            return difference
    return None


def match_args(what, json_records, proto_records, key):
    """Pairs records with equal key and checks that their args agree (greedy within a key)."""
    by_key = collections.defaultdict(list)
    for record in proto_records:
        by_key[key(record)].append(record)
    for record in json_records:
        candidates = by_key[key(record)]
        differences = []
        for index, candidate in enumerate(candidates):
            difference = args_difference(record['args'], candidate['args'])
            if difference is None:
                del candidates[index]
                break
            differences.append(difference)
        else:
            fail('%s %r: debug annotations differ from the JSON args: %s'
                 % (what, key(record), differences[0] if differences else 'no protobuf counterpart'))


def thread_label(thread, names):
    return '%s:%s (%s)' % (thread[0], thread[1], names.get(thread))


def compare_traces(json_model, proto_model, quiet=False):
    """Check 3. Returns the number of comparisons made."""
    say = (lambda message: None) if quiet else ok
    label = proto_model['label']
    tracks = proto_model['tracks'].values()
    proto_threads = {(t.pid, t.tid): t for t in tracks if t.kind == 'thread'}
    proto_processes = {t.pid: t for t in tracks if t.kind == 'process'}
    names = json_model['thread_names']

    # Processes and threads.
    json_pids = set(json_model['processes']) | {pid for pid, _ in set(names) | json_model['event_threads']}
    compare_multisets('%s: processes (pid, name)' % label, [(pid, json_model['processes'].get(pid)) for pid in json_pids],
                      [(t.pid, t.name) for t in proto_processes.values()])
    json_threads = {(pid, tid, names.get((pid, tid))) for (pid, tid) in set(names) | json_model['event_threads']}
    compare_multisets('%s: threads (pid, tid, name)' % label, list(json_threads),
                      [(t.pid, t.tid, t.name) for t in proto_threads.values()])
    proto_order = [(t.pid, t.tid) for t in sorted(proto_threads.values(), key=lambda t: t.uuid_order)]
    named_order = [thread for thread in proto_order if thread in json_model['thread_names']]
    if named_order != json_model['thread_order']:
        fail('%s: thread tracks are described in the order %s, the JSON names them in the order %s'
             % (label, named_order, json_model['thread_order']))
    say('%s: %d threads (pid, tid, name) equal the JSON, described in its order' % (label, len(json_threads)))

    # Complete slices per thread.
    total = 0
    for thread in sorted(set(json_model['slices']) | set(proto_threads), key=sort_key):
        json_slices = json_model['slices'].get(thread, [])
        track = proto_threads.get(thread)
        proto_slices = track.slices if track else []
        key = lambda s: (s['name'], s['cat'], s['start'], s['end'] - s['start'])
        compare_multisets('%s: slices (name, cat, ts_ns, dur_ns) on thread %s' % (label, thread_label(thread, names)),
                          [key(s) for s in json_slices], [key(s) for s in proto_slices])
        match_args('%s: slice on thread %s' % (label, thread_label(thread, names)), json_slices, proto_slices, key)
        total += len(json_slices)
    say('%s: %d thread slices equal the JSON X events, debug annotations equal their args' % (label, total))

    # Instants on threads (those carrying flows stand for unbound flow points: checked with flows).
    total = 0
    for thread in sorted(set(json_model['instants']) | set(proto_threads), key=sort_key):
        json_instants = json_model['instants'].get(thread, [])
        track = proto_threads.get(thread)
        proto_instants = [i for i in (track.instants if track else []) if not i['flows'] and not i['terminating']]
        key = lambda i: (i['name'], i['cat'], i['ts'])
        compare_multisets('%s: instants (name, cat, ts_ns) on thread %s' % (label, thread_label(thread, names)),
                          [key(i) for i in json_instants], [key(i) for i in proto_instants])
        match_args('%s: instant on thread %s' % (label, thread_label(thread, names)), json_instants, proto_instants, key)
        total += len(json_instants)
    say('%s: %d thread instants equal the JSON i events' % (label, total))

    # Async slices per process.
    async_tracks = [t for t in tracks if t.kind == 'async']
    for track in async_tracks:
        if track.slices or track.instants:
            first = min(track.slices + track.instants, key=lambda s: (s['ts'], s['depth']))
            if first['name'] != track.name:
                fail('%s: async track %d is named %r but its first slice is %r' % (label, track.uuid, track.name, first['name']))
    total = 0
    for pid in sorted(set(json_model['async_slices']) | {t.pid for t in async_tracks}, key=sort_key):
        json_slices = json_model['async_slices'].get(pid, [])
        proto_slices = [s for t in async_tracks if t.pid == pid for s in t.slices]
        key = lambda s: (s['name'], s['cat'], s['start'], s['end'], s['depth'])
        compare_multisets('%s: async slices (name, cat, start_ns, end_ns, depth) of process %s' % (label, pid),
                          [key(s) for s in json_slices], [key(s) for s in proto_slices])
        match_args('%s: async slice of process %s' % (label, pid), json_slices, proto_slices, key)
        json_instants = json_model['async_instants'].get(pid, [])
        proto_instants = [i for t in async_tracks if t.pid == pid for i in t.instants]
        key = lambda i: (i['name'], i['cat'], i['ts'], i['depth'])
        compare_multisets('%s: async instants (name, cat, ts_ns, depth) of process %s' % (label, pid),
                          [key(i) for i in json_instants], [key(i) for i in proto_instants])
        total += len(json_slices)
    say('%s: %d async slices (b/e by pid and id, nested) equal the slices on %d async tracks'
        % (label, total, len(async_tracks)))

    # Frame timeline.
    meta = json_model['metadata'] or {}
    app_pid = (meta.get('main-thread') or {}).get('pid')
    if app_pid is None:
        app_pid = next((pid for (pid, tid), name in names.items() if name == 'main'), None)
    if app_pid is None:
        fail('%s: the JSON names no main thread, so no app process for the frame timeline' % json_model['label'])
    counts = []
    for name in ('Expected Timeline', 'Actual Timeline'):
        on_tracks = [t for t in async_tracks if t.name == name and t.pid == app_pid]
        if not on_tracks:
            fail('%s: no async track %r under the app process %s' % (label, name, app_pid))
        groups = {g for (pid, g), first in json_model['group_first_name'].items() if pid == app_pid and first == name}
        json_count = sum(1 for s in json_model['async_slices'][app_pid] if s['group'] in groups)
        json_top = sum(1 for s in json_model['async_slices'][app_pid] if s['group'] in groups and s['depth'] == 0)
        proto_count = sum(len(t.slices) for t in on_tracks)
        proto_top = sum(1 for t in on_tracks for s in t.slices if s['depth'] == 0)
        if (json_count, json_top) != (proto_count, proto_top):
            fail('%s: %r: JSON has %d slices (%d top-level), protobuf %d (%d top-level) on %d tracks'
                 % (label, name, json_count, json_top, proto_count, proto_top, len(on_tracks)))
        if json_top == 0:
            fail('%s: %r has no slices' % (label, name))
        counts.append('%s %d slices on %d track(s)' % (name, proto_count, len(on_tracks)))
    say('%s: frame timeline under process %s: %s, as in the JSON' % (label, app_pid, ', '.join(counts)))

    # Counters.
    counter_tracks = [t for t in tracks if t.kind == 'counter']
    json_counters = sorted(((pid, name, ts), value) for pid, name, ts, value in json_model['counters'])
    proto_counters = sorted(((t.pid, t.name, ts), value) for t in counter_tracks for ts, value in t.counts)
    compare_multisets('%s: counter samples (pid, track name, ts_ns)' % label,
                      [k for k, _ in json_counters], [k for k, _ in proto_counters])
    json_by_key = collections.defaultdict(list)
    for k, value in json_counters:
        json_by_key[k].append(value)
    proto_by_key = collections.defaultdict(list)
    for k, value in proto_counters:
        proto_by_key[k].append(value)
    for k in sorted(json_by_key, key=sort_key):
        for a, b in zip(sorted(json_by_key[k]), sorted(proto_by_key[k])):
            if not close(float(a), float(b)):
                fail('%s: counter %r at %d: JSON %r, protobuf %r' % (label, k[1], k[2], a, b))
    say('%s: %d counter samples (name, ts, value) on %d counter tracks equal the JSON' % (label, len(json_counters), len(counter_tracks)))

    compare_flows(json_model, proto_model, say)

    # Metadata.
    if json_model['metadata'] is not None:
        if proto_model['metadata'] is None:
            fail('%s: no chrome_events metadata "framescope" packet, the JSON has metadata' % label)
        difference = json_difference(json_model['metadata'], proto_model['metadata'], 'metadata', tolerance=True)
        if difference:
            fail('%s: metadata json_value differs from the JSON metadata at %s' % (label, difference))
        say('%s: metadata packet (last) equals the JSON metadata' % label)


def compare_flows(json_model, proto_model, say):
    label = proto_model['label']
    names = json_model['thread_names']
    # Protobuf: every flow id occurrence, with what it is bound to.
    proto_chains = collections.defaultdict(list)
    for track in proto_model['tracks'].values():
        thread = (track.pid, track.tid) if track.kind == 'thread' else None
        for record, kind in [(s, 'slice') for s in track.slices] + [(i, 'instant') for i in track.instants]:
            for flow_id in record['flows']:
                proto_chains[flow_id].append(dict(step='flow', thread=thread, bound=(kind, record['name'], record['ts'])))
            for flow_id in record['terminating']:
                proto_chains[flow_id].append(dict(step='end', thread=thread, bound=(kind, record['name'], record['ts'])))
        if track.kind != 'thread' and any(r['flows'] or r['terminating'] for r in track.slices + track.instants):
            fail('%s: flow ids on non-thread track %r' % (label, track.name))
    for flow_id, chain in proto_chains.items():
        chain.sort(key=lambda c: (c['step'] == 'end', c['bound'][2]))
        steps = [c['step'] for c in chain]
        if steps.count('end') > 1 or ('end' in steps and steps[-1] != 'end') or steps[0] != 'flow':
            fail('%s: flow id %d has steps %s (expected flow ids then one terminating id)' % (label, flow_id, steps))

    # JSON: the expected binding of every flow point.
    def expected_bound(point):
        slices = json_model['slices'].get(point['thread'], [])
        ts = point['ts']
        if point['phase'] == 'f' and point.get('bp') != 'e':
            after = [s for s in slices if s['start'] >= ts]
            if after:
                first = min(s['start'] for s in after)
                return {('slice', s['name'], s['start']) for s in after if s['start'] == first}
        else:
            enclosing = [s for s in slices if s['start'] <= ts <= s['end']]
            innermost = [s for s in enclosing if not any(o is not s and o['start'] >= s['start'] and o['end'] <= s['end']
                                                           and (o['start'], o['end']) != (s['start'], s['end']) for o in enclosing)]
            if innermost:
                return {('slice', s['name'], s['start']) for s in innermost}
        return {('instant', point['name'], ts)}

    json_chains = {}
    for flow_id, points in json_model['flows'].items():
        points = sorted(points, key=lambda p: ('stf'.index(p['phase']) // 2, p['ts'], p['order']))
        json_chains[flow_id] = [dict(step='end' if p['phase'] == 'f' else 'flow', thread=p['thread'],
                                     bound=expected_bound(p), phase=p['phase'], ts=p['ts']) for p in points]
        if points[0]['phase'] != 's':
            fail('%s: JSON flow id %s starts with %r' % (json_model['label'], flow_id, points[0]['phase']))

    if len(json_chains) != len(proto_chains):
        fail('%s: %d flow ids in the JSON, %d in the protobuf' % (label, len(json_chains), len(proto_chains)))

    def ends(chain):
        start = chain[0]['thread']
        end = next((c['thread'] for c in chain if c['step'] == 'end'), None)
        return start, end

    json_ids = {}
    for flow_id in json_chains:
        try:
            json_ids[flow_id] = int(flow_id, 0)
        except ValueError:
            json_ids = None
            break
    if json_ids is not None and set(json_ids.values()) == set(proto_chains):
        for flow_id in sorted(json_chains, key=lambda f: json_ids[f]):
            json_chain, proto_chain = json_chains[flow_id], proto_chains[json_ids[flow_id]]
            if ends(json_chain) != ends(proto_chain):
                fail('%s: flow id %s goes from thread %s to %s in the JSON, from %s to %s in the protobuf'
                     % (label, flow_id, *ends(json_chain), *ends(proto_chain)))
            if len(json_chain) != len(proto_chain):
                fail('%s: flow id %s has %d points in the JSON, %d in the protobuf' % (label, flow_id, len(json_chain), len(proto_chain)))
            for a, b in zip(json_chain, proto_chain):
                if a['step'] != b['step'] or b['bound'] not in a['bound']:
                    fail('%s: flow id %s: the JSON %s point at %d on thread %s binds to %s (spec), the protobuf has %s %s'
                         % (label, flow_id, a['phase'], a['ts'], thread_label(a['thread'], names),
                            ' or '.join(map(str, sorted(a['bound'], key=sort_key))),
                            'terminating id on' if b['step'] == 'end' else 'flow id on', b['bound']))
        say('%s: %d flows: same ids, each starting and terminating on the JSON threads, bound to the '
            'slices the spec names' % (label, len(json_chains)))
    else:
        compare_multisets('%s: flows (start thread, terminating thread) [ids renumbered]' % label,
                          [ends(c) for c in json_chains.values()], [ends(c) for c in proto_chains.values()])
        say('%s: %d flows (ids differ from the JSON): start and terminating threads match' % (label, len(json_chains)))


def json_difference(a, b, path, tolerance=False):
    """The first key path where two parsed JSON values differ, else None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in b:
                return '%s.%s (only in the first: %s)' % (path, key, json.dumps(a[key])[:120])
            if key not in a:
                return '%s.%s (only in the second: %s)' % (path, key, json.dumps(b[key])[:120])
            difference = json_difference(a[key], b[key], '%s.%s' % (path, key), tolerance)
            if difference:
                return difference
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b)):
            difference = json_difference(x, y, '%s[%d]' % (path, index), tolerance)
            if difference:
                return difference
        if len(a) != len(b):
            return '%s (length %d vs %d)' % (path, len(a), len(b))
        return None
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        if a == b or (tolerance and close(float(a), float(b))):
            return None
        hint = ' (within 1e-9 relative: float rounding)' if close(float(a), float(b)) else ''
        return '%s: %r vs %r%s' % (path, a, b, hint)
    if type(a) is not type(b) or a != b:
        return '%s: %s vs %s' % (path, json.dumps(a)[:120], json.dumps(b)[:120])
    return None


# ----------------------------------------------------------------------------------------------
# Running framescope.

class Runner:
    def __init__(self, binary, work):
        self.binary, self.work = binary, work

    def run(self, args, timeout=600, expect=0):
        command = [self.binary] + args
        started = time.time()
        try:
            result = subprocess.run(command, cwd=self.work, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            fail('`%s` timed out after %d s' % (shown(command), timeout))
        result.elapsed = time.time() - started
        result.command = shown(command)
        if expect is not None and result.returncode != expect:
            fail('`%s` exited %s (expected %d); stderr: %s' % (
                result.command, signal_text(result.returncode), expect,
                result.stderr.decode(errors='replace').strip()[-600:] or '(empty)'))
        return result

    def path(self, name):
        return os.path.join(self.work, name)


def shown(command):
    return ' '.join(command)


def signal_text(code):
    return 'on signal %d' % -code if code < 0 else str(code)


def read_bytes(path):
    with open(path, 'rb') as handle:
        return handle.read()


def check_pftrace_file(path, label=None, quiet=False):
    data = read_bytes(path)
    model = decode_pftrace(data, label or os.path.basename(path))
    for line in model['out_of_order'][:0 if quiet else 1]:
        note('%s: %d time(s) an event is earlier than the one before it on its track (file order; trace processor '
             'sorts by time, and so does this check); first: %s'
             % (model['label'], len(model['out_of_order']), line))
    return model


def report_json(runner, path):
    result = runner.run(['report', path, '--format', 'json'])
    try:
        return json.loads(result.stdout)
    except ValueError as error:
        fail('`%s` printed no JSON: %s' % (result.command, error))


def strip_input_names(report, path):
    names = {path, os.path.basename(path), os.path.abspath(path)}

    def strip(value, top):
        if isinstance(value, dict):
            return {k: strip(v, False) for k, v in value.items()
                    if not (top and k == 'source') and not (isinstance(v, str) and v in names)}
        if isinstance(value, list):
            return [strip(v, False) for v in value]
        return value
    return strip(report, True)


def compare_reports(runner, first, second, what, ignore=()):
    a = strip_input_names(report_json(runner, first), first)
    b = strip_input_names(report_json(runner, second), second)
    for key in ignore:
        a.pop(key, None)
        b.pop(key, None)
    difference = json_difference(a, b, 'report')
    if difference:
        fail('%s: `report %s --format json` and `report %s --format json` differ at %s' % (what, first, second, difference))


SCENARIOS = [('corner-rounding', 'offscreen-clip'), ('feed-scroll', 'specs-background'),
             ('diffable-update', 'snapshot-diff')]


def run_corpus(runner, corpus):
    """Check 8: every Chrome JSON trace in `corpus`, converted to protobuf, reports the same."""
    names = sorted(name for name in os.listdir(corpus) if name.endswith('.json'))
    if not names:
        fail('--corpus %s holds no .json trace: a check of nothing must not pass' % corpus)
    started = time.time()
    for index, name in enumerate(names):
        source = os.path.join(corpus, name)
        converted = 'corpus-%d.pftrace' % index
        runner.run(['convert', source, '--to', 'perfetto', '--out', converted])
        # Decoded with Perfetto's schema; not held to check 2, which describes framescope's own
        # recordings: a foreign trace may leave slices open, and its conversion keeps them open.
        try:
            pb.Trace().ParseFromString(read_bytes(runner.path(converted)))
        except Exception as error:
            fail('8 %s: the converted %s does not decode with perfetto_trace_pb2: %s' % (name, converted, error))
        compare_reports(runner, source, converted, '8 %s' % name, ignore=('diagnostics',))
    ok('8 --corpus: %d traces from %s, each converted to protobuf, decode and report the same '
       'figures as their JSON (%.1f s)' % (len(names), corpus, time.time() - started))


def run_binary(binary, work, demo_frames=30, corpus=None):
    runner = Runner(binary, work)
    started = time.time()
    result = runner.run(['convert', '--help'], expect=None)
    if result.returncode != 0:
        fail('`%s convert --help` exited %s: this framescope has no convert command' % (binary, signal_text(result.returncode)))

    # 1. Runs (in parallel: 2 at a time).
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 2))) as pool:
        jobs['demo'] = pool.submit(runner.run, ['demo', '--out-dir', 'demo', '--frames', str(demo_frames), '--trace-format', 'perfetto'])
        for scenario, strategy in SCENARIOS:
            for extension in ('json', 'pftrace'):
                jobs[(scenario, extension)] = pool.submit(runner.run, [
                    'simulate', scenario, '--strategy', strategy, '--frames', '60', '--seed', '3',
                    '--out', '%s.%s' % (scenario, extension)])
        for key in [k for k in jobs if k != 'demo'] + ['demo']:
            jobs[key] = jobs[key].result()
    for scenario, strategy in SCENARIOS:
        for extension in ('json', 'pftrace'):
            if not os.path.isfile(runner.path('%s.%s' % (scenario, extension))):
                fail('`%s` exited 0 but wrote no %s.%s' % (jobs[(scenario, extension)].command, scenario, extension))
        clock = (load_json_trace(runner.path(scenario + '.json'))['metadata'] or {}).get('clock')
        if clock != 'virtual':
            fail('%s.json: metadata clock %r, expected "virtual" (same seed, same events)' % (scenario, clock))
        ok('1 simulate %s --strategy %s --frames 60 --seed 3 wrote .json (%.1f s) and .pftrace (%.1f s)'
           % (scenario, strategy, jobs[(scenario, 'json')].elapsed, jobs[(scenario, 'pftrace')].elapsed))
    demo_dir = runner.path('demo')
    written = sorted(os.listdir(demo_dir)) if os.path.isdir(demo_dir) else []
    traces = [name for name in written if name.endswith('.pftrace')]
    others = [name for name in written if not name.endswith('.pftrace') and name != 'index.html']
    if others:
        fail('`%s` wrote %s besides .pftrace traces and index.html' % (jobs['demo'].command, others[:5]))
    if not traces:
        fail('`%s` wrote no .pftrace (folder holds %s)' % (jobs['demo'].command, written))
    unordered = 0
    for name in traces:
        unordered += bool(check_pftrace_file(os.path.join(demo_dir, name), 'demo/' + name, quiet=True)['out_of_order'])
    if unordered:
        note('%d of %d demo traces write an event earlier than the one before it on its track (file order; '
             'trace processor sorts by time, and so does this check)' % (unordered, len(traces)))
    ok('1 demo --frames %d --trace-format perfetto wrote only .pftrace traces (%d, plus %s), each decodes and '
       'passes the structure checks (%.1f s)' % (demo_frames, len(traces), 'index.html' if 'index.html' in written else 'no index.html',
                                                 jobs['demo'].elapsed))

    # 2-3. Structure and comparison with the JSON of the same run.
    for scenario, _ in SCENARIOS:
        model = check_pftrace_file(runner.path(scenario + '.pftrace'))
        ok('2 %s.pftrace: every top-level field is a packet; sequence, interning, tracks and nesting follow the '
           'spec (%s)' % (scenario, structure_summary(model)))
        json_model = load_json_trace(runner.path(scenario + '.json'))
        compare_traces(json_model, model)

    # 4. Reports agree.
    for scenario, _ in SCENARIOS:
        compare_reports(runner, scenario + '.json', scenario + '.pftrace', '4 ' + scenario)
        ok('4 %s: report --format json of the .json and of the .pftrace are equal (source aside)' % scenario)

    # 5. Convert round trip.
    for scenario, _ in SCENARIOS:
        a, b, c = scenario + '.json', scenario + '-B.pftrace', scenario + '-C.json'
        runner.run(['convert', a, '--to', 'perfetto', '--out', b])
        model = check_pftrace_file(runner.path(b))
        compare_traces(load_json_trace(runner.path(a)), model, quiet=True)
        same = read_bytes(runner.path(b)) == read_bytes(runner.path(scenario + '.pftrace'))
        ok('5 convert %s --to perfetto: %s passes checks 2-3 against %s (%s the simulated .pftrace)'
           % (a, b, a, 'byte-identical to' if same else 'not byte-identical to'))
        runner.run(['convert', b, '--to', 'chrome-json', '--out', c])
        try:
            load_json_trace(runner.path(c))
        except ValueError as error:
            fail('convert %s --to chrome-json wrote %s, which is not JSON: %s' % (b, c, error))
        compare_reports(runner, a, c, '5 ' + scenario)
        ok('5 convert %s --to chrome-json: report of %s equals report of %s' % (b, c, a))
        x = scenario + '-X.perfetto-trace'
        runner.run(['convert', a, '--out', x])
        data = read_bytes(runner.path(x))
        if data[:1] in (b'{', b'['):
            fail('convert %s --out %s (no --to) wrote JSON, not protobuf' % (a, x))
        model = check_pftrace_file(runner.path(x))
        compare_traces(load_json_trace(runner.path(a)), model, quiet=True)
        y = scenario + '-Y.json'
        runner.run(['convert', b, '--out', y])
        try:
            load_json_trace(runner.path(y))
        except ValueError as error:
            fail('convert %s --out %s (no --to) did not write JSON: %s' % (b, y, error))
        compare_reports(runner, a, y, '5 ' + scenario)
        ok('5 convert without --to: %s is protobuf (checks 2-3 pass), %s is JSON (same report)' % (x, y))

    # 6. Hostile: cut in the middle of the last packet.
    for scenario, _ in SCENARIOS:
        original = read_bytes(runner.path(scenario + '.pftrace'))
        start, payload, length = raw_packets(original)[-1]
        cut = payload + length // 2
        truncated = scenario + '-cut.pftrace'
        with open(runner.path(truncated), 'wb') as handle:
            handle.write(original[:cut])
        result = runner.run(['report', truncated, '--format', 'json'])
        report = json.loads(result.stdout)
        cuts = [d for d in report.get('diagnostics', []) if d.get('kind') == 'truncated']
        if len(cuts) != 1 or ('byte %d' % start) not in cuts[0].get('message', ''):
            fail('`%s` should read the complete packets with one truncated diagnostic naming byte %d; diagnostics: %r'
                 % (result.command, start, report.get('diagnostics', [])[:3]))
        ok('6 %s: report on a copy cut at byte %d of %d (inside the last packet, at byte %d) reads what is complete: %s'
           % (scenario, cut, len(original), start, cuts[0]['message'][:120]))
        repaired = scenario + '-repaired.pftrace'
        result = runner.run(['repair', truncated, '--out', repaired])
        clean = json.loads(runner.run(['report', repaired, '--format', 'json']).stdout)
        if clean.get('diagnostics'):
            fail('the repaired %s still reads with diagnostics: %r' % (repaired, clean['diagnostics'][:3]))
        data = read_bytes(runner.path(repaired))
        check_pftrace_file(runner.path(repaired))
        prefix = 'the original up to the cut packet' if data == original[:start] else (
            'a prefix of the original' if original.startswith(data) else 'not a prefix of the original')
        ok('6 %s: repair exits 0 (%s); the repaired file (%d bytes, %s) decodes, passes check 2 and reports (exit 0)'
           % (scenario, result.stderr.decode(errors='replace').strip().replace('\n', ' ')[:160] or 'no stderr', len(data), prefix))

    # 7. Sizes.
    for scenario, _ in SCENARIOS:
        json_size = os.path.getsize(runner.path(scenario + '.json'))
        proto_size = os.path.getsize(runner.path(scenario + '.pftrace'))
        ok('7 %s: .json %d bytes, .pftrace %d bytes, ratio pftrace/json %.3f' % (scenario, json_size, proto_size, proto_size / json_size))
    if corpus:
        run_corpus(runner, corpus)
    print('all checks passed in %.1f s' % (time.time() - started), flush=True)


# ----------------------------------------------------------------------------------------------
# Self-test: a small trace built here after the spec, its JSON, and corruptions that must fail.

class Builder:
    """Writes a trace the way the spec says framescope does."""

    def __init__(self):
        self.packets = []
        self.interned = {kind: {} for kind, _ in INTERN_KINDS}
        self.next_uuid = 100

    def packet(self):
        packet = pb.TracePacket()
        packet.trusted_packet_sequence_id = 1
        if not self.packets:
            packet.sequence_flags = 1
            packet.first_packet_on_sequence = True
        self.packets.append(packet)
        return packet

    def iid(self, packet, kind, name):
        table = self.interned[kind]
        if name not in table:
            table[name] = len(table) + 1
            entry = getattr(packet.interned_data, kind).add()
            entry.iid, entry.name = table[name], name
        packet.sequence_flags |= 2
        return table[name]

    def process(self, pid, name):
        packet = self.packet()
        self.next_uuid += 1
        packet.track_descriptor.uuid = self.next_uuid
        packet.track_descriptor.process.pid = pid
        packet.track_descriptor.process.process_name = name
        return self.next_uuid

    def thread(self, parent, pid, tid, name):
        packet = self.packet()
        self.next_uuid += 1
        packet.track_descriptor.uuid = self.next_uuid
        packet.track_descriptor.parent_uuid = parent
        packet.track_descriptor.thread.pid = pid
        packet.track_descriptor.thread.tid = tid
        packet.track_descriptor.thread.thread_name = name
        return self.next_uuid

    def named_track(self, parent, name, counter=False):
        packet = self.packet()
        self.next_uuid += 1
        packet.track_descriptor.uuid = self.next_uuid
        packet.track_descriptor.parent_uuid = parent
        packet.track_descriptor.name = name
        if counter:
            packet.track_descriptor.counter.SetInParent()
        else:
            packet.track_descriptor.sibling_merge_behavior = 1
        return self.next_uuid

    def annotate(self, packet, target, name, value):
        target.name_iid = self.iid(packet, 'debug_annotation_names', name)
        self.fill(packet, target, value)

    def fill(self, packet, target, value):
        if isinstance(value, bool):
            target.bool_value = value
        elif isinstance(value, int):
            target.int_value = value
        elif isinstance(value, float):
            target.double_value = value
        elif isinstance(value, str):
            target.string_value = value
        elif isinstance(value, dict):
            for key, item in value.items():
                self.annotate(packet, target.dict_entries.add(), key, item)
        elif isinstance(value, list):
            for item in value:
                self.fill(packet, target.array_values.add(), item)

    def event(self, track, ts, kind, name=None, cat=None, args=None, flows=(), terminating=(), value=None):
        packet = self.packet()
        packet.timestamp = ts
        event = packet.track_event
        event.type = kind
        event.track_uuid = track
        if name is not None:
            event.name_iid = self.iid(packet, 'event_names', name)
        if cat is not None:
            event.category_iids.append(self.iid(packet, 'event_categories', cat))
        for key, item in (args or {}).items():
            self.annotate(packet, event.debug_annotations.add(), key, item)
        event.flow_ids.extend(flows)
        event.terminating_flow_ids.extend(terminating)
        if value is not None:
            event.double_counter_value = value
        return packet

    def metadata(self, value):
        packet = self.packet()
        entry = packet.chrome_events.metadata.add()
        entry.name = 'framescope'
        entry.json_value = json.dumps(value)

    def serialize(self):
        trace = pb.Trace()
        trace.packet.extend(self.packets)
        return trace.SerializeToString()


def self_test_trace():
    """(protobuf bytes, JSON document) for the same small run."""
    metadata = {'producer': 'framescope', 'version': '0.1.0', 'clock': 'manual', 'frame-interval-ns': 16666667,
                'main-thread': {'pid': 1, 'tid': 1}, 'dropped-events': {'total': 0, 'threads': []}, 'extra': {'seed': 3}}
    events = [
        {'ph': 'M', 'name': 'process_name', 'pid': 1, 'tid': 0, 'args': {'name': 'framescope'}},
        {'ph': 'M', 'name': 'thread_name', 'pid': 1, 'tid': 1, 'args': {'name': 'main'}},
        {'ph': 'M', 'name': 'thread_name', 'pid': 1, 'tid': 2, 'args': {'name': 'worker-1'}},
        {'ph': 'X', 'name': 'frame', 'cat': 'frame', 'pid': 1, 'tid': 1, 'ts': 0, 'dur': 16666.667,
         'args': {'index': 0, 'since-vsync-ns': 3, 'budget-ns': 16666667}},
        {'ph': 'X', 'name': 'layout', 'cat': 'layout', 'pid': 1, 'tid': 1, 'ts': 10.5, 'dur': 100.25,
         'args': {'rows': 12, 'ratio': 0.3157894736842105, 'hit': True, 'label': 'cell',
                  'nested': {'a': 1, 'b': [1, 2.5, 'x']}, 'outer.inner': 7, 'whole': 2}},
        {'ph': 'X', 'name': 'apply', 'cat': 'layout,commit', 'pid': 1, 'tid': 1, 'ts': 200, 'dur': 50},
        {'ph': 'X', 'name': 'apply', 'cat': 'layout,commit', 'pid': 1, 'tid': 1, 'ts': 250, 'dur': 0},
        {'ph': 'i', 'name': 'pan', 'cat': 'input', 'pid': 1, 'tid': 1, 'ts': 5, 's': 't'},
        {'ph': 'X', 'name': 'decode image', 'cat': 'image-decode', 'pid': 1, 'tid': 2, 'ts': 20, 'dur': 150,
         'args': {'since-request-ns': 2}},
        {'ph': 's', 'name': 'background result', 'cat': 'image-decode', 'pid': 1, 'tid': 2, 'ts': 169, 'id': 1},
        {'ph': 'f', 'name': 'background result', 'cat': 'image-decode', 'pid': 1, 'tid': 1, 'ts': 220, 'id': 1, 'bp': 'e'},
        {'ph': 's', 'name': 'late result', 'cat': 'layout', 'pid': 1, 'tid': 2, 'ts': 230, 'id': 2},
        {'ph': 'f', 'name': 'late result', 'cat': 'layout', 'pid': 1, 'tid': 1, 'ts': 240, 'id': 2},
        {'ph': 'C', 'name': 'visible subviews', 'cat': 'layout', 'pid': 1, 'tid': 1, 'ts': 100, 'args': {'value': 38}},
        {'ph': 'C', 'name': 'queue', 'cat': 'layout', 'pid': 1, 'tid': 1, 'ts': 100, 'args': {'depth': 3, 'rate': 0.25}},
        {'ph': 'b', 'name': 'Expected Timeline', 'cat': 'frame-timeline', 'pid': 1, 'tid': 2, 'ts': 0, 'id': 10, 'args': {'index': 0}},
        {'ph': 'b', 'name': 'Expected Timeline', 'cat': 'frame-timeline', 'pid': 1, 'tid': 2, 'ts': 16666.667, 'id': 11, 'args': {'index': 1}},
        {'ph': 'b', 'name': 'Actual Timeline', 'cat': 'frame-timeline', 'pid': 1, 'tid': 2, 'ts': 0.001, 'id': 12,
         'args': {'index': 0, 'hitch-cause': 'none', 'late-ns': 0}},
        {'ph': 'b', 'name': 'on time', 'cat': 'frame-timeline', 'pid': 1, 'tid': 2, 'ts': 0.001, 'id': 12,
         'args': {'index': 0, 'hitch-cause': 'none', 'late-ns': 0}},
        {'ph': 'e', 'name': 'on time', 'cat': 'frame-timeline', 'pid': 1, 'tid': 2, 'ts': 33333.334, 'id': 12},
        {'ph': 'e', 'name': 'Actual Timeline', 'cat': 'frame-timeline', 'pid': 1, 'tid': 2, 'ts': 33333.334, 'id': 12},
        {'ph': 'e', 'name': 'Expected Timeline', 'cat': 'frame-timeline', 'pid': 1, 'tid': 2, 'ts': 33333.334, 'id': 10},
        {'ph': 'e', 'name': 'Expected Timeline', 'cat': 'frame-timeline', 'pid': 1, 'tid': 2, 'ts': 50000, 'id': 11},
    ]
    document = {'traceEvents': events, 'displayTimeUnit': 'ms', 'metadata': metadata}

    b = Builder()
    process = b.process(1, 'framescope')
    main = b.thread(process, 1, 1, 'main')
    worker = b.thread(process, 1, 2, 'worker-1')
    b.event(main, 0, 1, 'frame', 'frame', {'index': 0, 'since-vsync-ns': 3, 'budget-ns': 16666667})
    b.event(main, 5000, 3, 'pan', 'input')
    b.event(main, 10500, 1, 'layout', 'layout', {'rows': 12, 'ratio': 0.3157894736842105, 'hit': True, 'label': 'cell',
                                                'nested': {'a': 1, 'b': [1, 2.5, 'x']}, 'outer.inner': 7, 'whole': 2.0})
    b.event(worker, 20000, 1, 'decode image', 'image-decode', {'since-request-ns': 2}, flows=[1])
    visible = b.named_track(process, 'visible subviews', counter=True)
    b.event(visible, 100000, 4, value=38.0)
    depth = b.named_track(process, 'queue depth', counter=True)
    b.event(depth, 100000, 4, value=3.0)
    rate = b.named_track(process, 'queue rate', counter=True)
    b.event(rate, 100000, 4, value=0.25)
    b.event(main, 110750, 2)
    b.event(worker, 170000, 2)
    b.event(main, 200000, 1, 'apply', 'layout,commit', terminating=[1])
    b.event(main, 250000, 2)
    b.event(main, 250000, 1, 'apply', 'layout,commit', terminating=[2])
    b.event(main, 250000, 2)
    b.event(worker, 230000, 3, 'late result', 'layout', flows=[2])
    expected_a = b.named_track(process, 'Expected Timeline')
    b.event(expected_a, 0, 1, 'Expected Timeline', 'frame-timeline', {'index': 0})
    actual = b.named_track(process, 'Actual Timeline')
    b.event(actual, 1, 1, 'Actual Timeline', 'frame-timeline', {'index': 0, 'hitch-cause': 'none', 'late-ns': 0})
    b.event(actual, 1, 1, 'on time', 'frame-timeline', {'index': 0, 'hitch-cause': 'none', 'late-ns': 0})
    expected_b = b.named_track(process, 'Expected Timeline')
    b.event(expected_b, 16666667, 1, 'Expected Timeline', 'frame-timeline', {'index': 1})
    b.event(actual, 33333334, 2)
    b.event(actual, 33333334, 2)
    b.event(expected_a, 33333334, 2)
    b.event(main, 16666667, 2)
    b.event(expected_b, 50000000, 2)
    b.metadata(metadata)
    return b, document


def reference_pftrace(document):
    """A JSON trace written as protobuf the way the spec says framescope does (--self-test JSON...)."""
    model = json_model(document, 'reference')
    events = document.get('traceEvents', []) if isinstance(document, dict) else document
    b = Builder()
    pids = []
    threads = list(model['thread_order'])
    for event in events:
        thread = (event.get('pid'), event.get('tid'))
        if event.get('pid') is not None and event['pid'] not in pids:
            pids.append(event['pid'])
        if thread in model['event_threads'] and thread not in threads:
            threads.append(thread)
    process_uuid = {pid: b.process(pid, model['processes'].get(pid)) for pid in pids}
    thread_uuid = {thread: b.thread(process_uuid[thread[0]], thread[0], thread[1], model['thread_names'].get(thread))
                   for thread in threads}
    plan = []   # (timestamp, track uuid, kind, name, category, args, flows, terminating, value), per track in order

    def nest(track, slices, instants):
        items = sorted([(s['start'], 0, -s['end'], s['order'], 's', s) for s in slices] +
                       [(i['ts'], 1, 0, i['order'], 'i', i) for i in instants], key=lambda item: item[:4])
        stack = []
        for start, _, _, _, what, item in items:
            if what == 's':
                while stack and not (stack[-1]['start'] <= item['start'] and item['end'] <= stack[-1]['end']):
                    top = stack.pop()
                    plan.append((top['end'], track, 2, None, None, None, [], [], None))
                plan.append((item['start'], track, 1, item['name'], item['cat'], item['args'],
                             item.get('flows', []), item.get('terminating', []), None))
                stack.append(item)
            else:
                while stack and stack[-1]['end'] < start:
                    top = stack.pop()
                    plan.append((top['end'], track, 2, None, None, None, [], [], None))
                plan.append((start, track, 3, item['name'], item['cat'], item['args'],
                             item.get('flows', []), item.get('terminating', []), None))
        while stack:
            plan.append((stack.pop()['end'], track, 2, None, None, None, [], [], None))

    # Flows: bind every point to a slice (or an instant) as the spec says.
    slices = {thread: [dict(s) for s in items] for thread, items in model['slices'].items()}
    instants = {thread: [dict(i) for i in items] for thread, items in model['instants'].items()}
    for flow_id, points in model['flows'].items():
        for point in points:
            candidates = slices.setdefault(point['thread'], [])
            if point['phase'] == 'f' and point.get('bp') != 'e':
                after = [s for s in candidates if s['start'] >= point['ts']]
                bound = min(after, key=lambda s: (s['start'], -s['end'])) if after else None
            else:
                enclosing = [s for s in candidates if s['start'] <= point['ts'] <= s['end']]
                bound = max(enclosing, key=lambda s: (s['start'], -s['end'])) if enclosing else None
            if bound is None:
                bound = dict(name=point['name'], cat=point['cat'], ts=point['ts'], order=point['order'], args={})
                instants.setdefault(point['thread'], []).append(bound)
            bound.setdefault('terminating' if point['phase'] == 'f' else 'flows', []).append(int(flow_id, 0))
    for thread in threads:
        nest(thread_uuid[thread], slices.get(thread, []), instants.get(thread, []))

    # Async groups, packed greedily onto tracks of the same name.
    lanes = collections.defaultdict(list)     # (pid, name) -> [[uuid, last end, slices, instants]]
    groups = collections.defaultdict(lambda: ([], []))
    for pid, items in model['async_slices'].items():
        for item in items:
            groups[(pid, item['group'])][0].append(item)
    for pid, items in model['async_instants'].items():
        for item in items:
            groups[(pid, item['group'])][1].append(item)
    for (pid, group), (group_slices, group_instants) in sorted(
            groups.items(), key=lambda g: min([s['start'] for s in g[1][0]] + [i['ts'] for i in g[1][1]])):
        start = min([s['start'] for s in group_slices] + [i['ts'] for i in group_instants])
        end = max([s['end'] for s in group_slices] + [i['ts'] for i in group_instants])
        name = model['group_first_name'].get((pid, group)) or group_instants[0]['name']
        lane = next((lane for lane in lanes[(pid, name)] if lane[1] <= start), None)
        if lane is None:
            lane = [b.named_track(process_uuid[pid], name), end, [], []]
            lanes[(pid, name)].append(lane)
        lane[1] = end
        lane[2] += group_slices
        lane[3] += group_instants
    for pid_name, pid_lanes in lanes.items():
        for uuid, _, lane_slices, lane_instants in pid_lanes:
            nest(uuid, lane_slices, lane_instants)

    counter_uuid = {}
    for pid, name, ts, value in model['counters']:
        if (pid, name) not in counter_uuid:
            counter_uuid[(pid, name)] = b.named_track(process_uuid[pid], name, counter=True)
        plan.append((ts, counter_uuid[(pid, name)], 4, None, None, None, [], [], float(value)))

    for ts, track, kind, name, cat, args, flows, terminating, value in sorted(plan, key=lambda item: item[0]):
        b.event(track, ts, kind, name, cat or None, {k: v for k, v in (args or {}).items() if v is not None},
                flows, terminating, value)
    if model['metadata'] is not None:
        b.metadata(model['metadata'])
    return b.serialize()


def mutations():
    """(description, function(builder, document) that corrupts one of them, expected message fragment)."""
    def packet_with(b, predicate):
        return next(p for p in b.packets if predicate(p))

    def event_named(b, name):
        return packet_with(b, lambda p: p.HasField('track_event') and p.track_event.HasField('name_iid')
                           and p.track_event.name_iid == b.interned['event_names'][name])

    def drop_descriptor(b, d):
        b.packets.remove(packet_with(b, lambda p: p.track_descriptor.name == 'queue rate'))

    def no_sequence(b, d):
        b.packets[5].ClearField('trusted_packet_sequence_id')

    def no_clear(b, d):
        b.packets[0].sequence_flags = 0

    def bad_iid(b, d):
        event_named(b, 'layout').track_event.name_iid = 99

    def late_definition(b, d):
        packet = event_named(b, 'frame')
        packet.ClearField('interned_data')

    def open_slice(b, d):
        b.packets.remove(packet_with(b, lambda p: p.track_event.type == 2 and p.timestamp == 170000))

    def wrong_parent(b, d):
        packet_with(b, lambda p: p.track_descriptor.thread.tid == 2).track_descriptor.parent_uuid = \
            packet_with(b, lambda p: p.track_descriptor.thread.tid == 1).track_descriptor.uuid

    def changed_arg(b, d):
        packet = event_named(b, 'layout')
        for annotation in packet.track_event.debug_annotations:
            if annotation.HasField('double_value') and annotation.double_value < 1:
                annotation.double_value = 0.3157894
                return

    def int_as_double(b, d):
        for annotation in event_named(b, 'layout').track_event.debug_annotations:
            if annotation.HasField('int_value') and annotation.int_value == 12:
                annotation.ClearField('int_value')
                annotation.double_value = 12.5

    def changed_duration(b, d):
        packet_with(b, lambda p: p.track_event.type == 2 and p.timestamp == 110750).timestamp = 110751

    def moved_flow(b, d):
        event_named(b, 'apply').track_event.ClearField('terminating_flow_ids')
        packet_with(b, lambda p: p.track_event.type == 1 and p.timestamp == 250000).track_event.terminating_flow_ids.extend([1])

    def thread_name(b, d):
        d['traceEvents'][2]['args']['name'] = 'worker-9'

    def counter_value(b, d):
        packet_with(b, lambda p: p.track_event.type == 4 and p.track_event.double_counter_value == 0.25).track_event.double_counter_value = 0.5

    def missing_child(b, d):
        packet = event_named(b, 'on time')
        packet.track_event.name_iid = b.interned['event_names']['Actual Timeline']
        packet.ClearField('interned_data')

    def async_merge(b, d):
        packet_with(b, lambda p: p.track_descriptor.name == 'Actual Timeline').track_descriptor.sibling_merge_behavior = 0

    def metadata(b, d):
        d['metadata']['extra']['seed'] = 4

    def negative(b, d):
        packet_with(b, lambda p: p.track_event.type == 3 and p.timestamp == 5000).timestamp = (1 << 64) - 5

    def int_counter(b, d):
        event = packet_with(b, lambda p: p.track_event.type == 4 and p.track_event.double_counter_value == 38).track_event
        event.counter_value = 38

    def split_category(b, d):
        packet = event_named(b, 'apply')
        packet.track_event.ClearField('category_iids')
        packet.track_event.categories.extend(['layout', 'commit'])

    def unbound_flow(b, d):
        d['traceEvents'][9]['ts'] = 175   # the s point of id 1 now lies after its slice: the spec makes it an instant

    def no_needs_state(b, d):
        event_named(b, 'layout').sequence_flags = 0

    def extra_end(b, d):
        b.event(packet_with(b, lambda p: p.track_descriptor.thread.tid == 2).track_descriptor.uuid, 400000, 2)
        b.packets.insert(-2, b.packets.pop())

    def twice(b, d):
        entry = event_named(b, 'layout').interned_data.event_names.add()
        entry.iid, entry.name = 1, 'frame'

    def lost_flow(b, d):
        event_named(b, 'decode image').track_event.ClearField('flow_ids')

    def no_expected(b, d):
        for packet in b.packets:
            if packet.track_descriptor.name == 'Expected Timeline':
                packet.track_descriptor.name = 'Expected'
            for entry in packet.interned_data.event_names:
                if entry.name == 'Expected Timeline':
                    entry.name = 'Expected'
        for event in d['traceEvents']:
            if event['name'] == 'Expected Timeline':
                event['name'] = 'Expected'

    return [
        ('an interning packet without SEQ_NEEDS_INCREMENTAL_STATE', no_needs_state, 'SEQ_NEEDS_INCREMENTAL_STATE'),
        ('a SLICE_END with no open slice', extra_end, 'closes no open slice'),
        ('an iid defined twice', twice, 'defined again'),
        ('a flow that lost its start', lost_flow, 'flow'),
        ('no Expected Timeline track', no_expected, "no async track 'Expected Timeline'"),
        ('a track used before its descriptor', drop_descriptor, 'no earlier TrackDescriptor'),
        ('a packet without sequence id', no_sequence, 'no trusted_packet_sequence_id'),
        ('first packet without SEQ_INCREMENTAL_STATE_CLEARED', no_clear, 'SEQ_INCREMENTAL_STATE_CLEARED'),
        ('an undefined name_iid', bad_iid, 'event name iid 99 is not defined'),
        ('interned names defined nowhere', late_definition, 'is not defined'),
        ('a slice never ended', open_slice, 'left open'),
        ('a thread track under the wrong parent', wrong_parent, 'not the track of process'),
        ('an arg double changed', changed_arg, 'ratio'),
        ('an int arg written as a fractional double', int_as_double, 'rows'),
        ('a slice 1 ns longer', changed_duration, 'first only in'),
        ('a flow terminating on the wrong slice', moved_flow, 'flow id 1'),
        ('a thread renamed in the JSON', thread_name, 'threads'),
        ('a counter value changed', counter_value, 'counter'),
        ('a frame-timeline child renamed', missing_child, 'async'),
        ('an async track without BY_TRACK_NAME', async_merge, 'sibling_merge_behavior'),
        ('metadata changed in the JSON', metadata, 'metadata'),
        ('a negative timestamp', negative, 'negative'),
        ('an int64 counter value', int_counter, 'counter_value'),
        ('a category split in two', split_category, 'categories'),
        ('a flow point moved so it binds elsewhere', unbound_flow, "instant', 'background result', 175000"),
    ]


def self_test_checks(data, document, label):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, label + '.json')
        with open(path, 'w') as handle:
            json.dump(document, handle)
        model = decode_pftrace(data, label + '.pftrace')
        compare_traces(load_json_trace(path), model, quiet=True)
        return model


def self_test(paths):
    started = time.time()
    for path in paths:
        with open(path, encoding='utf-8') as handle:
            document = json.load(handle)
        data = reference_pftrace(document)
        label = os.path.basename(path) + ' (reference writer)'
        model = decode_pftrace(data, label)
        ok('%s: passes check 2 (%s)' % (label, structure_summary(model)))
        compare_traces(json_model(document, path), model)
        ok('%s: %d bytes as protobuf, %d as JSON' % (label, len(data), os.path.getsize(path)))
    builder, document = self_test_trace()
    data = builder.serialize()
    model = self_test_checks(data, document, 'self-test')
    ok('self-test: the spec-built trace passes check 2 (%s)' % structure_summary(model))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, 'self-test.json')
        with open(path, 'w') as handle:
            json.dump(document, handle)
        compare_traces(load_json_trace(path), model)
    # The raw walk: a stray top-level field, a cut file.
    stray = data + b'\x12\x01x'
    for what, corrupt, expected in [('a top-level field other than packet', stray, 'top-level field 2'),
                                    ('a cut in the last packet', data[:-3], 'truncated'),
                                    ('a cut inside a length varint', data[:1], 'varint')]:
        try:
            decode_pftrace(corrupt, 'corrupt')
        except CheckFailed as error:
            if expected not in str(error):
                fail('self-test: %s failed with an unexpected message: %s' % (what, error))
            ok('self-test: %s is caught: %s' % (what, error))
        else:
            fail('self-test: %s was not caught' % what)
    # Unknown fields (a wrong field number in a writer).
    packet = pb.TracePacket()
    packet.trusted_packet_sequence_id = 1
    unknown = b'\x0a' + bytes([len(packet.SerializeToString()) + 3]) + packet.SerializeToString() + b'\xf8\x7f\x01'
    try:
        decode_pftrace(data + unknown, 'corrupt')
    except CheckFailed as error:
        if 'unknown field' not in str(error):
            fail('self-test: an unknown field failed with an unexpected message: %s' % error)
        ok('self-test: an unknown field is caught: %s' % error)
    else:
        fail('self-test: an unknown field was not caught')
    # Corruptions of the built trace or its JSON.
    for what, corrupt, expected in mutations():
        builder, document = self_test_trace()
        corrupt(builder, document)
        try:
            self_test_checks(builder.serialize(), document, 'mutant')
        except CheckFailed as error:
            if expected not in str(error):
                fail('self-test: %s failed with an unexpected message (wanted %r): %s' % (what, expected, error))
            ok('self-test: %s is caught: %s' % (what, str(error)[:200]))
        else:
            fail('self-test: %s was not caught' % what)
    # The report comparison names the first differing key path.
    difference = json_difference({'a': {'b': [1, {'c': 2}]}}, {'a': {'b': [1, {'c': 3}]}}, 'report')
    if difference != 'report.a.b[1].c: 2 vs 3':
        fail('self-test: json_difference gave %r' % difference)
    stripped = strip_input_names({'source': 'x/A.json', 'method': {'file': 'A.json', 'n': 1}}, 'x/A.json')
    if stripped != {'method': {'n': 1}}:
        fail('self-test: strip_input_names gave %r' % stripped)
    ok('self-test: report comparison names the first differing key path (%s) and drops the input name' % difference)
    print('self-test passed in %.2f s' % (time.time() - started), flush=True)


def main():
    parser = argparse.ArgumentParser(description='Check framescope Perfetto protobuf traces (see the module docstring).')
    parser.add_argument('binary', nargs='*', help='path to the framescope binary (with --self-test: JSON traces)')
    parser.add_argument('--self-test', action='store_true',
                        help='check the checker on traces built in Python (and on the given JSON traces, written as '
                             'protobuf by a Python writer that follows the spec); needs no binary')
    parser.add_argument('--work-dir', help='scratch folder to use and keep (default: a temporary one, removed)')
    parser.add_argument('--keep', action='store_true', help='keep the temporary scratch folder')
    parser.add_argument('--demo-frames', type=int, default=30, help='frames per demo run (default 30)')
    parser.add_argument('--corpus', help="a folder of other tools' Chrome JSON traces for check 8")
    options = parser.parse_args()
    try:
        if options.self_test:
            self_test(options.binary)
            return 0
        if len(options.binary) != 1:
            parser.error('give one framescope binary, or --self-test')
        binary = os.path.abspath(options.binary[0])
        if not os.access(binary, os.X_OK):
            fail('%s is not an executable' % binary)
        if options.work_dir:
            work = os.path.abspath(options.work_dir)
            os.makedirs(work, exist_ok=True)
        else:
            work = tempfile.mkdtemp(prefix='check_perfetto.')
        try:
            if options.corpus and not os.path.isdir(options.corpus):
                fail('--corpus %s is not a folder' % options.corpus)
            run_binary(binary, work, options.demo_frames, options.corpus and os.path.abspath(options.corpus))
        finally:
            if not options.work_dir and not options.keep:
                shutil.rmtree(work, ignore_errors=True)
            else:
                print('scratch files kept in %s' % work)
        return 0
    except CheckFailed as error:
        print('FAIL: %s' % error, flush=True)
        return 1


if __name__ == '__main__':
    sys.exit(main())
