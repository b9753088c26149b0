#!/usr/bin/env python3
"""Loads framescope's HTML reports in headless Chromium and checks what a person would see.

Usage: tools/check_browser.py BIN [--require] [--out DIR] [--chrome-trace TRACE] [--frames N]

BIN is a built `framescope` executable. The test makes three pages and opens each from disk in
headless Chromium (Debian's `chromium`), driven over the DevTools protocol on a pipe
(--remote-debugging-pipe): Python's standard library only, no network, no port.

  demo.html         `BIN demo --frames N`'s index.html (one section per run)
  chrome-trace.html `BIN report TRACE --format html` for a Chrome trace
  large.html        a generated trace of 10,000 frames

For every page it checks: no console error (a violation of the page's Content-Security-Policy is one) and no uncaught exception; every timeline drew, with
one bar per frame, as many frames as `BIN report --format json` finds in the same trace; hovering
a bar with the mouse shows that frame's number, main-thread cost and overrun, formatted as the
text report formats them; the keyboard moves the focus to the next frame; the lane view has a
`data-lane` row for main, for every other timed lane the report has (render, Chrome's stages) and for each background
worker when frames applied background jobs, and the demo's pages show all three kinds and open
with the verdicts. A copy of the Chrome page with markup injected into it (inline script, onerror,
style attribute, external script and image) shows the policy blocks all of it while the page's
own script still draws. It saves screenshots
(demo.png, chrome-trace.png, large.png) under DIR (default .build/browser).

Without Chromium it prints SKIPPED and exits 0, unless --require is given (then it exits 1).
Exit codes: 0 passed or skipped, 1 a check failed, 2 usage error.
"""

import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

from fstools.common import ROOT, SHARED, run as run_command



def milliseconds(nanoseconds):
    """As the text report writes a duration: two decimals, half away from zero, and the unit."""
    scaled = round_half_away(abs(nanoseconds) / 1e6 * 100)
    if scaled == 0:
        return "0.00 ms"
    return ("-" if nanoseconds < 0 else "") + f"{scaled // 100}.{scaled % 100:02d} ms"


def round_half_away(value):
    whole = int(value)
    return whole + 1 if value - whole >= 0.5 else whole


class Browser:
    """Headless Chromium on a DevTools pipe: commands on fd 3, replies on fd 4, NUL-separated."""

    def __init__(self, executable, timeout=60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="framescope-browser-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # Move the browser's ends to high descriptors so bash's 3<& and 4>& cannot clobber them
        # (bash, not sh: dash takes only one-digit descriptors).
        high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 20)
        high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 20)
        os.close(to_browser_r)
        os.close(from_browser_w)
        command = [
            executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--mute-audio", "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}", "about:blank",
        ]
        self.process = subprocess.Popen(
            ["bash", "-c", f'exec "$@" 3<&{high_r} 4>&{high_w} {high_r}<&- {high_w}>&-', "bash"] + command,
            pass_fds=(high_r, high_w), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(high_r)
        os.close(high_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, session, seconds=30):
        deadline = time.monotonic() + seconds
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(index)
            self.events.append(self._read(deadline))

    def _read(self, deadline):
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no answer from Chromium")
            ready, _, _ = select.select([self.from_browser], [], [], remaining)
            if ready:
                chunk = os.read(self.from_browser, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the DevTools pipe")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """One tab with a page loaded from disk."""

    def __init__(self, browser, path, width=1280, height=900):
        self.browser = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.call("Page.navigate", {"url": "file://" + os.path.abspath(path)})
        browser.wait_for("Page.loadEventFired", self.session)

    def call(self, method, params=None):
        return self.browser.send(method, params, self.session)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def errors(self):
        """Console errors, uncaught exceptions and error log entries seen in this tab so far."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:400])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append("console." + params["type"] + ": " + json.dumps(params.get("args", []))[:400])
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append("log: " + params["entry"].get("text", "")[:400])
        return found

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))


class Checks:
    def __init__(self):
        self.failures = 0
        self.passed = 0

    def expect(self, condition, what):
        if condition:
            self.passed += 1
            print(f"  ok    {what}")
        else:
            self.failures += 1
            print(f"  FAIL  {what}")


def run(command):
    """A command's stdout; CommandFailed (exit status and stderr) when it fails."""
    return run_command(command).stdout


def report_json(binary, trace):
    return json.loads(run([binary, "report", trace, "--format", "json", "--top", "0"]))


def write_large_trace(path, frames=10_000):
    """framescope frame spans at 60 Hz: every 25th frame overruns, so late frames and missed vsyncs show."""
    interval = 1e6 / 60
    events = [{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "main"}}]
    start = 0.0
    for index in range(frames):
        work = 30_000 if index % 25 == 0 else 4_000 + (index * 37) % 6_000
        events.append({"ph": "X", "name": "frame", "cat": "frame", "pid": 1, "tid": 1, "ts": round(start, 3), "dur": work})
        events.append({"ph": "X", "name": "layout cell", "cat": "layout", "pid": 1, "tid": 1, "ts": round(start + 100, 3),
                       "dur": work * 0.6})
        start += interval * -(-work // interval)  # the next frame starts on the first vsync after this one's work
    with open(path, "w") as file:
        json.dump({"traceEvents": events}, file)


LANES_SEEN = set()


def check_page(browser, checks, name, html, traces, screenshot):
    """traces: for each timeline on the page, in order, the trace it shows."""
    print(f"{name}: {html}")
    page = Page(browser, html)
    timelines = page.evaluate("""[...document.querySelectorAll('.timeline')].map(t => ({
        frames: +t.dataset.frames, bars: +t.dataset.bars, perBar: +t.dataset.framesPerBar, drawn: t.dataset.drawn,
        dataFrames: JSON.parse(t.querySelector('script.frame-data').textContent).frames.length,
        lanes: [...t.querySelectorAll('[data-lane]')].map(row => row.dataset.lane), laneRows: +t.dataset.laneRows }))""")
    checks.expect(len(timelines) == len(traces), f"{len(timelines)} timelines for {len(traces)} traces")
    for timeline, trace in zip(timelines, traces):
        expected = len(report_json(BINARY, trace)["frames"])
        label = os.path.basename(trace)
        checks.expect(timeline["drawn"] == "true", f"{label}: timeline drawn")
        checks.expect(timeline["frames"] == expected == timeline["dataFrames"],
                      f"{label}: the page shows {timeline['frames']} frames, the JSON report finds {expected}")
        checks.expect(timeline["perBar"] == 1 and timeline["bars"] == expected,
                      f"{label}: {timeline['bars']} bars drawn, one per frame")
        # Lanes: a main row always, a row for every other timed lane the report has (render;
        # Chrome's compositor, raster, gpu), a background row per worker when some frame applied
        # a background job; the canvas drew every row.
        report = report_json(BINARY, trace)
        lanes = timeline["lanes"]
        wanted = {"main"} | (set(report["summary"]["lane-cost-ns"]) - {"background"})
        wanted_background = any(frame["background-feed"] for frame in report["frames"])
        timed = [lane for lane in lanes if lane != "background"]
        checks.expect(sorted(timed) == sorted(wanted) and (("background" in lanes) == wanted_background)
                      and timeline["laneRows"] == len(lanes),
                      f"{label}: lane rows {lanes} (timed lanes in report: {sorted(wanted)}, background jobs: {wanted_background}),"
                      f" {timeline['laneRows']} drawn")
        LANES_SEEN.update(lanes)
    # The frame chart's legend names the hitch causes of the late frames this page shows, no others
    # (a simulated run has no compositor, raster or gpu stages to be late in).
    legends = page.evaluate("[...document.querySelectorAll('.timeline .legend')].map(l => l.innerText)")
    for legend, trace in zip(legends, traces):
        report = report_json(BINARY, trace)
        late = sorted({frame["hitch-cause"] for frame in report["frames"] if frame["overrun-ns"] > 0})
        named = legend.split("coloured by cause:")[1].split() if "coloured by cause:" in legend else []
        checks.expect(sorted(named) == late,
                      f"{os.path.basename(trace)}: the legend names late-frame causes {named}, the report's late frames have {late}")

    # Hover: the first timeline's worst frame (the largest overrun) by mouse, as a person would.
    report = report_json(BINARY, traces[0])
    frames = report["frames"]
    if frames:
        worst = max(frames, key=lambda f: (f["overrun-ns"], f["main-ns"], -f["index"]))
        index = worst["index"]
        point = page.evaluate(f"""(() => {{
            const root = document.querySelector('.timeline'), canvas = root.querySelector('canvas');
            const scroller = root.querySelector('.scroller'), width = +root.dataset.barWidth;
            canvas.scrollIntoView({{block: 'center'}});
            scroller.scrollLeft = Math.max(0, {index} * width - scroller.clientWidth / 2);
            const rect = canvas.getBoundingClientRect();
            return {{x: rect.left + {index} * width + width / 2, y: rect.top + rect.height / 2}};
        }})()""")
        page.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": point["x"], "y": point["y"]})
        tip = page.evaluate("(() => { const t = document.querySelector('.timeline .tooltip'); return t.hidden ? '' : t.innerText; })()")
        wanted = [f"Frame #{index}", f"main thread {milliseconds(worst['main-ns'])}", f"overrun {milliseconds(worst['overrun-ns'])}"]
        checks.expect(all(part in tip for part in wanted),
                      f"hovering bar #{index} shows {wanted} (tooltip: {tip.strip()[:160]!r})")
        # A late frame held by an earlier one names it, and its link selects that frame.
        hold = worst.get("hitch-hold")
        if worst["overrun-ns"] > 0 and hold and hold["frame"] is not None and hold["frame"] != index:
            holder = hold["frame"]
            checks.expect(f"held by frame #{holder}" in tip, f"frame #{index}'s detail names the frame that held it, #{holder}")
            page.evaluate("document.querySelector('.timeline .tooltip a.held-by').click()")
            tip = page.evaluate("document.querySelector('.timeline .tooltip').innerText")
            checks.expect(tip.startswith(f"Frame #{holder} "), f"its link selects frame #{holder} (tooltip: {tip.strip()[:60]!r})")
            HELD_LINKS.append(index)
        if screenshot:
            page.screenshot(screenshot)
            print(f"  saved {screenshot}")
        if len(frames) > 1:
            page.evaluate("document.querySelector('.timeline canvas').focus()")
            for key, code in (("Home", 36), ("ArrowRight", 39)):
                page.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": key, "code": key, "windowsVirtualKeyCode": code})
                page.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": key, "windowsVirtualKeyCode": code})
            tip = page.evaluate("document.querySelector('.timeline .tooltip').innerText")
            following = frames[1]
            checks.expect("Frame #1" in tip and f"main thread {milliseconds(following['main-ns'])}" in tip,
                          f"keyboard: focus, Home, ArrowRight shows frame #1 (tooltip: {tip.strip()[:80]!r})")
    elif screenshot:
        page.screenshot(screenshot)
    errors = page.errors()
    checks.expect(not errors, "no console errors or uncaught exceptions" + ("" if not errors else f": {errors}"))


def check_policy(browser, checks, html):
    """The page's Content-Security-Policy holds when escaping does not: a copy of the page with
    markup injected as an escaping bug would let it in (an inline script, an onerror handler, an
    inline style, an external script and image) runs and loads none of it, while the page's own
    script still draws every timeline."""
    with open(html, encoding="utf-8") as file:
        text = file.read()
    checks.expect("Content-Security-Policy" in text, "the page carries a Content-Security-Policy")
    injected = ('<script>document.body.dataset.injected = "inline script";</script>'
                '<img src="x.png" onerror="document.body.dataset.injected = \'onerror\'">'
                '<div id="injected-style" style="display:none">injected</div>'
                '<script src="https://example.invalid/x.js"></script>'
                '<img id="injected-image" src="https://example.invalid/x.png">')
    page_text = text.replace("<h1>", injected + "<h1>", 1)
    attacked = os.path.join(os.path.dirname(html), "csp-injected.html")
    with open(attacked, "w", encoding="utf-8") as file:
        file.write(page_text)
    page = Page(browser, attacked)
    time.sleep(0.2)  # let a blocked image's error event fire, were it allowed to
    ran = page.evaluate("document.body.dataset.injected || ''")
    checks.expect(ran == "", f"no injected script or handler ran (document.body.dataset.injected: {ran!r})")
    display = page.evaluate("getComputedStyle(document.getElementById('injected-style')).display")
    checks.expect(display != "none", f"an injected style attribute is not applied (display: {display!r})")
    drawn = page.evaluate("document.body.dataset.timelines || '0'")
    wanted = str(text.count('<div class="timeline"'))
    checks.expect(drawn == wanted, f"the page's own script still ran under the policy: {drawn} of {wanted} timelines drawn")
    blocked = [error for error in page.errors() if "Content Security Policy" in error]
    checks.expect(len(blocked) >= 3, f"the browser reports the policy blocking the injected markup ({len(blocked)} reports)")


HELD_LINKS = []


def main():
    global BINARY
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", help="a built framescope executable")
    parser.add_argument("--require", action="store_true", help="fail instead of skipping when Chromium is missing")
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "browser"), help="where pages and screenshots go")
    default_trace = os.path.join(SHARED, "traces", "third-party", "lighthouse__frames-blocking-time.json")
    if not os.path.exists(default_trace):
        default_trace = os.path.join(ROOT, "Tests", "FrameAnalysisTests", "Fixtures", "chrome-smooth-animation.json")
    parser.add_argument("--chrome-trace", default=default_trace, help="a Chrome trace to report")
    parser.add_argument("--frames", type=int, default=30, help="frames per demo run")
    parser.add_argument("--demo-dir", help="check this finished demo's output instead of running the demo")
    arguments = parser.parse_args()
    BINARY = os.path.abspath(arguments.binary)
    if not os.access(BINARY, os.X_OK):
        print(f"check_browser: '{arguments.binary}' is not an executable framescope", file=sys.stderr)
        return 2
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("check_browser: SKIPPED: no chromium on PATH (apt-get install chromium); the HTML report was not checked in a browser")
        return 1 if arguments.require else 0

    out = os.path.abspath(arguments.out)
    os.makedirs(out, exist_ok=True)
    started = time.monotonic()
    if arguments.demo_dir:
        demo_dir = os.path.abspath(arguments.demo_dir)
        last_line = os.path.join(demo_dir, "index.html")
    else:
        demo_dir = os.path.join(out, "demo")
        shutil.rmtree(demo_dir, ignore_errors=True)
        demo_output = run([BINARY, "demo", "--frames", str(arguments.frames), "--out-dir", demo_dir])
        last_line = demo_output.strip().splitlines()[-1]
    demo_html = os.path.join(demo_dir, "index.html")
    chrome_html = os.path.join(out, "chrome-trace.html")
    with open(chrome_html, "w") as file:
        file.write(run([BINARY, "report", arguments.chrome_trace, "--format", "html"]))
    large_trace = os.path.join(out, "large-10000-frames.json")
    write_large_trace(large_trace)
    large_html = os.path.join(out, "large.html")
    with open(large_html, "w") as file:
        file.write(run([BINARY, "report", large_trace, "--format", "html"]))

    checks = Checks()
    checks.expect(last_line.endswith(demo_html) or last_line.endswith(os.path.relpath(demo_html)),
                  f"the demo's last line names its page ({last_line!r})")
    # The demo's sections are in its run order; each names its trace as "scenario --strategy s".
    with open(demo_html) as file:
        page_text = file.read()
    import re
    headings = re.findall(r'<section class="run" id="run-\d+">\n<h2>([^<]*)</h2>', page_text)
    demo_traces = [os.path.join(demo_dir, heading.replace(" --strategy ", "--") + ".json") for heading in headings]
    checks.expect(len(demo_traces) > 0 and all(os.path.exists(path) for path in demo_traces),
                  f"one section per demo run, each naming a trace the demo wrote ({len(demo_traces)})")

    checks.expect('<section class="verdicts">' in page_text and page_text.count("<li>") >= 1,
                  "the demo page opens with one verdict per scenario")
    browser = Browser(chromium)
    try:
        check_page(browser, checks, "demo", demo_html, demo_traces, os.path.join(out, "demo.png"))
        checks.expect({"main", "render", "background"} <= LANES_SEEN,
                      f"the demo's pages show main, render and background lane rows (seen: {sorted(LANES_SEEN)})")
        check_page(browser, checks, "chrome trace", chrome_html, [arguments.chrome_trace], os.path.join(out, "chrome-trace.png"))
        if os.path.basename(arguments.chrome_trace) == "lighthouse__frames-blocking-time.json":
            checks.expect(HELD_LINKS != [], "the Chrome trace's worst frame, held by an earlier frame, links to it")
        check_page(browser, checks, "10,000 frames", large_html, [large_trace], os.path.join(out, "large.png"))
        check_policy(browser, checks, chrome_html)
    finally:
        browser.close()
    print(f"browser test took {time.monotonic() - started:.0f} s; screenshots in {out}")
    print(f"check_browser: {checks.passed} passed, {checks.failures} failed")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
