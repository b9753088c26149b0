#!/usr/bin/env python3
"""Renders a framescope trace as the XML `xcrun xctrace export` would give for it.

    tools/xctrace_export.py TRACE.json [--out EXPORT.xml] [--hitches] [--no-display]
                            [--old-frame-message] [--dynamic REGEX] [--toc TOC.xml]
    tools/xctrace_export.py --self-check [--corpus DIR]

The question it answers: had this framescope recording been made on an iPhone with the signpost
mirror on (FRAMESCOPE_SIGNPOSTS=1) under Instruments' Animation Hitches template with the
os_signpost instrument, what would `xcrun xctrace export --xpath '/trace-toc/run[@number="1"]/data/
table[@schema="..."]'` write? The Instruments importer is tested on the answer: a framescope trace,
through this writer and the importer, must come back as the spans and frames it was.

What it writes (Python 3 standard library only):
- a `<trace-query-result>` with one `<node xpath='//trace-toc[1]/run[1]/data[1]/table[N]'>` per
  table, each with the `<schema>` of the real export (column mnemonics, names and engineering
  types copied from traces/third-party/xctrace__*.xml) and `<row>`s of typed cells. A value is
  written once with `id="N"` and later as `ref="N"`, ids counting up through the document and
  refs never reaching into another node; `fmt` is the display text; `<sentinel/>` an empty cell.
- `OSSignpostIntervals`: one row per span, as the mirror (Sources/FrameScope/Recorder+Signposts.swift)
  emits it. Subsystem `framescope`, category = the span's framescope category, name = the span's
  name; a dynamic name (matching --dynamic; by default the one-scalar names OSSignposter cannot
  read) becomes `span` with the name as start message. A frame is `frame` in category `frame` with
  start message `index N since-vsync S ns budget B ns` (FrameTrace's SignpostMessage grammar;
  --old-frame-message writes the older `index N budget B ns`). Start and End Thread are the
  threads the span began and ended on (`Main Thread` for framescope's main thread), each a
  `<thread fmt="Main Thread (0x1) (framescope, pid: 7)">` holding its `<tid>` and its `<process>`
  (holding `<pid>` and `<device-session>`), as the real exports nest them.
- `device-display-info` (unless --no-display): the display, its Max Refresh Rate from the trace's
  frame interval.
- `hitches` (with --hitches): one row per late frame, as Apple's verdict would read: a frame whose
  span ends after its deadline (vsync + budget) missed ceil(overrun / interval) vsyncs; the row
  starts when the frame was expected on screen (deadline + one interval: the render pipeline's
  second stage) and lasts missed × interval; `Is System` No, swap id and label (its hex) counted
  per frame, `Potential Issue` "Potentially expensive app update(s)" (a commit hitch).
- --toc: the `xctrace export --toc` document for the same run: device, process, template,
  start date, duration and the table list whose positions the nodes' xpaths name.

What it cannot imitate, so an importer tested on it is not thereby tested on real recordings:
- Time. Real times are nanoseconds since the recording started, read from the device's mach
  clock; here they are the trace's own microseconds (rounded to ns) since its first event, plus
  --lead-ns. A real signpost is stamped when OSSignposter runs, a little before the recorder's
  clock read at a begin and after it at an end; here the interval is exactly the span.
- Everything the kernel and the render server record: no backtraces, emit locations or
  signatures (written as <sentinel/>), no vsync, swap, render, GPU, runloop or hang tables;
  hitch rows come from framescope's frames, not from Core Animation's frame lifetimes, so a
  render-lane hitch (offscreen passes, GPU) is never imitated and `is-system` is always No.
- Identity: thread ids are the trace's tids, not Mach thread ids; the process name and pid are
  the trace's; the device, OS version and UUID in the TOC are placeholders.
- Instants, counter samples and measured spans (signpost events: the os-signpost event tables)
  are not written; spans recorded after the fact are written as the intervals they were. Like the
  mirror, it leaves out the frame timeline tracks (category `frame-timeline`), flows and arguments.
- Display text: `fmt` strings follow the real exports' patterns for the values seen there
  (`00:04.961.155`, `216.67 ms`); units the fixtures do not show (µs, s) are a guess.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

SUBSYSTEM = "framescope"
FRAME_CATEGORY = "frame"
# framescope's frame timeline tracks (Expected/Actual Timeline): the mirror does not emit them.
UNMIRRORED_CATEGORIES = {"frame-timeline"}
FRAME_NAME = "frame"
DYNAMIC_SPAN_NAME = "span"
COMMIT_HITCH_TEXT = "Potentially expensive app update(s)"

# The schemas, copied from the real exports in traces/third-party (mnemonic, name, engineering type).
OS_SIGNPOST_INTERVALS = [
    ("start", "Start", "start-time"),
    ("duration", "Duration", "duration"),
    ("layout-qualifier", "Layout ID", "layout-id"),
    ("name", "Name", "signpost-name"),
    ("category", "Category", "category"),
    ("subsystem", "Subsystem", "subsystem"),
    ("identifier", "Identifier", "os-signpost-identifier"),
    ("process", "Start Process", "process"),
    ("end-process", "End Process", "process"),
    ("start-thread", "Start Thread", "thread"),
    ("end-thread", "End Thread", "thread"),
    ("start-message", "Start Message", "os-log-metadata"),
    ("end-message", "End Message", "os-log-metadata"),
    ("start-backtrace", "Start Backtrace", "text-backtrace"),
    ("end-backtrace", "End Backtrace", "text-backtrace"),
    ("start-emit-location", "Start Emit Location", "return-location"),
    ("end-emit-location", "End Emit Location", "return-location"),
    ("signature", "Signature", "os-log-metadata"),
]
HITCHES = [
    ("start", "Start", "start-time"),
    ("duration", "Duration", "duration"),
    ("process", "Process", "process"),
    ("is-system", "Is System", "boolean"),
    ("swap-id", "Swap ID", "uint32"),
    ("label", "Swap ID", "string"),
    ("display", "Display", "display-name"),
    ("narrative-description", "Potential Issue", "string"),
]
DEVICE_DISPLAY_INFO = [
    ("timestamp", "Timestamp", "event-time"),
    ("accelerator-id", "Accelerator ID", "uint64"),
    ("display-id", "Display ID", "uint64"),
    ("device-name", "Device Name", "metal-object-label"),
    ("framebuffer-index", "Frame Buffer Index", "uint32"),
    ("resolution", "Resolution", "size-in-pixels"),
    ("built-in", "Built-In", "boolean"),
    ("max-refresh-rate", "Max Refresh Rate", "uint32"),
    ("is-main-display", "Main Display", "boolean"),
]
DEVICE_DISPLAY_DOCUMENTATION = "Marks related info about Displays connected to the machine."
SCHEMAS = {
    "OSSignpostIntervals": OS_SIGNPOST_INTERVALS,
    "hitches": HITCHES,
    "device-display-info": DEVICE_DISPLAY_INFO,
}


# Characters XML 1.0 cannot carry, even escaped: a hostile span name would make the document invalid.
NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str | None) -> str | None:
    return NOT_XML.sub("\ufffd", text) if text is not None else None


class TraceError(Exception):
    """A trace this writer cannot read; the message says what and where."""


@dataclass
class Span:
    """One span of the trace, in nanoseconds on the trace's clock."""

    name: str
    category: str
    start: int
    end: int
    pid: int
    tid: int
    end_tid: int
    args: dict = field(default_factory=dict)


@dataclass
class Trace:
    """What the writer needs of a framescope trace."""

    spans: list
    process_name: str
    pid: int
    main_tid: int | None
    thread_names: dict
    frame_interval_ns: int | None
    origin_ns: int
    end_ns: int


def load_events(path: Path) -> tuple[list, dict]:
    """The events and the metadata object of a Chrome JSON trace (array or object form; an array
    whose closing bracket is missing, as a program that died while writing leaves it, is read too)."""
    text = path.read_text(encoding="utf-8")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        stripped = text.rstrip().rstrip(",")
        if not stripped.lstrip().startswith("["):
            raise TraceError(f"{path}: not JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
        try:
            document = json.loads(stripped + "]")
        except json.JSONDecodeError:
            raise TraceError(f"{path}: not JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    if isinstance(document, list):
        return document, {}
    if isinstance(document, dict) and isinstance(document.get("traceEvents"), list):
        metadata = document.get("metadata")
        return document["traceEvents"], metadata if isinstance(metadata, dict) else {}
    raise TraceError(f"{path}: neither an event array nor an object with traceEvents")


def nanoseconds(microseconds) -> int:
    return round(float(microseconds) * 1000)


def read_trace(path: Path) -> Trace:
    """Reads the spans of a framescope trace: complete events, begin/end pairs per thread and async
    pairs (which may end on another thread)."""
    events, metadata = load_events(path)
    spans: list[Span] = []
    thread_names: dict[int, str] = {}
    process_name = "framescope"
    pid = None
    open_spans: dict[tuple, list] = {}
    open_async: dict[tuple, list] = {}
    times: list[int] = []
    for index, event in enumerate(events):
        if not isinstance(event, dict):
            raise TraceError(f"{path}: event {index} is not an object")
        phase = event.get("ph")
        event_pid = int(event.get("pid", 0) or 0)
        tid = int(event.get("tid", 0) or 0)
        if phase == "M":
            args = event.get("args") or {}
            if event.get("name") == "thread_name" and isinstance(args.get("name"), str):
                thread_names[tid] = args["name"]
            elif event.get("name") == "process_name" and isinstance(args.get("name"), str):
                process_name = args["name"]
                pid = event_pid
            continue
        if "ts" not in event:
            continue
        timestamp = nanoseconds(event["ts"])
        times.append(timestamp)
        name = str(event.get("name", ""))
        category = str(event.get("cat", "other") or "other")
        if category in UNMIRRORED_CATEGORIES:
            continue
        args = event.get("args") if isinstance(event.get("args"), dict) else {}
        if pid is None:
            pid = event_pid
        if phase == "X":
            end = timestamp + nanoseconds(event.get("dur", 0) or 0)
            times.append(end)
            spans.append(Span(name, category, timestamp, end, event_pid, tid, tid, args))
        elif phase == "B":
            open_spans.setdefault((event_pid, tid), []).append((name, category, timestamp, args))
        elif phase == "E":
            stack = open_spans.get((event_pid, tid))
            if stack:
                begin_name, begin_category, begin, begin_args = stack.pop()
                spans.append(Span(begin_name, begin_category, begin, timestamp, event_pid, tid, tid, begin_args))
        elif phase == "b":
            key = (event_pid, category, str(event.get("id", event.get("id2", ""))), name)
            open_async.setdefault(key, []).append((tid, timestamp, args))
        elif phase == "e":
            key = (event_pid, category, str(event.get("id", event.get("id2", ""))), name)
            stack = open_async.get(key)
            if stack:
                begin_tid, begin, begin_args = stack.pop()
                spans.append(Span(name, category, begin, timestamp, event_pid, begin_tid, tid, begin_args))
    main_thread = metadata.get("main-thread") if isinstance(metadata.get("main-thread"), dict) else {}
    main_tid = main_thread.get("tid")
    if main_tid is None:
        main_tid = next((tid for tid, name in thread_names.items() if name == "main"), None)
    interval = metadata.get("frame-interval-ns")
    spans.sort(key=lambda span: (span.start, -span.end))
    return Trace(
        spans=spans,
        process_name=process_name,
        pid=int(pid or 0),
        main_tid=int(main_tid) if main_tid is not None else None,
        thread_names=thread_names,
        frame_interval_ns=int(interval) if isinstance(interval, (int, float)) and interval > 0 else None,
        origin_ns=min(times) if times else 0,
        end_ns=max(times) if times else 0,
    )


def frame_message(args: dict, old_form: bool) -> str:
    """A frame's begin message in the mirror's grammar (FrameTrace's SignpostMessage.Frame)."""
    index = args.get("index")
    index_text = str(int(index)) if isinstance(index, (int, float)) and index >= 0 else "-1"
    budget = max(1, int(args.get("budget-ns", 1) or 1))
    since = args.get("since-vsync-ns")
    if old_form or not isinstance(since, (int, float)):
        return f"index {index_text} budget {budget} ns"
    return f"index {index_text} since-vsync {max(0, int(since))} ns budget {budget} ns"


def time_text(ns: int) -> str:
    """`fmt` of a time since the run started: `MM:SS.mmm.uuu`, as in the real exports."""
    total_us = ns // 1000
    minutes, rest = divmod(total_us, 60_000_000)
    seconds, rest = divmod(rest, 1_000_000)
    milliseconds, microseconds = divmod(rest, 1000)
    return f"{minutes:02d}:{seconds:02d}.{milliseconds:03d}.{microseconds:03d}"


def duration_text(ns: int) -> str:
    """`fmt` of a duration: `216.67 ms` as in the real exports; `µs` and `s` by the same pattern."""
    if ns < 1000:
        return f"{ns} ns"
    if ns < 1_000_000:
        return f"{ns / 1000:.2f} µs"
    if ns < 1_000_000_000:
        return f"{ns / 1_000_000:.2f} ms"
    return f"{ns / 1_000_000_000:.2f} s"


class Node:
    """One `<node>`: its schema and rows, with xctrace's id/ref scheme for repeated values."""

    def __init__(self, document: Document, table_number: int, schema: str) -> None:
        self.document = document
        self.element = ElementTree.Element("node", xpath=f"//trace-toc[1]/run[1]/data[1]/table[{table_number}]")
        attributes = {"name": schema}
        if schema == "device-display-info":
            attributes["documentation"] = DEVICE_DISPLAY_DOCUMENTATION
        schema_element = ElementTree.SubElement(self.element, "schema", attributes)
        for mnemonic, name, engineering_type in SCHEMAS[schema]:
            column = ElementTree.SubElement(schema_element, "col")
            ElementTree.SubElement(column, "mnemonic").text = mnemonic
            ElementTree.SubElement(column, "name").text = name
            ElementTree.SubElement(column, "engineering-type").text = engineering_type
        self.ids: dict[tuple, int] = {}

    def value(self, tag: str, text: str | None, fmt: str | None, children: tuple = ()):
        """A cell: the first occurrence of a value with `id=` (numbered before the values nested in
        it, as xctrace numbers them), later ones as `ref=`. `children` are nested values, each a
        `(tag, text, fmt, children)` tuple."""
        key = (tag, text, fmt, children)
        if key in self.ids:
            return ElementTree.Element(tag, ref=str(self.ids[key]))
        identifier = self.document.next_id()
        self.ids[key] = identifier
        attributes = {"id": str(identifier)}
        if fmt is not None:
            attributes["fmt"] = xml_text(fmt)
        element = ElementTree.Element(tag, attributes)
        if text is not None:
            element.text = xml_text(text)
        element.extend(self.value(*child) for child in children)
        return element

    @staticmethod
    def sentinel():
        return ElementTree.Element("sentinel")

    def row(self, cells: list) -> None:
        row = ElementTree.SubElement(self.element, "row")
        row.extend(cells)


class Document:
    """A `<trace-query-result>` whose ids count up through all its nodes."""

    def __init__(self) -> None:
        self.root = ElementTree.Element("trace-query-result")
        self.last_id = 0

    def next_id(self) -> int:
        self.last_id += 1
        return self.last_id

    def node(self, table_number: int, schema: str) -> Node:
        node = Node(self, table_number, schema)
        self.root.append(node.element)
        return node

    def text(self) -> str:
        return '<?xml version="1.0"?>\n' + ElementTree.tostring(self.root, encoding="unicode").replace(" />", "/>") + "\n"


def process_value(trace: Trace, pid: int) -> tuple:
    """A `<process>` value: `name (pid)` as fmt, `<pid>` and `<device-session>` nested, as in the real
    hitches and runloop exports."""
    children = (("pid", str(pid), str(pid), ()), ("device-session", "TODO", "TODO", ()))
    return ("process", None, f"{trace.process_name} ({pid})", children)


def process_cell(node: Node, trace: Trace, pid: int):
    return node.value(*process_value(trace, pid))


def thread_cell(node: Node, trace: Trace, pid: int, tid: int):
    """A `<thread>` value: fmt `Main Thread (0x1) (framescope, pid: 7)` (or the thread's name), its
    `<tid>` and `<process>` nested, as in the real exports."""
    name = "Main Thread" if tid == trace.main_tid else trace.thread_names.get(tid, "Thread")
    fmt = f"{name} ({tid:#x}) ({trace.process_name}, pid: {pid})"
    return node.value("thread", None, fmt, (("tid", str(tid), f"{tid:#x}", ()), process_value(trace, pid)))


def refresh_rate(trace: Trace) -> int:
    interval = trace.frame_interval_ns
    if interval is None:
        budgets = [int(span.args.get("budget-ns", 0) or 0) for span in trace.spans if is_frame(span)]
        budgets = [budget for budget in budgets if budget > 0]
        interval = min(budgets) if budgets else 16_666_667
    return max(1, round(1e9 / interval))


def is_frame(span: Span) -> bool:
    return span.category == FRAME_CATEGORY and span.name == FRAME_NAME


def write_signpost_intervals(node: Node, trace: Trace, lead: int, options) -> None:
    dynamic = re.compile(options.dynamic) if options.dynamic else None
    for identifier, span in enumerate(trace.spans, start=1):
        start = span.start - trace.origin_ns + lead
        duration = max(0, span.end - span.start)
        name = span.name
        message = None
        if is_frame(span):
            message = frame_message(span.args, options.old_frame_message)
        elif len(name) == 1 or (dynamic is not None and dynamic.fullmatch(name)):
            name, message = DYNAMIC_SPAN_NAME, span.name
        node.row(
            [
                node.value("start-time", str(start), time_text(start)),
                node.value("duration", str(duration), duration_text(duration)),
                node.value("layout-id", "0", "0"),
                node.value("signpost-name", name, name),
                node.value("category", span.category, span.category),
                node.value("subsystem", SUBSYSTEM, SUBSYSTEM),
                node.value("os-signpost-identifier", str(identifier), str(identifier)),
                process_cell(node, trace, span.pid),
                process_cell(node, trace, span.pid),
                thread_cell(node, trace, span.pid, span.tid),
                thread_cell(node, trace, span.pid, span.end_tid),
                node.value("os-log-metadata", message, message) if message is not None else node.sentinel(),
                node.sentinel(),
                node.sentinel(),
                node.sentinel(),
                node.sentinel(),
                node.sentinel(),
                node.sentinel(),
            ]
        )


def late_frames(trace: Trace) -> list:
    """(expected on screen, hitch duration, frame index) of every frame that ended after its
    deadline; the hitch is the missed vsyncs times the frame's interval."""
    hitches = []
    for position, span in enumerate(span for span in trace.spans if is_frame(span)):
        budget = int(span.args.get("budget-ns", 0) or 0)
        if budget <= 0:
            continue
        vsync = span.start - max(0, int(span.args.get("since-vsync-ns", 0) or 0))
        deadline = vsync + budget
        overrun = span.end - deadline
        if overrun > 0:
            missed = math.ceil(overrun / budget)
            index = span.args.get("index")
            hitches.append((deadline + budget, missed * budget, int(index) if index is not None else position))
    return hitches


def write_hitches(node: Node, trace: Trace, lead: int) -> None:
    first_swap = 769_456  # where the real export's swap ids start; any base reads the same
    for presented, duration, index in late_frames(trace):
        start = presented - trace.origin_ns + lead
        swap = first_swap + index
        node.row(
            [
                node.value("start-time", str(start), time_text(start)),
                node.value("duration", str(duration), duration_text(duration)),
                process_cell(node, trace, trace.pid),
                node.value("boolean", "0", "No"),
                node.value("uint32", str(swap), str(swap)),
                node.value("string", f"{swap:#x}", f"{swap:#x}"),
                node.value("display-name", "Display 1", "Display 1"),
                node.value("string", COMMIT_HITCH_TEXT, COMMIT_HITCH_TEXT),
            ]
        )


def write_display_info(node: Node, trace: Trace) -> None:
    rate = str(refresh_rate(trace))
    node.row(
        [
            node.value("event-time", "0", time_text(0)),
            node.value("uint64", "1", "1"),
            node.value("uint64", "1", "1"),
            node.value("metal-object-label", "Built-in Display", "Built-in Display"),
            node.value("uint32", "0", "0"),
            node.value("size-in-pixels", "2532x1170", "2532 x 1170"),
            node.value("boolean", "1", "Yes"),
            node.value("uint32", rate, rate),
            node.value("boolean", "1", "Yes"),
        ]
    )


def table_list(options) -> list:
    """The run's tables in TOC order: their positions are the nodes' `table[N]`."""
    tables = ["OSSignpostIntervals"]
    if not options.no_display:
        tables.append("device-display-info")
    if options.hitches:
        tables.append("hitches")
    return tables


def export(trace: Trace, options) -> str:
    document = Document()
    for number, schema in enumerate(table_list(options), start=1):
        node = document.node(number, schema)
        if schema == "OSSignpostIntervals":
            write_signpost_intervals(node, trace, options.lead_ns, options)
        elif schema == "device-display-info":
            write_display_info(node, trace)
        else:
            write_hitches(node, trace, options.lead_ns)
    return document.text()


def toc(trace: Trace, options) -> str:
    """The `xctrace export --toc` document of the run (its layout after the TOCs other tools read)."""
    root = ElementTree.Element("trace-toc")
    run = ElementTree.SubElement(root, "run", number="1")
    info = ElementTree.SubElement(run, "info")
    target = ElementTree.SubElement(info, "target")
    ElementTree.SubElement(
        target,
        "device",
        platform="iOS",
        model="iPhone",
        name="framescope simulated device",
        **{"os-version": "18.0 (placeholder)", "uuid": "00000000-0000-0000-0000-000000000000"},
    )
    ElementTree.SubElement(
        target,
        "process",
        type="launched",
        name=trace.process_name,
        pid=str(trace.pid),
        **{"return-exit-status": "0", "termination-reason": "exit(0)"},
    )
    summary = ElementTree.SubElement(info, "summary")
    start = datetime.datetime.fromisoformat(options.start_date)
    duration_ns = trace.end_ns - trace.origin_ns + options.lead_ns
    end = start + datetime.timedelta(microseconds=duration_ns / 1000)
    ElementTree.SubElement(summary, "start-date").text = start.isoformat(timespec="milliseconds")
    ElementTree.SubElement(summary, "end-date").text = end.isoformat(timespec="milliseconds")
    ElementTree.SubElement(summary, "duration").text = f"{duration_ns / 1e9:.6f}"
    ElementTree.SubElement(summary, "end-reason").text = "Target app exited"
    ElementTree.SubElement(summary, "instruments-version").text = "framescope tools/xctrace_export.py"
    ElementTree.SubElement(summary, "template-name").text = "Animation Hitches"
    ElementTree.SubElement(summary, "recording-mode").text = "Immediate"
    processes = ElementTree.SubElement(run, "processes")
    ElementTree.SubElement(processes, "process", name=trace.process_name, pid=str(trace.pid))
    data = ElementTree.SubElement(run, "data")
    for schema in table_list(options):
        ElementTree.SubElement(data, "table", schema=schema)
    return '<?xml version="1.0"?>\n' + ElementTree.tostring(root, encoding="unicode").replace(" />", "/>") + "\n"


# --- The self-check: the writer's output against the real exports' structure ---


def schema_columns(root) -> dict:
    """{schema name: [(mnemonic, engineering type), ...]} of every node in an export."""
    columns = {}
    for schema in root.iter("schema"):
        columns[schema.get("name")] = [
            (column.findtext("mnemonic"), column.findtext("engineering-type")) for column in schema.iter("col")
        ]
    return columns


def check_ids(root) -> list:
    """Problems with the id/ref scheme: every ref names an id written earlier in the same node, and
    no id is written twice."""
    problems = []
    seen_anywhere = set()
    for node in root.iter("node"):
        seen = set()
        for element in node.iter():
            if element.get("id") is not None:
                if element.get("id") in seen_anywhere:
                    problems.append(f"id {element.get('id')} written twice")
                seen.add(element.get("id"))
                seen_anywhere.add(element.get("id"))
            if element.get("ref") is not None and element.get("ref") not in seen:
                problems.append(f"ref {element.get('ref')} before its id in {node.get('xpath')}")
    return problems


def row_cells(node, index: int) -> list:
    """The cells of row `index`, refs resolved to the element that holds the value."""
    by_id = {element.get("id"): element for element in node.iter() if element.get("id") is not None}
    cells = list(node.findall("row")[index])
    return [by_id.get(cell.get("ref"), cell) if cell.get("ref") else cell for cell in cells]


def self_check(corpus: Path) -> int:
    fixtures = {
        "OSSignpostIntervals": "xctrace__OSSignpostIntervals.xml",
        "hitches": "xctrace__hitches.xml",
        "device-display-info": "xctrace__device-display-info.xml",
    }
    failures = []

    def expect(condition: bool, message: str) -> None:
        print(("ok    " if condition else "FAIL  ") + message)
        if not condition:
            failures.append(message)

    for schema, columns in SCHEMAS.items():
        fixture = corpus / fixtures[schema]
        if fixture.exists():
            real = schema_columns(ElementTree.parse(fixture).getroot()).get(schema)
            expect(real == [(m, t) for m, _, t in columns], f"{schema}: the columns are the real export's ({fixture.name})")
        else:
            print(f"FAIL  {schema}: {fixture} is not here to compare with (--corpus)")
            failures.append(f"{fixture} missing")

    # A small trace of every kind the writer handles: frames (one late), a static span, a one-scalar
    # name, a B/E pair, an async pair that ends on another thread.
    events = [
        {"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "framescope"}},
        {"ph": "M", "name": "thread_name", "pid": 7, "tid": 1, "args": {"name": "main"}},
        {"ph": "M", "name": "thread_name", "pid": 7, "tid": 2, "args": {"name": "worker-1"}},
        {"ph": "X", "name": "frame", "cat": "frame", "pid": 7, "tid": 1, "ts": 1000, "dur": 5000,
         "args": {"index": 0, "since-vsync-ns": 1_200_000, "budget-ns": 16_666_667}},
        {"ph": "X", "name": "layout", "cat": "layout", "pid": 7, "tid": 1, "ts": 1100, "dur": 2000},
        {"ph": "X", "name": "x", "cat": "other", "pid": 7, "tid": 1, "ts": 3200, "dur": 100},
        {"ph": "X", "name": "frame", "cat": "frame", "pid": 7, "tid": 1, "ts": 17000, "dur": 30000,
         "args": {"index": 1, "since-vsync-ns": 333_333, "budget-ns": 16_666_667}},
        {"ph": "B", "name": "decode", "cat": "image-decode", "pid": 7, "tid": 2, "ts": 17500},
        {"ph": "E", "pid": 7, "tid": 2, "ts": 19500},
        {"ph": "b", "name": "prefetch", "cat": "layout", "id": "0x1", "pid": 7, "tid": 2, "ts": 18000},
        {"ph": "e", "name": "prefetch", "cat": "layout", "id": "0x1", "pid": 7, "tid": 1, "ts": 40000},
    ]
    with tempfile.TemporaryDirectory() as directory:
        sample = Path(directory) / "self-check.json"
        sample.write_text(json.dumps({"traceEvents": events, "metadata": {"frame-interval-ns": 16_666_667,
                                                                            "main-thread": {"pid": 7, "tid": 1}}}))
        trace = read_trace(sample)
    options = argparse.Namespace(
        hitches=True, no_display=False, old_frame_message=False, dynamic=None, lead_ns=0,
        start_date="2026-01-01T00:00:00+00:00",
    )
    text = export(trace, options)
    root = ElementTree.fromstring(text)
    expect(text.startswith('<?xml version="1.0"?>\n<trace-query-result>'), "the document starts as a real export does")
    expect(schema_columns(root) == {name: [(m, t) for m, _, t in cols] for name, cols in SCHEMAS.items()},
           "every node's schema is the real one")
    expect(check_ids(root) == [], f"ids are written once and refs follow them {check_ids(root)}")
    intervals, display, hitches = root.findall("node")
    expect([n.get("xpath") for n in root.findall("node")]
           == [f"//trace-toc[1]/run[1]/data[1]/table[{n}]" for n in (1, 2, 3)], "nodes are tables 1, 2, 3")
    rows = intervals.findall("row")
    expect(len(rows) == 6, f"one interval row per span ({len(rows)})")
    expect(all(len(row) == len(OS_SIGNPOST_INTERVALS) for row in rows), "every interval row has every column")
    first = row_cells(intervals, 0)
    expect(first[3].text == "frame" and first[4].text == "frame" and first[5].text == "framescope",
           "a frame is `frame` in category `frame` of subsystem framescope")
    expect(first[11].text == "index 0 since-vsync 1200000 ns budget 16666667 ns", f"its begin message ({first[11].text})")
    expect(first[0].text == "0" and first[0].get("fmt") == "00:00.000.000", "times count from the first event")
    expect(first[1].text == "5000000" and first[1].get("fmt") == "5.00 ms", "durations are nanoseconds, fmt in ms")
    thread = first[9]
    expect(thread.get("fmt") == "Main Thread (0x1) (framescope, pid: 7)" and thread.find("tid").text == "1"
           and thread.find("process") is not None, "the main thread is `Main Thread`, with its tid and process nested")
    scalar = row_cells(intervals, 2)
    expect(scalar[3].text == "span" and scalar[11].text == "x", "a one-scalar name is `span` with the name as message")
    prefetch = next(row_cells(intervals, n) for n in range(6) if row_cells(intervals, n)[3].text == "prefetch")
    tid_of = [cell for cell in prefetch if cell.tag == "thread"]
    resolved = [t if t.find("tid") is not None else None for t in tid_of]
    expect(resolved[0] is not None and resolved[1] is not None
           and resolved[0].find("tid").text == "2" and resolved[1].find("tid").text == "1",
           "an async span begins and ends on its own threads")
    expect(len(display.findall("row")) == 1 and row_cells(display, 0)[7].text == "60", "the display runs at 60 Hz")
    hitch_rows = hitches.findall("row")
    expect(len(hitch_rows) == 1, f"one late frame, one hitch ({len(hitch_rows)})")
    hitch = row_cells(hitches, 0)
    # Frame 1: vsync 17.000 - 0.333 ms, deadline +16.667, ends at 47.000: 30.667 ms from its vsync,
    # 14.0 ms over, so one vsync missed: a 16.67 ms hitch when it was due on screen.
    expect(hitch[1].text == "16666667" and hitch[7].text == COMMIT_HITCH_TEXT, "the hitch is one interval, a commit hitch")
    expect(int(hitch[0].text) == (17_000_000 - 333_333 + 2 * 16_666_667) - 1_000_000, "it starts when it was due")
    old = export(trace, argparse.Namespace(**{**vars(options), "old_frame_message": True}))
    expect("index 0 budget 16666667 ns" in old, "--old-frame-message writes the older form")
    trace.spans[1].name = "lay\x01out"  # a control character, which XML cannot carry
    dynamic = ElementTree.fromstring(export(trace, argparse.Namespace(**{**vars(options), "dynamic": "lay.*"})))
    expect(any(row_cells(dynamic.find("node"), n)[11].text == "lay\ufffdout" for n in range(6)),
           "--dynamic names go in the message; what XML cannot carry is replaced")
    toc_root = ElementTree.fromstring(toc(trace, options))
    expect([t.get("schema") for t in toc_root.iter("table")] == ["OSSignpostIntervals", "device-display-info", "hitches"]
           and toc_root.findtext("run/info/summary/template-name") == "Animation Hitches"
           and toc_root.findtext("run/info/summary/duration") == "0.046000",
           "the TOC lists the tables in node order, the template and the run's duration")
    print(f"xctrace_export self-check: {'FAILED: ' + str(len(failures)) if failures else 'all passed'}")
    return 1 if failures else 0


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", nargs="?", type=Path, help="a framescope Chrome JSON trace")
    parser.add_argument("--out", type=Path, help="where to write the export (default: standard output)")
    parser.add_argument("--toc", type=Path, help="also write the run's `xctrace export --toc` document here")
    parser.add_argument("--hitches", action="store_true", help="add a `hitches` table derived from late frames")
    parser.add_argument("--no-display", action="store_true", help="leave out the `device-display-info` table")
    parser.add_argument("--old-frame-message", action="store_true", help="frames' messages in the older `index N budget B ns`")
    parser.add_argument("--dynamic", metavar="REGEX", help="span names (full match) written as dynamic `span` intervals")
    parser.add_argument("--lead-ns", type=int, default=0, help="nanoseconds of recording before the first event")
    parser.add_argument("--start-date", default="2026-01-01T00:00:00.000+00:00", help="the TOC's start date (ISO 8601)")
    parser.add_argument("--self-check", action="store_true", help="check the writer against the real exports' schemas")
    parser.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "traces"
                        / "third-party", help="where the real xctrace__*.xml exports are (default: ../shared/traces/third-party)")
    options = parser.parse_args(argv)
    if options.self_check:
        return self_check(options.corpus)
    if options.trace is None:
        parser.error("a trace is required (or --self-check)")
    try:
        if options.dynamic:
            re.compile(options.dynamic)
    except re.error as error:
        print(f"xctrace_export: --dynamic {options.dynamic!r}: {error}", file=sys.stderr)
        return 2
    try:
        trace = read_trace(options.trace)
    except (OSError, TraceError) as error:
        print(f"xctrace_export: {error}", file=sys.stderr)
        return 1
    text = export(trace, options)
    if options.out:
        options.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if options.toc:
        options.toc.write_text(toc(trace, options), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
