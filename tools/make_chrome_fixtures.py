#!/usr/bin/env python3
"""Writes the Chrome-style frame fixtures the analysis tests read (deterministic, no inputs).

chrome-smooth-animation.json: a 120 Hz renderer animating smoothly for 287 frames; Chrome presents
286 and drops 1 (PipelineReporter states), with NO_UPDATE_DESIRED vsyncs, FORKED duplicate
reporters, a browser process with its own reporters (not the page's frames), and main-thread tasks
that cross every 60 Hz grid line (the old grid called them hitches).

chrome-legacy-frames.json: older Chrome without PipelineReporter: BeginFrame / DrawFrame /
DroppedFrame instants only, read with DevTools' begin-frame queue: 10 drawn, 2 dropped, 3 idle.

chrome-stage-overrun.json: a 60 Hz renderer whose PipelineReporter slices carry their stage slices
(same id2, nested in the reporter's range, the presentation stage with its viz breakdown as
children; ids reused by later reporters). 20 frames are presented with typical stage durations;
four are dropped: one whose EndCommitToActivation (raster) ran 20 ms, one whose
SendBeginMainFrameToCommit (main) ran 25 ms, one whose presentation stage (gpu) ran 30 ms, and one
whose stages were all typical (nothing overran: cause unknown). A FORKED reporter of a presented
frame has a 40 ms stage that must not count. The main thread runs DevTools-named work (script,
style, layout, paint, gc, a V8 span inside a FunctionCall, an unknown top-level span) and
a raster worker runs RasterTask and an image decode, so the report's categories are work kinds.

Usage: python3 tools/make_chrome_fixtures.py Tests/FrameAnalysisTests/Fixtures
"""
import json
import os
import sys

BROWSER, RENDERER = 100, 200
MAIN, COMPOSITOR, BROWSER_MAIN = 1, 7, 1
P_US = 8333.333  # 120 Hz


def meta(pid, tid, name):
    return {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "ts": 0, "args": {"name": name}}


def reporter(pid, tid, ts, seq, state, rid, forked=False):
    args = {"chrome_frame_reporter": {"state": state, "frame_sequence": seq, "layer_tree_host_id": 1,
                                      "frame_source": 4294967296, "scroll_state": "SCROLL_NONE"}}
    if forked:
        args["chrome_frame_reporter"]["frame_type"] = "FORKED"
    cat = "cc,benchmark,disabled-by-default-devtools.timeline.frame"
    begin = {"ph": "b", "name": "PipelineReporter", "cat": cat, "pid": pid, "tid": tid, "ts": round(ts, 3),
             "id2": {"local": hex(rid)}, "args": args}
    end = {"ph": "e", "name": "PipelineReporter", "cat": cat, "pid": pid, "tid": tid,
           "ts": round(ts + 2 * P_US, 3), "id2": {"local": hex(rid)}, "args": {}}
    return [begin, end]


def smooth():
    events = [meta(BROWSER, BROWSER_MAIN, "CrBrowserMain"), meta(RENDERER, MAIN, "CrRendererMain"),
              meta(RENDERER, COMPOSITOR, "Compositor")]
    t0 = 1_000_000.0
    rid = 1
    seq = 500
    frames = 0
    vsync = 0
    while frames < 287:
        ts = t0 + vsync * P_US
        vsync += 1
        seq += 1
        events.append({"ph": "I", "name": "BeginFrame", "cat": "disabled-by-default-devtools.timeline.frame", "pid": RENDERER,
                       "tid": COMPOSITOR, "ts": round(ts, 3), "s": "t", "args": {"frameSeqId": seq, "layerTreeId": 1}})
        if vsync % 40 == 0:  # nothing to draw this vsync
            events += reporter(RENDERER, COMPOSITOR, ts, seq, "STATE_NO_UPDATE_DESIRED", rid)
            rid += 1
            continue
        state = "STATE_DROPPED" if frames == 150 else "STATE_PRESENTED_ALL"
        events += reporter(RENDERER, COMPOSITOR, ts, seq, state, rid)
        rid += 1
        if frames % 25 == 0:  # a second reporter of the same frame
            events += reporter(RENDERER, COMPOSITOR, ts, seq, state, rid, forked=True)
            rid += 1
        # Main-thread animation work: 6 ms starting 4 ms after the vsync, crossing 60 Hz grid lines.
        events.append({"ph": "X", "name": "Animation Frame Fired", "cat": "devtools.timeline", "pid": RENDERER, "tid": MAIN,
                       "ts": round(ts + 4000, 3), "dur": 6000})
        # The browser UI presents its own frames, which are not the page's.
        events += reporter(BROWSER, BROWSER_MAIN, ts + 100, 10_000 + seq, "STATE_DROPPED", 100_000 + rid)
        frames += 1
    return {"traceEvents": events, "metadata": {"source": "framescope tools/make_chrome_fixtures.py"}}


def legacy():
    events = [meta(RENDERER, MAIN, "CrRendererMain"), meta(RENDERER, COMPOSITOR, "Compositor")]
    t0 = 2_000_000.0
    p = 16666.667
    cat = "disabled-by-default-devtools.timeline.frame"

    def instant(name, ts, seq):
        return {"ph": "I", "name": name, "cat": cat, "pid": RENDERER, "tid": COMPOSITOR, "ts": round(ts, 3), "s": "t",
                "args": {"frameSeqId": seq, "layerTreeId": 3}}
    # seq 1..15: idle at 3, 7, 11 (never drawn, not dropped); dropped at 5 and 9; all others drawn.
    for seq in range(1, 16):
        ts = t0 + (seq - 1) * p
        events.append(instant("BeginFrame", ts, seq))
        events.append({"ph": "X", "name": "Layout", "cat": "devtools.timeline", "pid": RENDERER, "tid": MAIN,
                       "ts": round(ts + 1000, 3), "dur": 3000})
        if seq in (5, 9):
            events.append(instant("DroppedFrame", ts + 2000, seq))
        elif seq not in (3, 7, 11):
            events.append(instant("DrawFrame", ts + 5000, seq))
    return {"traceEvents": events}


STAGES = [  # (name, typical duration in us)
    ("BeginImplFrameToSendBeginMainFrame", 500),
    ("SendBeginMainFrameToCommit", 4000),
    ("Commit", 200),
    ("EndCommitToActivation", 1000),
    ("Activation", 200),
    ("EndActivateToSubmitCompositorFrame", 300),
    ("SubmitCompositorFrameToPresentationCompositorFrame", 6000),
]
BREAKDOWN = [("SubmitToReceiveCompositorFrame", 0.1), ("ReceiveCompositorFrameToStartDraw", 0.2),
             ("StartDrawToSwapStart", 0.5), ("Swap", 0.2)]


def staged_reporter(pid, tid, ts, seq, state, rid, durations, forked=False):
    """A PipelineReporter with its stages laid end to end, the presentation stage's breakdown inside it."""
    cat = "cc,benchmark,disabled-by-default-devtools.timeline.frame"
    args = {"chrome_frame_reporter": {"state": state, "frame_sequence": seq, "layer_tree_host_id": 1,
                                      "frame_source": 4294967296, "scroll_state": "SCROLL_NONE"}}
    if forked:
        args["chrome_frame_reporter"]["frame_type"] = "FORKED"
    ident = {"local": hex(rid)}

    def pair(name, start, end, extra=None):
        begin = {"ph": "b", "name": name, "cat": cat, "pid": pid, "tid": tid, "ts": round(start, 3), "id2": ident,
                 "args": extra or {}}
        return [begin, {"ph": "e", "name": name, "cat": cat, "pid": pid, "tid": tid, "ts": round(end, 3), "id2": ident,
                        "args": {}}]
    inner = []
    t = ts + 50
    for name, duration in durations:
        inner += pair(name, t, t + duration)
        if name == "SubmitCompositorFrameToPresentationCompositorFrame":
            c = t
            for child, share in BREAKDOWN:
                inner += pair(child, c, c + duration * share)
                c += duration * share
        t += duration
    reporter = pair("PipelineReporter", ts, t + 20, args)
    return [reporter[0]] + inner + [reporter[1]]


def stage_overrun():
    events = [meta(RENDERER, MAIN, "CrRendererMain"), meta(RENDERER, COMPOSITOR, "Compositor"),
              meta(RENDERER, 9, "CompositorTileWorker1")]
    t0 = 3_000_000.0
    p = 16666.667
    special = {5: ("EndCommitToActivation", 20000), 10: ("SendBeginMainFrameToCommit", 25000),
               15: ("SubmitCompositorFrameToPresentationCompositorFrame", 30000), 20: None}
    for index in range(24):
        ts = t0 + index * p
        seq = 100 + index
        durations = list(STAGES)
        state = "STATE_PRESENTED_ALL"
        if index in special:
            state = "STATE_DROPPED"
            if special[index]:
                name, value = special[index]
                durations = [(n, value if n == name else d) for n, d in durations]
        # Ids cycle through four values, so every id is reused by later reporters.
        events += staged_reporter(RENDERER, COMPOSITOR, ts, seq, state, 1 + index % 4, durations)
        if index == 2:  # a forked reporter of a presented frame, with a stage that must not count
            events += staged_reporter(RENDERER, COMPOSITOR, ts, seq, "STATE_PRESENTED_ALL", 50,
                                      [("SendBeginMainFrameToCommit", 40000)], forked=True)
        def x(name, cat, start, dur, tid=MAIN):
            return {"ph": "X", "name": name, "cat": cat, "pid": RENDERER, "tid": tid, "ts": round(ts + start, 3), "dur": dur}
        events += [
            x("RunTask", "disabled-by-default-devtools.timeline", 600, 4000),
            x("FunctionCall", "devtools.timeline", 700, 1500),
            x("v8.callFunction", "v8", 800, 1000),          # script by framescope's table (DevTools counts it as the FunctionCall)
            x("MinorGC", "devtools.timeline,v8", 900, 200),
            x("UpdateLayoutTree", "blink,devtools.timeline", 2300, 400),
            x("Layout", "devtools.timeline", 2800, 900),
            x("Paint", "devtools.timeline,rail", 3800, 300),
            x("SomethingUnknown", "toplevel", 5000, 100),   # unknown at the top: other
            x("RasterTask", "cc,disabled-by-default-devtools.timeline", 5000, 2000, tid=9),
            x("ImageDecodeTask", "disabled-by-default-devtools.timeline", 5100, 500, tid=9),
        ]
    return {"traceEvents": events}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "Tests/FrameAnalysisTests/Fixtures"
    os.makedirs(out, exist_ok=True)
    for name, trace in [("chrome-smooth-animation.json", smooth()), ("chrome-legacy-frames.json", legacy()),
                        ("chrome-stage-overrun.json", stage_overrun())]:
        with open(os.path.join(out, name), "w") as handle:
            json.dump(trace, handle, separators=(",", ":"))
            handle.write("\n")


if __name__ == "__main__":
    main()
