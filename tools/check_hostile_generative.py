#!/usr/bin/env python3
"""Generative hostile-names test: random hostile strings in every name, every command and format.

    python3 tools/check_hostile_generative.py FRAMESCOPE_BINARY [--seed N] [--per-class N]

Complements tools/check_hostile_corpus.py (a fixed corpus) with strings drawn at random, with a
seeded random.Random (default seed 20261126, 200 strings per class), from eight classes: hidden
characters (Cc, Cf, Co, Zl, Zp, Default_Ignorable_Code_Point, bidi controls, noncharacters, tag
characters, never-assigned code points), GitHub workflow commands v2 (`::error::` after any line
break and any Unicode whitespace) and v1 (`##[error]` anywhere), line breaks, Markdown/HTML/Mermaid
syntax, CSV formulas, framescope's own labels (`(unattributed)`, `(none)`, ...), and long names.

The strings become the category, span, thread and process names and the metadata values of Chrome
traces (about 50 strings a trace) and the names of trace files (30 a class). The script runs
`report` (text, --wide, markdown, html, json, frames-jsonl, frames-csv), `check` and `compare`
(text, markdown, json, each with --junit, --github-annotations and GITHUB_STEP_SUMMARY) and the
missing-file error over them, and reads every stdout, stderr and written file with an independent
reader of the consumer that will read it:

- GitHub runner (every output): lines split as .NET StreamReader.ReadLine does (LF, CR, CRLF); no
  line that begins, after str.isspace() whitespace, with `::` but framescope's own annotations
  (`::error|warning|notice title=...::`, last in stdout, only with --github-annotations, no CR);
  no `##[` anywhere;
- terminal (text, --wide, markdown, stderr, step summary): no Cc but tab and LF, no Cf, Co, Zl,
  Zp, Default_Ignorable_Code_Point, noncharacter or never-assigned code point;
- Markdown (cmark-gfm, as GitHub renders it): the same elements and attributes as the same output
  for a trace whose names are plain words (code spans aside: one holds literal text, and a name may
  be a code span or escaped text); every table row has its header's cell count; no `%%`
  in a Mermaid block but framescope's own, a Mermaid title with exactly two `"`; under 1 MiB;
- CSV: parses; rows have the header's column count; no CR, no field with LF; no text field that
  begins with = + - @ tab or CR unless it is a number; header names distinct;
- JSON and JSON Lines: parse, with no duplicate key; every category reads back exactly, as
  framescope shows it apart from its own labels (a name that begins with `(` or `"` in double
  quotes), with its own time, never merged with another;
  hidden characters escaped; one JSON Lines row per str.splitlines() line;
- HTML: html.parser sees only the page's own elements and attributes, as many page-structure
  elements as for plain names;
- JUnit: parses as XML; test case names distinct within a test suite;
- exit status: report 0, check and compare 0 or 1 (3 for a missing trace), never a signal;
- bounds: a 4,000,000-character category name and 100,000 categories (check: a rule on each)
  keep every Markdown output and step summary under 1 MiB and the text report under 2 MiB.

A file name that begins with '-' is passed as ./NAME (framescope has no `--`); '/' and NUL, which
no file system allows, become U+2215 and U+2400. Each class prints its checks as "N strings, M
outputs checked, K failures" with its first failures, then the total.

Needs the cmarkgfm package (python3 -m pip install cmarkgfm). Exit status: 0 when every property
holds, 1 when one does not, 2 when something could not run.
"""
import argparse
import collections
import concurrent.futures
import csv
import html.parser
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

from fstools.hostile import PAGE_ATTRIBUTES, PAGE_ELEMENTS, runner_lines, shown, table_cells
from fstools.hostile_classes import CLASSES, HIDDEN, LABELS, ORDINARY, draw_batch, file_name, gen_labels, gen_long

try:
    import cmarkgfm
except ImportError:
    cmarkgfm = None

NAMES_PER_TRACE = 50
FILES_PER_CLASS = 30
FRAMES = 12
FRAME_NS = 16_666_667
MIB = 1024 * 1024
SHOWN_FAILURES = 3
TIMEOUT_S = 180
BOUND_RULES = 100_000
ANNOTATION = re.compile(r"^::(error|warning|notice) title=[^\n]*::")
OWN_EMOJI = "\u26a0\ufe0f"  # framescope's own "⚠️" in Markdown: U+FE0F is default-ignorable, but it is not a name's
# Page elements whose number a name cannot change (compared with the page for plain names).
PAGE_STRUCTURE = {"html", "head", "body", "meta", "title", "style", "script", "section", "h1", "h2", "table", "thead", "tbody",
                  "caption", "canvas", "strong"}
csv.field_size_limit(2 ** 31 - 1)
NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")

# ---------------------------------------------------------------------------------------------
# Traces.

def build_trace(categories, span_names, threads, process, meta, scales=None, late_extra=15000):
    """A 12-frame framescope trace at 60 Hz whose category i of n has main-thread spans of 40 + 5(n - 1 - i) µs
    (times scales[i]) in every frame, and two late frames with one long span each.

    Returns the trace and each category's expected main-thread self time in µs and span count.
    """
    count = len(categories)
    scales = scales or [1.0] * count
    pid = 1
    events = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": process}},
              {"ph": "M", "name": "thread_name", "pid": pid, "tid": 1, "args": {"name": "main"}}]
    for index, name in enumerate(threads):
        events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": 2 + index, "args": {"name": name}})
    expected = collections.Counter()
    spans = collections.Counter()
    free_us = 0.0
    for frame in range(FRAMES):
        vsync_us = -(-round(free_us * 1000) // FRAME_NS) * FRAME_NS / 1000
        at = vsync_us + 50.0
        work = [(index, round((40 + 5 * (count - 1 - index)) * scales[index])) for index in range(count)]  # the first: the largest
        if frame in (5, 11):
            late = (frame * 7) % count
            work.append((late, round(late_extra * scales[late])))
        children = []
        for index, duration in work:
            children.append({"ph": "X", "name": span_names[index], "cat": categories[index], "pid": pid, "tid": 1,
                             "ts": round(at, 3), "dur": duration})
            expected[categories[index]] += duration
            spans[categories[index]] += 1
            at += duration + 10.0
        events.append({"ph": "X", "name": "frame", "cat": "frame", "pid": pid, "tid": 1, "ts": round(vsync_us, 3),
                       "dur": round(at + 40.0 - vsync_us, 3), "args": {"index": frame, "since-vsync-ns": 0, "budget-ns": FRAME_NS}})
        events.extend(children)
        free_us = at + 40.0
        if threads:
            worker = frame % len(threads)
            events.append({"ph": "X", "name": span_names[(frame * 5) % count], "cat": categories[(frame * 3) % count], "pid": pid,
                           "tid": 2 + worker, "ts": round(vsync_us + 200.0, 3), "dur": 300.0,
                           "args": {"detail": meta[frame % len(meta)] if meta else "x"}})
    if len(threads) >= 2:
        # Inconsistent events whose diagnostics quote their names.
        events.append({"ph": "E", "name": span_names[1 % count], "pid": pid, "tid": 3, "ts": round(free_us + 10.0, 3)})
        events.append({"ph": "B", "name": span_names[2 % count], "cat": categories[3 % count], "pid": pid, "tid": 2,
                       "ts": round(free_us + 20.0, 3)})
    metadata = {"producer": "framescope", "frame-interval-ns": FRAME_NS}
    if meta:
        metadata["version"] = meta[0]
        metadata["extra"] = {"scenario": meta[0 % len(meta)], "strategy": meta[1 % len(meta)], "note": meta[2 % len(meta)]}
    return {"traceEvents": events, "displayTimeUnit": "ms", "metadata": metadata}, expected, spans


def build_budget(categories, expected_us, factors, skip=()):
    """A budget with a main-ms-total rule per category (limits at factor times the time), but for the indexes in skip."""
    rules = {}
    for index, (name, factor) in enumerate(zip(categories, factors)):
        if index not in skip:
            # A budget names categories as the report shows them.
            rules[shown(name)] = {"main-ms-total": round(expected_us[name] / 1000 * factor, 6)}
    return {"version": 1, "fps": 60, "limits": {"main-thread-ms": {"p95": 40}}, "categories": rules}


def write_json(path, value, ascii_only=False):
    with open(path, "w", encoding="utf-8") as file:
        json.dump(value, file, ensure_ascii=ascii_only, separators=(",", ":"))
        file.write("\n")


# ---------------------------------------------------------------------------------------------
# Running framescope.

class Output:
    def __init__(self, arguments, status, stdout, stderr, valid_utf8, seconds):
        self.arguments, self.status, self.stdout, self.stderr = arguments, status, stdout, stderr
        self.valid_utf8, self.seconds = valid_utf8, seconds


def decode(data):
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), False


def run(binary, arguments, cwd, summary=None):
    env = dict(os.environ)
    env.pop("GITHUB_STEP_SUMMARY", None)
    if summary:
        env["GITHUB_STEP_SUMMARY"] = summary
    started = time.monotonic()
    try:
        result = subprocess.run([binary] + arguments, capture_output=True, env=env, cwd=cwd, timeout=TIMEOUT_S)
        status, out, err = result.returncode, result.stdout, result.stderr
    except subprocess.TimeoutExpired as timeout:
        status, out, err = "timeout", timeout.stdout or b"", timeout.stderr or b""
    stdout, good_out = decode(out)
    stderr, good_err = decode(err)
    return Output(arguments, status, stdout, stderr, good_out and good_err, time.monotonic() - started)


def read_file(path):
    if not os.path.exists(path):
        return None, True
    with open(path, "rb") as file:
        return decode(file.read())


def argument_path(name):
    """A file argument that no option parser reads as an option or as stdin."""
    return "./" + name if name.startswith("-") else name


# ---------------------------------------------------------------------------------------------
# Recording.

class Recorder:
    """Collects one batch's results: (class, check) -> outputs checked and failure messages."""

    def __init__(self, group):
        self.group = group
        self.results = collections.OrderedDict()

    def expect(self, check, condition, what):
        entry = self.results.setdefault(check, [0, []])
        entry[0] += 1
        if not condition:
            entry[1].append(what)
        return condition


def first_offending_line(text, index):
    start = max(text.rfind("\n", 0, index) + 1, 0)
    end = text.find("\n", index)
    end = len(text) if end < 0 else end
    line = text[start:end]
    if len(line) > 160:
        offset = index - start
        line = ("…" if offset > 60 else "") + line[max(0, offset - 60): offset + 100] + "…"
    return line


# ---------------------------------------------------------------------------------------------
# Consumers: one checker each.

def split_annotations(text):
    """(body, trailing lines that begin with ::), the latter being framescope's annotations."""
    lines = text.split("\n")
    end = len(lines)
    while end > 0 and lines[end - 1] == "":
        end -= 1
    start = end
    while start > 0 and lines[start - 1].startswith("::"):
        start -= 1
    return "\n".join(lines[:start]) + "\n", lines[start:end]


def check_runner(rec, what, text, annotations=False):
    """The GitHub Actions runner's view: workflow commands (v2 at a line's start, v1 anywhere)."""
    if text is None:
        return
    body, own = split_annotations(text) if annotations else (text, [])
    commands = [line for line in runner_lines(body) if line.lstrip().startswith("::")]
    rec.expect("runner ::", not commands, f"{what}: {len(commands)} line(s) the runner reads as a workflow command, first "
                                            f"{commands[0][:160]!r}" if commands else "")
    if annotations:
        bad = [line for line in own if not ANNOTATION.match(line) or "\r" in line]
        rec.expect("annotations", not bad, f"{what}: not framescope's annotation form or holds CR: {bad[0][:160]!r}" if bad else "")
    index = text.find("##[")
    rec.expect("runner ##[", index < 0, f"{what}: '##[' in {first_offending_line(text, index)!r}" if index >= 0 else "")


def check_hidden(rec, what, text):
    """Terminal: no control, format, private-use, separator, default-ignorable, noncharacter or unassigned character."""
    if text is None:
        return
    text = text.replace(OWN_EMOJI, "\u26a0")
    match = HIDDEN.search(text)
    if match:
        count = len(HIDDEN.findall(text))
        rec.expect("hidden chars", False, f"{what}: {count} hidden character(s), first U+{ord(match.group()):04X} in "
                                           f"{first_offending_line(text, match.start())!r}")
    else:
        rec.expect("hidden chars", True, "")


def check_exit(rec, what, output, allowed):
    status = output.status
    crashed = status == "timeout" or (isinstance(status, int) and (status < 0 or status >= 128))
    rec.expect("exit status", status in allowed and not crashed,
               f"{what}: exit {status}, expected {sorted(allowed)}: {output.stderr[:200]!r}")
    rec.expect("valid utf-8", output.valid_utf8, f"{what}: stdout or stderr is not UTF-8")


def check_terminal_output(rec, what, output, annotations=False):
    """stdout meant for a terminal (text, --wide, markdown, check/compare text) and the run's stderr."""
    check_runner(rec, what, output.stdout, annotations)
    check_hidden(rec, what, output.stdout)
    check_stderr(rec, what, output)


def check_stderr(rec, what, output):
    check_runner(rec, f"{what} (stderr)", output.stderr)
    check_hidden(rec, f"{what} (stderr)", output.stderr)


class Elements(html.parser.HTMLParser):
    """Start tags (with their attribute names) as a browser's tokenizer reads them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = collections.Counter()
        self.elements, self.attributes = set(), set()

    def handle_starttag(self, tag, attrs):
        self.tags[(tag, tuple(sorted(name for name, _ in attrs)))] += 1
        self.elements.add(tag)
        self.attributes.update(name for name, _ in attrs)

    handle_startendtag = handle_starttag


def elements_of(page):
    parser = Elements()
    parser.feed(page)
    parser.close()
    return parser


def rendered_tags(markdown):
    page = cmarkgfm.github_flavored_markdown_to_html(markdown, options=cmarkgfm.Options.CMARK_OPT_UNSAFE)
    return elements_of(page).tags


def describe_counter(counter, limit=4):
    return ", ".join(f"<{tag}{' ' if attrs else ''}{' '.join(attrs)}>×{count}" for (tag, attrs), count in counter.most_common(limit))


def mermaid_lines(markdown):
    lines, inside = [], False
    for line in markdown.split("\n"):
        if line.startswith("```") or line.startswith("~~~"):
            inside = line.startswith("```mermaid") and not inside
            continue
        if inside:
            lines.append(line)
    return lines


def check_markdown(rec, what, markdown, twin):
    """GitHub's view: what cmark-gfm makes of it, compared with the same output for plain names."""
    if markdown is None:
        rec.expect("markdown elements", False, f"{what}: not written")
        return
    size = len(markdown.encode("utf-8"))
    rec.expect("markdown size", size < MIB, f"{what}: {size} bytes, over 1 MiB")
    if twin is not None:
        # Code spans are left out: one holds literal text (no link, image or markup can be in it),
        # and framescope writes a name as a code span or as escaped text, an @ as a code span.
        hostile, plain = rendered_tags(markdown), rendered_tags(twin)
        for counter in (hostile, plain):
            for key in [key for key in counter if key[0] == "code"]:
                del counter[key]
        extra, missing = hostile - plain, plain - hostile
        rec.expect("markdown elements", not extra and not missing,
                   f"{what}: rendered elements differ from plain names': extra {describe_counter(extra) or 'none'}; "
                   f"lost {describe_counter(missing) or 'none'}")
    columns, problem = None, None
    in_fence = False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            in_fence = not in_fence
            columns = None
            continue
        if in_fence:
            continue
        if line.startswith("|"):
            cells = table_cells(line)
            if columns is None:
                columns = cells
            elif cells != columns and problem is None:
                problem = f"{cells} cells, header {columns}: {line[:160]!r}"
        else:
            columns = None
    rec.expect("markdown tables", problem is None, f"{what}: {problem}")
    lines = mermaid_lines(markdown)
    plain = mermaid_lines(twin) if twin is not None else []
    own = {line for line in plain if "%%" in line}
    bad = [line for line in lines if "%%" in line and line not in own]
    bad += [line for line in lines if line.strip().startswith("title") and line.count('"') != 2]
    if twin is not None and not bad:
        shape, plain_shape = [line.split()[:1] for line in lines], [line.split()[:1] for line in plain]
        if shape != plain_shape:
            bad.append(f"block lines {[s[0] if s else '' for s in shape][:12]} differ from plain names' "
                       f"{[s[0] if s else '' for s in plain_shape][:12]}")
    rec.expect("markdown mermaid", not bad, f"{what}: {bad[0][:160]!r}" if bad else "")


def check_html(rec, what, page, twin):
    if not page:
        return
    parser = elements_of(page)
    elements, attributes = parser.elements - PAGE_ELEMENTS, parser.attributes - PAGE_ATTRIBUTES
    problem = None
    if elements or attributes:
        problem = f"elements {sorted(elements)[:6]}, attributes {sorted(attributes)[:6]} a name made"
    elif twin:
        plain = elements_of(twin).tags
        mine = collections.Counter({key: count for key, count in parser.tags.items() if key[0] in PAGE_STRUCTURE})
        theirs = collections.Counter({key: count for key, count in plain.items() if key[0] in PAGE_STRUCTURE})
        if mine != theirs:
            problem = f"page structure differs from plain names': extra {describe_counter(mine - theirs)}, lost {describe_counter(theirs - mine)}"
    rec.expect("html elements", problem is None, f"{what}: {problem}")
    check_runner(rec, what, page)


def check_csv(rec, what, text):
    """A spreadsheet's and DuckDB's view of frames-csv."""
    if not text:
        rec.expect("csv parse", False, f"{what}: empty")
        return
    check_runner(rec, what, text)
    check_hidden(rec, what, text)
    try:
        table = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as error:
        rec.expect("csv parse", False, f"{what}: {error}")
        return
    rec.expect("csv parse", len(table) > 1, f"{what}: {len(table)} rows")
    header = table[0]
    ragged = [row for row in table if len(row) != len(header)]
    rec.expect("csv columns", not ragged, f"{what}: a row of {len(ragged[0])} fields, header {len(header)}: {ragged[0][:4]!r}"
               if ragged else "")
    index = text.find("\r")
    broken = [field for row in table for field in row if "\n" in field]
    rec.expect("csv line breaks", index < 0 and not broken,
               f"{what}: raw CR in {first_offending_line(text, index)!r}" if index >= 0 else f"{what}: a field with LF: {broken[0][:160]!r}"
               if broken else "")
    formulas = [field for row in table for field in row if field[:1] in ("=", "+", "-", "@", "\t", "\r") and not NUMBER.match(field)]
    rec.expect("csv formula", not formulas, f"{what}: {len(formulas)} field(s) a spreadsheet runs as a formula, first "
                                             f"{formulas[0][:160]!r}" if formulas else "")
    duplicates = [name for name, count in collections.Counter(header).items() if count > 1]
    rec.expect("csv header unique", not duplicates, f"{what}: column(s) named twice: {duplicates[:3]!r}")


def strict_json(text):
    """json.loads that refuses duplicate keys (a second value for a name would hide the first)."""
    def pairs(items):
        keys = [key for key, _ in items]
        if len(keys) != len(set(keys)):
            duplicate = next(key for key in keys if keys.count(key) > 1)
            raise ValueError(f"duplicate key {duplicate[:120]!r}")
        return dict(items)
    return json.loads(text, object_pairs_hook=pairs)


def candidates(name, lenient):
    """The name a category reads back as: the trace's name, shown apart from framescope's labels."""
    return [shown(name)]


def check_lossless(rec, what, found, expected, tolerance, lenient):
    """found: output name -> list of values; expected: input name -> value. Every input reads back as one of its
    candidates, with its own value (so two names never merge, nor a name with framescope's own entry)."""
    duplicates = [name for name, values in found.items() if len(values) > 1]
    rec.expect("json distinct", not duplicates, f"{what}: {len(duplicates)} name(s) listed twice, first {duplicates[0][:160]!r}"
               if duplicates else "")
    lost = []
    for name, value in expected.items():
        matches = [c for c in candidates(name, lenient) if any(abs(v - value) <= tolerance for v in found.get(c, []))]
        if not matches:
            near = [c for c in candidates(name, lenient) if c in found]
            lost.append(f"{name[:160]!r} (expected {value:g}; {'found with ' + repr(found[near[0]][:3]) if near else 'absent'})")
    rec.expect("json lossless", not lost, f"{what}: {len(lost)} category name(s) lost or merged, first {lost[0]}" if lost else "")


def check_json_text(rec, what, text):
    check_runner(rec, what, text)
    check_hidden(rec, what, text)


def check_report_json(rec, what, text, expected_us, lenient):
    check_json_text(rec, what, text)
    try:
        report = strict_json(text)
    except ValueError as error:
        rec.expect("json parse", False, f"{what}: {error}")
        return
    rec.expect("json parse", True, "")
    found = collections.defaultdict(list)
    for category in report.get("categories", []):
        found[category.get("name")].append(category.get("main-ns", -1) / 1000)
    check_lossless(rec, what, found, expected_us, FRAMES + 2, lenient)


def check_frames_jsonl(rec, what, text, expected_us, meta, lenient):
    check_json_text(rec, what, text)
    lines = [line for line in text.split("\n") if line]
    rows = []
    try:
        rows = [strict_json(line) for line in lines]
    except ValueError as error:
        rec.expect("json parse", False, f"{what}: {error}")
        return
    rec.expect("json parse", len(rows) == FRAMES, f"{what}: {len(rows)} rows, expected {FRAMES}")
    physical = len(text.splitlines())
    rec.expect("jsonl lines", physical == len(rows), f"{what}: {physical} lines by str.splitlines() (U+2028, U+0085, ...), "
                                                     f"{len(rows)} rows")
    totals = collections.Counter()
    for row in rows:
        for name, ms in row.get("main_by_category_ms", {}).items():
            totals[name] += ms * 1000
    found = {name: [value] for name, value in totals.items()}
    check_lossless(rec, what, found, expected_us, FRAMES + 2, lenient)
    if meta and rows:
        wanted = {"meta_scenario": meta[0], "meta_strategy": meta[1 % len(meta)], "meta_note": meta[2 % len(meta)]}
        wrong = [key for key, value in wanted.items() if rows[0].get(key) != value]
        rec.expect("json lossless", not wrong, f"{what}: metadata {wrong} does not read back: {rows[0].get(wrong[0]) if wrong else ''!r}")


ID_SUFFIX = re.compile(r"\.(main-ms-total|main-ms-per-frame)(\.p\d+)?$")


def category_of(entry):
    """The category a check rule or compare metric is about: its "category" field, else read from its id
    (categories["<JSON string>"].metric or categories.<name>.metric). None when it is not a category's."""
    if isinstance(entry.get("category"), str):
        return entry["category"]
    identifier = entry.get("id", "")
    if identifier.startswith('categories["'):
        try:
            name, end = json.JSONDecoder().raw_decode(identifier, len("categories["))
        except ValueError:
            return None
        return name if identifier[end:].startswith("]") else None
    if identifier.startswith("categories."):
        match = ID_SUFFIX.search(identifier)
        return identifier[len("categories."): match.start()] if match else None
    return None


def check_check_json(rec, what, text, expected_us, lenient):
    body, _ = split_annotations(text)  # the annotations after it: check_run_outputs reads them
    check_json_text(rec, what, body)
    try:
        report = strict_json(body)
    except ValueError as error:
        rec.expect("json parse", False, f"{what}: {error}")
        return
    rec.expect("json parse", True, "")
    found = collections.defaultdict(list)
    for trace in report.get("traces", []):
        for rule in trace.get("rules", []):
            name = category_of(rule)
            if name is not None and isinstance(rule.get("measured"), (int, float)):
                found[name].append(rule["measured"] * 1000)
    wanted = {name: value for name, value in expected_us.items() if name != ""}
    check_lossless(rec, what, found, wanted, FRAMES + 2, lenient)


def check_compare_json(rec, what, text, expected_us, lenient):
    body, _ = split_annotations(text)
    check_json_text(rec, what, body)
    try:
        report = strict_json(body)
    except ValueError as error:
        rec.expect("json parse", False, f"{what}: {error}")
        return
    rec.expect("json parse", True, "")
    found = collections.defaultdict(list)
    for metric in report.get("metrics", []):
        name = category_of(metric)
        base = metric.get("base") or {}
        if name is not None and isinstance(base.get("mean"), (int, float)):
            # framescope's label for the empty category; a trace's "(none)" is shown as "\"(none)\"".
            found["" if name == "(none)" else name].append(base["mean"] * base.get("count", 0) * 1000)
    check_lossless(rec, what, found, expected_us, FRAMES + 2, lenient)


def check_junit(rec, what, path):
    text, good = read_file(path)
    if text is None:
        rec.expect("junit parse", False, f"{what}: not written")
        return
    check_runner(rec, what, text)
    try:
        suites = ElementTree.fromstring(text.encode("utf-8"))
    except ElementTree.ParseError as error:
        rec.expect("junit parse", False, f"{what}: not XML: {error}")
        return
    rec.expect("junit parse", good, f"{what}: not UTF-8")
    duplicates = []
    for suite in suites.iter("testsuite"):
        names = collections.Counter(case.get("name") for case in suite.iter("testcase"))
        duplicates += [name for name, count in names.items() if count > 1]
    rec.expect("junit unique", not duplicates, f"{what}: test case named twice in a suite: {duplicates[0][:160]!r}" if duplicates else "")


# ---------------------------------------------------------------------------------------------
# Batches: one trace of ~50 names, or ~30 file names. Each returns its Recorder.

def plain_names(count, stem):
    return [f"{stem}{index}" for index in range(count)]


def trace_parts(names, rng_seed):
    """categories, span names, threads, process, metadata values, for names (hostile or plain, same shape)."""
    rng = random.Random(rng_seed)
    categories = names + ORDINARY
    count = len(categories)
    spans = []
    for index in range(count):
        name = categories[(index + 1) % count]
        spans.append(name if len(name) <= 5000 else "span")
    picks = [rng.randrange(len(names)) for _ in range(8)]
    threads = [names[i] for i in picks[:4]]
    process = names[picks[4]]
    meta = [names[i] for i in picks[5:8]]
    return categories, spans, threads, process, meta


def check_run_outputs(rec, what, output, form, twin_output, junit, summary, twin_summary, allowed):
    """A check or compare run: exit status, stderr, stdout in its format (annotations last), JUnit, step summary."""
    check_exit(rec, what, output, allowed)
    check_stderr(rec, what, output)
    if form == "text":
        check_runner(rec, what, output.stdout, annotations=True)
        check_hidden(rec, what, output.stdout)
    elif form == "markdown":
        check_runner(rec, what, output.stdout, annotations=True)
        check_hidden(rec, what, output.stdout)
        body, _ = split_annotations(output.stdout)
        check_markdown(rec, what, body, split_annotations(twin_output.stdout)[0] if twin_output else None)
    elif form == "json":
        check_runner(rec, what, output.stdout, annotations=True)
    check_junit(rec, f"{what} --junit", junit)
    text, _ = read_file(summary)
    check_markdown(rec, f"{what} step summary", text, twin_summary)
    check_hidden(rec, f"{what} step summary", text)
    check_runner(rec, f"{what} step summary", text)


def name_batch(binary, scratch, group, index, names, seed, lenient):
    """Writes a trace (and head, budget, plain twins) whose names are `names`; runs every command and format."""
    rec = Recorder(group)
    folder = os.path.join(scratch, f"names-{index}")
    os.makedirs(folder)
    rng = random.Random(seed)
    parts = trace_parts(names, seed)
    twin_parts = trace_parts(plain_names(len(names), "name"), seed)
    count = len(parts[0])
    scales = [rng.choice([1.0, 1.0, 1.6, 2.5]) for _ in range(count)]
    factors = [rng.choice([0.5, 1 / 0.95, 3.0]) for _ in range(count)]
    ascii_only = index % 2 == 1 and max(map(len, names)) < 5000
    skip = {number for number, name in enumerate(parts[0]) if name == ""}  # framescope refuses an empty name in a budget
    for stem, (categories, spans, threads, process, meta) in (("plain-", twin_parts), ("", parts)):
        base, expected_us, _ = build_trace(categories, spans, threads, process, meta)
        head, _, _ = build_trace(categories, spans, threads, process, meta, scales)
        write_json(os.path.join(folder, f"{stem}base.json"), base, ascii_only)
        write_json(os.path.join(folder, f"{stem}head.json"), head, ascii_only)
        write_json(os.path.join(folder, f"{stem}budget.json"), build_budget(categories, expected_us, factors, skip), ascii_only)
    expected_us = dict(expected_us)  # the hostile trace's, written last: category -> main-thread self time (µs)
    meta = parts[4]
    main = ["--main-thread", "1:1"]

    def go(arguments, summary=None):
        return run(binary, arguments, folder, summary)

    for form in (["--format", "text"], ["--wide"], ["--format", "markdown"], ["--format", "html"], ["--format", "json"],
                 ["--format", "frames-jsonl"], ["--format", "frames-csv"]):
        what = f"report {' '.join(form)}"
        output = go(["report", "base.json"] + main + form)
        check_exit(rec, what, output, {0})
        check_stderr(rec, what, output)
        if form[-1] in ("text", "--wide"):
            check_runner(rec, what, output.stdout)
            check_hidden(rec, what, output.stdout)
        elif form[-1] == "markdown":
            twin = go(["report", "plain-base.json"] + main + form)
            check_runner(rec, what, output.stdout)
            check_hidden(rec, what, output.stdout)
            check_markdown(rec, what, output.stdout, twin.stdout)
        elif form[-1] == "html":
            twin = go(["report", "plain-base.json"] + main + form)
            check_html(rec, what, output.stdout, twin.stdout)
        elif form[-1] == "json":
            check_report_json(rec, what, output.stdout, expected_us, lenient)
        elif form[-1] == "frames-jsonl":
            check_frames_jsonl(rec, what, output.stdout, expected_us, meta, lenient)
        else:
            check_csv(rec, what, output.stdout)

    for command in ("check", "compare"):
        twin_summary = os.path.join(folder, f"plain-{command}.md")
        if command == "check":
            arguments, plain = ["check", "base.json", "--budget", "budget.json"], ["check", "plain-base.json", "--budget", "plain-budget.json"]
        else:
            arguments, plain = ["compare", "base.json", "head.json"], ["compare", "plain-base.json", "plain-head.json"]
        twin = go(plain + main + ["--format", "markdown", "--github-annotations"], twin_summary)
        twin_text, _ = read_file(twin_summary)
        for form in ("text", "markdown", "json"):
            what = f"{command} --format {form}"
            junit, summary = os.path.join(folder, f"{command}-{form}.xml"), os.path.join(folder, f"{command}-{form}.md")
            output = go(arguments + main + ["--format", form, "--junit", junit, "--github-annotations"], summary)
            check_run_outputs(rec, what, output, form, twin, junit, summary, twin_text, {0, 1})
            if form == "json":
                (check_check_json if command == "check" else check_compare_json)(rec, what, output.stdout, expected_us, lenient)
    shutil.rmtree(folder, ignore_errors=True)
    return rec


def file_batch(binary, scratch, group, index, names, seed):
    """Writes one small plain trace per file name in `names`; runs report per file, check and compare over all."""
    rec = Recorder(group)
    folder = os.path.join(scratch, f"files-{index}")
    os.makedirs(folder)
    parts = trace_parts(plain_names(6, "cat"), seed)
    base, _, _ = build_trace(*parts)
    head, _, _ = build_trace(*parts, scales=[1.6] * len(parts[0]))
    budget = {"version": 1, "fps": 60, "limits": {"main-thread-ms": {"p95": 8}}, "categories": {"layout": {"main-ms-total": 1}}}
    write_json(os.path.join(folder, "budget.json"), budget)
    files, seen = [], set()
    for number, text in enumerate(names):
        name = file_name(text, number)
        if name in seen or name.startswith("plain-"):
            continue
        seen.add(name)
        files.append(name)
        write_json(os.path.join(folder, name), head if len(files) % 2 == 0 else base)
    plain = [f"plain-{number}.json" for number in range(len(files))]
    for number, name in enumerate(plain):
        write_json(os.path.join(folder, name), head if number % 2 == 1 else base)
    main = ["--main-thread", "1:1"]

    def go(arguments, summary=None):
        return run(binary, arguments, folder, summary)

    twins = {(form, side): go(["report", plain[side]] + main + ["--format", form]).stdout
             for form in ("markdown", "html") for side in range(min(2, len(plain)))}
    for number, name in enumerate(files):
        path = argument_path(name)
        for form in (["--format", "text"], ["--wide"], ["--format", "markdown"], ["--format", "html"], ["--format", "json"],
                     ["--format", "frames-jsonl"], ["--format", "frames-csv"]):
            what = f"report {' '.join(form)} on file {name[:60]!r}"
            output = go(["report", path] + main + form)
            check_exit(rec, what, output, {0})
            check_stderr(rec, what, output)
            if form[-1] in ("text", "--wide", "markdown"):
                check_runner(rec, what, output.stdout)
                check_hidden(rec, what, output.stdout)
                if form[-1] == "markdown":
                    check_markdown(rec, what, output.stdout, twins[("markdown", number % 2)])
            elif form[-1] == "html":
                check_html(rec, what, output.stdout, twins[("html", number % 2)])
            elif form[-1] in ("json", "frames-jsonl"):
                check_json_text(rec, what, output.stdout)
                try:
                    for line in ([output.stdout] if form[-1] == "json" else [line for line in output.stdout.split("\n") if line]):
                        strict_json(line)
                    rec.expect("json parse", True, "")
                except ValueError as error:
                    rec.expect("json parse", False, f"{what}: {error}")
                if form[-1] == "frames-jsonl":
                    rows = [line for line in output.stdout.split("\n") if line]
                    physical = len(output.stdout.splitlines())
                    rec.expect("jsonl lines", physical == len(rows), f"{what}: {physical} lines by str.splitlines(), {len(rows)} rows")
            else:
                check_csv(rec, what, output.stdout)
        missing = argument_path(name[:-5] + ".missing")
        output = go(["report", missing])
        what = f"report of missing file {missing[:60]!r}"
        check_exit(rec, what, output, {3})
        check_stderr(rec, what, output)
        check_runner(rec, what, output.stdout)

    missing_name = argument_path(files[0][:-5] + " (missing).json") if files else "missing.json"
    half = max(1, len(files) // 2)
    runs = {
        "check": (["check"] + [argument_path(f) for f in files] + [missing_name, "--budget", "budget.json"],
                  ["check"] + plain + ["plain-missing.json", "--budget", "budget.json"], {3}),
        "compare": (["compare"] + sum((["--base", argument_path(f)] for f in files[:half]), []) + sum((["--head", argument_path(f)] for f in files[half:]), []),
                    ["compare"] + sum((["--base", f] for f in plain[:half]), []) + sum((["--head", f] for f in plain[half:]), []), {0, 1}),
    }
    for command, (arguments, twin_arguments, allowed) in runs.items():
        twin_summary = os.path.join(folder, f"plain-{command}.md")
        twin = go(twin_arguments + main + ["--format", "markdown", "--github-annotations"], twin_summary)
        twin_text, _ = read_file(twin_summary)
        for form in ("text", "markdown", "json"):
            what = f"{command} --format {form} over {len(files)} hostile file names"
            junit, summary = os.path.join(folder, f"{command}-{form}.xml"), os.path.join(folder, f"{command}-{form}.md")
            output = go(arguments + main + ["--format", form, "--junit", junit, "--github-annotations"], summary)
            check_run_outputs(rec, what, output, form, twin, junit, summary, twin_text, allowed)
            if form == "json":
                body = split_annotations(output.stdout)[0]
                check_json_text(rec, what, body)
                try:
                    strict_json(body)
                    rec.expect("json parse", True, "")
                except ValueError as error:
                    rec.expect("json parse", False, f"{what}: {error}")
    shutil.rmtree(folder, ignore_errors=True)
    return rec


def bounds_trace(categories, spans, scale):
    """A 12-frame trace at every other vsync: with few categories, every frame has 300 µs per category and
    frames 3 and 9 a 9 ms span of the last one; with many, each frame has a twelfth of them, 1 µs each."""
    events = [{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "main"}}]
    many = len(categories) > 100
    per_frame = -(-len(categories) // FRAMES)
    for frame in range(FRAMES):
        vsync = round(frame * 2 * FRAME_NS / 1000, 3)
        at = vsync + 20.0
        if many:
            work = [(index, 1.0) for index in range(frame * per_frame, min(len(categories), (frame + 1) * per_frame))]
        else:
            work = [(index, 300.0 * scale) for index in range(len(categories) - 1)]
            if frame in (3, 9):
                work.append((len(categories) - 1, 9000.0 * scale))
        for index, duration in work:
            events.append({"ph": "X", "name": spans[index], "cat": categories[index], "pid": 1, "tid": 1, "ts": round(at, 3),
                           "dur": duration})
            at += duration + (0.2 if many else 10.0)
        events.append({"ph": "X", "name": "frame", "cat": "frame", "pid": 1, "tid": 1, "ts": vsync, "dur": round(at - vsync + 20.0, 3),
                       "args": {"index": frame}})
    return {"traceEvents": events, "metadata": {"producer": "framescope", "frame-interval-ns": FRAME_NS}}


def prepare_bounds(scratch, seed):
    """Writes the two bounds cases: one 4,000,000-character category name; 100,000 categories. Returns their folders."""
    rng = random.Random(seed)
    cases = []
    for label in ("4,000,000-character name", "100,000 categories"):
        folder = os.path.join(scratch, "bounds-" + label.split()[0].replace(",", ""))
        os.makedirs(folder)
        if label.startswith("4"):
            categories, spans = ORDINARY + [gen_long(rng, 4_000_000)], ORDINARY + ["huge"]
        else:
            makers = [generator for _, generator in CLASSES[:-1]]
            categories = [f"{rng.choice(makers)(rng)} {index}" for index in range(100_000)]
            spans = ["s"] * len(categories)
        write_json(os.path.join(folder, "base.json"), bounds_trace(categories, spans, 1.0))
        write_json(os.path.join(folder, "head.json"), bounds_trace(categories, spans, 1.6))
        # Rules on every category (check is linear in the budget), named as the report shows them.
        budget = {"version": 1, "fps": 60, "categories": {shown(name): {"main-ms-total": 0.0005} for name in categories[-BOUND_RULES:]}}
        write_json(os.path.join(folder, "budget.json"), budget)
        cases.append((label, folder))
    return cases


BOUNDS_RUNS = [  # (name, arguments, step summary?, stdout limit, exit statuses), the slowest first
    ("compare markdown", ["compare", "base.json", "head.json", "--format", "markdown", "--github-annotations"], True, MIB, {0, 1}),
    ("check markdown", ["check", "base.json", "--budget", "budget.json", "--format", "markdown", "--github-annotations"], True, MIB,
     {0, 1}),
    ("report markdown", ["report", "base.json", "--format", "markdown"], False, MIB, {0}),
    ("report text", ["report", "base.json"], False, 2 * MIB, {0}),
]


def bounds_run(binary, label, folder, run_name, arguments, with_summary, limit, allowed):
    """One command over a bounds case: stdout (and the step summary) within its limit."""
    rec = Recorder("bounds")
    summary = os.path.join(folder, run_name.replace(" ", "-") + ".md") if with_summary else None
    output = run(binary, arguments + ["--main-thread", "1:1"], folder, summary)
    what = f"{label}: {run_name} ({output.seconds:.1f} s)"
    check_exit(rec, what, output, allowed)
    body = split_annotations(output.stdout)[0] if with_summary else output.stdout
    size = len(body.encode("utf-8"))
    rec.expect("bounds", size < limit, f"{what}: stdout {size} bytes, limit {limit}")
    check_runner(rec, what, output.stdout, annotations=with_summary)
    if summary:
        size = os.path.getsize(summary) if os.path.exists(summary) else 0
        rec.expect("bounds", 0 < size < MIB, f"{what}: step summary {size} bytes, limit {MIB}")
    return rec


# ---------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", metavar="FRAMESCOPE_BINARY")
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--per-class", type=int, default=200)
    options = parser.parse_args()
    if cmarkgfm is None:
        print("FAILED: the cmarkgfm package is missing (the Markdown checks render with cmark-gfm, as GitHub does); install it with\n"
              "  python3 -m pip install cmarkgfm   (or: python3 -m pip install --user --break-system-packages cmarkgfm)",
              file=sys.stderr)
        return 2
    binary = os.path.abspath(options.binary)
    if not os.access(binary, os.X_OK):
        print(f"FAILED: {binary} is not an executable", file=sys.stderr)
        return 2
    started = time.monotonic()
    rng = random.Random(options.seed)
    jobs, strings = [], collections.Counter()
    for group, generator in CLASSES:
        if generator is gen_long:
            count = max(1, min(options.per_class, 5))
            lengths = [10_000, 300_000] + [None] * (count - 2)
            batches = [[gen_long(rng, length) for length in lengths[:count]]]
        else:
            batches, left = [], options.per_class
            while left > 0:
                size = min(NAMES_PER_TRACE, left)
                batches.append(draw_batch(rng, generator, size, first=LABELS if generator is gen_labels else ()))
                left -= size
        for batch in batches:
            strings[group] += len(batch)
            jobs.append(("names", group, batch, rng.randrange(2 ** 32), generator is gen_labels))
        files = [generator(rng) for _ in range(min(FILES_PER_CLASS, options.per_class))]
        strings[group + " (file names)"] += len(files)
        jobs.append(("files", group, files, rng.randrange(2 ** 32), False))
    bounds_seed = rng.randrange(2 ** 32)

    scratch = tempfile.mkdtemp(prefix="framescope-generative-")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=(os.cpu_count() or 2) + 2) as pool:
            cases = prepare_bounds(scratch, bounds_seed)
            bounds = [pool.submit(bounds_run, binary, label, folder, *details)  # the slowest runs: first
                      for details in BOUNDS_RUNS for label, folder in cases]
            futures = []
            for number, (kind, group, batch, seed, lenient) in enumerate(jobs):
                if kind == "names":
                    futures.append(pool.submit(name_batch, binary, scratch, group, number, batch, seed, lenient))
                else:
                    futures.append(pool.submit(file_batch, binary, scratch, group, number, batch, seed))
            recorders = [future.result() for future in futures] + [future.result() for future in bounds]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    merged = collections.OrderedDict()
    for rec in recorders:
        table = merged.setdefault(rec.group, collections.OrderedDict())
        for check, (checked, failed) in rec.results.items():
            entry = table.setdefault(check, [0, []])
            entry[0] += checked
            entry[1].extend(failed)
    total = failed_total = 0
    for group, table in merged.items():
        if group == "bounds":
            print("bounds (4,000,000-character name; 100,000 categories)")
        else:
            print(f"{group}: {strings[group]} strings, {strings[group + ' (file names)']} as file names")
        for check, (checked, failed) in table.items():
            total += checked
            failed_total += len(failed)
            print(f"  {check:<18} {strings[group]:>4} strings, {checked:>5} outputs checked, {len(failed):>4} failures")
            for message in failed[:SHOWN_FAILURES]:
                print(f"      {message}")
    print(f"({time.monotonic() - started:.0f} s, seed {options.seed}, {options.per_class} per class)")
    print(f"hostile generative: {total} checks, {failed_total} failed")
    return 1 if failed_total else 0


if __name__ == "__main__":
    sys.exit(main())
