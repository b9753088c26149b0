"""The FrameTimeline fixtures: trace processor's diff tests reproduced event for event
(frame-timeline-events, -metric, -power-mode), android-app-frames and android-rate-switch."""
import csv
import io

from .perfetto_packets import GENERATOR, TraceFile, file_facts, packet
from .frametimeline import (
    FTTrace, JANK_APP_DEADLINE_MISSED, JANK_BUFFER_STUFFING, JANK_DISPLAY_HAL, JANK_DISPLAY_NOT_ON, JANK_DROPPED,
    JANK_NONE, JANK_NON_ANIMATING, JANK_POWER_MODE_CHANGE, JANK_PREDICTION_ERROR, JANK_SF_CPU_DEADLINE_MISSED,
    JANK_SF_GPU_DEADLINE_MISSED, JANK_SF_SCHEDULING, JANK_SF_STUFFING, JANK_UNKNOWN, MAPPINGS, PREDICTION_EXPIRED,
    PREDICTION_UNSPECIFIED, PREDICTION_VALID, PRESENT_DROPPED, PRESENT_EARLY, PRESENT_LATE, PRESENT_ON_TIME,
    PRESENT_STRINGS, PRESENT_UNKNOWN, SEVERITY_FULL, SEVERITY_NONE, SEVERITY_PARTIAL, frame_timeline_packets,
    jank_string, process_tree_packet, surface_jank_tag, trace_processor_rows,
)


ROW_COLUMNS_EXPECTED = ["ts", "dur", "pid", "display_frame_token", "surface_frame_token", "layer_name"]
ROW_COLUMNS_ACTUAL = ROW_COLUMNS_EXPECTED + ["present_type", "on_time_finish", "gpu_composition", "jank_type",
                                             "prediction_type", "jank_tag", "jank_severity_type"]

# The rows test/trace_processor/diff_tests/parser/graphics/tests.py expects (GraphicsParser,
# test_expected_frame_timeline_events and test_actual_frame_timeline_events), column for column.
DIFF_TEST_EXPECTED_ROWS = [
    (20, 6, 666, 2, None, None), (21, 15, 1000, 4, 1, "Layer1"), (40, 6, 666, 4, None, None),
    (41, 15, 1000, 6, 5, "Layer1"), (80, 6, 666, 6, None, None), (90, 16, 1000, 8, 7, "Layer1"),
    (120, 6, 666, 8, None, None), (140, 6, 666, 12, None, None), (150, 20, 1000, 15, 14, "Layer1"),
    (170, 6, 666, 15, None, None), (200, 6, 666, 17, None, None), (220, -1, 666, 18, None, None),
    (220, 10, 666, 18, None, None),
]
OTP, LP, EP, UP, DF = "On-time Present", "Late Present", "Early Present", "Unknown Present", "Dropped Frame"
VP = "Valid Prediction"
DIFF_TEST_ACTUAL_ROWS = [
    (20, 6, 666, 2, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (21, 16, 1000, 4, 1, "Layer1", OTP, 1, 0, "None", VP, "No Jank", "None"),
    (41, 33, 1000, 6, 5, "Layer1", LP, 0, 0, "App Deadline Missed", VP, "Self Jank", "Full"),
    (42, 5, 666, 4, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (80, 110, 1000, 17, 16, "Layer1", UP, 0, 0, "Unknown Jank", "Expired Prediction", "Self Jank", "Partial"),
    (81, 7, 666, 6, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (90, 16, 1000, 8, 7, "Layer1", EP, 1, 0, "SurfaceFlinger Scheduling", VP, "Other Jank", "Unknown"),
    (108, 4, 666, 8, None, None, EP, 1, 0, "SurfaceFlinger Scheduling", VP, "Self Jank", "Unknown"),
    (148, 8, 666, 12, None, None, LP, 0, 0, "SurfaceFlinger Scheduling, SurfaceFlinger CPU Deadline Missed", VP,
     "Self Jank", "Unknown"),
    (150, 17, 1000, 15, 14, "Layer1", OTP, 1, 0, "None", VP, "No Jank", "None"),
    (150, 17, 1000, 15, 14, "Layer2", OTP, 1, 0, "None", VP, "No Jank", "None"),
    (170, 6, 666, 15, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (200, 6, 666, 17, None, None, OTP, 1, 0, "None", VP, "No Jank", "None"),
    (245, -1, 666, 18, None, None, LP, 0, 0, "SurfaceFlinger Stuffing", VP, "SurfaceFlinger Stuffing", "Unknown"),
    (245, 15, 666, 18, None, None, DF, 0, 0, "Dropped Frame", "Unspecified Prediction", "Dropped Frame", "Unknown"),
]


def frame_timeline_events_case():
    """test/trace_processor/diff_tests/parser/graphics/frame_timeline_events.py, call for call."""
    ft = FTTrace()
    V, L, E, D, U = PRESENT_ON_TIME, PRESENT_LATE, PRESENT_EARLY, PRESENT_DROPPED, PRESENT_UNKNOWN
    # DisplayFrame without a SurfaceFrame
    ft.expected_display(20, 1, 2, 666)
    ft.frame_end(26, 1)
    ft.actual_display(20, 2, 2, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(26, 2)
    # DisplayFrame with a SurfaceFrame
    ft.expected_display(40, 3, 4, 666)
    ft.frame_end(46, 3)
    ft.actual_display(42, 4, 4, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(47, 4)
    ft.expected_surface(21, 5, 1, 4, 1000, "Layer1")
    ft.frame_end(36, 5)
    ft.actual_surface(21, 6, 1, 4, 1000, "Layer1", V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(37, 6)
    # DisplayFrame with a janky SurfaceFrame
    ft.expected_display(80, 7, 6, 666)
    ft.frame_end(86, 7)
    ft.actual_display(81, 8, 6, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(88, 8)
    ft.expected_surface(41, 9, 5, 6, 1000, "Layer1")
    ft.frame_end(56, 9)
    ft.actual_surface(41, 10, 5, 6, 1000, "Layer1", L, 0, 0, JANK_APP_DEADLINE_MISSED, PREDICTION_VALID,
                      jank_severity_type=SEVERITY_FULL)
    ft.frame_end(74, 10)
    # Janky DisplayFrame with a SurfaceFrame
    ft.expected_display(120, 11, 8, 666)
    ft.frame_end(126, 11)
    ft.actual_display(108, 12, 8, 666, E, 1, 0, JANK_SF_SCHEDULING, PREDICTION_VALID)
    ft.frame_end(112, 12)
    ft.expected_surface(90, 13, 7, 8, 1000, "Layer1")
    ft.frame_end(106, 13)
    ft.actual_surface(90, 14, 7, 8, 1000, "Layer1", E, 1, 0, JANK_SF_SCHEDULING, PREDICTION_VALID)
    ft.frame_end(106, 14)
    # DisplayFrame with multiple jank reasons
    ft.expected_display(140, 15, 12, 666)
    ft.frame_end(146, 15)
    ft.actual_display(148, 16, 12, 666, L, 0, 0, JANK_SF_CPU_DEADLINE_MISSED | JANK_SF_SCHEDULING,
                      PREDICTION_VALID)
    ft.frame_end(156, 16)
    # Two SurfaceFrames with same token
    ft.expected_display(170, 17, 15, 666)
    ft.frame_end(176, 17)
    ft.actual_display(170, 18, 15, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(176, 18)
    ft.expected_surface(150, 19, 14, 15, 1000, "Layer1")
    ft.frame_end(170, 19)
    ft.actual_surface(150, 20, 14, 15, 1000, "Layer1", V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(167, 20)
    ft.expected_surface(150, 21, 14, 15, 1000, "Layer2")
    ft.frame_end(170, 21)
    ft.actual_surface(150, 22, 14, 15, 1000, "Layer2", V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(167, 22)
    # SurfaceFrame with prediction expired (no expected timeline packet)
    ft.expected_display(200, 23, 17, 666)
    ft.frame_end(206, 23)
    ft.actual_display(200, 24, 17, 666, V, 1, 0, JANK_NONE, PREDICTION_VALID)
    ft.frame_end(206, 24)
    ft.actual_surface(80, 25, 16, 17, 1000, "Layer1", U, 0, 0, JANK_UNKNOWN, PREDICTION_EXPIRED,
                      jank_severity_type=SEVERITY_PARTIAL)
    ft.frame_end(190, 25)
    # DisplayFrame with SF Stuffing jank
    ft.expected_display(220, 26, 18, 666)
    ft.frame_end(230, 26)
    ft.actual_display(245, 27, 18, 666, L, 0, 0, JANK_SF_STUFFING, PREDICTION_VALID)
    ft.frame_end(260, 27)
    # DisplayFrame with dropped frame jank (the same cookies again)
    ft.expected_display(220, 26, 18, 666)
    ft.frame_end(230, 26)
    ft.actual_display(245, 27, 18, 666, D, 0, 0, JANK_DROPPED, PREDICTION_UNSPECIFIED)
    ft.frame_end(260, 27)
    return ft


def rows_as_tuples(rows, columns):
    return [tuple(r[c] for c in columns) for r in rows]


def frame_timeline_events():
    ft = frame_timeline_events_case()
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    # The port must give exactly the diff tests' rows before anything is written.
    assert rows_as_tuples(expected_rows, ROW_COLUMNS_EXPECTED) == DIFF_TEST_EXPECTED_ROWS, \
        rows_as_tuples(expected_rows, ROW_COLUMNS_EXPECTED)
    assert rows_as_tuples(actual_rows, ROW_COLUMNS_ACTUAL) == DIFF_TEST_ACTUAL_ROWS, \
        rows_as_tuples(actual_rows, ROW_COLUMNS_ACTUAL)
    t = TraceFile()
    process_tree_packet(t, 0, [(666, 1, "/system/bin/surfaceflinger"), (1000, 1, "com.example.layers")])
    frame_timeline_packets(t, ft.events)
    data, layout = t.build()
    expected = {
        "fixture": "frame-timeline-events.pftrace",
        "kind": "frame-timeline",
        "source": {
            "repository": "google/perfetto",
            "trace": "test/trace_processor/diff_tests/parser/graphics/frame_timeline_events.py "
                     "(the version that passes jank_severity_type FULL and PARTIAL to two surface frames), built "
                     "with test/synth_common.py's add_*_frame_start_event / add_frame_end_event",
            "tests": ["test/trace_processor/diff_tests/parser/graphics/tests.py GraphicsParser."
                      "test_expected_frame_timeline_events",
                      "test/trace_processor/diff_tests/parser/graphics/tests.py GraphicsParser."
                      "test_actual_frame_timeline_events"],
            "parser": "src/trace_processor/importers/proto/frame_timeline_event_parser.cc",
            "added_here": "a first process_tree packet (ts 0) naming pid 666 and 1000; the diff test's trace has "
                          "none. It changes no row.",
        },
        **file_facts(data),
        "packets": len(layout),
        "processes": [{"pid": 666, "name": "/system/bin/surfaceflinger"}, {"pid": 1000, "name": "com.example.layers"}],
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "unpaired_frame_end_events": unpaired,
        "mappings": MAPPINGS,
        "notes": FRAME_TIMELINE_NOTES,
        "_ft_events": ft.events,
    }
    return data, expected


FRAME_TIMELINE_NOTES = [
    "Rows are trace processor's: ORDER BY ts, ties in the order the slices were created. pid is the process of "
    "the event's pid (upid's pid); name is the token as decimal; display frames have surface_frame_token and "
    "layer_name NULL (null).",
    "Trace processor sorts every packet by timestamp (stably: equal timestamps keep file order) before this "
    "parser sees them, and pairs a start with the FrameEnd of the same cookie. A cookie started twice before its "
    "end (cookies 26 and 27 at 220 and 245) pairs the end with the later start; the earlier slice never ends: dur "
    "-1. Without the sort both would end.",
    "An ExpectedSurfaceFrameStart whose (pid, token) already has an expected slice is dropped (token 14's Layer2): "
    "the expected timeline is per token; its FrameEnd ends nothing. ActualSurfaceFrameStart is never dropped.",
    "An ActualSurfaceFrameStart with no expected frame (token 16, PREDICTION_EXPIRED) still makes its actual row.",
    "on_time_finish and gpu_composition are 0 or 1. jank_severity_type comes from the field when present "
    "(synth_common writes it on every surface frame: 1 for JANK_NONE, else 0, unless the test passes one), else "
    "'None' for JANK_NONE and 'Unknown' otherwise (display frames here).",
    "Tracks: 'Expected Timeline' and 'Actual Timeline' of the event's pid. args are those trace processor's "
    "current parser attaches, without its experimental ones ('Present Delay (ms) (experimental)', 'Jank type "
    "(experimental)', ...). Its older parser put the surface token under 'Display frame token' on expected surface "
    "frames and wrote no 'Jank tag' arg.",
    "jank_tag follows trace processor's current parser: JANK_UNSPECIFIED gives 'Unspecified' (older: 'No Jank'); "
    "no row here has it.",
    "unpaired_frame_end_events counts FrameEnds that find no started cookie in the current parser. A FrameEnd of a "
    "dropped duplicate expected surface frame (token 14's Layer2, cookie 21) is not counted there: the current "
    "parser records its cookie before dropping it (the older parser counted it too).",
]


def frame_timeline_metric():
    """test/trace_processor/diff_tests/metrics/frame_timeline/frame_timeline_metric.py, call for call."""
    ft = FTTrace()
    L, V, D = PRESENT_LATE, PRESENT_ON_TIME, PRESENT_DROPPED
    P = PREDICTION_VALID
    ft.actual_surface(21_000_000, 6, 100201, 100211, 1002, "Layer1", V, 1, 0, JANK_NONE, P)
    ft.frame_end(37_000_000, 6)
    ft.actual_surface(31_000_000, 7, 100202, 100212, 1002, "Layer1", V, 1, 0, JANK_APP_DEADLINE_MISSED, P)
    ft.frame_end(47_000_000, 7)
    ft.actual_surface(32_000_000, 8, 100202, 100212, 1002, "Layer1", V, 1, 0, JANK_APP_DEADLINE_MISSED, P)
    ft.frame_end(40_000_000, 8)
    ft.actual_surface(41_000_000, 10, 100101, 100111, 1001, "Layer1", L, 0, 0, JANK_APP_DEADLINE_MISSED, P)
    ft.frame_end(74_000_000, 10)
    ft.actual_surface(41_000_000, 11, 100102, 100112, 1001, "Layer1", L, 0, 0,
                      JANK_APP_DEADLINE_MISSED | JANK_BUFFER_STUFFING, P)
    ft.frame_end(75_000_000, 11)
    ft.actual_surface(81_000_000, 15, 100301, 100311, 1003, "Layer1", L, 0, 0, JANK_SF_CPU_DEADLINE_MISSED, P)
    ft.frame_end(95_000_000, 15)
    ft.actual_surface(90_000_000, 16, 100302, 100312, 1003, "Layer1", D, 0, 0, JANK_DROPPED, P)
    ft.frame_end(96_000_000, 16)
    ft.actual_surface(10_000_000, 20, 100402, 100412, 1004, "Layer1", D, 0, 0, JANK_SF_STUFFING, P)
    ft.frame_end(12_000_000, 20)
    ft.actual_surface(12_500_000, 25, 100502, 100512, 1004, "Layer1", D, 0, 0, JANK_SF_SCHEDULING, P)
    ft.frame_end(14_000_000, 25)
    ft.actual_surface(14_500_000, 30, 100602, 100612, 1004, "Layer1", D, 0, 0, JANK_SF_CPU_DEADLINE_MISSED, P)
    ft.frame_end(15_000_000, 30)
    ft.actual_surface(15_500_000, 35, 100702, 100712, 1004, "Layer1", D, 0, 0, JANK_SF_GPU_DEADLINE_MISSED, P)
    ft.frame_end(16_000_000, 35)
    ft.actual_surface(16_500_000, 40, 100802, 100812, 1004, "Layer1", D, 0, 0,
                      JANK_SF_SCHEDULING | JANK_SF_STUFFING, P)
    ft.frame_end(17_000_000, 40)
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    t = TraceFile()
    processes = [(1001, 0, "process1"), (1002, 0, "process2"), (1003, 0, "process3"), (1004, 0, "process4")]
    process_tree_packet(t, 5_000_000, processes)  # trace.add_packet(ts=5000000); trace.add_process(...)
    frame_timeline_packets(t, ft.events)
    data, layout = t.build()
    # The metric's per-process figures (frame_timeline_metric.out), for cross-checking the rows.
    metric = {
        "total_frames": 11, "missed_app_frames": 3, "dropped_frames": 1,
        "process": [
            {"pid": 1001, "name": "process1", "total_frames": 2, "missed_frames": 2, "missed_app_frames": 2,
             "missed_sf_frames": 0, "frame_dur_max": 34_000_000, "frame_dur_avg": 33_500_000, "dropped_frames": 0,
             "jank_types": {"App Deadline Missed": {"total_count": 2, "present_late_count": 2},
                            "Buffer Stuffing": {"total_count": 1, "present_late_count": 1}}},
            {"pid": 1002, "name": "process2", "total_frames": 2, "missed_frames": 1, "missed_app_frames": 1,
             "missed_sf_frames": 0, "frame_dur_max": 16_000_000, "frame_dur_avg": 13_333_333, "dropped_frames": 0,
             "jank_types": {"App Deadline Missed": {"total_count": 1, "present_on_time_count": 1},
                            "None": {"total_count": 1, "present_on_time_count": 1}}},
            {"pid": 1003, "name": "process3", "total_frames": 2, "missed_frames": 2, "missed_app_frames": 0,
             "missed_sf_frames": 1, "frame_dur_max": 14_000_000, "frame_dur_avg": 14_000_000, "dropped_frames": 1,
             "jank_types": {"Dropped Frame": {"total_count": 1, "present_dropped_count": 1},
                            "SurfaceFlinger CPU Deadline Missed": {"total_count": 1, "present_late_count": 1}}},
            {"pid": 1004, "name": "process4", "total_frames": 5, "missed_frames": 4, "missed_app_frames": 0,
             "missed_sf_frames": 4, "frame_dur_max": 2_000_000, "frame_dur_avg": 1_000_000, "dropped_frames": 0,
             "jank_types": {"SurfaceFlinger CPU Deadline Missed": {"total_count": 1, "present_dropped_count": 1},
                            "SurfaceFlinger GPU Deadline Missed": {"total_count": 1, "present_dropped_count": 1},
                            "SurfaceFlinger Scheduling": {"total_count": 2, "present_dropped_count": 2},
                            "SurfaceFlinger Stuffing": {"total_count": 2, "present_dropped_count": 2}}},
        ],
        "note": "jank_types count each bit of a row's jank_type separately (the metric splits 'App Deadline Missed, "
                "Buffer Stuffing'); total_frames counts distinct tokens (token 100202 has two rows); frame_dur_* "
                "leave out dropped frames. Counts not listed are 0.",
    }
    expected = {
        "fixture": "frame-timeline-metric.pftrace",
        "kind": "frame-timeline",
        "source": {
            "repository": "google/perfetto",
            "trace": "test/trace_processor/diff_tests/metrics/frame_timeline/frame_timeline_metric.py (the version "
                     "whose add_process calls pass ppid 0), built with test/synth_common.py",
            "tests": ["test/trace_processor/diff_tests/metrics/frame_timeline/tests.py FrameTimeline."
                      "test_frame_timeline_metric (expects frame_timeline_metric.out)"],
            "parser": "src/trace_processor/importers/proto/frame_timeline_event_parser.cc",
            "rows": "The diff test checks the android_frame_timeline_metric, not rows: the rows here are what the "
                    "parser makes of these events (the same port of it that reproduces "
                    "frame-timeline-events.expected.json's rows exactly); 'metric' holds the test's figures, which "
                    "the rows agree with.",
        },
        **file_facts(data),
        "packets": len(layout),
        "processes": [{"pid": pid, "name": name} for pid, _, name in processes],
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "unpaired_frame_end_events": unpaired,
        "metric": metric,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": FRAME_TIMELINE_NOTES + [
            "This trace has actual surface frames only: no expected rows, no display frames.",
            "Its packets are in the test's order, not time order (process4's frames at 10-17 ms come last).",
        ],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# d2. frame-timeline-power-mode, and diff-test CSVs as data
# ---------------------------------------------------------------------------------------------
def diff_test_csv(text):
    """A diff test's expected output as trace processor prints it (a CSV whose strings are quoted and
    whose numbers are not) as JSON rows: one object per row, integers as integers, "[NULL]" as null."""
    reader = csv.reader(io.StringIO(text), quoting=csv.QUOTE_NONNUMERIC)
    header = next(reader)
    rows = []
    for values in reader:
        if not values:
            continue
        assert len(values) == len(header), (header, values)
        row = {}
        for column, value in zip(header, values):
            if isinstance(value, float):
                assert value.is_integer(), (column, value)
                value = int(value)
            elif value == "[NULL]":
                value = None
            row[column] = value
        rows.append(row)
    return header, rows


def require_rows(name, rows, columns, csv_text):
    """Fails, naming every differing row and column, unless `rows` (projected on `columns`) are the
    CSV's rows exactly, in order."""
    header, want = diff_test_csv(csv_text)
    if header != columns:
        raise AssertionError(f"{name}: the .out's columns {header} are not {columns}")
    got = [{c: r[c] for c in columns} for r in rows]
    problems = []
    if len(got) != len(want):
        problems.append(f"{len(got)} rows here, {len(want)} in the .out")
    for i, (g, w) in enumerate(zip(got, want)):
        for c in columns:
            if g[c] != w[c]:
                problems.append(f"row {i} (ts {w.get('ts')}) column {c}: here {g[c]!r}, .out {w[c]!r}")
    if problems:
        raise AssertionError(f"{name} disagrees with its diff test:\n  " + "\n  ".join(problems))


# test_display_power_mode_change's expected output (parser/graphics/tests.py, GraphicsParser, at
# 4b4195a5258e7fd8c34ca6732aeb7dc485bcc8cf), verbatim.
POWER_MODE_OUT = '''\
"ts","dur","pid","display_frame_token","surface_frame_token","layer_name","present_type","on_time_finish","gpu_composition","jank_type","prediction_type","jank_tag","jank_severity_type"
100,10,666,1,"[NULL]","[NULL]","On-time Present",1,0,"PowerModeChange in progress","Valid Prediction","Non-perceivable Jank","Unknown"
120,15,1000,1,2,"Layer1","On-time Present",1,0,"PowerModeChange in progress","Valid Prediction","Non-perceivable Jank","Unknown"
140,10,666,3,"[NULL]","[NULL]","On-time Present",1,0,"Non Animating","Valid Prediction","Non-perceivable Jank","Unknown"
160,10,666,4,"[NULL]","[NULL]","On-time Present",1,0,"Display not ON","Valid Prediction","Non-perceivable Jank","Unknown"
'''


def frame_timeline_power_mode():
    """test/trace_processor/diff_tests/parser/graphics/frame_timeline_power_mode.py, call for call."""
    ft = FTTrace()
    V, P = PRESENT_ON_TIME, PREDICTION_VALID
    # DisplayFrame with Power Mode Change
    ft.expected_display(100, 1, 1, 666)
    ft.frame_end(110, 1)
    ft.actual_display(100, 2, 1, 666, V, 1, 0, JANK_POWER_MODE_CHANGE, P)
    ft.frame_end(110, 2)
    # SurfaceFrame with Power Mode Change
    ft.expected_surface(120, 3, 2, 1, 1000, "Layer1")
    ft.frame_end(130, 3)
    ft.actual_surface(120, 4, 2, 1, 1000, "Layer1", V, 1, 0, JANK_POWER_MODE_CHANGE, P)
    ft.frame_end(135, 4)
    # DisplayFrame with Non Animating
    ft.expected_display(140, 5, 3, 666)
    ft.frame_end(150, 5)
    ft.actual_display(140, 6, 3, 666, V, 1, 0, JANK_NON_ANIMATING, P)
    ft.frame_end(150, 6)
    # DisplayFrame with Display Not ON
    ft.expected_display(160, 7, 4, 666)
    ft.frame_end(170, 7)
    ft.actual_display(160, 8, 4, 666, V, 1, 0, JANK_DISPLAY_NOT_ON, P)
    ft.frame_end(170, 8)
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    # The port must give test_display_power_mode_change's rows exactly (this is what checks the
    # jank strings and tags of bits 2048, 8192 and 32768).
    require_rows("frame-timeline-power-mode actual_frame_timeline_slice", actual_rows, ROW_COLUMNS_ACTUAL,
                 POWER_MODE_OUT)
    assert unpaired == 0
    t = TraceFile()
    process_tree_packet(t, 0, [(666, 1, "/system/bin/surfaceflinger"), (1000, 1, "com.example.layers")])
    frame_timeline_packets(t, ft.events)
    data, layout = t.build()
    expected = {
        "fixture": "frame-timeline-power-mode.pftrace",
        "kind": "frame-timeline",
        "source": {
            "repository": "google/perfetto",
            "trace": "test/trace_processor/diff_tests/parser/graphics/frame_timeline_power_mode.py at "
                     "4b4195a5258e7fd8c34ca6732aeb7dc485bcc8cf, built with test/synth_common.py's "
                     "add_*_frame_start_event / add_frame_end_event",
            "tests": ["test/trace_processor/diff_tests/parser/graphics/tests.py GraphicsParser."
                      "test_display_power_mode_change (at 4b4195a5258e7fd8c34ca6732aeb7dc485bcc8cf; expects "
                      "display_power_mode_change.out, the query of test_actual_frame_timeline_events)"],
            "parser": "src/trace_processor/importers/proto/frame_timeline_event_parser.cc",
            "rows": "actual_frame_timeline_slice is the test's expected output exactly (the script asserts it "
                    "against the CSV it holds); expected_frame_timeline_slice is what the same parser port makes "
                    "of the expected events (no diff test checks them for this trace).",
            "added_here": "a first process_tree packet (ts 0) naming pid 666 and 1000, as in "
                          "frame-timeline-events; the diff test's trace has none. It changes no row.",
        },
        **file_facts(data),
        "packets": len(layout),
        "processes": [{"pid": 666, "name": "/system/bin/surfaceflinger"}, {"pid": 1000, "name": "com.example.layers"}],
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "unpaired_frame_end_events": unpaired,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": FRAME_TIMELINE_NOTES[:1] + [
            "Jank bits 32768 (JANK_DISPLAY_POWER_MODE_CHANGE_IN_PROGRESS), 2048 (JANK_NON_ANIMATING) and 8192 "
            "(JANK_DISPLAY_NOT_ON), each alone: jank_type 'PowerModeChange in progress', 'Non Animating' and "
            "'Display not ON'; jank_tag 'Non-perceivable Jank' on display and surface frames alike (a jank type of "
            "only non-perceivable bits, 2048/8192/16384/32768, is no jank).",
            "jank_severity_type is 'Unknown' on every row: display frames carry none (and their jank_type is not "
            "JANK_NONE); synth_common writes 0 (UNKNOWN) on the surface frame because its jank_type is not JANK_NONE.",
        ],
    }
    return data, expected


# ---------------------------------------------------------------------------------------------
# e. android-app-frames: atrace and FrameTimeline for the same tokens
# ---------------------------------------------------------------------------------------------
FEED_PID, FEED_RT, SF_PID = 7000, 7015, 600
PERIOD = 16_666_667  # 60 Hz
FEED_LAYER = "com.example.feed/com.example.feed.MainActivity#0"


APP_FRAMES_NOTES = [
    "60 Hz: vsync period 16666667 ns. Frame i (token 1000+i) starts at its app vsync 1000000000 + "
    "(2i-2)*16666667 ns; frames are two vsyncs apart so each frame's work is alone on its threads.",
    "Expected surface frame: [vsync, vsync + period]. Actual surface frame: from the vsync (FrameTimeline "
    "uses the expected start) to the end of DrawFrames. Display frame 2000+i: expected one period from the "
    "next vsync (two for frames 2 and 3, whose buffers came late), actual from 0.3 ms after that to present.",
    "The main thread's comm is 'om.example.feed' (Android keeps the last 15 characters of the package): "
    "the process is named by its cmdline, the thread by process_tree's thread name.",
    "Surface frames carry jank_severity_type FULL on frames 2 and 3, NONE on frame 1 and UNKNOWN (0) on the "
    "others; display frames carry none.",
    "The FrameTimeline packets come after the ftrace bundles, frame by frame (start, end, start, end), "
    "not in time order: a reader pairs each start with the FrameEnd of its cookie after sorting by "
    "timestamp, as trace processor does.",
] + FRAME_TIMELINE_NOTES[:1]


def app_frame_shapes():
    """Per frame: doFrame (start, dur), an optional child of doFrame, DrawFrames (start, dur), the app's
    # present type, jank, on_time_finish and severity, the display frame's jank and present type, whether
    # the display frame is one period later (the app missed its own), and the display frame's actual end.
    # Offsets are from the frame's vsync. Frames are two vsyncs apart so each frame's work is alone."""
    us = 1_000
    return [
        dict(do=(500 * us, 5_500 * us), child=("traversal", 1_000 * us, 4_000 * us), draw=(6_200 * us, 4_800 * us),
             present=PRESENT_ON_TIME, jank=JANK_NONE, finish=1, severity=SEVERITY_NONE,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=False, sf_end=2 * PERIOD,
             lane=None, cause="on time"),
        dict(do=(500 * us, 21_500 * us), child=("traversal", 1_000 * us, 20_500 * us), draw=(22_200 * us, 4_300 * us),
             present=PRESENT_LATE, jank=JANK_APP_DEADLINE_MISSED, finish=0, severity=SEVERITY_FULL,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=True, sf_end=3 * PERIOD,
             lane="main", cause="doFrame (UI thread) ran 21.5 ms, past the 16.67 ms budget"),
        dict(do=(500 * us, 4_000 * us), child=None, draw=(4_700 * us, 20_000 * us),
             present=PRESENT_LATE, jank=JANK_APP_DEADLINE_MISSED, finish=0, severity=SEVERITY_FULL,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=True, sf_end=3 * PERIOD,
             lane="render", cause="DrawFrames (RenderThread) ran 20 ms while doFrame took 4 ms"),
        dict(do=(500 * us, 5_000 * us), child=None, draw=(5_700 * us, 4_500 * us),
             present=PRESENT_LATE, jank=JANK_SF_CPU_DEADLINE_MISSED, finish=1, severity=None,
             sf_jank=JANK_SF_CPU_DEADLINE_MISSED, sf_present=PRESENT_LATE, sf_late=False, sf_end=3 * PERIOD,
             lane=None, cause="SurfaceFlinger's CPU work missed its deadline; the app was on time"),
        dict(do=(500 * us, 5_000 * us), child=None, draw=(5_800 * us, 4_600 * us),
             present=PRESENT_LATE, jank=JANK_BUFFER_STUFFING, finish=1, severity=None,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=False, sf_end=2 * PERIOD,
             lane=None, cause="buffer stuffing: the app was on time but its buffer queued behind an earlier one"),
        dict(do=(500 * us, 4_800 * us), child=None, draw=(5_600 * us, 4_600 * us),
             present=PRESENT_LATE, jank=JANK_DISPLAY_HAL, finish=1, severity=None,
             sf_jank=JANK_DISPLAY_HAL, sf_present=PRESENT_LATE, sf_late=False, sf_end=3 * PERIOD,
             lane=None, cause="the display HAL presented late"),
        dict(do=(500 * us, 4_700 * us), child=None, draw=(5_500 * us, 4_400 * us),
             present=PRESENT_LATE, jank=JANK_PREDICTION_ERROR, finish=1, severity=None,
             sf_jank=JANK_PREDICTION_ERROR, sf_present=PRESENT_LATE, sf_late=False, sf_end=2 * PERIOD + 4_000 * us,
             lane=None, cause="the vsync prediction was wrong"),
        dict(do=(500 * us, 5_200 * us), child=None, draw=(6_000 * us, 5_500 * us),
             present=PRESENT_DROPPED, jank=JANK_DROPPED, finish=1, severity=None,
             sf_jank=JANK_NONE, sf_present=PRESENT_ON_TIME, sf_late=False, sf_end=2 * PERIOD,
             lane=None, cause="dropped: SurfaceFlinger presented another buffer instead"),
    ]


def app_frame_atrace(fr, vsync, token, ui, rt):
    """One frame's doFrame (and child) and DrawFrames prints, and the slices they make; ui and rt are
    (events, slices) of the UI thread and the RenderThread."""
    ui_events, ui_slices = ui
    rt_events, rt_slices = rt
    do_start, do_dur = fr["do"]
    draw_start, draw_dur = fr["draw"]
    ui_events.append((vsync + do_start, FEED_PID, f"B|{FEED_PID}|Choreographer#doFrame {token}\n"))
    ui_slices.append({"name": f"Choreographer#doFrame {token}", "category": "", "ts": vsync + do_start,
                      "dur": do_dur, "depth": 0, "args": {}})
    if fr["child"]:
        name, c_start, c_dur = fr["child"]
        ui_events.append((vsync + c_start, FEED_PID, f"B|{FEED_PID}|{name}\n"))
        ui_events.append((vsync + c_start + c_dur, FEED_PID, f"E|{FEED_PID}\n"))
        ui_slices.append({"name": name, "category": "", "ts": vsync + c_start, "dur": c_dur, "depth": 1,
                          "args": {}})
    ui_events.append((vsync + do_start + do_dur, FEED_PID, f"E|{FEED_PID}\n"))
    rt_events.append((vsync + draw_start, FEED_RT, f"B|{FEED_PID}|DrawFrames {token}\n"))
    rt_events.append((vsync + draw_start + draw_dur, FEED_RT, f"E|{FEED_PID}\n"))
    rt_slices.append({"name": f"DrawFrames {token}", "category": "", "ts": vsync + draw_start, "dur": draw_dur,
                      "depth": 0, "args": {}})


def app_frame_timeline(ft, cookie, fr, vsync, token, display_token):
    """One frame's surface and display frames, expected and actual; returns the next cookie and the app's end."""
    us = 1_000
    draw_start, draw_dur = fr["draw"]
    app_end = vsync + draw_start + draw_dur
    sf_start = vsync + (2 if fr["sf_late"] else 1) * PERIOD
    # SurfaceFlinger's frame: expected one period, actual from just after its vsync to present.
    cookie += 1
    ft.expected_surface(vsync, cookie, token, display_token, FEED_PID, FEED_LAYER)
    ft.frame_end(vsync + PERIOD, cookie)
    cookie += 1
    ft.actual_surface(vsync, cookie, token, display_token, FEED_PID, FEED_LAYER, fr["present"], fr["finish"], 0,
                      fr["jank"], PREDICTION_VALID, jank_severity_type=fr["severity"])
    ft.frame_end(app_end, cookie)
    cookie += 1
    ft.expected_display(sf_start, cookie, display_token, SF_PID)
    ft.frame_end(sf_start + PERIOD, cookie)
    cookie += 1
    sf_actual_end = vsync + fr["sf_end"]
    ft.actual_display(sf_start + 300 * us, cookie, display_token, SF_PID, fr["sf_present"],
                      0 if fr["sf_jank"] == JANK_SF_CPU_DEADLINE_MISSED else 1, 0, fr["sf_jank"], PREDICTION_VALID)
    ft.frame_end(sf_actual_end, cookie)
    return cookie, app_end


def app_frame_summary(fr, vsync, token, display_token, app_end):
    """What the expected file says of one frame."""
    do_start, do_dur = fr["do"]
    draw_start, draw_dur = fr["draw"]
    return {
        "token": token, "display_frame_token": display_token, "vsync_ts": vsync, "budget_ns": PERIOD,
        "deadline_ts": vsync + PERIOD,
        "doFrame": {"tid": FEED_PID, "ts": vsync + do_start, "dur": do_dur},
        "DrawFrames": {"tid": FEED_RT, "ts": vsync + draw_start, "dur": draw_dur},
        "app_work_end_ts": app_end,
        "overrun_lane": fr["lane"],
        "jank_type": jank_string(fr["jank"]),
        "present_type": PRESENT_STRINGS[fr["present"]],
        "jank_tag": surface_jank_tag(fr["jank"], fr["present"]),
        "display_jank_type": jank_string(fr["sf_jank"]),
        "cause": fr["cause"],
    }


def check_app_rows(summary, actual_rows):
    """Each frame's rows agree with the summary."""
    for s in summary:
        surface = [r for r in actual_rows if r["surface_frame_token"] == s["token"]]
        assert len(surface) == 1 and surface[0]["jank_type"] == s["jank_type"], surface
        assert surface[0]["ts"] + surface[0]["dur"] == s["app_work_end_ts"]
        lane = None
        if s["doFrame"]["dur"] > PERIOD:
            lane = "main"
        elif s["DrawFrames"]["dur"] > PERIOD:
            lane = "render"
        assert lane == s["overrun_lane"], (s["token"], lane)


def app_frames_expected(data, layout, slices, summary, rows, ft):
    ui_slices, rt_slices = slices
    expected_rows, actual_rows = rows
    expected = {
        "fixture": "android-app-frames.pftrace",
        "kind": "android-app-frames",
        "source": {"generator": GENERATOR, "case": "android_app_frames()",
                   "rows": "expected/actual rows as trace processor's FrameTimeline parser makes them (the port "
                           "that reproduces frame-timeline-events.expected.json's diff-test rows)"},
        **file_facts(data),
        "packets": len(layout),
        "frame_interval_ns": PERIOD,
        "processes": [{"pid": FEED_PID, "name": "com.example.feed"}, {"pid": SF_PID, "name": "/system/bin/surfaceflinger"}],
        "threads": [
            {"pid": FEED_PID, "tid": FEED_PID, "name": "om.example.feed", "slices": ui_slices, "instants": []},
            {"pid": FEED_PID, "tid": FEED_RT, "name": "RenderThread", "slices": rt_slices, "instants": []},
        ],
        "frames": summary,
        "lane_rule": "overrun_lane is 'main' when the frame's Choreographer#doFrame <token> slice (UI thread) is "
                     "longer than budget_ns, else 'render' when its DrawFrames <token> slice (RenderThread) is, "
                     "else null (the app's own work fit; the jank, if any, is elsewhere).",
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": APP_FRAMES_NOTES,
    }
    return expected


def android_app_frames():
    base = 1_000_000_000
    frames = app_frame_shapes()
    t = TraceFile()
    process_tree_packet(t, base - PERIOD, [(FEED_PID, 1, "com.example.feed"), (SF_PID, 1, "/system/bin/surfaceflinger")],
                        [(FEED_PID, FEED_PID, "om.example.feed"), (FEED_RT, FEED_PID, "RenderThread"),
                         (SF_PID, SF_PID, "surfaceflinger")])
    ui_events, rt_events = [], []
    ft = FTTrace()
    cookie = 0
    summary = []
    ui_slices, rt_slices = [], []
    for i, fr in enumerate(frames, start=1):
        vsync = base + (2 * i - 2) * PERIOD
        token, display_token = 1000 + i, 2000 + i
        app_frame_atrace(fr, vsync, token, (ui_events, ui_slices), (rt_events, rt_slices))
        cookie, app_end = app_frame_timeline(ft, cookie, fr, vsync, token, display_token)
        summary.append(app_frame_summary(fr, vsync, token, display_token, app_end))
    for cpu, events, label in [(0, sorted(ui_events), "ftrace cpu 0 (UI thread)"),
                               (1, sorted(rt_events), "ftrace cpu 1 (RenderThread)")]:
        p = packet(seq=9)
        p.ftrace_events.cpu = cpu
        for ts, tid, buf in events:
            ev = p.ftrace_events.event.add()
            ev.timestamp, ev.pid = ts, tid
            getattr(ev, "print").buf = buf
        t.add(p, label)
    frame_timeline_packets(t, ft.events)
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    assert unpaired == 0
    check_app_rows(summary, actual_rows)
    data, layout = t.build()
    return data, app_frames_expected(data, layout, (ui_slices, rt_slices), summary, (expected_rows, actual_rows), ft)



# ---------------------------------------------------------------------------------------------
# e1. android-rate-switch: a phone that switches from 60 Hz to 120 Hz mid-recording
# ---------------------------------------------------------------------------------------------
RATE_SWITCH_STRETCHES = [(16_666_667, 24), (8_333_333, 48)]  # (period ns, frames): 60 Hz, then 120 Hz
RATE_SWITCH_APP_DEADLINE = 16_600_000  # the app's deadline in both stretches (nowinandroid's at 120 Hz)


def android_rate_switch():
    """FrameTimeline alone (no atrace slices) for one app whose display runs at 60 Hz for 24 frames,
    then at 120 Hz for 48, one frame per vsync: each frame's vsync figures must use its stretch's period."""
    base = 3_000_000_000
    ms = 1_000_000
    # Frames by position in the recording: how long after its vsync the app's buffer was done, and
    # its jank. The same shapes in each stretch, so that the two periods give them different figures:
    # 12 ms of work is on time in both, slow only at 120 Hz; 10 ms past the app's deadline misses one
    # 60 Hz vsync and two 120 Hz vsyncs.
    shapes = {3: (12 * ms, JANK_NONE), 5: (RATE_SWITCH_APP_DEADLINE + 10 * ms, JANK_APP_DEADLINE_MISSED),
              30: (12 * ms, JANK_NONE), 40: (RATE_SWITCH_APP_DEADLINE + 10 * ms, JANK_APP_DEADLINE_MISSED)}
    ft = FTTrace()
    t = TraceFile()
    process_tree_packet(t, base - ms, [(FEED_PID, 1, "com.example.feed"), (SF_PID, 1, "/system/bin/surfaceflinger")],
                        [(FEED_PID, FEED_PID, "om.example.feed"), (SF_PID, SF_PID, "surfaceflinger")])
    cookie = 0
    frames = []
    stretches = []
    vsync = base
    position = 0
    for period, count in RATE_SWITCH_STRETCHES:
        stretches.append({"start_ts": vsync, "period_ns": period, "frames": count})
        for _ in range(count):
            token, display_token = 5000 + position, 9000 + position
            work, jank = shapes.get(position, (period * 6 // 10, JANK_NONE))
            late = jank != JANK_NONE
            present = PRESENT_LATE if late else PRESENT_ON_TIME
            cookie += 1
            ft.expected_surface(vsync, cookie, token, display_token, FEED_PID, FEED_LAYER)
            ft.frame_end(vsync + RATE_SWITCH_APP_DEADLINE, cookie)
            cookie += 1
            ft.actual_surface(vsync, cookie, token, display_token, FEED_PID, FEED_LAYER, present, 0 if late else 1, 0,
                              jank, PREDICTION_VALID)
            ft.frame_end(vsync + work, cookie)
            # SurfaceFlinger composes the frame's buffer one period later, on time.
            cookie += 1
            ft.expected_display(vsync + period, cookie, display_token, SF_PID)
            ft.frame_end(vsync + 2 * period, cookie)
            cookie += 1
            ft.actual_display(vsync + period + 300_000, cookie, display_token, SF_PID, PRESENT_ON_TIME, 1, 0, JANK_NONE,
                              PREDICTION_VALID)
            ft.frame_end(vsync + 2 * period, cookie)
            overrun = work - RATE_SWITCH_APP_DEADLINE
            frames.append({
                "token": token, "vsync_ts": vsync, "period_ns": period, "expected_end": vsync + RATE_SWITCH_APP_DEADLINE,
                "actual_end": vsync + work, "jank_type": jank_string(jank), "janky": late,
                "slow": work > period, "missed_vsyncs": -(-overrun // period) if late else 0,
            })
            vsync += period
            position += 1
    frame_timeline_packets(t, ft.events)
    expected_rows, actual_rows, unpaired = trace_processor_rows(ft.events)
    assert unpaired == 0
    assert [f["missed_vsyncs"] for f in frames if f["janky"]] == [1, 2], frames
    assert [f["slow"] for f in frames].count(True) == 2 + 1  # 12 ms at 120 Hz; both late frames
    data, layout = t.build()
    expected = {
        "fixture": "android-rate-switch.pftrace",
        "kind": "android-rate-switch",
        "source": {"generator": GENERATOR, "case": "android_rate_switch()",
                   "rows": "expected/actual rows as trace processor's FrameTimeline parser makes them (the port "
                           "that reproduces frame-timeline-events.expected.json's diff-test rows)"},
        **file_facts(data),
        "packets": len(layout),
        "app_pid": FEED_PID,
        "processes": [{"pid": FEED_PID, "name": "com.example.feed"}, {"pid": SF_PID, "name": "/system/bin/surfaceflinger"}],
        "stretches": stretches,
        "frame_interval_ns": max(stretches, key=lambda s: s["frames"])["period_ns"],
        "frames": frames,
        "expected_frame_timeline_slice": expected_rows,
        "actual_frame_timeline_slice": actual_rows,
        "mappings": MAPPINGS,
        "_ft_events": ft.events,
        "notes": [
            "60 Hz (16666667 ns) for frames 0-23 from 3000000000 ns, then 120 Hz (8333333 ns) for frames 24-71; "
            "one app frame per vsync, token 5000+i, display frame 9000+i.",
            "Expected surface frame: [vsync, vsync + 16.6 ms] in both stretches (the app's deadline, which is not "
            "the display's period: at 120 Hz it spans two). Actual surface frame: from the vsync to when the "
            "buffer was done: 60% of the period, 12 ms for frames 3 and 30, 26.6 ms (10 ms late: App Deadline "
            "Missed) for frames 5 and 40.",
            "slow: longer than the frame's own period (framescope's slow frame); missed_vsyncs: the lateness "
            "(actual_end - expected_end) in the frame's own periods, rounded up, for janky frames.",
            "Display frame 9000+i: expected [vsync + period, vsync + 2 period], actual from 0.3 ms later to its "
            "expected end, on time.",
        ] + FRAME_TIMELINE_NOTES[:1],
    }
    return data, expected
