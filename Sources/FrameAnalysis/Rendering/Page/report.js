// The report page's script: draws every `.timeline` from its JSON, then records what it drew in
// `data-bars`, `data-frames-per-bar`, `data-bar-width` and `data-drawn` for tests and tools.
//
// FrameAnalysis embeds this file (Package.swift: `.embedInCode`) and replaces each `/*@NAME*/`
// placeholder and the literal after it with the value FrameReport+HTML.swift gives (the
// colours, the bar limit); the page's Content-Security-Policy names the result by its SHA-256.
// CI checks the syntax with `node --check`; tools/check_browser.py runs it in Chromium.
"use strict";
(function () {
  const palette = /*@palette*/{};
  const spare = ["#64d2ff", "#5e5ce6", "#ac8e68", "#ffd60a", "#66d4cf", "#ff6482", "#32ade6", "#a2845e"];
  const maxBars = /*@maxBars*/0;
  function ms(ns) {  // as the text report: two decimals, half away from zero
    const sign = ns < 0 ? "-" : "";
    const scaled = Math.round(Math.abs(ns) / 1e6 * 100);
    if (scaled === 0) return "0.00 ms";
    return sign + Math.floor(scaled / 100) + "." + String(scaled % 100).padStart(2, "0") + " ms";
  }
  const causeColors = /*@causeColors*/{};
  function causeColor(cause) { return causeColors[cause] || "#d70015"; }
  // The page's policy allows no inline style attribute: swatches get their colour here.
  function paint(element) { for (const i of element.querySelectorAll("i[data-swatch]")) i.style.background = i.dataset.swatch; }
  function esc(text) { return String(text).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" })[c]); }
  function setup(root) {
    const data = JSON.parse(root.querySelector("script.frame-data").textContent);
    const frames = data.frames, p = data.p, n = frames.length;
    const colors = data.categories.map((name, i) => palette[name] || spare[i % spare.length]);
    const legend = root.querySelector(".legend");
    // Only the causes this trace's late frames have: a simulated run never has Chrome's stages.
    const lateCauses = [...new Set(frames.filter(f => f[3] > 0).map(f => data.lanes.causes[f[8]]))];
    legend.innerHTML = data.categories.map((name, i) => "<span><i data-swatch=\"" + esc(colors[i]) + "\"></i>" + esc(name) + "</span>").join("")
      + "<span><i class=\"line\" data-swatch=\"#000\"></i>budget P = " + esc(ms(p)) + "</span>"
      + "<span><i class=\"outline\"></i>frame duration, vsync to commit</span>"
      + (lateCauses.length === 0 ? "" : "<span>late frame: one tile per missed vsync, coloured by cause: "
        + lateCauses.map(c => "<i data-swatch=\"" + esc(causeColor(c)) + "\"></i>" + esc(c)).join(" ") + "</span>");
    paint(legend);
    const canvas = root.querySelector("canvas"), scroller = root.querySelector(".scroller"), tip = root.querySelector(".tooltip");
    const perBar = Math.max(1, Math.ceil(n / maxBars));
    const bars = Math.ceil(n / perBar);
    const available = Math.max(300, scroller.clientWidth - 2);
    const barWidth = Math.min(24, Math.max(2, Math.floor(available / Math.max(1, bars))));
    // The bar for a group of frames shows its worst frame: the largest overrun, then cost.
    const shown = [];
    for (let b = 0; b < bars; b++) {
      let best = b * perBar;
      for (let i = best + 1; i < Math.min(n, (b + 1) * perBar); i++) {
        if (frames[i][2] > frames[best][2] || (frames[i][2] === frames[best][2] && frames[i][1] > frames[best][1])) best = i;
      }
      shown.push(best);
    }
    let maxMain = 0;
    for (const f of frames) maxMain = Math.max(maxMain, f[1]);
    const yMax = Math.max(1.5 * p, Math.min(maxMain, 4 * p)) * 1.05;
    const plot = 190, lane = 26, top = 8, height = top + plot + lane, width = Math.max(available, bars * barWidth);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.ceil(width * ratio); canvas.height = Math.ceil(height * ratio);
    canvas.style.width = width + "px"; canvas.style.height = height + "px";
    const y = v => top + plot - Math.min(v, yMax) / yMax * plot;
    let selected = -1;
    function draw() {
      const g = canvas.getContext("2d");
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      g.clearRect(0, 0, width, height);
      g.fillStyle = "#fff"; g.fillRect(0, 0, width, height);
      const gap = barWidth >= 4 ? 1 : 0;
      for (let b = 0; b < bars; b++) {
        const f = frames[shown[b]], x = b * barWidth;
        let base = 0;
        const stack = f[5];
        for (let k = 0; k < stack.length; k += 2) {
          const y0 = y(base), y1 = y(base + stack[k + 1]);
          g.fillStyle = colors[stack[k]];
          g.fillRect(x, y1, barWidth - gap, Math.max(0, y0 - y1));
          base += stack[k + 1];
        }
        if (f[1] > yMax) { g.fillStyle = "#000"; g.fillRect(x, top - 6, barWidth - gap, 3); }  // clipped: cost beyond the scale
        if (barWidth >= 4 && f[7] > f[1]) {  // the frame's duration, when longer than its main-thread work
          g.strokeStyle = "#3a3a3c"; g.lineWidth = 1;
          g.strokeRect(x + 0.5, Math.round(y(f[7])) + 0.5, barWidth - gap - 1, Math.max(0, top + plot - Math.round(y(f[7])) - 1));
        }
        const late = f[3] > 0, outcome = data.outcomes[f[4]];
        if (late || outcome === "partial") {
          g.fillStyle = outcome === "partial" && !late ? "#f5a623" : causeColor(data.lanes.causes[f[8]]);
          const tiles = Math.min(f[3], 5);
          for (let t = 0; t < Math.max(1, tiles); t++) g.fillRect(x, top + plot + 3 + t * 4, barWidth - gap, 3);
          if (f[3] > 5) g.fillRect(x, top + plot + 23, barWidth - gap, 1);
        }
      }
      g.strokeStyle = "#000"; g.lineWidth = 1; g.setLineDash([5, 3]);
      g.beginPath(); g.moveTo(0, Math.round(y(p)) + 0.5); g.lineTo(width, Math.round(y(p)) + 0.5); g.stroke();
      g.setLineDash([]); g.strokeStyle = "#d2d2d7";
      g.beginPath(); g.moveTo(0, top + plot + 0.5); g.lineTo(width, top + plot + 0.5); g.stroke();
      g.font = "11px sans-serif";
      const label = "budget P " + ms(p), labelX = scroller.scrollLeft + 4, labelY = Math.round(y(p)) - 4;
      g.fillStyle = "rgba(255,255,255,0.85)"; g.fillRect(labelX - 2, labelY - 11, g.measureText(label).width + 4, 14);
      g.fillStyle = "#000"; g.fillText(label, labelX, labelY);
      g.fillStyle = "#6e6e73"; g.fillText("top of scale " + ms(yMax), labelX, top + 10);
      if (selected >= 0) {
        g.strokeStyle = "#0071e3"; g.lineWidth = 2;
        g.strokeRect(selected * barWidth + 1, top, Math.max(1, barWidth - 2), plot + lane - 2);
      }
    }
    function describe(i) {
      const f = frames[i];
      const late = f[3] > 0;
      let html = "<b>Frame #" + i + "</b> · vsync at " + esc(ms(f[0])) + " · " + esc(data.outcomes[f[4]]) + "<br>"
        + "main thread " + esc(ms(f[1])) + " of " + esc(ms(p)) + " budget · duration " + esc(ms(f[7])) + " (vsync to commit)<br>"
        + (f[9] > 0 ? "wake-up " + esc(ms(f[9])) + " from vsync to the work's start (the loop's, not the app's work)<br>" : "")
        + (late ? "<span class=\"late\">late (" + esc(data.lanes.causes[f[8]]) + "): overrun " + esc(ms(f[2])) + ", missed vsyncs " + f[3] + "</span>"
                : "on time: overrun " + esc(ms(f[2])) + ", missed vsyncs 0");
      const stack = [];
      for (let k = 0; k < f[5].length; k += 2) stack.push([data.categories[f[5][k]], f[5][k + 1]]);
      stack.sort((a, b) => b[1] - a[1]);
      if (stack.length) html += "<br>categories: " + stack.slice(0, 4).map(s => esc(s[0]) + " " + esc(ms(s[1]))).join(", ");
      if (f[6].length) html += "<br>top spans: " + f[6].map(s => esc(s[0]) + " " + esc(ms(s[1]))).join(", ");
      if (late && f[10]) {
        html += "<br>held by " + (f[10][0] >= 0 && f[10][0] !== i
            ? "<a href=\"#\" class=\"held-by\" data-frame=\"" + f[10][0] + "\">frame #" + f[10][0] + "</a>, "
            : (f[10][0] === i ? "its own " : "")) + esc(f[10][1]);
      }
      if (f[11]) html += "<br>" + esc(f[11]);
      if (perBar > 1) html += "<br>(the worst of frames #" + (Math.floor(i / perBar) * perBar) + "–#" + Math.min(n - 1, (Math.floor(i / perBar) + 1) * perBar - 1) + ")";
      return html;
    }
    tip.addEventListener("click", event => {
      const link = event.target.closest && event.target.closest("a.held-by");
      if (!link) return;
      event.preventDefault();
      const j = Number(link.dataset.frame), at = shown.indexOf(j);
      show(at >= 0 ? at : Math.floor(j / perBar));
    });
    function show(bar) {
      if (bar < 0 || bar >= bars) { tip.hidden = true; return; }
      selected = bar; draw();
      const i = shown[bar];
      tip.innerHTML = describe(i);
      tip.dataset.frame = String(i);
      tip.hidden = false;
      const x = bar * barWidth - scroller.scrollLeft + scroller.offsetLeft + barWidth + 8;
      const maxX = root.clientWidth - tip.offsetWidth - 4;
      tip.style.left = Math.max(0, x > maxX ? x - tip.offsetWidth - barWidth - 16 : x) + "px";
      tip.style.top = (scroller.offsetTop + 12) + "px";
    }
    canvas.addEventListener("mousemove", e => {
      const rect = canvas.getBoundingClientRect();
      show(Math.floor((e.clientX - rect.left) / barWidth));
    });
    canvas.addEventListener("mouseleave", () => { if (document.activeElement !== canvas) { selected = -1; tip.hidden = true; draw(); } });
    canvas.addEventListener("focus", () => show(selected >= 0 ? selected : 0));
    canvas.addEventListener("blur", () => { selected = -1; tip.hidden = true; draw(); });
    canvas.addEventListener("keydown", e => {
      let next = selected;
      if (e.key === "ArrowRight") next = Math.min(bars - 1, selected + 1);
      else if (e.key === "ArrowLeft") next = Math.max(0, selected - 1);
      else if (e.key === "Home") next = 0;
      else if (e.key === "End") next = bars - 1;
      else if (e.key === "n" || e.key === "N") {
        for (let b = selected + 1; b < bars; b++) if (frames[shown[b]][2] > 0) { next = b; break; }
      } else return;
      e.preventDefault();
      const left = next * barWidth;
      if (left < scroller.scrollLeft || left + barWidth > scroller.scrollLeft + scroller.clientWidth) scroller.scrollLeft = left - scroller.clientWidth / 2;
      show(next);
    });
    scroller.addEventListener("scroll", () => draw());
    draw();
    drawLanes(root, data);
    root.dataset.bars = String(bars);
    root.dataset.framesPerBar = String(perBar);
    root.dataset.barWidth = String(barWidth);
    root.dataset.drawn = "true";
  }
  // The lanes on a time axis: main (wake-up hatched, work, commit deadline), render (work,
  // render deadline, presentation), one row per worker (jobs, with a line to the frame
  // that applied each result). Late work is coloured by its cause.
  function drawLanes(root, data) {
    const lanes = data.lanes, canvas = root.querySelector(".lane-canvas");
    if (!canvas) return;
    const f = lanes.f, drawn = lanes.lanes, rows = drawn.length + lanes.workers, rowH = 24, head = 14;
    const laneColors = /*@laneColors*/{};
    let end = 0;
    for (const x of f) {
      end = Math.max(end, x[2] || 0);
      for (const t of x[4]) if (t) end = Math.max(end, t[1], t[2] === null ? 0 : t[2]);
    }
    for (const j of lanes.jobs) end = Math.max(end, j[2], j[3]);
    const scroller = root.querySelector(".lane-scroller");
    const available = Math.max(300, scroller.clientWidth - 2);
    const pxPerMs = Math.max(available / Math.max(1, end / 1e6), Math.min(8, 32000 / Math.max(1, end / 1e6)));
    const width = Math.ceil(Math.max(available, end / 1e6 * pxPerMs + 10)), height = head + rows * rowH;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.ceil(width * ratio); canvas.height = Math.ceil(height * ratio);
    canvas.style.width = width + "px"; canvas.style.height = height + "px";
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.fillStyle = "#fff"; g.fillRect(0, 0, width, height);
    const X = t => 4 + t / 1e6 * pxPerMs;
    const rowY = r => head + r * rowH;
    g.strokeStyle = "#e8e8ed"; g.lineWidth = 1;
    for (const x of f) { g.beginPath(); g.moveTo(Math.round(X(x[0])) + 0.5, head); g.lineTo(Math.round(X(x[0])) + 0.5, height); g.stroke(); }
    g.fillStyle = "#6e6e73"; g.font = "10px sans-serif";
    for (let i = 0; i < f.length; i += Math.max(1, Math.ceil(60 / Math.max(1, pxPerMs * data.p / 1e6)))) g.fillText("#" + i, X(f[i][0]) + 2, 10);
    function box(r, a, b, color) { g.fillStyle = color; g.fillRect(X(a), rowY(r) + 5, Math.max(1, X(b) - X(a)), rowH - 10); }
    function tick(r, t, color) { g.fillStyle = color; g.fillRect(Math.round(X(t)), rowY(r) + 2, 2, rowH - 4); }
    const renderRow = drawn.indexOf("render"), presentRow = renderRow >= 0 ? renderRow : drawn.length - 1;
    for (const x of f) {
      const late = lanes.causeLane[x[3]];
      if (x[1] !== null && x[1] > x[0]) {  // wake-up: the loop's lateness, not the app's work
        g.fillStyle = "#f2f2f7"; g.fillRect(X(x[0]), rowY(0) + 8, Math.max(1, X(x[1]) - X(x[0])), rowH - 16);
      }
      x[4].forEach((t, r) => {
        if (!t) return;
        box(r, t[0], t[1], late === drawn[r] ? causeColor(lanes.causes[x[3]]) : (laneColors[drawn[r]] || "#8e8e93"));
        if (t[2] !== null) tick(r, t[2], "#1d1d1f");
      });
      if (x[2] !== null) {
        const y = rowY(presentRow) + rowH;
        g.fillStyle = "#1a7f37"; g.beginPath(); g.moveTo(X(x[2]), y - 3); g.lineTo(X(x[2]) - 4, y + 3); g.lineTo(X(x[2]) + 4, y + 3); g.fill();
      }
    }
    const first = drawn.length;
    for (const j of lanes.jobs) {
      const r = first + j[0];
      box(r, j[1], j[2], "#ff9f0a");
      g.strokeStyle = "rgba(60,60,67,0.55)"; g.lineWidth = 1;
      g.beginPath(); g.moveTo(X(j[2]), rowY(r) + rowH / 2); g.lineTo(X(j[3]), rowY(0) + rowH / 2); g.stroke();
    }
    root.querySelector(".lane-legend").innerHTML = (f.some(x => x[1] !== null && x[1] > x[0]) ? "<span><i class=\"wake\"></i>wake-up: vsync to work start</span>" : "")
      + drawn.map(l => "<span><i data-swatch=\"" + esc(laneColors[l] || "#8e8e93") + "\"></i>" + esc(l === "main" ? "main: work to commit" : l) + "</span>").join("")
      + (f.some(x => x[2] !== null) ? "<span>▲ presented</span>" : "")
      + (lanes.workers ? "<span><i data-swatch=\"#ff9f0a\"></i>background job, line to the frame that applied it</span>" : "")
      + "<span><i class=\"bar\" data-swatch=\"#1d1d1f\"></i>deadline</span>"
      + "<span>late lane in its cause colour</span><span>" + esc(pxPerMs.toFixed(2)) + " px per ms</span>";
    paint(root.querySelector(".lane-legend"));
    root.dataset.laneRows = String(rows);
  }
  for (const root of document.querySelectorAll(".timeline")) setup(root);
  document.body.dataset.timelines = String(document.querySelectorAll(".timeline[data-drawn=true]").length);
})();
