"""check_perfetto --self-test: small traces built after the spec with perfetto_trace_pb2, their JSON,
and deliberate corruptions the decoder and the comparison must catch."""
import collections
import json
import os
import tempfile
import time

from .common import CheckFailed, fail, ok
from .perfetto_decode import INTERN_KINDS, pb, decode_pftrace, structure_summary
from .perfetto_compare import compare_traces, json_difference, json_model, load_json_trace, strip_input_names


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


# Deliberate corruptions: each takes the Builder and the JSON document and breaks one thing.


def packet_with(b, predicate):
    return next(p for p in b.packets if predicate(p))


def event_named(b, name):
    return packet_with(b, lambda p: p.HasField('track_event') and p.track_event.HasField('name_iid')
                       and p.track_event.name_iid == b.interned['event_names'][name])


def mutate_drop_descriptor(b, d):
    b.packets.remove(packet_with(b, lambda p: p.track_descriptor.name == 'queue rate'))


def mutate_no_sequence(b, d):
    b.packets[5].ClearField('trusted_packet_sequence_id')


def mutate_no_clear(b, d):
    b.packets[0].sequence_flags = 0


def mutate_bad_iid(b, d):
    event_named(b, 'layout').track_event.name_iid = 99


def mutate_late_definition(b, d):
    packet = event_named(b, 'frame')
    packet.ClearField('interned_data')


def mutate_open_slice(b, d):
    b.packets.remove(packet_with(b, lambda p: p.track_event.type == 2 and p.timestamp == 170000))


def mutate_wrong_parent(b, d):
    packet_with(b, lambda p: p.track_descriptor.thread.tid == 2).track_descriptor.parent_uuid = \
        packet_with(b, lambda p: p.track_descriptor.thread.tid == 1).track_descriptor.uuid


def mutate_changed_arg(b, d):
    packet = event_named(b, 'layout')
    for annotation in packet.track_event.debug_annotations:
        if annotation.HasField('double_value') and annotation.double_value < 1:
            annotation.double_value = 0.3157894
            return


def mutate_int_as_double(b, d):
    for annotation in event_named(b, 'layout').track_event.debug_annotations:
        if annotation.HasField('int_value') and annotation.int_value == 12:
            annotation.ClearField('int_value')
            annotation.double_value = 12.5


def mutate_changed_duration(b, d):
    packet_with(b, lambda p: p.track_event.type == 2 and p.timestamp == 110750).timestamp = 110751


def mutate_moved_flow(b, d):
    event_named(b, 'apply').track_event.ClearField('terminating_flow_ids')
    packet_with(b, lambda p: p.track_event.type == 1 and p.timestamp == 250000).track_event.terminating_flow_ids.extend([1])


def mutate_thread_name(b, d):
    d['traceEvents'][2]['args']['name'] = 'worker-9'


def mutate_counter_value(b, d):
    packet_with(b, lambda p: p.track_event.type == 4 and p.track_event.double_counter_value == 0.25).track_event.double_counter_value = 0.5


def mutate_missing_child(b, d):
    packet = event_named(b, 'on time')
    packet.track_event.name_iid = b.interned['event_names']['Actual Timeline']
    packet.ClearField('interned_data')


def mutate_async_merge(b, d):
    packet_with(b, lambda p: p.track_descriptor.name == 'Actual Timeline').track_descriptor.sibling_merge_behavior = 0


def mutate_metadata(b, d):
    d['metadata']['extra']['seed'] = 4


def mutate_negative(b, d):
    packet_with(b, lambda p: p.track_event.type == 3 and p.timestamp == 5000).timestamp = (1 << 64) - 5


def mutate_int_counter(b, d):
    event = packet_with(b, lambda p: p.track_event.type == 4 and p.track_event.double_counter_value == 38).track_event
    event.counter_value = 38


def mutate_split_category(b, d):
    packet = event_named(b, 'apply')
    packet.track_event.ClearField('category_iids')
    packet.track_event.categories.extend(['layout', 'commit'])


def mutate_unbound_flow(b, d):
    d['traceEvents'][9]['ts'] = 175   # the s point of id 1 now lies after its slice: the spec makes it an instant


def mutate_no_needs_state(b, d):
    event_named(b, 'layout').sequence_flags = 0


def mutate_extra_end(b, d):
    b.event(packet_with(b, lambda p: p.track_descriptor.thread.tid == 2).track_descriptor.uuid, 400000, 2)
    b.packets.insert(-2, b.packets.pop())


def mutate_twice(b, d):
    entry = event_named(b, 'layout').interned_data.event_names.add()
    entry.iid, entry.name = 1, 'frame'


def mutate_lost_flow(b, d):
    event_named(b, 'decode image').track_event.ClearField('flow_ids')


def mutate_no_expected(b, d):
    for packet in b.packets:
        if packet.track_descriptor.name == 'Expected Timeline':
            packet.track_descriptor.name = 'Expected'
        for entry in packet.interned_data.event_names:
            if entry.name == 'Expected Timeline':
                entry.name = 'Expected'
    for event in d['traceEvents']:
        if event['name'] == 'Expected Timeline':
            event['name'] = 'Expected'


def mutations():
    """(description, function(builder, document) that corrupts one of them, expected message fragment)."""
    return [
        ('an interning packet without SEQ_NEEDS_INCREMENTAL_STATE', mutate_no_needs_state, 'SEQ_NEEDS_INCREMENTAL_STATE'),
        ('a SLICE_END with no open slice', mutate_extra_end, 'closes no open slice'),
        ('an iid defined twice', mutate_twice, 'defined again'),
        ('a flow that lost its start', mutate_lost_flow, 'flow'),
        ('no Expected Timeline track', mutate_no_expected, "no async track 'Expected Timeline'"),
        ('a track used before its descriptor', mutate_drop_descriptor, 'no earlier TrackDescriptor'),
        ('a packet without sequence id', mutate_no_sequence, 'no trusted_packet_sequence_id'),
        ('first packet without SEQ_INCREMENTAL_STATE_CLEARED', mutate_no_clear, 'SEQ_INCREMENTAL_STATE_CLEARED'),
        ('an undefined name_iid', mutate_bad_iid, 'event name iid 99 is not defined'),
        ('interned names defined nowhere', mutate_late_definition, 'is not defined'),
        ('a slice never ended', mutate_open_slice, 'left open'),
        ('a thread track under the wrong parent', mutate_wrong_parent, 'not the track of process'),
        ('an arg double changed', mutate_changed_arg, 'ratio'),
        ('an int arg written as a fractional double', mutate_int_as_double, 'rows'),
        ('a slice 1 ns longer', mutate_changed_duration, 'first only in'),
        ('a flow terminating on the wrong slice', mutate_moved_flow, 'flow id 1'),
        ('a thread renamed in the JSON', mutate_thread_name, 'threads'),
        ('a counter value changed', mutate_counter_value, 'counter'),
        ('a frame-timeline child renamed', mutate_missing_child, 'async'),
        ('an async track without BY_TRACK_NAME', mutate_async_merge, 'sibling_merge_behavior'),
        ('metadata changed in the JSON', mutate_metadata, 'metadata'),
        ('a negative timestamp', mutate_negative, 'negative'),
        ('an int64 counter value', mutate_int_counter, 'counter_value'),
        ('a category split in two', mutate_split_category, 'categories'),
        ('a flow point moved so it binds elsewhere', mutate_unbound_flow, "instant', 'background result', 175000"),
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
