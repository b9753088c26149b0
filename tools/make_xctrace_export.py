#!/usr/bin/env python3
"""Writes a synthetic `xcrun xctrace export` of signpost intervals, for the reader's benchmark.

Usage: make_xctrace_export.py PATH [INTERVALS]   (default 300,000 intervals, about 145 MB)

The table is `os-signpost-interval` with the 18 columns Xcode writes (as in the real
`shared/traces/third-party/xctrace__OSSignpostIntervals.xml`), in xctrace's id/ref scheme: a
value written once with `id=`, then only as `ref=`. Half the intervals are framescope frames on
the main thread (`frame`, category `frame`, message `index N since-vsync S ns budget B ns`), the
rest spans on three workers and the main thread (layout, image-decode, diff) with begin and end
messages, emit locations and backtraces of their own. Deterministic: the same file every run.
"""
import random
import sys

COLUMNS = [
    ("start", "Start", "start-time"), ("duration", "Duration", "duration"),
    ("layout-qualifier", "Layout ID", "layout-id"), ("name", "Name", "signpost-name"),
    ("category", "Category", "category"), ("subsystem", "Subsystem", "subsystem"),
    ("identifier", "Identifier", "os-signpost-identifier"), ("process", "Start Process", "process"),
    ("end-process", "End Process", "process"), ("start-thread", "Start Thread", "thread"),
    ("end-thread", "End Thread", "thread"), ("start-message", "Start Message", "os-log-metadata"),
    ("end-message", "End Message", "os-log-metadata"), ("start-backtrace", "Start Backtrace", "text-backtrace"),
    ("end-backtrace", "End Backtrace", "text-backtrace"), ("start-emit-location", "Start Emit Location", "return-location"),
    ("end-emit-location", "End Emit Location", "return-location"), ("signature", "Signature", "os-log-metadata"),
]


def main():
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300_000
    rng = random.Random(0x5EED)
    next_id = [0]
    defined = {}

    def new_id():
        next_id[0] += 1
        return next_id[0]

    def value(key, make):
        """The element for a value: its definition the first time, a ref after."""
        if key in defined:
            return '<%s ref="%d"/>' % (key[0], defined[key])
        ident = new_id()
        defined[key] = ident
        return make(ident)

    def fmt_time(ns):
        s = ns / 1e9
        return "%02d:%02d.%03d.%03d" % (s // 60, s % 60, (ns // 1_000_000) % 1000, (ns // 1000) % 1000)

    out = open(path, "w", encoding="utf-8")
    out.write('<?xml version="1.0"?>\n<trace-query-result>\n<node xpath=\'//trace-toc[1]/run[1]/data[1]/table[9]\'>')
    out.write('<schema name="os-signpost-interval">')
    for mnemonic, name, kind in COLUMNS:
        out.write("<col><mnemonic>%s</mnemonic><name>%s</name><engineering-type>%s</engineering-type></col>" % (mnemonic, name, kind))
    out.write("</schema>\n")
    def process():
        return value(("process", 1), lambda i: '<process id="%d" fmt="FeedApp (4242)"><pid id="%d" fmt="4242">4242</pid></process>' % (i, new_id()))

    threads = [("Main Thread", 4242), ("Worker Thread", 4301), ("Worker Thread", 4302), ("Worker Thread", 4303)]
    t = 1_000_000_000
    frame = 0
    names = ["layout", "image-decode", "diff", "text-measure"]
    for row in range(count):
        is_frame = row % 2 == 0
        if is_frame:
            frame += 1
            t += 8_333_333
            start = t + rng.randrange(0, 200_000)
            duration = rng.randrange(2_000, 12_000) * 1000
            name, category, thread = "frame", "frame", 0
            message = "index %d since-vsync %d ns budget 8333333 ns" % (frame, start - t)
        else:
            start = t + rng.randrange(200_000, 6_000_000)
            duration = rng.randrange(50, 3_000) * 1000
            name = names[row % len(names)]
            category, thread = name, (row // 2) % 4
            message = "%s %d begin" % (name, row)
        tname, tid = threads[thread]
        cells = [
            '<start-time id="%d" fmt="%s">%d</start-time>' % (new_id(), fmt_time(start), start),
            value(("duration", duration), lambda i: '<duration id="%d" fmt="%.2f ms">%d</duration>' % (i, duration / 1e6, duration)),
            value(("layout-id", 0), lambda i: '<layout-id id="%d" fmt="0">0</layout-id>' % i),
            value(("signpost-name", name), lambda i: '<signpost-name id="%d" fmt="%s">%s</signpost-name>' % (i, name, name)),
            value(("category", category), lambda i: '<category id="%d" fmt="%s">%s</category>' % (i, category, category)),
            value(("subsystem", "framescope"), lambda i: '<subsystem id="%d" fmt="framescope">framescope</subsystem>' % i),
            value(("os-signpost-identifier", row % 64), lambda i: '<os-signpost-identifier id="%d" fmt="%d">%d</os-signpost-identifier>' % (i, row % 64, row % 64)),
            process(), process(),
            value(("thread", tid), lambda i: '<thread id="%d" fmt="%s (0x%x) (FeedApp, pid: 4242)"><tid id="%d" fmt="0x%x">%d</tid></thread>' % (i, tname, tid, new_id(), tid, tid)),
            '<thread ref="%d"/>' % defined[("thread", tid)],
            '<os-log-metadata id="%d" fmt="%s">%s</os-log-metadata>' % (new_id(), message, message),
            '<sentinel/>',
            value(("text-backtrace", name), lambda i: '<text-backtrace id="%d"><frame id="%d" name="Feed.%s()" addr="0x100a1b2c0"/></text-backtrace>' % (i, new_id(), name)),
            '<text-backtrace ref="%d"/>' % defined[("text-backtrace", name)],
            value(("return-location", name), lambda i: '<return-location id="%d" fmt="Feed.swift:%d">Feed.swift:%d</return-location>' % (i, len(name), len(name))),
            '<sentinel/>',
            value(("os-log-metadata", "signature"), lambda i: '<os-log-metadata id="%d" fmt="">signature</os-log-metadata>' % i),
        ]
        out.write("<row>" + "".join(cells) + "</row>\n")
    out.write("</node></trace-query-result>\n")
    out.close()


if __name__ == "__main__":
    main()
