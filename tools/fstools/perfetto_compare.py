"""check_perfetto's comparison: the Chrome JSON of a run read into the same model as the decoded
.pftrace, and the two compared thread by thread, slice by slice, flow by flow, argument by argument."""
import collections
import json
import os

from .common import fail, ok
from .perfetto_decode import EMPTY


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


def compare_threads(json_model, proto_model, say):
    """Processes and threads (pid, tid, name), described in the JSON's order."""
    label = proto_model['label']
    proto_threads = {(t.pid, t.tid): t for t in proto_model['tracks'].values() if t.kind == 'thread'}
    proto_processes = {t.pid: t for t in proto_model['tracks'].values() if t.kind == 'process'}
    names = json_model['thread_names']
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


def compare_thread_slices(json_model, proto_model, say):
    """Complete slices per thread, with their debug annotations against args."""
    label = proto_model['label']
    proto_threads = {(t.pid, t.tid): t for t in proto_model['tracks'].values() if t.kind == 'thread'}
    names = json_model['thread_names']
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


def compare_thread_instants(json_model, proto_model, say):
    """Instants on threads (those carrying flows stand for unbound flow points: checked with flows)."""
    label = proto_model['label']
    proto_threads = {(t.pid, t.tid): t for t in proto_model['tracks'].values() if t.kind == 'thread'}
    names = json_model['thread_names']
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


def compare_async(json_model, proto_model, say):
    """Async slices and instants per process; each async track named by its first slice."""
    label = proto_model['label']
    async_tracks = [t for t in proto_model['tracks'].values() if t.kind == 'async']
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


def compare_frame_timeline(json_model, proto_model, say):
    """The frame timeline's Expected and Actual tracks under the app process."""
    label = proto_model['label']
    names = json_model['thread_names']
    async_tracks = [t for t in proto_model['tracks'].values() if t.kind == 'async']
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


def compare_counters(json_model, proto_model, say):
    """Counter samples (pid, track name, ts) and their values."""
    label = proto_model['label']
    tracks = proto_model['tracks'].values()
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


def compare_metadata(json_model, proto_model, say):
    """The metadata packet (last) against the JSON's metadata."""
    label = proto_model['label']
    if json_model['metadata'] is not None:
        if proto_model['metadata'] is None:
            fail('%s: no chrome_events metadata "framescope" packet, the JSON has metadata' % label)
        difference = json_difference(json_model['metadata'], proto_model['metadata'], 'metadata', tolerance=True)
        if difference:
            fail('%s: metadata json_value differs from the JSON metadata at %s' % (label, difference))
        say('%s: metadata packet (last) equals the JSON metadata' % label)


def compare_traces(json_model, proto_model, quiet=False):
    """Check 3."""
    say = (lambda message: None) if quiet else ok
    compare_threads(json_model, proto_model, say)
    compare_thread_slices(json_model, proto_model, say)
    compare_thread_instants(json_model, proto_model, say)
    compare_async(json_model, proto_model, say)
    compare_frame_timeline(json_model, proto_model, say)
    compare_counters(json_model, proto_model, say)
    compare_flows(json_model, proto_model, say)
    compare_metadata(json_model, proto_model, say)



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
