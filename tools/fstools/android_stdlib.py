"""A port of trace processor's android.frames stdlib over the trace of its diff tests
(android-frames-stdlib, android-doframe-depth): the frames it computes from the events, held
against the tests' outputs, which are kept here verbatim."""
import re

from .perfetto_packets import TraceFile, file_facts, packet
from .frametimeline import (
    FTTrace, JANK_APP_DEADLINE_MISSED, JANK_BUFFER_STUFFING, JANK_NONE, JANK_SF_CPU_DEADLINE_MISSED,
    JANK_SF_GPU_DEADLINE_MISSED, JANK_SF_SCHEDULING, JANK_SF_STUFFING, MAPPINGS, PREDICTION_UNKNOWN, PRESENT_LATE,
    PRESENT_ON_TIME, frame_timeline_packets, process_tree_packet, trace_processor_rows,
)
from .frametimeline_cases import FRAME_TIMELINE_NOTES, diff_test_csv


# ---------------------------------------------------------------------------------------------
# e2. android-frames-stdlib: the trace of trace processor's android.frames stdlib diff tests
# ---------------------------------------------------------------------------------------------
JC_PID, JC_RT, JC_GPU, JC_JIT = 1000, 1555, 1666, 1777  # com.android.systemui, RenderThread, GPU completion, JIT
JC_SF_PID, JC_SF_RE = 1050, 1055  # /system/bin/surfaceflinger and its RenderEngine thread
JC_LAYER = "TX - NotificationShade#0"
JC_COMMIT = "f62b11e6b5d34d0b0f1af3d60eb4d40a57b652b6"  # android_jank_cuj.py
JC_TESTS_COMMIT = "d5ffabdfdc4f2c2fff3c2faa3ddd2e16af9e491c"  # stdlib/android/frames_tests.py

# stdlib/android/frames_tests.py (class Frames) at JC_TESTS_COMMIT: each test that runs on
# android_jank_cuj.py, its expected output verbatim (the Csv(...) block without its indentation).
JC_OUTPUTS = {
    "android_frames_choreographer_do_frame": ("test_android_frames_choreographer_do_frame", '''\
"id","frame_id","ui_thread_utid","upid","ts"
2,10,2,2,0
15,20,2,2,20000000
22,30,2,2,30000000
35,40,2,2,40000000
46,60,2,2,70000000
55,90,2,2,100000000
63,100,2,2,200000000
73,110,2,2,300000000
79,120,2,2,400000000
87,130,2,2,550000000
93,140,2,2,608500000
99,145,2,2,655000000
102,150,2,2,700000000
108,160,2,2,800000000
140,1000,2,2,1100000000
'''),
    "android_frames_draw_frame": ("test_android_frames_draw_frame", '''\
"id","frame_id","render_thread_utid","upid"
8,10,4,2
16,20,4,2
23,30,4,2
41,40,4,2
50,60,4,2
57,90,4,2
60,90,4,2
66,100,4,2
69,100,4,2
74,110,4,2
80,120,4,2
89,130,4,2
95,140,4,2
100,145,4,2
105,150,4,2
109,160,4,2
146,1000,4,2
'''),
    "android_frames": ("test_android_frames", '''\
"frame_id","ts","dur","do_frame_id","draw_frame_id","actual_frame_timeline_id","expected_frame_timeline_id","render_thread_utid","ui_thread_utid","actual_frame_timeline_count","expected_frame_timeline_count"
10,0,16000000,2,8,1,0,4,2,1,1
20,8000000,28000000,15,16,12,11,4,2,1,1
30,30000000,25000000,22,23,21,20,4,2,1,1
40,40000000,40000000,35,41,37,36,4,2,1,1
60,70000000,20000000,46,50,48,47,4,2,2,1
90,100000000,23000000,55,57,54,53,4,2,1,1
90,100000000,23000000,55,60,54,53,4,2,1,1
100,200000000,22000000,63,66,65,64,4,2,1,1
100,200000000,22000000,63,69,65,64,4,2,1,1
110,300000000,80000000,73,74,71,70,4,2,3,2
120,400000000,61000000,79,80,78,77,4,2,2,2
130,500000000,16000000,87,89,85,84,4,2,3,2
140,608600000,17000000,93,95,94,91,4,2,2,2
145,650000000,20000000,99,100,98,97,4,2,1,1
150,700500000,14500000,102,105,104,103,4,2,1,1
160,1070000000,16000000,108,109,132,107,4,2,1,2
1000,1100000000,500000000,140,146,138,137,4,2,1,1
'''),
    "android_first_frame_after": ("test_android_first_frame_after", '''\
"frame_id"
100
'''),
    "android_frames_overrun": ("test_android_frames_overrun", '''\
"frame_id","overrun"
10,0
20,8000000
30,5000000
40,20000000
60,-10000000
90,3000000
100,2000000
110,41000000
120,41000000
130,-18000000
140,5600000
145,0
150,-5000000
160,266000000
190,0
200,16000000
1000,480000000
'''),
    "android_app_vsync_delay_per_frame": ("test_android_app_vsync_delay_per_frame", '''\
"frame_id","app_vsync_delay"
10,0
20,0
30,0
40,0
60,0
90,0
100,0
110,0
120,0
130,0
140,8600000
145,0
150,500000
160,270000000
1000,0
'''),
    "android_cpu_time_per_frame": ("test_android_cpu_time_per_frame", '''\
"frame_id","app_vsync_delay","do_frame_dur","draw_frame_dur","cpu_time"
10,0,5000000,1000000,6000000
20,0,3000000,4000000,7000000
30,0,3000000,19000000,22000000
40,0,13000000,7000000,20000000
60,0,10000000,9000000,19000000
90,0,15000000,8000000,23000000
100,0,15000000,8000000,23000000
110,0,15000000,2000000,17000000
120,0,15000000,2000000,17000000
130,0,5000000,4000000,9000000
140,8600000,1500000,17000000,27100000
145,0,20000000,3000000,23000000
150,500000,2000000,13800000,16300000
160,270000000,2000000,1000000,273000000
1000,0,100000000,150000000,250000000
'''),
    "android_frame_stats": ("test_android_frame_stats", '''\
"frame_id","overrun","cpu_time","ui_time","was_jank","was_slow_frame","was_big_jank","was_huge_jank"
10,0,6000000,5000000,"[NULL]","[NULL]","[NULL]","[NULL]"
20,8000000,7000000,3000000,1,"[NULL]","[NULL]","[NULL]"
30,5000000,22000000,3000000,1,1,"[NULL]","[NULL]"
40,20000000,20000000,13000000,1,"[NULL]","[NULL]","[NULL]"
60,-10000000,19000000,10000000,"[NULL]","[NULL]","[NULL]","[NULL]"
90,3000000,23000000,15000000,1,1,"[NULL]","[NULL]"
100,2000000,23000000,15000000,1,1,"[NULL]","[NULL]"
110,41000000,17000000,15000000,1,"[NULL]","[NULL]","[NULL]"
120,41000000,17000000,15000000,1,"[NULL]","[NULL]","[NULL]"
130,-18000000,9000000,5000000,"[NULL]","[NULL]","[NULL]","[NULL]"
140,5600000,27100000,1500000,1,1,"[NULL]","[NULL]"
145,0,23000000,20000000,"[NULL]",1,"[NULL]","[NULL]"
150,-5000000,16300000,2000000,"[NULL]","[NULL]","[NULL]","[NULL]"
160,266000000,273000000,2000000,1,1,1,1
1000,480000000,250000000,100000000,1,1,1,1
'''),
}

# metrics/graphics/android_jank_cuj.out at JC_CUJ_COMMIT: the `frame` blocks of its second CUJ
# (id 2, SHADE_ROW_EXPAND, 0 to 901 ms: every app frame of the generator's but 160 and 1000),
# verbatim. A frame is missed when any of the token's actual slices on the CUJ's layer is janky:
# the metric's own per-token verdict, which framescope's must equal (frame 130 among them).
JC_CUJ_COMMIT = "a236c81a9f5d2fe7777022babfa0d0c298bda39b"
JC_CUJ_FRAMES = """\
    frame {
      frame_number: 1
      vsync: 10
      ts: 0
      dur: 16000000
      app_missed: false
      sf_missed: false
      dur_expected: 16000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 2
      vsync: 20
      ts: 8000000
      dur: 28000000
      app_missed: true
      sf_missed: true
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 3
      vsync: 30
      ts: 30000000
      dur: 25000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 4
      vsync: 40
      ts: 40000000
      dur: 40000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 5
      vsync: 60
      ts: 70000000
      dur: 20000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 6
      vsync: 90
      ts: 100000000
      dur: 23000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 7
      vsync: 100
      ts: 200000000
      dur: 22000000
      app_missed: false
      sf_missed: true
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 8
      vsync: 110
      ts: 300000000
      dur: 61000000
      app_missed: false
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 9
      vsync: 120
      ts: 400000000
      dur: 61000000
      app_missed: false
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 10
      vsync: 130
      ts: 500000000
      dur: 56000000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 11
      vsync: 140
      ts: 600000000
      dur: 25600000
      app_missed: true
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 12
      vsync: 145
      ts: 650000000
      dur: 20000000
      app_missed: false
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: false
      hwui_callback_missed: false
    }
    frame {
      frame_number: 13
      vsync: 150
      ts: 700000000
      dur: 15000000
      app_missed: false
      sf_missed: false
      dur_expected: 20000000
      sf_callback_missed: true
      hwui_callback_missed: true
    }
"""


def cuj_frames(text):
    """The `frame { ... }` blocks of a metric's text proto as rows: integers, and true/false as bools."""
    rows = []
    for block in re.findall(r"frame \{(.*?)\}", text, re.S):
        row = {}
        for key, value in re.findall(r"(\w+): (\S+)", block):
            row[key] = {"true": True, "false": False}.get(value, None)
            if row[key] is None:
                row[key] = int(value)
        rows.append(row)
    return rows


def atrace_slices(prints):
    """Thread slices from atrace B/E prints ((ts, tid, buf) in file order), as trace processor makes
    them: each thread's events in time order (stable: equal times keep file order), an E closing the
    thread's innermost open slice. {(pid, tid): [{name, category, ts, dur, depth, args}]} in begin order."""
    by_thread = {}
    for index, (ts, tid, buf) in enumerate(prints):
        by_thread.setdefault(tid, []).append((ts, index, buf))
    out = {}
    for tid, events in by_thread.items():
        events.sort()
        stack, slices, pid = [], [], None
        for ts, _, buf in events:
            parts = buf.split("|")
            pid = int(parts[1])
            if parts[0] == "B":
                s = {"name": "|".join(parts[2:]), "category": "", "ts": ts, "dur": -1, "depth": len(stack),
                     "args": {}}
                stack.append(s)
                slices.append(s)
            else:
                assert parts[0] == "E" and stack, buf
                s = stack.pop()
                s["dur"] = ts - s["ts"]
        assert not stack, tid
        out[(pid, tid)] = slices
    return out


def sqlite_cast_int(text):
    """SQLite's CAST(text AS INT): leading spaces, an optional sign and the digits after it; 0 if none."""
    text = text.lstrip(" \t\n\r")
    sign = 1
    if text[:1] in ("+", "-"):
        sign, text = (-1 if text[0] == "-" else 1), text[1:]
    digits = ""
    for ch in text:
        if not ch.isdigit():
            break
        digits += ch
    return sign * int(digits) if digits else 0


def stdlib_frame_id(name):
    """The android.frames stdlib's frame id of a slice name: CAST(STR_SPLIT(name, ' ', 1) AS INT), kept
    only if it is neither NULL (no second word), 0 nor -1."""
    words = name.split(" ")
    if len(words) < 2:
        return None
    value = sqlite_cast_int(words[1])
    return None if value in (0, -1) else value


def fail_unless(condition, message):
    """An assertion that `python3 -O` does not remove."""
    if not condition:
        raise AssertionError(message)


def android_doframe_depth():
    """test/trace_processor/diff_tests/metrics/graphics/android_doframe_depth.py, call for call: the
    input of stdlib/android frames_tests.py test_android_frames_get_frame_table_with_id, whose
    expected rows keep the doFrames at depth 0 and 1 only."""
    pid, rtid, gpu = 1000, 1555, 1666
    prints = []  # (ts, tid, buf), in the generator's order, one cpu-0 bundle

    def main_thread_from_depth(ts, ts_end, buf, depth):
        # The generator's parents are all named '<depth %d>': its '...'.format(i) formats nothing.
        for i in range(depth):
            prints.append((ts - (depth - i), pid, f"B|{pid}|<depth %d>"))
        prints.append((ts, pid, f"B|{pid}|{buf}"))
        prints.append((ts_end, pid, f"E|{pid}"))
        for i in range(depth):
            prints.append((ts_end + (i + 1), pid, f"E|{pid}"))

    def add_frame(vsync, ts_do, ts_end_do, ts_draw, ts_end_draw, ts_gpu=None, ts_end_gpu=None, resync=False, depth=0):
        main_thread_from_depth(ts_do, ts_end_do, f"Choreographer#doFrame {vsync}", depth)
        if resync:
            main_thread_from_depth(ts_do, ts_end_do, f"Choreographer#doFrame - resynced to {vsync + 1} in 0.0s", depth)
        fence = 1000 + vsync * 10 + 1
        message = ("GPU completion fence %d has signaled" if ts_gpu is None else "Trace GPU completion fence %d") % fence
        prints.append((ts_draw, rtid, f"B|{pid}|DrawFrames {vsync}"))
        prints.append((ts_end_draw - 100, rtid, f"B|{pid}|{message}"))
        prints.append((ts_end_draw - 1, rtid, f"E|{pid}"))
        prints.append((ts_end_draw, rtid, f"E|{pid}"))
        if ts_gpu is not None:
            prints.append((ts_gpu, gpu, f"B|{pid}|waiting for GPU completion {fence}"))  # never ended, as there

    add_frame(10, 1_000_000, 5_000_000, 5_000_000, 10_000_000, depth=0)
    add_frame(11, 30_000_000, 35_000_000, 33_000_000, 38_000_000, depth=1)
    add_frame(12, 60_000_000, 65_000_000, 6_500_000, 70_000_000, resync=True, depth=2)  # 65_00_000 there
    add_frame(13, 90_000_000, 98_000_000, 96_000_000, 102_000_000, ts_gpu=100_000_000, ts_end_gpu=115_000_000, depth=3)

    t = TraceFile()
    process_tree_packet(t, 0, [(pid, 1, "com.android.systemui", 10001)], [(rtid, pid, "RenderThread")])
    p = packet()
    p.ftrace_events.cpu = 0
    for ts, tid, buf in prints:
        ev = p.ftrace_events.event.add()
        ev.timestamp, ev.pid = ts, tid
        getattr(ev, "print").buf = buf
    t.add(p, "ftrace cpu 0: atrace prints, in the generator's order")
    data, layout = t.build()
    # The test's expected rows (frames_tests.py, test_android_frames_get_frame_table_with_id).
    _, table = diff_test_csv('''"frame_id","name","depth"
10,"Choreographer#doFrame 10",0
11,"Choreographer#doFrame 11",1''')
    # Cross-check from the slices: doFrames with a frame id at depth 0 or 1.
    complete = [(ts, tid, buf) for ts, tid, buf in prints if tid != gpu]
    slices = atrace_slices(complete)[(pid, pid)]
    mine = [{"frame_id": stdlib_frame_id(x["name"]), "name": x["name"], "depth": x["depth"]} for x in slices
            if x["name"].startswith("Choreographer#doFrame") and stdlib_frame_id(x["name"]) is not None and x["depth"] <= 1]
    fail_unless(mine == table, (mine, table))
    expected = {
        "fixture": "android-doframe-depth.pftrace",
        "kind": "android-frames",
        "source": {
            "repository": "google/perfetto",
            "trace": "test/trace_processor/diff_tests/metrics/graphics/android_doframe_depth.py "
                     "(286b8f7a6587d2148540f33a929ec6192f7ef3e3), built with test/synth_common.py",
            "tests": ["test/trace_processor/diff_tests/stdlib/android/frames_tests.py "
                      "test_android_frames_get_frame_table_with_id (d5ffabdf)"],
        },
        **file_facts(data),
        "packets": len(layout),
        "app_pid": pid,
        "android_frames_get_frame_table_with_id": table,
        "notes": [
            "Choreographer#doFrame 10..13 on the main thread at depths 0..3 under parents named '<depth %d>', "
            "each with a DrawFrames on the RenderThread; vsync 12 also has a nested resynced doFrame (frame id 0, "
            "no frame). The test keeps the doFrames at depth 0 or 1 (the stdlib's _get_frame_table_with_id as of "
            "that test), so frames 10 and 11 only.",
            "The GPU thread's 'waiting for GPU completion' slice is begun and never ended, as in the generator.",
        ],
    }
    return data, expected


JC_NOT_APP_FRAMES = {
    160: "the app has no actual surface frame for 160; trace processor's actual slice for frame 160 is "
         "SurfaceFlinger's display frame 160 (display token of app token 60, at 1070 ms), against the "
         "app's expected surface frame 160 (800-820 ms): overrun 266 ms, app_vsync_delay 270 ms, "
         "cpu_time 270 + 2 + 1 ms",
    190: "SurfaceFlinger's display frame 190 (display token of app token 90), not an app frame",
    200: "SurfaceFlinger's display frame 200 (display token of app token 100), not an app frame",
}

JC_NOTES = [
    "Reduced from the generator: kept are its process tree (processes 1000 com.android.systemui uid 10001 "
    "and 1050 /system/bin/surfaceflinger uid 1000; threads 1555 RenderThread, 1666 GPU completion, 1777 "
    "Jit thread pool, 1055 RenderEngine), every Choreographer#doFrame and DrawFrames slice (ftrace print "
    "B/E, in the generator's order in one cpu-0 bundle, 'B|1000|name' and 'E|1000' without a trailing "
    "newline, as synth_common writes them) and every FrameTimeline event with its timestamp, cookie, token, "
    "display token, pid, layer name, present/jank/prediction type and on_time_finish. Left out: the empty "
    "first packet, packages_list, the CUJ track descriptors and slices/instants, atrace counters, "
    "sched_switch, and the atrace slices no frame table reads (binder transaction, flush layers, "
    "dispatchFrameCallbacks, the GPU completion fence inside each DrawFrames, the GPU thread's waits, JIT "
    "and SurfaceFlinger slices). Timestamps are the generator's.",
    "The outputs' id, do_frame_id, draw_frame_id, actual/expected_frame_timeline_id columns are trace "
    "processor's slice ids for the full generator trace (its CUJ slices, binder and fence slices take ids "
    "too), and utid/upid are its thread/process ids: they are not positions in this file.",
    "frames (computed here from the events, not from the outputs): one per frame id with an actual surface "
    "frame of app_pid, in frame-id order. actual_* and jank_type/present_type/jank_tag/on_time_finish are "
    "the app's first actual surface slice for the token (trace processor's lowest id: earliest start, "
    "ties in file order); layers are all of them; expected_* the app's expected surface slice (one per "
    "token); do_frame_* the app's first 'Choreographer#doFrame <id>'; draw_frame_dur the sum of its "
    "'DrawFrame* <id>' slices. overrun = actual_end - expected_end, app_vsync_delay = actual_start - "
    "expected_start, cpu_time = app_vsync_delay + do_frame_dur + draw_frame_dur.",
    "Frame ids from slice names as the stdlib takes them: CAST(STR_SPLIT(name, ' ', 1) AS INT), kept unless "
    "NULL, 0 or -1; 'Choreographer#doFrame - resynced to 11 in 0.0s' gives 0 and is no frame. It begins "
    "and ends with doFrame 10, after it in the file, so it nests inside it (depth 1).",
    "The script asserts that frames agree with android_frames_overrun, android_app_vsync_delay_per_frame, "
    "android_cpu_time_per_frame and android_frame_stats for every frame id in both, and with the frame "
    "ids of android_frames_choreographer_do_frame and android_frames_draw_frame.",
    "Rows of the outputs with no entry in frames: 160 (overrun, app_vsync_delay, cpu_time, frame_stats, "
    "android_frames): " + JC_NOT_APP_FRAMES[160] + ". 190 and 200 (overrun only): "
    + JC_NOT_APP_FRAMES[190] + "; " + JC_NOT_APP_FRAMES[200] + ". Trace processor pools actual slices by name "
    "across processes for these tables (MIN(id)).",
    "android_frames in this trace processor version has one row per DrawFrame slice (frames 90 and 100 "
    "twice) and takes ts = MIN(ts), dur = MAX(dur) and the counts over every actual/expected slice named "
    "by the frame id in any process: frames 110, 120, 130 and 140 also count SurfaceFlinger's display "
    "frames 110-140 (130's dur 16 ms is display frame 130's), and 160's row is display frame 160's. The "
    "script asserts these pooled figures too.",
    "No frame_interval_ns: the generator has no vsync period (expected surface frames last 16 or 20 ms and "
    "tokens are not vsync-spaced).",
    "The main thread (tid 1000) has no process_tree thread entry: its name is null.",
] + FRAME_TIMELINE_NOTES[:1]


def jank_cuj_prints():
    """The generator's atrace doFrame and DrawFrames slices as ftrace prints, in its order."""
    prints = []  # (ts, tid, buf): the one ftrace bundle synth_common writes, in the generator's order

    def main_thread_atrace(ts, ts_end, buf):
        prints.append((ts, JC_PID, f"B|{JC_PID}|{buf}"))
        prints.append((ts_end, JC_PID, f"E|{JC_PID}"))

    def render_thread_begin(ts, buf):
        prints.append((ts, JC_RT, f"B|{JC_PID}|{buf}"))

    def render_thread_end(ts):
        prints.append((ts, JC_RT, f"E|{JC_PID}"))

    def add_frame(vsync, ts_do_frame, ts_end_do_frame, ts_draw_frame, ts_end_draw_frame, resync=False):
        main_thread_atrace(ts_do_frame, ts_end_do_frame, f"Choreographer#doFrame {vsync}")
        if resync:
            main_thread_atrace(ts_do_frame, ts_end_do_frame, f"Choreographer#doFrame - resynced to {vsync + 1} in 0.0s")
        render_thread_begin(ts_draw_frame, f"DrawFrames {vsync}")
        # Left out: the "GPU completion fence" slice inside DrawFrames and the GPU thread's wait.
        render_thread_end(ts_end_draw_frame)

    # The generator's add_frame calls, in order (its binder, flush layers, dispatchFrameCallbacks, JIT,
    # SurfaceFlinger and GPU-thread slices, counters, sched_switch and CUJ track events left out).
    add_frame(10, 0, 5_000_000, 4_000_000, 5_000_000, resync=True)
    add_frame(20, 20_000_000, 23_000_000, 22_000_000, 26_000_000)
    add_frame(30, 30_000_000, 33_000_000, 31_000_000, 50_000_000)
    add_frame(40, 40_000_000, 53_000_000, 52_000_000, 59_000_000)
    add_frame(60, 70_000_000, 80_000_000, 78_000_000, 87_000_000)
    add_frame(90, 100_000_000, 115_000_000, 102_000_000, 104_000_000)
    render_thread_begin(108_000_000, "DrawFrames 90")  # a second DrawFrames for vsync 90
    render_thread_end(114_000_000)
    add_frame(100, 200_000_000, 215_000_000, 202_000_000, 204_000_000)
    render_thread_begin(208_000_000, "DrawFrames 100")  # and for vsync 100
    render_thread_end(214_000_000)
    add_frame(110, 300_000_000, 315_000_000, 302_000_000, 304_000_000)
    add_frame(120, 400_000_000, 415_000_000, 402_000_000, 404_000_000)
    add_frame(130, 550_000_000, 555_000_000, 552_000_000, 556_000_000)  # after a 49.5 ms binder call
    add_frame(140, 608_500_000, 610_000_000, 609_000_000, 626_000_000)  # after an 8 ms binder call
    add_frame(145, 655_000_000, 675_000_000, 657_000_000, 660_000_000)
    add_frame(150, 700_000_000, 702_000_000, 701_200_000, 715_000_000)
    add_frame(160, 800_000_000, 802_000_000, 801_000_000, 802_000_000)  # no actual timeline slice
    add_frame(1000, 1_100_000_000, 1_200_000_000, 1_150_000_000, 1_300_000_000)
    return prints


def jank_cuj_frame_timeline():
    """The generator's FrameTimeline events, call for call."""
    ft = FTTrace()

    def expected_display(ts, dur, token):
        ft.expected_display(ts, token, 100 + token, JC_SF_PID)
        ft.frame_end(ts + dur, token)

    def actual_display(ts, dur, token, jank=None):
        ft.actual_display(ts, token + 1, 100 + token, JC_SF_PID, PRESENT_ON_TIME if jank is None else PRESENT_LATE,
                          1 if jank is None else 0, 0, JANK_NONE if jank is None else jank, PREDICTION_UNKNOWN)
        ft.frame_end(ts + dur, token + 1)

    def expected_surface(ts, dur, token):
        ft.expected_surface(ts, 100_000 + token, token, 100 + token, JC_PID, "")
        ft.frame_end(ts + dur, 100_000 + token)

    def actual_surface(ts, dur, token, cookie=None, jank=None, on_time_finish=None, display_frame_token=None,
                       layer_name=JC_LAYER):
        cookie = 100_002 + (token + 1 if cookie is None else cookie)
        if on_time_finish is None:
            on_time_finish = 1 if jank is None else 0
        ft.actual_surface(ts, cookie, token, display_frame_token or token + 100, JC_PID, layer_name,
                          PRESENT_ON_TIME if jank is None else PRESENT_LATE, on_time_finish, 0,
                          JANK_NONE if jank is None else jank, PREDICTION_UNKNOWN)
        ft.frame_end(ts + dur, cookie)

    expected_display(1_000_000_000, 16_000_000, 10)
    actual_display(1_000_000_000, 16_000_000, 10)
    expected_surface(0, 16_000_000, 10)
    actual_surface(0, 16_000_000, 10)
    expected_display(1_016_000_000, 20_000_000, 20)
    actual_display(1_016_000_000, 10_000_000, 20)
    expected_surface(8_000_000, 20_000_000, 20)
    actual_surface(8_000_000, 28_000_000, 20, jank=JANK_APP_DEADLINE_MISSED | JANK_SF_SCHEDULING)  # 66
    expected_display(1_032_000_000, 16_000_000, 30)
    actual_display(1_032_000_000, 16_000_000, 30)
    expected_surface(30_000_000, 20_000_000, 30)
    actual_surface(30_000_000, 25_000_000, 30, jank=JANK_APP_DEADLINE_MISSED)
    expected_display(1_048_000_000, 16_000_000, 40)
    actual_display(1_048_000_000, 16_000_000, 40)
    expected_surface(40_000_000, 20_000_000, 40)
    actual_surface(40_000_000, 40_000_000, 40, jank=JANK_APP_DEADLINE_MISSED)
    expected_display(1_070_000_000, 16_000_000, 60)
    actual_display(1_070_000_000, 16_000_000, 60)
    expected_surface(70_000_000, 20_000_000, 60)
    actual_surface(70_000_000, 10_000_000, 60, jank=JANK_APP_DEADLINE_MISSED)
    # A second layer finished later and was picked up by the next SurfaceFlinger frame (190).
    actual_surface(70_000_000, 20_000_000, 60, cookie=62, jank=JANK_APP_DEADLINE_MISSED, display_frame_token=190)
    expected_display(1_100_000_000, 16_000_000, 90)
    actual_display(1_100_000_000, 16_000_000, 90)
    expected_surface(100_000_000, 20_000_000, 90)
    actual_surface(100_000_000, 23_000_000, 90, jank=JANK_APP_DEADLINE_MISSED)
    expected_display(1_200_000_000, 16_000_000, 100)
    actual_display(1_200_000_000, 32_000_000, 100, jank=JANK_SF_CPU_DEADLINE_MISSED)
    expected_surface(200_000_000, 20_000_000, 100)
    actual_surface(200_000_000, 22_000_000, 100, jank=JANK_SF_GPU_DEADLINE_MISSED | JANK_SF_SCHEDULING)  # 34
    expected_surface(300_000_000, 20_000_000, 110)
    actual_surface(300_000_000, 61_000_000, 110, cookie=112)
    actual_surface(300_000_000, 80_000_000, 110, cookie=114, jank=JANK_APP_DEADLINE_MISSED,
                   layer_name="TX - JankyLayer#1")
    expected_surface(400_000_000, 20_000_000, 120)
    actual_surface(400_000_000, 61_000_000, 120, jank=JANK_BUFFER_STUFFING, on_time_finish=1)
    # Several layers, only one of them janky.
    expected_surface(500_000_000, 20_000_000, 130)
    actual_surface(500_000_000, 2_000_000, 130)
    actual_surface(550_000_000, 6_000_000, 130, cookie=132, jank=JANK_APP_DEADLINE_MISSED)
    # One layer; the actual frame starts after doFrame does.
    expected_surface(600_000_000, 20_000_000, 140)
    actual_surface(608_600_000, 17_000_000, 140, jank=JANK_APP_DEADLINE_MISSED)
    # SurfaceFlinger stuffing.
    expected_surface(650_000_000, 20_000_000, 145)
    actual_surface(650_000_000, 20_000_000, 145, jank=JANK_SF_STUFFING)
    expected_surface(700_000_000, 20_000_000, 150)
    actual_surface(700_500_000, 14_500_000, 150)
    # No actual frame for 160.
    expected_surface(800_000_000, 20_000_000, 160)
    expected_surface(1_100_000_000, 20_000_000, 1000)
    actual_surface(1_100_000_000, 500_000_000, 1000, jank=JANK_APP_DEADLINE_MISSED)
    return ft


def jank_cuj_trace(prints, ft):
    """The reduced trace: the process tree, one ftrace bundle of the prints, the FrameTimeline packets."""
    t = TraceFile()
    # synth_common puts the process tree in the packet of the last add_package_list (ts 0).
    process_tree_packet(t, 0, [(JC_PID, 1, "com.android.systemui", 10001),
                               (JC_SF_PID, 1, "/system/bin/surfaceflinger", 1000)],
                        [(JC_RT, JC_PID, "RenderThread"), (JC_GPU, JC_PID, "GPU completion"),
                         (JC_JIT, JC_PID, "Jit thread pool"), (JC_SF_RE, JC_SF_PID, "RenderEngine")])
    p = packet()
    p.ftrace_events.cpu = 0
    for ts, tid, buf in prints:
        ev = p.ftrace_events.event.add()
        ev.timestamp, ev.pid = ts, tid
        getattr(ev, "print").buf = buf
    t.add(p, "ftrace cpu 0: atrace prints, in the generator's order (not time order)")
    frame_timeline_packets(t, ft.events)
    return t.build()


def app_frame_slices(thread_slices):
    """The app's doFrame and DrawFrame slices with their stdlib frame ids (any thread of the app), in time order."""
    app_slices = [s for (pid, _), slices in sorted(thread_slices.items()) for s in slices if pid == JC_PID]
    do_frames = sorted(((stdlib_frame_id(s["name"]), s) for s in app_slices
                        if s["name"].startswith("Choreographer#doFrame") and stdlib_frame_id(s["name"]) is not None),
                       key=lambda pair: pair[1]["ts"])
    draw_frames = sorted(((stdlib_frame_id(s["name"]), s) for s in app_slices
                          if s["name"].startswith("DrawFrame") and stdlib_frame_id(s["name"]) is not None),
                         key=lambda pair: pair[1]["ts"])
    return do_frames, draw_frames


def stdlib_frames(actual_rows, expected_rows, do_frames, draw_frames):
    """One frame per app frame id, computed from the events as the stdlib's per-frame tables do."""
    # Rows are in trace processor's id order among FrameTimeline slices (time order, ties in parse order).
    app_actual = [r for r in actual_rows if r["pid"] == JC_PID and r["surface_frame_token"] is not None]
    app_expected = [r for r in expected_rows if r["pid"] == JC_PID and r["surface_frame_token"] is not None]
    frames = []
    for frame_id in sorted({r["surface_frame_token"] for r in app_actual}):
        layers = [r for r in app_actual if r["surface_frame_token"] == frame_id]
        first = layers[0]
        expected_slices = [r for r in app_expected if r["surface_frame_token"] == frame_id]
        fail_unless(len(expected_slices) <= 1, expected_slices)  # the parser keeps one per (process, token)
        exp = expected_slices[0] if expected_slices else None
        dos = [s for fid, s in do_frames if fid == frame_id]
        draws = [s for fid, s in draw_frames if fid == frame_id]
        frame = {
            "frame_id": frame_id,
            "expected_start": exp["ts"] if exp else None,
            "expected_end": exp["ts"] + exp["dur"] if exp else None,
            "actual_start": first["ts"],
            "actual_end": first["ts"] + first["dur"],
            "layers": [{"layer_name": r["layer_name"], "ts": r["ts"], "dur": r["dur"],
                        "display_frame_token": r["display_frame_token"], "jank_type": r["jank_type"],
                        "present_type": r["present_type"]} for r in layers],
            "jank_type": first["jank_type"],
            "present_type": first["present_type"],
            "jank_tag": first["jank_tag"],
            "on_time_finish": first["on_time_finish"],
            "do_frame_ts": dos[0]["ts"] if dos else None,
            "do_frame_dur": dos[0]["dur"] if dos else None,
            "draw_frame_dur": sum(s["dur"] for s in draws) if draws else None,
            "draw_frame_count": len(draws),
        }
        frame["overrun"] = frame["actual_end"] - frame["expected_end"] if exp else None
        frame["app_vsync_delay"] = frame["actual_start"] - frame["expected_start"] if exp else None
        parts = (frame["app_vsync_delay"], frame["do_frame_dur"], frame["draw_frame_dur"])
        frame["cpu_time"] = sum(parts) if None not in parts else None
        frames.append(frame)
    return frames


def check_per_frame_tables(frames, actual_rows, expected_rows, do_frames, draw_frames):
    """The frames agree with trace processor's per-frame tables, except the rows JC_NOT_APP_FRAMES
    explains, whose figures its pooling by name gives; returns the outputs and the pooled slices."""
    # --- The frames agree with trace processor's outputs, except where these explain why not. ---
    outputs = {key: diff_test_csv(text)[1] for key, (_, text) in JC_OUTPUTS.items()}
    # Trace processor's per-frame tables pool every actual (and expected) slice whose name is the
    # frame id, in every process: SurfaceFlinger's display frames are named by display tokens
    # (100 + the app's token), and 110..160 are also app tokens.
    pooled_actual = {}
    for r in actual_rows:  # id order: the first is MIN(id)
        pooled_actual.setdefault(int(r["name"]), []).append(r)
    pooled_expected = {}
    for r in expected_rows:
        pooled_expected.setdefault(int(r["name"]), []).append(r)

    def pooled_explains(frame_id, overrun=None, delay=None):
        """Whether trace processor's pooling (MIN(id) actual of any process, an expected slice of that
        name of any process) gives these values."""
        actual = pooled_actual[frame_id][0]
        return any((overrun is None or actual["ts"] + actual["dur"] - (e["ts"] + e["dur"]) == overrun)
                   and (delay is None or actual["ts"] - e["ts"] == delay) for e in pooled_expected[frame_id])

    def check(table, key_columns, compute, explained):
        rows = {r["frame_id"]: r for r in outputs[table]}
        fail_unless(len(rows) == len(outputs[table]), f"{table}: a frame_id twice")
        mine = {f["frame_id"]: compute(f) for f in frames if None not in compute(f).values()}
        for frame_id, values in mine.items():
            fail_unless(frame_id in rows, f"{table}: frame {frame_id} computed here, absent from the .out")
            for column in key_columns:
                fail_unless(values[column] == rows[frame_id][column],
                            f"{table}: frame {frame_id} {column}: computed {values[column]}, .out "
                            f"{rows[frame_id][column]}")
        extra = set(rows) - set(mine)
        fail_unless(extra == set(explained), f"{table}: rows not computed here {sorted(extra)}, explained "
                                             f"{sorted(explained)}")
        return rows

    overrun_rows = check("android_frames_overrun", ["overrun"], lambda f: {"overrun": f["overrun"]},
                         [160, 190, 200])
    for frame_id in (160, 190, 200):
        fail_unless(pooled_explains(frame_id, overrun=overrun_rows[frame_id]["overrun"]), frame_id)
    delay_rows = check("android_app_vsync_delay_per_frame", ["app_vsync_delay"],
                       lambda f: {"app_vsync_delay": f["app_vsync_delay"]}, [160])
    fail_unless(pooled_explains(160, delay=delay_rows[160]["app_vsync_delay"]), 160)
    cpu_columns = ["app_vsync_delay", "do_frame_dur", "draw_frame_dur", "cpu_time"]
    cpu_rows = check("android_cpu_time_per_frame", cpu_columns, lambda f: {c: f[c] for c in cpu_columns}, [160])
    do_160 = [s for fid, s in do_frames if fid == 160]
    draw_160 = [s for fid, s in draw_frames if fid == 160]
    fail_unless((cpu_rows[160]["do_frame_dur"], cpu_rows[160]["draw_frame_dur"])
                == (do_160[0]["dur"], sum(s["dur"] for s in draw_160)), "frame 160's doFrame/DrawFrames")
    fail_unless(cpu_rows[160]["cpu_time"] == sum(cpu_rows[160][c] for c in cpu_columns[:3]), 160)

    def stats(f):
        flag = lambda condition: 1 if condition else None  # noqa: E731
        return {"overrun": f["overrun"], "cpu_time": f["cpu_time"], "ui_time": f["do_frame_dur"],
                "was_jank": flag(f["overrun"] is not None and f["overrun"] > 0),
                "was_slow_frame": flag(f["cpu_time"] is not None and f["cpu_time"] > 20_000_000),
                "was_big_jank": flag(f["cpu_time"] is not None and f["cpu_time"] > 50_000_000),
                "was_huge_jank": flag(f["cpu_time"] is not None and f["cpu_time"] > 200_000_000)}

    stat_columns = ["overrun", "cpu_time", "ui_time"]
    check("android_frame_stats", stat_columns, lambda f: {c: stats(f)[c] for c in stat_columns}, [160])
    for row in outputs["android_frame_stats"]:  # the flags, from the row's own figures
        f = {"overrun": row["overrun"], "cpu_time": row["cpu_time"], "do_frame_dur": row["ui_time"]}
        for column in ("was_jank", "was_slow_frame", "was_big_jank", "was_huge_jank"):
            fail_unless(stats(f)[column] == row[column], (row["frame_id"], column))
    return outputs, pooled_actual, pooled_expected


def check_frame_lists(frames, outputs, pooled_actual, pooled_expected, do_frames, draw_frames):
    """The doFrame, DrawFrame and android_frames tables, the CUJ's missed frames and the first frame after."""
    by_id = {f["frame_id"]: f for f in frames}
    # doFrame and DrawFrame tables: the same frame ids (and doFrame starts) in the same order.
    fail_unless([(r["frame_id"], r["ts"]) for r in outputs["android_frames_choreographer_do_frame"]]
                == [(fid, s["ts"]) for fid, s in do_frames], "android_frames_choreographer_do_frame")
    fail_unless([r["frame_id"] for r in outputs["android_frames_draw_frame"]] == [fid for fid, _ in draw_frames],
                "android_frames_draw_frame")
    # android_frames (this trace processor's version): one row per DrawFrame of the frame id; ts, dur
    # and counts over the pooled slices named by the frame id.
    for frame_id in sorted({r["frame_id"] for r in outputs["android_frames"]}):
        rows = [r for r in outputs["android_frames"] if r["frame_id"] == frame_id]
        actual, expected_named = pooled_actual[frame_id], pooled_expected[frame_id]
        fail_unless(len(rows) == len([1 for fid, _ in draw_frames if fid == frame_id]), (frame_id, "rows"))
        for r in rows:
            fail_unless((r["ts"], r["dur"], r["actual_frame_timeline_count"], r["expected_frame_timeline_count"])
                        == (min(a["ts"] for a in actual), max(a["dur"] for a in actual), len(actual),
                            len(expected_named)), (frame_id, r))
        if frame_id in by_id:
            fail_unless(rows[0]["ts"] == by_id[frame_id]["actual_start"], frame_id)
    # android_jank_cuj: a token is missed exactly when any of its actual slices on the layer is janky.
    janky_types = {"App Deadline Missed", "App Resynced Jitter", "SurfaceFlinger CPU Deadline Missed",
                   "SurfaceFlinger GPU Deadline Missed", "SurfaceFlinger Scheduling", "Prediction Error",
                   "Display HAL", "Dropped Frame"}
    cuj = cuj_frames(JC_CUJ_FRAMES)
    fail_unless([r["frame_number"] for r in cuj] == list(range(1, 14)), "android_jank_cuj: frames 1 to 13")
    for r in cuj:
        reasons = {part.strip() for layer in by_id[r["vsync"]]["layers"] if layer["layer_name"] == JC_LAYER
                   for part in (layer["jank_type"] or "").split(",")}
        fail_unless(bool(reasons & janky_types) == (r["app_missed"] or r["sf_missed"]), ("android_jank_cuj", r))
    fail_unless(outputs["android_first_frame_after"] == [{"frame_id": min(
        (f for f in frames if f["actual_start"] > 100_000_000), key=lambda f: f["actual_start"])["frame_id"]}],
        "android_first_frame_after")
    return cuj


def jank_cuj_expected(data, layout, thread_slices, rows, frames, outputs, cuj, ft):
    """The expected file: the trace's facts, the parser's rows, the frames computed here, the outputs."""
    expected_rows, actual_rows, unpaired = rows
    threads = [{"pid": JC_PID, "tid": JC_PID, "name": None, "slices": thread_slices[(JC_PID, JC_PID)],
                "instants": []},
               {"pid": JC_PID, "tid": JC_RT, "name": "RenderThread", "slices": thread_slices[(JC_PID, JC_RT)],
                "instants": []}]
    threads += [{"pid": pid, "tid": tid, "name": name, "slices": [], "instants": []}
                for tid, pid, name in [(JC_GPU, JC_PID, "GPU completion"), (JC_JIT, JC_PID, "Jit thread pool"),
                                       (JC_SF_RE, JC_SF_PID, "RenderEngine")]]
    tests = [f"test/trace_processor/diff_tests/stdlib/android/frames_tests.py Frames.{test}"
             for test, _ in JC_OUTPUTS.values()]
    expected = {
        "fixture": "android-frames-stdlib.pftrace",
        "kind": "android-frames-stdlib",
        "source": {
            "repository": "google/perfetto",
            "trace": f"test/trace_processor/diff_tests/metrics/graphics/android_jank_cuj.py at {JC_COMMIT} "
                     "(frames_tests.py names it '../../metrics/graphics/android_jank_cuj.py'), built with "
                     "test/synth_common.py, reduced to what the frame tables read (see notes)",
            "generator_commit": JC_COMMIT,
            "tests": tests,
            "tests_commit": JC_TESTS_COMMIT,
            "cuj_metric": f"test/trace_processor/diff_tests/metrics/graphics/android_jank_cuj.out at {JC_CUJ_COMMIT}: "
                          "android_jank_cuj_frames are its second CUJ's frame blocks (SHADE_ROW_EXPAND), verbatim",
            "expected_outputs": "each test's Csv(...) block at tests_commit, verbatim, as JSON rows: integers as "
                                "integers, \"[NULL]\" as null",
            "parser": "src/trace_processor/importers/proto/frame_timeline_event_parser.cc",
            "stdlib": "src/trace_processor/perfetto_sql/stdlib/android/frames/timeline.sql and "
                      "per_frame_metrics.sql (the version the outputs come from: see notes)",
        },
        **file_facts(data),
        "packets": len(layout),
        "app_pid": JC_PID,
        "processes": [{"pid": JC_PID, "name": "com.android.systemui"},
                      {"pid": JC_SF_PID, "name": "/system/bin/surfaceflinger"}],
        "threads": threads,
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "unpaired_frame_end_events": unpaired,
        "frames": frames,
        **outputs,
        "android_jank_cuj_frames": cuj,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": JC_NOTES,
    }
    return data, expected


def android_frames_stdlib():
    """test/trace_processor/diff_tests/metrics/graphics/android_jank_cuj.py, call for call, reduced to
    what trace processor's android.frames tables read (its doFrame and DrawFrames slices, the process
    tree and every FrameTimeline event)."""
    prints, ft = jank_cuj_prints(), jank_cuj_frame_timeline()
    data, layout = jank_cuj_trace(prints, ft)
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    fail_unless(unpaired == 0, unpaired)
    thread_slices = atrace_slices(prints)
    do_frames, draw_frames = app_frame_slices(thread_slices)
    frames = stdlib_frames(actual_rows, expected_rows, do_frames, draw_frames)
    outputs, pooled_actual, pooled_expected = check_per_frame_tables(frames, actual_rows, expected_rows, do_frames, draw_frames)
    cuj = check_frame_lists(frames, outputs, pooled_actual, pooled_expected, do_frames, draw_frames)
    return jank_cuj_expected(data, layout, thread_slices, (expected_rows, actual_rows, unpaired), frames, outputs, cuj, ft)

