"""check_perfetto's reading of a .pftrace: the raw packet walk, then every packet decoded with Perfetto's
own schema (perfetto_trace_pb2) into tracks, slices, instants, counters and flows, checking the
mapping spec's structure on the way (sequences, interning, descriptors before use, nesting)."""
import collections
import json

from .common import fail, import_or_exit

pb = import_or_exit("perfetto.protos.perfetto.trace.perfetto_trace_pb2", "pip install perfetto protobuf")
_unknown_fields = import_or_exit("google.protobuf.unknown_fields", "pip install perfetto protobuf")


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


class PacketNames:
    """One packet's view of its sequence's interned strings: looks ids up, records which it used."""

    def __init__(self, state, where, sequence):
        self.state, self.where, self.sequence = state, where, sequence
        self.used = set()

    def intern(self, kind, iid, what):
        where, state = self.where, self.state
        if state is None:
            fail('%s: uses %s iid %d before any SEQ_INCREMENTAL_STATE_CLEARED' % (where, what, iid))
        if iid not in state[kind]:
            fail('%s: %s iid %d is not defined in this packet or an earlier one on sequence %d '
                 '(after the last clear)' % (where, what, iid, self.sequence))
        self.used.add((kind, iid))
        return state[kind][iid]

    def annotation_value(self, annotation, path):
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
            return self.annotations(annotation.dict_entries, path)
        if len(annotation.array_values):
            return [self.annotation_value(item, '%s[%d]' % (path, i)) for i, item in enumerate(annotation.array_values)]
        for other in ('pointer_value', 'nested_value', 'legacy_json_value', 'string_value_iid', 'proto_value'):
            if annotation.HasField(other):
                fail('%s: debug annotation %s uses %s, which the spec does not write' % (self.where, path, other))
        return EMPTY

    def annotations(self, items, path):
        where = self.where
        result = {}
        for item in items:
            if item.HasField('name_iid'):
                name = self.intern('debug_annotation_names', item.name_iid, 'debug annotation name')
            elif item.HasField('name'):
                name = item.name
            else:
                fail('%s: a debug annotation in %s has no name' % (where, path or 'the event'))
            if name in result:
                fail('%s: debug annotation %r appears twice in %s' % (where, name, path or 'the event'))
            result[name] = self.annotation_value(item, (path + '.' if path else '') + name)
        return result


def check_sequence(packet, index, where, sequences):
    """The packet's sequence id and flags as the spec writes them; its sequence's interning state."""
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
    if packet.HasField('timestamp') and packet.timestamp >= 1 << 63:
        fail('%s: timestamp %d is negative as int64 (%d)' % (where, packet.timestamp, packet.timestamp - (1 << 64)))
    return sequence, flags, sequences.get(sequence)


def read_interned(packet, state, where, sequence):
    """The packet's interned_data added to its sequence's state: each iid defined once, numbered from 1."""
    defined_here = set()
    if not packet.HasField('interned_data'):
        return defined_here
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
    return defined_here


def read_track_descriptor(descriptor, tracks, where):
    """A TrackDescriptor as a Track: process, thread (under its process) or async and counter tracks."""
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


def read_track_event(packet, tracks, names, where):
    """A TrackEvent checked against the spec: its track, its counter value, or the event to pair."""
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
        name = names.intern('event_names', event.name_iid, 'event name')
    elif event.HasField('name'):
        name = event.name
    categories = [names.intern('event_categories', iid, 'category') for iid in event.category_iids] + list(event.categories)
    if len(categories) > 1:
        fail('%s: %d categories %r; the spec writes the JSON cat as one category' % (where, len(categories), categories))
    category = categories[0] if categories else ''
    args = names.annotations(event.debug_annotations, '')
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
        track.counts.append((packet.timestamp, event.double_counter_value))
        return track, None
    return track, dict(type=kind, name=name, cat=category, ts=packet.timestamp, args=args,
                       flows=list(event.flow_ids), terminating=list(event.terminating_flow_ids), where=where)


def check_names_used(names, defined_here, flags, where):
    """Interned ids need SEQ_NEEDS_INCREMENTAL_STATE; each is defined in the first packet that uses it."""
    if names.used and not flags & 2:
        fail('%s: uses interned ids but lacks SEQ_NEEDS_INCREMENTAL_STATE (sequence_flags %d)' % (where, flags))
    unused = defined_here - names.used
    if unused:
        kind, iid = sorted(unused)[0]
        fail('%s: interned %s iid %d (%r) is defined in a packet that does not use it (the spec defines '
             'each in the first packet that uses it)' % (where, dict(INTERN_KINDS)[kind], iid, names.state[kind][iid]))


def pair_slices(tracks, label):
    """Slices per track: a stack, in timestamp order (as trace processor sorts; stable for ties)."""
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


def framescope_metadata(metadata, packets, label):
    """The framescope metadata entry's JSON (None without one), in the last packet."""
    entries = [entry for _, entry in metadata if entry.name == 'framescope']
    if metadata and metadata[-1][0] != packets - 1:
        fail('%s: the metadata packet is packet %d, not the last (%d)' % (label, metadata[-1][0], packets - 1))
    if not entries:
        return None
    if len(entries) > 1:
        fail('%s: %d framescope metadata entries' % (label, len(entries)))
    try:
        return json.loads(entries[0].json_value)
    except ValueError as error:
        fail('%s: the framescope metadata json_value is not JSON: %s' % (label, error))


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
        sequence, flags, state = check_sequence(packet, index, where, sequences)
        defined_here = read_interned(packet, state, where, sequence)
        names = PacketNames(state, where, sequence)
        if packet.HasField('track_descriptor'):
            read_track_descriptor(packet.track_descriptor, tracks, where)
        if packet.HasField('track_event'):
            track, event = read_track_event(packet, tracks, names, where)
            if event is not None:
                if track.events and packet.timestamp < track.events[-1][0]:
                    out_of_order.append('%s: timestamp %d after %d on track %r' % (where, packet.timestamp, track.events[-1][0], track.name))
                track.events.append((packet.timestamp, order, event))
                order += 1
        check_names_used(names, defined_here, flags, where)
        if packet.HasField('chrome_events'):
            for entry in packet.chrome_events.metadata:
                metadata.append((index, entry))

    pair_slices(tracks, label)
    meta = framescope_metadata(metadata, len(trace.packet), label)
    return dict(label=label, tracks=tracks, metadata=meta, packets=len(spans), spans=spans,
                out_of_order=out_of_order)


def structure_summary(model):
    counts = collections.Counter(track.kind for track in model['tracks'].values())
    slices = sum(len(track.slices) for track in model['tracks'].values())
    return '%d packets; %d process, %d thread, %d async, %d counter tracks; %d slices' % (
        model['packets'], counts['process'], counts['thread'], counts['async'], counts['counter'], slices)
