// Charts you can read: loaded by app.js on pages with a [data-chart] (SVGChart writes the data a
// chart is drawn from there, once for its wide and narrow drawings; docs/ARCHITECTURE.md, "Charts
// you can read"). Pointing, tapping or the arrow keys read the value under a point; a drag, or
// Shift+arrows and Enter, zooms into a range. Charts with the same `link` (a workout's elapsed
// seconds) move together and tell the map through fieldhouse:chart-point and fieldhouse:chart-range.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var lang = document.documentElement.lang || "en";
  var serial = 0;
  function words(name, english) {
    return (document.body && document.body.dataset["words" + name]) || english;
  }
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? values[key] : all; });
  }
  function number(value, decimals) {
    return new Intl.NumberFormat(lang, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
  }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function clock(seconds) {
    var s = Math.max(0, Math.round(seconds)), h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
    return (h ? h + ":" + two(m) : m) + ":" + two(s % 60);
  }
  function make(tag, attrs, parent) {
    var el = document.createElementNS(NS, tag);
    for (var key in attrs) el.setAttribute(key, attrs[key]);
    if (parent) parent.appendChild(el);
    return el;
  }
  var groups = {};

  function Chart(box, d) {
    var self = this, columns = d.k === "cols";
    var n = d.y.length, L = d.b[0], R = d.b[1], T = d.b[2], B = d.b[3], H = d.b[4];
    var xs = columns ? d.y.map(function (v, i) { return i; }) : d.x;
    var full = columns ? [-0.5, n - 0.5] : [d.x0, d.x1];
    var view = full.slice(), index = null, mark = null, dragFrom = null;
    var points = [];
    d.y.forEach(function (v, i) { if (v !== null) points.push(i); });
    var svgs = Array.prototype.slice.call(box.querySelectorAll("svg.chart"));
    var zoomable = !columns && d.k === "line";
    var ranged = box.closest("[data-select-range]");
    self.d = d;

    // What the person reads: a live region under the chart, and the same text as the slider's value.
    var tools = document.createElement("div");
    tools.className = "chart-tools";
    var readout = document.createElement("p");
    readout.className = "chart-readout";
    readout.setAttribute("aria-live", "polite");
    var caption = document.createElement("p");
    caption.className = "chart-caption";
    caption.hidden = true;
    caption.setAttribute("aria-live", "polite");
    var reset = document.createElement("button");
    reset.type = "button";
    reset.className = "button button-secondary button-small";
    reset.textContent = words("ShowAll", "Show all");
    reset.hidden = true;
    reset.addEventListener("click", function () { self.group(function (c) { c.zoom(null); }); box.focus(); });
    tools.appendChild(readout);
    tools.appendChild(caption);
    tools.appendChild(reset);
    box.parentNode.insertBefore(tools, box.nextSibling);
    var help = document.createElement("p");
    help.className = "visually-hidden";
    help.id = "chart-help-" + ++serial;
    help.textContent = zoomable
      ? words("ChartKeysZoom", "Arrow keys read the chart. Shift with the arrows, or Enter at each end, chooses a range to zoom into; Escape shows all.")
      : words("ChartKeys", "Arrow keys read the chart.");
    tools.appendChild(help);
    box.tabIndex = 0;
    box.setAttribute("role", "slider");
    box.setAttribute("aria-label", d.n);
    box.setAttribute("aria-describedby", help.id);
    box.setAttribute("aria-valuemin", 0);
    box.setAttribute("aria-valuemax", n - 1);
    if (points.length) {
      box.setAttribute("aria-valuenow", points[0]);
      box.setAttribute("aria-valuetext", text(points[0]));
    }

    // Per drawing: a clip to the plot, the reading line and dot, the chosen range.
    var parts = svgs.map(function (svg) {
      var W = svg.viewBox.baseVal.width, id = "chart-clip-" + ++serial;
      var defs = make("defs", {}, svg);
      make("rect", { x: L, y: T, width: W - L - R, height: H - T - B }, make("clipPath", { id: id }, defs));
      var g = make("g", { "class": "chart-cursor", "pointer-events": "none" }, svg);
      var band = make("rect", { y: T, height: H - T - B, fill: "#0b6e4f", "fill-opacity": "0.15", visibility: "hidden" }, g);
      var line = make("line", { y1: T, y2: H - B, stroke: "#17202a", "stroke-width": "1.5", visibility: "hidden" }, g);
      var dot = make("circle", { r: 4, fill: "#17202a", stroke: "#fff", "stroke-width": "1.5", visibility: "hidden" }, g);
      var paths = {};
      ["cl", "c2", "cf"].forEach(function (name) {
        var p = svg.querySelector("path." + name);
        if (p) { paths[name] = { el: p, d: p.getAttribute("d") }; p.setAttribute("clip-path", "url(#" + id + ")"); }
      });
      return { svg: svg, W: W, band: band, line: line, dot: dot, paths: paths, ticks: svg.querySelectorAll("text.cx") };
    });
    function px(part, x) { return L + (x - view[0]) / (view[1] - view[0]) * (part.W - L - R); }
    function py(v) { return T + (1 - (v - d.y0) / (d.y1 - d.y0)) * (H - T - B); }

    // The drawn point nearest to x (points with a value only).
    function nearest(x) {
      var lo = 0, hi = points.length - 1;
      if (hi < 0) return null;
      while (lo < hi) {
        var mid = (lo + hi) >> 1;
        if (xs[points[mid]] < x) lo = mid + 1; else hi = mid;
      }
      if (lo > 0 && x - xs[points[lo - 1]] < xs[points[lo]] - x) lo--;
      return points[lo];
    }
    function text(i) {
      if (columns) return d.l[i] + ": " + d.v[i];
      var v = d.y[i], x = xs[i], value, time;
      value = d.f === "pace" ? clock(-v) + " " + d.u
        : number(v, d.d || 0) + (d.y2 && d.y2[i] !== null ? " / " + number(d.y2[i], d.d || 0) : "") + " " + d.u;
      if (d.k === "band") value += " (" + number(d.lo[i], 0) + "–" + number(d.hi[i], 0) + ")";
      time = xText(x, 2);
      return fill(words("ChartReading", "{value} at {time}"), { value: value, time: time });
    }
    function xOf(i) { return columns ? i : xs[i]; }
    // What an x reads as: elapsed time, a day, a distance or a time of day in the chart's zone.
    function xText(x, decimals) {
      if (d.t === "day") {
        return new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", timeZone: "UTC" })
          .format(new Date(Date.parse(d.day + "T00:00:00Z") + Math.floor(x / 86400) * 86400000));
      }
      if (d.t === "km" || d.t === "mi") return number(x / (d.t === "mi" ? 1609.344 : 1000), decimals) + " " + d.t;
      if (d.s !== undefined) {
        var opts = { hour: "2-digit", minute: "2-digit", timeZone: d.z, hourCycle: d.c || "h23" };
        if (d.x1 > 2 * 86400) { opts.day = "numeric"; opts.month = "short"; }
        return new Intl.DateTimeFormat(lang, opts).format(new Date(d.s + x * 1000));
      }
      return clock(x);
    }
    function axisText(x) { return xText(x, 1); }

    // Shows the reading at index i (null: none); `announce` lets the live region speak.
    self.show = function (i, announce) {
      index = i;
      readout.setAttribute("aria-live", announce ? "polite" : "off");
      parts.forEach(function (part) {
        var on = i !== null && xOf(i) >= view[0] && xOf(i) <= view[1];
        [part.line, part.dot].forEach(function (el) { el.setAttribute("visibility", on ? "visible" : "hidden"); });
        if (!on) return;
        var x = px(part, xOf(i));
        part.line.setAttribute("x1", x);
        part.line.setAttribute("x2", x);
        part.dot.setAttribute("cx", x);
        part.dot.setAttribute("cy", columns ? T : py(d.y[i]));
        part.dot.setAttribute("visibility", columns ? "hidden" : "visible");
      });
      readout.textContent = i === null ? "" : text(i);
      if (i !== null) {
        box.setAttribute("aria-valuenow", i);
        box.setAttribute("aria-valuetext", text(i));
      }
    };
    self.showAt = function (x, announce) { self.show(x === null ? null : nearest(x), announce); };
    self.group = function (run) {
      (d.link ? groups[d.link] : [self]).forEach(run);
    };
    // Reads at index i here and at the same x on every linked chart; only this one speaks.
    function read(i, announce) {
      self.show(i, announce);
      var x = i === null ? null : xOf(i);
      self.group(function (c) { if (c !== self) c.showAt(x, false); });
      if (d.link === "workout") {
        document.dispatchEvent(new CustomEvent("fieldhouse:chart-point", { detail: { seconds: x } }));
      }
    }
    function choose(a, b) {
      parts.forEach(function (part) {
        var on = a !== null && b !== null;
        part.band.setAttribute("visibility", on ? "visible" : "hidden");
        if (!on) return;
        var x1 = Math.max(L, Math.min(px(part, a), px(part, b))), x2 = Math.min(part.W - R, Math.max(px(part, a), px(part, b)));
        part.band.setAttribute("x", x1);
        part.band.setAttribute("width", Math.max(0, x2 - x1));
      });
    }

    // Redraws the line over [from, to] (null: the whole chart, as the server drew it).
    self.zoom = function (range) {
      if (!zoomable) return;
      view = range || full.slice();
      mark = null;
      choose(null, null);
      parts.forEach(function (part) {
        for (var name in part.paths) {
          var p = part.paths[name];
          if (!range) { p.el.setAttribute("d", p.d); continue; }
          var ys = name === "c2" ? d.y2 : d.y, out = "", pen = false, first = null, last = null;
          var pause = Math.max(60, 5 * d.x1 / xs.length);
          for (var i = 0; i < xs.length; i++) {
            if (xs[i] < view[0] && (i + 1 >= xs.length || xs[i + 1] < view[0])) continue;
            if (xs[i] > view[1] && i > 0 && xs[i - 1] > view[1]) break;
            if (ys[i] === null || (name === "cl" && i > 0 && xs[i] - xs[i - 1] > pause)) pen = false;
            if (ys[i] === null) continue;
            var x = px(part, xs[i]);
            out += (pen ? "L" : "M") + x.toFixed(1) + " " + py(ys[i]).toFixed(1);
            pen = true;
            if (first === null) first = x;
            last = x;
          }
          if (name === "cf" && first !== null) out += "L" + last.toFixed(1) + " " + (H - B) + "L" + first.toFixed(1) + " " + (H - B) + "Z";
          p.el.setAttribute("d", out);
        }
        Array.prototype.forEach.call(part.ticks, function (t) { t.setAttribute("visibility", range ? "hidden" : "visible"); });
      });
      caption.hidden = reset.hidden = !range;
      caption.textContent = range ? fill(words("ChartRange", "Showing {from} to {to}"), { from: axisText(view[0]), to: axisText(view[1]) }) : "";
      if (index !== null) self.show(index, false);
    };
    function zoomTo(a, b) {
      var from = Math.max(full[0], Math.min(a, b)), to = Math.min(full[1], Math.max(a, b));
      if (!zoomable || to - from < (full[1] - full[0]) / 200) return;
      self.group(function (c) { c.zoom([from, to]); });
      readout.textContent = "";
      if (d.link === "workout") document.dispatchEvent(new CustomEvent("fieldhouse:chart-range", { detail: { from: from, to: to } }));
    }
    reset.addEventListener("click", function () {
      if (d.link === "workout") document.dispatchEvent(new CustomEvent("fieldhouse:chart-range", { detail: null }));
    });

    // Pointer: move to read (quietly), tap to read aloud, drag across to zoom.
    function xAt(e) {
      var svg = e.target.closest && e.target.closest("svg.chart");
      var part = parts.filter(function (p) { return p.svg === svg; })[0] ||
        parts.filter(function (p) { return p.svg.getBoundingClientRect().width > 0; })[0];
      if (!part) return null;
      var rect = part.svg.getBoundingClientRect();
      var share = ((e.clientX - rect.left) * part.W / rect.width - L) / (part.W - L - R);
      return { x: view[0] + Math.min(1, Math.max(0, share)) * (view[1] - view[0]), px: e.clientX };
    }
    box.addEventListener("pointerdown", function (e) {
      var at = xAt(e);
      if (!at || e.button > 0) return;
      dragFrom = at;
      if (zoomable && !ranged) box.setPointerCapture(e.pointerId);
    });
    box.addEventListener("pointermove", function (e) {
      var at = xAt(e);
      if (!at) return;
      read(nearest(at.x), false);
      if (dragFrom && zoomable && !ranged && Math.abs(at.px - dragFrom.px) > 6) choose(dragFrom.x, at.x);
    });
    box.addEventListener("pointerup", function (e) {
      var at = xAt(e), from = dragFrom;
      dragFrom = null;
      if (!at || !from) return;
      if (zoomable && !ranged && Math.abs(at.px - from.px) > 6) zoomTo(from.x, at.x);
      else read(nearest(at.x), true);
    });
    box.addEventListener("pointercancel", function () { dragFrom = null; choose(null, null); });
    box.addEventListener("pointerleave", function (e) {
      if (e.pointerType === "mouse" && !dragFrom && document.activeElement !== box) read(null, false);
    });
    box.addEventListener("blur", function () { if (!box.matches(":hover")) read(null, false); });

    // Keys: arrows a step (a column, or a hundredth of what is shown), Page keys a tenth, Home/End
    // the ends; Shift+arrows or Enter at each end choose a range, Enter zooms, Escape shows all.
    box.addEventListener("keydown", function (e) {
      var shown = points.filter(function (i) { return xOf(i) >= view[0] && xOf(i) <= view[1]; });
      if (!shown.length) return;
      var at = index === null ? -1 : shown.indexOf(index);
      if (at < 0) at = index !== null && xOf(index) > view[1] ? shown.length - 1 : 0;
      var step = columns ? 1 : Math.max(1, Math.round(shown.length / 100)), to = null;
      switch (e.key) {
        case "ArrowLeft": case "ArrowDown": to = at - step; break;
        case "ArrowRight": case "ArrowUp": to = at + step; break;
        case "PageDown": to = at - step * 10; break;
        case "PageUp": to = at + step * 10; break;
        case "Home": to = 0; break;
        case "End": to = shown.length - 1; break;
        case "Enter":
          if (!zoomable || ranged || index === null) return;
          e.preventDefault();
          if (mark === null) {
            mark = xOf(index);
            choose(mark, mark);
            readout.setAttribute("aria-live", "polite");
            readout.textContent = fill(words("ChartMark", "Range from {time}: move to its end and press Enter."), { time: axisText(mark) });
          } else zoomTo(mark, xOf(index));
          return;
        case "Escape":
          if (mark === null && view[0] === full[0] && view[1] === full[1]) return;
          e.preventDefault();
          if (mark !== null) { mark = null; choose(null, null); } else reset.click();
          return;
        default: return;
      }
      e.preventDefault();
      if (index === null && (e.key === "ArrowLeft" || e.key === "ArrowRight" || e.key === "ArrowUp" || e.key === "ArrowDown")) to = Math.max(0, Math.min(at, shown.length - 1));
      var i = shown[Math.max(0, Math.min(shown.length - 1, to))];
      if (e.shiftKey && zoomable && !ranged && mark === null && index !== null) mark = xOf(index);
      read(i, true);
      if (mark !== null) choose(mark, xOf(i));
    });
    box.addEventListener("keyup", function (e) {
      if (e.key === "Shift" && mark !== null && index !== null && xOf(index) !== mark) zoomTo(mark, xOf(index));
    });
  }

  document.querySelectorAll("[data-chart]").forEach(function (box) {
    var d;
    try { d = JSON.parse(box.dataset.chart); } catch (e) { return; }
    if (!d.y || !d.y.length || !d.b) return;
    var chart = new Chart(box, d);
    if (d.link) (groups[d.link] = groups[d.link] || []).push(chart);
  });
})();
