#!/usr/bin/env python3
"""Runs `framescope report` over every trace in a folder of other tools' traces and checks each result.

Usage: check_corpus.py FRAMESCOPE_BINARY [CORPUS_DIR]   (default: ../shared/traces/third-party)

For every trace file (tools/fstools/corpus.py: Chrome JSON and Perfetto protobuf): the process must exit 0
(a crash, a signal or an error exit fails), its JSON report must follow schema framescope.report v4 (method decisions as identifiers, every
frame with a hitch cause, late frames exactly the frames with one), and the traces INDEX.md calls deliberately
inconsistent (listed below) must come back with at least one diagnostic. Truncated arrays (the
`simple-partial*` files) are legal and need none. Prints one line per file
and a closing 'N passed, N failed' line; exits 1 on any failure.
"""
import json
import os
import subprocess
import sys

from fstools.common import THIRD_PARTY
from fstools.corpus import trace_files

SCHEMA_VERSION = 4
INTERVAL_SOURCES = {'option', 'budget', 'trace-metadata', 'chrome-begin-frames', 'android-frame-timeline',
                    'instruments-frame-budgets', 'instruments-display-vsyncs', 'instruments-device-display-info', 'default'}
MAIN_THREAD_RULES = {'option', 'process-option', 'trace-metadata', 'page-renderer', 'busiest-renderer', 'android-ui-thread',
                     'thread-name', 'busiest-thread', 'none'}
DETAIL_KINDS = {'frame-spans', 'marker-spans', 'marker-instants', 'chrome-reporters', 'chrome-begin-frames',
                'android-frame-timeline', 'instruments-hitches', 'estimated'}
HITCH_CAUSES = {'none', 'commit', 'render', 'compositor', 'raster', 'gpu', 'display-hal', 'buffer-stuffing',
                'prediction-error', 'app-deadline-missed', 'unknown'}

INCONSISTENT = {
    'catapult__main_thread_has_unclosed_slices.json', 'speedscope__end-event-with-empty-stack.json',
    'speedscope__end-non-top-of-stack.json', 'speedscope__invalid-x-nesting.json', 'speedscope__mismatched-name.json',
    'speedscope__not-enough-end-events.json', 'speedscope__only-begin-events.json',
    'speedscope__out-of-order-unbalanced-name.json', 'speedscope__out-of-order.json',
    'speedscope__too-many-end-events.json', 'speedscope__unbalanced-name.json',
}


def check(binary, path):
    try:
        run = subprocess.run([binary, 'report', path, '--format', 'json'], capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return 'timed out after 120 s (a hang)'
    if run.returncode < 0:
        return 'killed by signal %d (a crash)' % -run.returncode
    if run.returncode != 0:
        return 'exit %d: %s' % (run.returncode, run.stderr.decode(errors='replace').strip()[:300])
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError as error:
        return 'report is not JSON: %s' % error
    if report.get('schema') != 'framescope.report' or report.get('version') != SCHEMA_VERSION:
        return 'unexpected schema %r version %r (this check reads version %d)' % (report.get('schema'), report.get('version'), SCHEMA_VERSION)
    for key in ('method', 'summary', 'categories', 'threads', 'lanes', 'frames', 'diagnostics'):
        if key not in report:
            return 'report lacks %r' % key
    if len(report['frames']) != report['summary']['frames']:
        return 'frame list and summary disagree'
    method = report['method']
    if method.get('frame-interval-source') not in INTERVAL_SOURCES:
        return 'frame-interval-source %r is not an identifier' % method.get('frame-interval-source')
    if method.get('main-thread-rule') not in MAIN_THREAD_RULES:
        return 'main-thread-rule %r is not an identifier' % method.get('main-thread-rule')
    detail = method.get('frame-boundaries-detail')
    if not isinstance(detail, dict) or detail.get('kind') not in DETAIL_KINDS or not isinstance(detail.get('text'), str):
        return 'frame-boundaries-detail %r is not an object with a known kind and a text' % (detail,)
    counts = [value for key, value in detail.items() if key not in ('kind', 'text', 'name', 'thread-name', 'layer', 'main-slice-name', 'is-main-thread', 'pid', 'tid', 'frame-table')]
    if any(not isinstance(value, int) or value < 0 for value in counts):
        return 'frame-boundaries-detail has a count that is not a non-negative integer: %r' % (detail,)
    causes = [frame.get('hitch-cause') for frame in report['frames']]
    if any(cause not in HITCH_CAUSES for cause in causes):
        return 'a frame has hitch-cause %r' % next(cause for cause in causes if cause not in HITCH_CAUSES)
    late = sum(1 for cause in causes if cause != 'none')
    if late != report['summary']['late-frames']:
        return '%d frames have a hitch cause but the summary counts %d late' % (late, report['summary']['late-frames'])
    name = os.path.basename(path)
    if name in INCONSISTENT and not report['diagnostics']:
        return 'inconsistent trace reported without diagnostics'
    return None


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary = sys.argv[1]
    corpus = sys.argv[2] if len(sys.argv) > 2 else THIRD_PARTY
    if not os.path.isdir(corpus):
        print('SKIPPED: no corpus folder at %s' % corpus)
        return 0
    files = [os.path.basename(path) for path in trace_files(corpus)]
    if not files:
        print('%s holds no trace: a check of nothing must not pass' % corpus)
        return 1
    failed = 0
    for name in files:
        problem = check(binary, os.path.join(corpus, name))
        print('%s %s%s' % ('FAIL' if problem else 'ok  ', name, ': ' + problem if problem else ''))
        failed += bool(problem)
    print('%d passed, %d failed' % (len(files) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
