"""framescope's Python annex: what the checks and fixture writers in tools/ share.

The entry points stay scripts, run as `python3 tools/NAME.py` (CI, the docs and the tests name them
so); Python puts a script's own folder first on sys.path, so `import fstools` finds this package
from any script in tools/ with no path set by hand. tools/spark's scripts add tools/ once, at the top.

Modules, by oracle:
- common: running a command, the repository's paths, ../shared, a check counter
- corpus: the third-party corpus's trace files
- hostile: what a hostile name may never do in each consumer's output (terminal, CI runner,
  Markdown, HTML, CSV), shared by the hostile-names checks and the Action check
- hostile_classes: the classes of random hostile strings check_hostile_generative.py draws
- actions_runner: the GitHub Actions runner, simulated for check_action.py
- perfetto_wire, perfetto_packets: protobuf's wire format by hand, packets with perfetto_trace_pb2
- perfetto_cases, perfetto_broken_cases, frametimeline_cases: the Perfetto reader's fixtures
- frametimeline: a port of trace processor's FrameTimeline parser
- android_stdlib: a port of trace processor's android.frames stdlib
- perfetto_decode, perfetto_compare, perfetto_selftest: check_perfetto's decoder (Perfetto's
  schema), its JSON-against-protobuf comparison and its self-test
"""
