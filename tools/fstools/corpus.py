"""Which files of a trace folder are traces: the one list every check that reads a corpus uses.

framescope tells a trace's format by its content, so a folder of other tools' traces (such as
../shared/traces/third-party) holds Chrome JSON, Perfetto protobuf and notes beside them
(INDEX.md). A check and the job it checks must read the same files: when one listed `*.json` and
the other every trace, a new Android recording gave "0 frame rows in Spark, 739 in frames-jsonl".
Every check imports `trace_files` from here instead of globbing on its own.
"""
import os

# The endings of the trace files in a corpus folder: Chrome JSON, Perfetto protobuf, and the XML
# tables `xcrun xctrace export` writes (each file one export, read as a recording of its own).
TRACE_SUFFIXES = (".json", ".pftrace", ".perfetto-trace", ".xml")


def trace_files(directory, suffixes=TRACE_SUFFIXES):
    """The trace files directly in `directory`, as sorted full paths."""
    return sorted(os.path.join(directory, name) for name in os.listdir(directory)
                  if name.endswith(suffixes) and os.path.isfile(os.path.join(directory, name)))
