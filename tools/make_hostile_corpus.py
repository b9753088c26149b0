#!/usr/bin/env python3
"""Writes the hostile-names corpus: traces whose every name is text a hostile contributor chose.

framescope runs in CI on traces recorded by a pull request's code, so span, category, thread and
process names, metadata keys and values, labels and file names are untrusted. This script writes
traces and a budget that carry every class of hostile text — HTML, Markdown, line breaks, GitHub
workflow commands, terminal escapes, bidi and invisible characters — into every place a name can
go. Tests/FramescopeCLITests/HostileNamesCLITests.swift runs every command and output format over
them and checks, per format, that no name changed what the output means.

The fixtures are generated, never edited by hand: change this script and run it again.

    python3 tools/make_hostile_corpus.py [OUT_DIR]   # default: Tests/FramescopeCLITests/Fixtures/hostile
"""
import json
import os
import sys

# Each entry: (what it attacks, the text). Every output is tried with all of them; the list is also
# written to hostile-strings.jsonl, which the tests read for their round-trip checks.
HOSTILE = [
    ("workflow command", "::error file=x.swift,line=1::pwned"),
    ("workflow command after a newline", "innocent\n::error::three"),
    ("add-mask", "::add-mask::secret-value"),
    ("stop-commands", "::stop-commands::resume-token"),
    ("indented workflow command", "  ::warning::indented"),
    ("html image", "<img src=x onerror=alert(1)>"),
    ("html bold", "<b>bold</b><script>alert(2)</script>"),
    ("markdown image", "![pixel](https://example.com/x.png)"),
    ("markdown link", "[click](https://example.com/phish)"),
    ("markdown fence", "```\nfenced\n```"),
    ("markdown emphasis", "*em* _em_ **strong** ~~strike~~"),
    ("markdown heading", "# heading"),
    ("table pipes", "a | b | c"),
    ("carriage returns", "line1\r\nline2\rline3"),
    ("terminal clear screen", "\x1b[2Jcleared"),
    ("terminal hidden link", "\x1b]8;;https://example.com\x07hidden link\x1b]8;;\x07"),
    ("bell nul backspace", "bell\x07 nul\x00 bs\x08x"),
    ("bidi override", "\u202eevil.exe\u202c"),
    ("bidi isolates and invisible", "\u2066iso\u2069 zw\u200bsp\ufeff"),
    ("del and c1", "del\x7f nel\x85 csi\x9b"),
    ("entities", "&amp; &lt;entity&gt;"),
    ("backticks", "a`b``c"),
    ("autolinks math emoji", "$x^2$ :smile: https://example.com www.example.com me@example.com"),
    ("quotes and backslash", "\"quote' and \\ backslash"),
    ("csv", ",comma,\"csv\"\n"),
    # Appended, so the indexes above (used by the tests) keep their meaning.
    ("csv formula prefixes", "=HYPERLINK(\"x\";\"y\")+1 @SUM(1) -2+3 +cmd"),
    ("xml-invalid noncharacters", "non\ufffechar\uffff end"),
    # Round two: how each consumer parses, not a list of bad characters.
    ("framescope's own label", "(unattributed)"),
    ("framescope's empty-name label", "(none)"),
    ("workflow command after a no-break space", "\u00a0::error::nbsp"),
    ("legacy workflow command anywhere", "x ##[stop-commands]tok"),
    ("hidden: soft hyphen, joiners, variation selector, tag characters", "s\u00adh\u034fy\u2060\u2064\ufe0f\U000e0041\U000e007f"),
    ("mermaid directive", "%%{init: {'theme':'dark'}}%% it's"),
    ("line separators", "a\u2028::error::ls\u2029b\u0085c"),
]

NAMES = [text for _, text in HOSTILE]
FRAME_NS = 16_666_667
FRAMES = 40


def trace(cost_scale):
    """A 40-frame framescope trace at 60 Hz whose names are all hostile.

    Each frame starts at a vsync; inside it, three spans on the main thread, each named and
    categorised with hostile text, cost `cost_scale` times a fixed pattern (every eighth frame
    overruns its deadline). Worker threads, named with hostile text, run background spans.
    """
    pid = 4242
    events = [
        {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": NAMES[5]}},
        {"ph": "M", "name": "thread_name", "pid": pid, "tid": 1, "args": {"name": "main"}},
    ]
    workers = [NAMES[0], NAMES[1], NAMES[14], NAMES[17]]
    for index, name in enumerate(workers):
        events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": 2 + index, "args": {"name": name}})
    free_us = 0.0  # when the main thread is done with the previous frame
    for frame in range(FRAMES):
        # A frame starts at the first vsync after the previous one's work, as on a device.
        vsync_us = -(-free_us * 1000 // FRAME_NS) * FRAME_NS / 1000
        offset = 100.0
        children = []
        for slot in range(3):
            name = NAMES[(frame * 3 + slot) % len(NAMES)]
            category = NAMES[(frame + slot * 7) % len(NAMES)]
            duration = (1500.0 + 700.0 * slot) * cost_scale
            if frame % 8 == 7 and slot == 2:
                duration = 19000.0 * cost_scale  # a late frame
            children.append({"ph": "X", "name": name, "cat": category, "pid": pid, "tid": 1,
                             "ts": round(vsync_us + offset, 3), "dur": round(duration, 3)})
            offset += duration + 50.0
        events.append({"ph": "X", "name": "frame", "cat": "frame", "pid": pid, "tid": 1, "ts": round(vsync_us, 3),
                       "dur": round(offset, 3), "args": {"index": frame, "since-vsync-ns": 0, "budget-ns": FRAME_NS}})
        free_us = vsync_us + offset
        events.extend(children)
        worker = frame % len(workers)
        events.append({"ph": "X", "name": NAMES[(frame + 11) % len(NAMES)], "cat": NAMES[(frame + 3) % len(NAMES)],
                       "pid": pid, "tid": 2 + worker, "ts": round(vsync_us + 200.0, 3), "dur": 900.0,
                       "args": {NAMES[12]: NAMES[frame % len(NAMES)]}})
    # Inconsistent events whose diagnostics quote their names.
    end = free_us
    events.append({"ph": "E", "name": NAMES[1], "pid": pid, "tid": 3, "ts": round(end + 10.0, 3)})
    events.append({"ph": "B", "name": NAMES[14], "cat": NAMES[9], "pid": pid, "tid": 4, "ts": round(end + 20.0, 3)})
    metadata = {
        "producer": "framescope",  # so that the reader adopts the metadata and its "extra" values
        "version": NAMES[6],
        "frame-interval-ns": FRAME_NS,
        "extra": {"scenario": NAMES[0], "strategy": NAMES[10], "seed": 1, NAMES[12]: NAMES[15], "note": NAMES[24]},
    }
    return {"traceEvents": events, "displayTimeUnit": "ms", "metadata": metadata}


def budget():
    """A budget whose rules limit hostile categories and whose trace section matches nothing."""
    return {
        "version": 1,
        "description": NAMES[7],
        "fps": 60,
        "limits": {"hitch-time-ratio": 1, "main-thread-ms": {"p95": 2}},
        "categories": {
            NAMES[0]: {"main-ms-per-frame": {"p95": 0.1}},
            NAMES[5]: {"main-ms-total": 1},
            NAMES[14]: {"off-main-thread": True},
            NAMES[26]: {"main-ms-total": 1},  # U+FFFE and U+FFFF, which XML 1.0 cannot hold, in JUnit names
        },
        "traces": [{"match": NAMES[3] + "*", "limits": {"frozen-frames": 0}}],
    }


def write(path, value):
    with open(path, "w", encoding="utf-8") as file:
        json.dump(value, file, ensure_ascii=False, indent=None, separators=(",", ":"))
        file.write("\n")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Tests", "FramescopeCLITests", "Fixtures", "hostile")
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "hostile-names.json"), trace(1.0))
    write(os.path.join(out, "hostile-names-head.json"), trace(1.6))
    write(os.path.join(out, "hostile-budget.json"), budget())
    # A file name a shell, Markdown and HTML would all misread (no '/' or NUL: no file system allows them).
    write(os.path.join(out, "file `tick` ``run`` |pipe| *em* <b>x [l](u) $m$ &amp.json"), trace(1.0))
    # The strings themselves, one JSON string per line, for the tests' round-trip checks.
    with open(os.path.join(out, "hostile-strings.jsonl"), "w", encoding="utf-8") as file:
        for what, text in HOSTILE:
            file.write(json.dumps({"what": what, "text": text}, ensure_ascii=True) + "\n")
    print(f"wrote the hostile-names corpus to {out}")


if __name__ == "__main__":
    main()
