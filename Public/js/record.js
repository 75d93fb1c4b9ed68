// Fieldhouse recorder (/record) and live page (/live/<id>). One file, two entry points: the page
// marks its root element data-recorder or data-live. Everything the recorder reads is written to
// IndexedDB first and sent from there, so a reload, a crashed tab or a tunnel loses nothing.
(function () {
  "use strict";

  var recorder = window.fieldhouseRecorder = window.fieldhouseRecorder || {};

  // ---- Heart Rate Measurement (0x2A37) ---------------------------------------------------------
  // The same rules as FieldhouseKit's HeartRateMeasurement.parse: flags bit 0 a uint16 rate, bits
  // 1-2 sensor contact, bit 3 energy expended (uint16 kJ), bit 4 RR intervals (uint16, 1/1024 s),
  // all little-endian; too few bytes for what the flags promise, or an odd byte left over, is an error.
  function HeartRateError(code, message) {
    var error = new Error(message);
    error.name = "HeartRateError";
    error.code = code;
    return error;
  }

  function decodeHeartRate(view) {
    if (!view || typeof view.getUint8 !== "function") throw HeartRateError("empty", "not a DataView");
    var length = view.byteLength;
    if (length === 0) throw HeartRateError("empty", "an empty notification");
    var flags = view.getUint8(0);
    var wide = (flags & 0x01) !== 0;
    var contactSupported = (flags & 0x04) !== 0;
    var hasEnergy = (flags & 0x08) !== 0;
    var hasRR = (flags & 0x10) !== 0;
    var fixed = 1 + (wide ? 2 : 1) + (hasEnergy ? 2 : 0);
    if (length < fixed) {
      var short = HeartRateError("too-short", "expected at least " + fixed + " bytes, got " + length);
      short.expected = fixed;
      short.actual = length;
      throw short;
    }
    var index = 1;
    var bpm = wide ? view.getUint16(index, true) : view.getUint8(index);
    index += wide ? 2 : 1;
    var energy = null;
    if (hasEnergy) {
      energy = view.getUint16(index, true);
      index += 2;
    }
    var rr = [];
    if (hasRR) {
      if ((length - index) % 2 !== 0) throw HeartRateError("stray-byte", "an odd byte among the RR intervals");
      while (index + 1 < length) {
        rr.push(view.getUint16(index, true) * 1000 / 1024);
        index += 2;
      }
    } else if (index !== length) {
      throw HeartRateError("stray-byte", "bytes left over after the flags' fields");
    }
    var contact = !contactSupported ? "unsupported" : ((flags & 0x02) !== 0 ? "detected" : "not-detected");
    return { bpm: bpm, contact: contact, energy: energy, rr: rr };
  }
  recorder.decodeHeartRate = decodeHeartRate;

  // ---- Shared helpers ---------------------------------------------------------------------------

  // The physical limits the server keeps (FieldhouseKit's Plausible and SpeedSpikes).
  var LIMITS = {
    heartRate: [25, 250],
    rr: [200, 3000],
    elevation: [-500, 9000],
    speed: [0, 150 / 3.6],
    accuracy: [0, 10000],
    jumpMargin: 1.5,   // a jump is half as fast again as the sport's top speed
    jumpSlack: 25,     // metres two fixes may lie apart beyond what the speed explains
    settle: 10,        // fixes that agree with each other, away from the run, make a new piece
    pauseGap: 60000,   // a far move across a longer gap is a new piece, not a jump
    movingSpeed: 0.5   // m/s: slower is standing still
  };
  var EARTH_RADIUS = 6371008.8;

  function within(value, range) {
    return typeof value === "number" && isFinite(value) && value >= range[0] && value <= range[1];
  }

  function metresBetween(a, b) {
    var p1 = a.lat * Math.PI / 180, p2 = b.lat * Math.PI / 180;
    var dp = p2 - p1, dl = (b.lon - a.lon) * Math.PI / 180;
    var h = Math.sin(dp / 2) * Math.sin(dp / 2) + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) * Math.sin(dl / 2);
    return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  // Words the template put on the root element (data-words-*), in the page's language.
  function wordsOf(root) {
    return function (name, values) {
      var text = root.dataset["words" + name] || "";
      if (values) {
        Object.keys(values).forEach(function (key) { text = text.split("{" + key + "}").join(values[key]); });
      }
      return text;
    };
  }

  // Numbers as the server writes them (Core/Format.swift), with the page language's marks.
  function Units(imperial) {
    var lang = document.documentElement.lang || "en";
    var cache = {};
    function number(value, decimals) {
      if (!cache[decimals]) cache[decimals] = new Intl.NumberFormat(lang, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
      return cache[decimals].format(value);
    }
    var percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });
    var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang) : null;
    var self = {
      duration: function (seconds) {
        if (!isFinite(seconds) || seconds < 0) return "–";
        var total = Math.round(seconds), h = Math.floor(total / 3600), m = Math.floor(total % 3600 / 60), s = total % 60;
        var mm = m < 10 && h > 0 ? "0" + m : String(m), ss = s < 10 ? "0" + s : String(s);
        return h > 0 ? h + ":" + mm + ":" + ss : mm + ":" + ss;
      },
      distance: function (metres) {
        return imperial ? number(metres / 1609.344, 2) + " mi" : number(metres / 1000, 2) + " km";
      },
      speed: function (mps) {
        if (mps == null || !isFinite(mps)) return "–";
        return imperial ? number(mps * 2.236936, 1) + " mph" : number(mps * 3.6, 1) + " km/h";
      },
      pace: function (mps) {
        if (mps == null || !isFinite(mps) || mps <= 0.3) return "–";
        return self.duration((imperial ? 1609.344 : 1000) / mps) + (imperial ? " /mi" : " /km");
      },
      elevation: function (metres) {
        if (metres == null || !isFinite(metres)) return "–";
        return number(Math.round(imperial ? metres * 3.28084 : metres), 0) + (imperial ? " ft" : " m");
      },
      metres: function (metres) { return imperial ? number(metres * 3.28084, 0) + " ft" : number(metres, 0) + " m"; },
      bpm: function (bpm) { return number(bpm, 0) + " bpm"; },
      count: function (n) { return number(n, 0); },
      percent: function (share) { return percent.format(share); },
      isOne: function (n) { return plurals ? plurals.select(n) === "one" : n === 1; }
    };
    return self;
  }

  // The heart-rate zone (1-5) of a rate, from "1 100 120;2 121 140;…"; null when outside them all.
  function zonesFrom(text) {
    return (text || "").split(";").map(function (part) {
      var n = part.trim().split(/\s+/).map(Number);
      return n.length === 3 && n.every(isFinite) ? { number: n[0], low: n[1], high: n[2] } : null;
    }).filter(Boolean);
  }
  function zoneOf(zones, bpm) {
    if (!zones.length || bpm == null) return null;
    var found = null;
    zones.forEach(function (zone) { if (bpm >= zone.low && bpm <= zone.high + 0.999) found = zone.number; });
    if (found == null && bpm > zones[zones.length - 1].high) found = zones[zones.length - 1].number;
    return found;
  }

  function showZone(box, zoneText, zone, words) {
    for (var i = 1; i <= 5; i++) box.classList.toggle("zone-" + i, zone === i);
    zoneText.textContent = zone ? words("Zone", { zone: zone }) : "";
  }

  // ---- The track drawn as SVG, fitted to its extent (Web Mercator, like the server's maps) ------
  var SVG_NS = "http://www.w3.org/2000/svg";

  function TrackMap(container, label, width, height) {
    var svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    svg.setAttribute("class", "track-map");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    function add(name, attributes, parent) {
      var element = document.createElementNS(SVG_NS, name);
      Object.keys(attributes).forEach(function (key) { element.setAttribute(key, attributes[key]); });
      (parent || svg).appendChild(element);
      return element;
    }
    add("rect", { width: "100%", height: "100%", fill: "#e9eef1" });
    for (var x = 0; x <= width; x += 40) add("line", { x1: x, y1: 0, x2: x, y2: height, stroke: "#d3dbe1" });
    for (var y = 0; y <= height; y += 40) add("line", { x1: 0, y1: y, x2: width, y2: y, stroke: "#d3dbe1" });
    var casing = add("path", { fill: "none", stroke: "#fff", "stroke-width": 6, "stroke-linejoin": "round", "stroke-linecap": "round" });
    var line = add("path", { fill: "none", stroke: "#c2410c", "stroke-width": 3.5, "stroke-linejoin": "round", "stroke-linecap": "round" });
    var start = add("circle", { r: 6, fill: "#0b6e4f", stroke: "#fff", "stroke-width": 2 });
    var here = add("circle", { r: 7, fill: "#b3261e", stroke: "#fff", "stroke-width": 2.5 });
    start.setAttribute("visibility", "hidden");
    here.setAttribute("visibility", "hidden");
    container.appendChild(svg);

    function mercator(lat, lon) {
      var s = Math.sin(Math.max(-85, Math.min(85, lat)) * Math.PI / 180);
      return [(lon + 180) / 360, 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)];
    }

    // points: [[lat, lon, tMs], …] in time order; a fourth element (1) starts a new piece of line
    // (after positions a viewer may not see, or a jump across a long gap), and so does a gap
    // longer than `gapMs`.
    function draw(points, gapMs) {
      if (!points.length) {
        casing.setAttribute("d", "");
        line.setAttribute("d", "");
        start.setAttribute("visibility", "hidden");
        here.setAttribute("visibility", "hidden");
        return;
      }
      var projected = points.map(function (p) { return mercator(p[0], p[1]); });
      var minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
      projected.forEach(function (p) {
        minX = Math.min(minX, p[0]); maxX = Math.max(maxX, p[0]);
        minY = Math.min(minY, p[1]); maxY = Math.max(maxY, p[1]);
      });
      // Never closer than about 300 m across, so a few fixes at the start do not fill the frame.
      var metresPerUnit = 40075016.686 * Math.cos(points[points.length - 1][0] * Math.PI / 180);
      var least = 300 / Math.max(metresPerUnit, 1);
      var spanX = Math.max(maxX - minX, least), spanY = Math.max(maxY - minY, least * height / width);
      var padding = 24;
      var scale = Math.min((width - 2 * padding) / spanX, (height - 2 * padding) / spanY);
      var centreX = (minX + maxX) / 2, centreY = (minY + maxY) / 2;
      function px(p) {
        return [(width / 2 + (p[0] - centreX) * scale).toFixed(1), (height / 2 + (p[1] - centreY) * scale).toFixed(1)];
      }
      var d = "";
      for (var i = 0; i < projected.length; i++) {
        var xy = px(projected[i]);
        var lift = i === 0 || points[i].length > 3 || (gapMs && points[i][2] - points[i - 1][2] > gapMs);
        d += (lift ? "M" : "L") + xy[0] + " " + xy[1];
      }
      casing.setAttribute("d", d);
      line.setAttribute("d", d);
      var first = px(projected[0]), last = px(projected[projected.length - 1]);
      start.setAttribute("cx", first[0]); start.setAttribute("cy", first[1]);
      here.setAttribute("cx", last[0]); here.setAttribute("cy", last[1]);
      start.setAttribute("visibility", projected.length > 1 ? "visible" : "hidden");
      here.setAttribute("visibility", "visible");
    }
    return { svg: svg, draw: draw };
  }

  // ---- IndexedDB ------------------------------------------------------------------------------
  // meta: {key: "recording"} the recording under way, {key: "device:<user>"} this browser's device
  // token for a person, {key: "strap:<user>"} the strap paired last. readings: what is not yet sent,
  // oldest first. ops: start, live, finish and discard, in the order they must reach the server.
  // track: the kept positions, to draw the map again after a reload.
  var DB_NAME = "fieldhouse-recorder";

  function openDatabase() {
    return new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        var db = request.result;
        if (!db.objectStoreNames.contains("meta")) db.createObjectStore("meta", { keyPath: "key" });
        if (!db.objectStoreNames.contains("readings")) db.createObjectStore("readings", { autoIncrement: true });
        if (!db.objectStoreNames.contains("ops")) db.createObjectStore("ops", { autoIncrement: true });
        if (!db.objectStoreNames.contains("track")) db.createObjectStore("track", { autoIncrement: true });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  // Runs `work(stores)` in one transaction; resolves with what work returned once it committed.
  function transaction(db, names, mode, work) {
    return new Promise(function (resolve, reject) {
      var tx = db.transaction(names, mode);
      var stores = {};
      names.forEach(function (name) { stores[name] = tx.objectStore(name); });
      var result;
      try { result = work(stores); } catch (error) { try { tx.abort(); } catch (ignored) { /* already done */ } reject(error); return; }
      tx.oncomplete = function () { resolve(result && typeof result === "object" && "value" in result && result.isRequest ? result.value : result); };
      tx.onerror = function () { reject(tx.error); };
      tx.onabort = function () { reject(tx.error || new Error("aborted")); };
    });
  }

  function requestValue(request) {
    var box = { isRequest: true, value: undefined };
    request.onsuccess = function () { box.value = request.result; };
    return box;
  }

  // ---- The recorder -----------------------------------------------------------------------------
  function startRecorder(root) {
    var words = wordsOf(root);
    var imperial = root.dataset.imperial === "true";
    var units = Units(imperial);
    var user = root.dataset.user || "";
    var api = (root.dataset.api || "/api/v1").replace(/\/$/, "");
    var deviceURL = root.dataset.deviceUrl;
    var workoutsURL = (root.dataset.workoutsUrl || "/workouts").replace(/\/$/, "");
    var csrf = root.dataset.csrf || "";
    var maxAccuracy = Number(root.dataset.maxAccuracy) || 50;
    var topSpeeds = {};
    try { topSpeeds = JSON.parse(root.dataset.topSpeeds || "{}"); } catch (ignored) { topSpeeds = {}; }
    var zones = zonesFrom(root.dataset.zones);

    var $ = function (selector) { return root.querySelector(selector); };
    var app = $("[data-recorder-app]");
    var needs = $("[data-recorder-needs]");
    var statusLine = $("[data-status]");
    var gpsLine = $("[data-gps]");
    var queueLine = $("[data-queue]");
    var gapLine = $("[data-strap-gap]");
    var sportSelect = $("[data-sport]");
    var autoPauseBox = $("[data-auto-pause-box]");
    var shareBox = $("[data-share]");
    var shareStatus = $("[data-share-status]");
    var strapStatus = $("[data-strap-status]");
    var strapBattery = $("[data-strap-battery]");
    var strapButton = $("[data-strap-connect]");
    var strapMissing = $("[data-strap-unavailable]");
    var figures = {};
    root.querySelectorAll("[data-figure]").forEach(function (element) { figures[element.dataset.figure] = element; });
    var zoneBox = $("[data-zone-box]");
    var buttons = {};
    root.querySelectorAll("[data-action]").forEach(function (button) { buttons[button.dataset.action] = button; });
    var confirms = {};
    root.querySelectorAll("[data-confirm]").forEach(function (box) { confirms[box.dataset.confirm] = box; });

    needs.hidden = true;
    app.hidden = false;
    var mapBox = $("[data-map]");
    var map = TrackMap(mapBox, words("Map"), 640, 300);

    // What the page holds in memory; `rec` is written to IndexedDB whenever it changes.
    var db = null;
    var rec = null;             // the recording under way, or null
    var track = [];             // [[lat, lon, t], …] kept positions
    var pending = 0;            // readings not yet sent
    var offline = !navigator.onLine;
    var signedOut = false;
    var lastProblem = "";       // what the server refused, shown until a later request goes through
    var lostProblem = "";       // readings the server refused and the page let go: shown to the end
    var tokenProblem = "";      // why this browser has no device key yet
    var lastFix = null;         // the newest position seen, kept or not
    var recent = [];            // kept positions of the last few seconds, for the current speed
    var chain = [];             // positions left out as a jump that agree with each other
    var heart = { bpm: null, at: 0, noContact: false };
    var strap = { device: null, wanted: false, connected: false, attempt: 0, timer: null, gapFrom: 0, lastGap: 0, characteristic: null, rrClock: 0 };
    var watchID = null;
    var wakeLock = null;
    var mapDirty = true;
    var lastDrawn = 0;

    function choice() {
      var checked = shareBox ? shareBox.querySelector("input[name=share]:checked") : null;
      var audience = checked ? checked.value : "off";
      var live = { audience: audience };
      if (audience === "team") {
        var team = $("[data-share-team]");
        live.team = team ? team.value : "";
      }
      if (audience === "people") {
        live.people = Array.prototype.map.call(root.querySelectorAll("[data-share-person]:checked"), function (box) { return box.value; });
        if (!live.people.length) live = { audience: "off" };
      }
      return live;
    }

    function measure() {
      var option = sportSelect.options[sportSelect.selectedIndex];
      return option && option.dataset.measure === "speed" ? "speed" : "pace";
    }

    function sportDefaults() {
      var option = sportSelect.options[sportSelect.selectedIndex];
      autoPauseBox.checked = !!option && option.dataset.autoPause === "true";
      var speed = measure() === "speed";
      root.querySelector("[data-label=current]").textContent = words(speed ? "Speed" : "Pace");
      root.querySelector("[data-label=average]").textContent = words(speed ? "AverageSpeed" : "AveragePace");
      render();
    }

    // ---- time ----
    function pausedMs(until) {
      if (!rec) return 0;
      return rec.pauses.reduce(function (sum, pause) { return sum + Math.max(0, (pause.to || until) - pause.from); }, 0);
    }
    function elapsedMs() {
      if (!rec) return 0;
      var until = rec.end || Date.now();
      return Math.max(0, until - rec.start - pausedMs(until));
    }

    // ---- what the page shows ----
    function render() {
      root.dataset.state = rec ? rec.state : "idle";
      var state = rec ? rec.state : "idle";
      buttons.start.hidden = state !== "idle";
      buttons.pause.hidden = state !== "recording";
      buttons.resume.hidden = state !== "paused";
      buttons.finish.hidden = !(state === "recording" || state === "paused");
      buttons.discard.hidden = !(state === "recording" || state === "paused");
      sportSelect.disabled = state !== "idle";
      autoPauseBox.disabled = !(state === "idle" || state === "recording" || state === "paused");
      if (shareBox) shareBox.disabled = !(state === "idle" || state === "recording" || state === "paused");

      var elapsed = elapsedMs() / 1000;
      var distance = rec ? rec.totals.distance : 0;
      figures.elapsed.textContent = units.duration(elapsed);
      figures.distance.textContent = units.distance(distance);
      var speed = measure() === "speed";
      var current = currentSpeed();
      figures.current.textContent = state === "recording" ? (speed ? units.speed(current) : units.pace(current)) : "–";
      var average = elapsed > 0 && distance > 0 ? distance / elapsed : null;
      figures.average.textContent = speed ? units.speed(average) : units.pace(average);
      figures.gain.textContent = rec && rec.totals.hasAltitude ? units.elevation(rec.totals.gain) : "–";
      var fresh = heart.bpm != null && Date.now() - heart.at < 5000 && !heart.noContact && !(strap.device && !strap.connected);
      figures.hr.textContent = fresh ? units.bpm(heart.bpm) : "–";
      showZone(zoneBox, figures.zone, fresh ? zoneOf(zones, heart.bpm) : null, words);
      renderQueue();
      renderGap();
      // A long track is drawn again every few seconds, not with every fix.
      mapBox.hidden = track.length === 0;
      if (mapDirty && (track.length < 600 || Date.now() - lastDrawn > 5000)) {
        map.draw(track, 0);
        mapDirty = false;
        lastDrawn = Date.now();
      }
    }

    // A message about what just happened ("went on where it was") stays a while before the
    // line goes back to saying the state; a press of a button replaces it at once.
    var holdUntil = 0;
    function say(text, hold) {
      holdUntil = hold ? Date.now() + hold : 0;
      if (statusLine.textContent !== text) statusLine.textContent = text;
    }
    function sayState() {
      if (Date.now() >= holdUntil) say(stateText());
    }

    function stateText() {
      if (!rec) return words("Ready");
      if (rec.state === "recording") return words("Recording");
      if (rec.state === "paused") return rec.pauses.length && rec.pauses[rec.pauses.length - 1].auto ? words("AutoPaused") : words("Paused");
      if (rec.state === "finishing") return offline ? words("FinishWaits") : words("Finishing");
      if (rec.state === "discarding") return words("Discarding");
      return "";
    }

    function renderQueue() {
      var text;
      if (signedOut) {
        text = words("SignedOut");
      } else if (tokenProblem) {
        text = words("NoKey", { reason: tokenProblem });
      } else if (lostProblem || lastProblem) {
        text = words("Refused", { reason: lostProblem || lastProblem });
      } else if (!rec && pending === 0) {
        text = "";
      } else if (offline) {
        text = words(units.isOne(pending) ? "OfflineOne" : "OfflineOther", { count: units.count(pending) });
      } else if (pending > 0) {
        text = words(units.isOne(pending) ? "PendingOne" : "PendingOther", { count: units.count(pending) });
      } else {
        text = words("Sent");
      }
      queueLine.textContent = text;
      queueLine.hidden = !text;
      queueLine.classList.toggle("is-offline", offline || signedOut || !!tokenProblem);
    }

    // ---- storing ----
    function saveRecording() {
      if (!db || !rec) return Promise.resolve();
      var copy = JSON.parse(JSON.stringify(rec));
      return transaction(db, ["meta"], "readwrite", function (s) { s.meta.put(copy); });
    }

    // Readings, the positions to draw and the recording's totals go in one transaction, so a
    // crash never leaves one without the others.
    function keep(readings, positions) {
      if (!db || !rec || (!readings.length && !positions.length)) return Promise.resolve();
      var copy = JSON.parse(JSON.stringify(rec));
      pending += readings.length;
      return transaction(db, ["meta", "readings", "track"], "readwrite", function (s) {
        readings.forEach(function (reading) { s.readings.add(reading); });
        positions.forEach(function (position) { s.track.add(position); });
        s.meta.put(copy);
      }).catch(function (error) {
        pending -= readings.length;
        lastProblem = String(error && error.message || error);
      });
    }

    function queueOp(op) {
      return transaction(db, ["ops"], "readwrite", function (s) { s.ops.add(op); });
    }

    // A time for a new reading of a kind: never before the start, and after the last one of its
    // kind (the server keeps one reading per person, kind and millisecond).
    function stamp(kind, t) {
      t = Math.round(t);
      var last = rec.lastT[kind] || 0;
      if (t <= last) t = last + 1;
      rec.lastT[kind] = t;
      return t;
    }

    // ---- GPS ----
    function reachable(a, b) {
      var limit = Math.min((Number(topSpeeds[rec.sport]) || LIMITS.speed[1]) * LIMITS.jumpMargin, LIMITS.speed[1]);
      var seconds = Math.max(0, (b.t - a.t) / 1000);
      var allowance = Math.max(LIMITS.jumpSlack, (a.accuracy || 0) + (b.accuracy || 0));
      return metresBetween(a, b) <= limit * seconds + allowance;
    }

    function currentSpeed() {
      if (lastFix && lastFix.speed != null && Date.now() - lastFix.t < 5000) return lastFix.speed;
      if (recent.length < 2) return null;
      var first = recent[0], last = recent[recent.length - 1];
      if (Date.now() - last.t > 5000 || last.t - first.t < 2000) return null;
      var metres = 0;
      for (var i = 1; i < recent.length; i++) metres += metresBetween(recent[i - 1], recent[i]);
      return metres / ((last.t - first.t) / 1000);
    }

    function onPosition(position) {
      var c = position.coords;
      var now = Date.now();
      var t = Number(position.timestamp) || now;
      if (Math.abs(t - now) > 10 * 60 * 1000) t = now; // a phone clock and a GPS clock that disagree
      var fix = { t: t, lat: c.latitude, lon: c.longitude, accuracy: within(c.accuracy, LIMITS.accuracy) ? c.accuracy : null };
      if (within(c.altitude, LIMITS.elevation)) fix.ele = c.altitude;
      if (within(c.speed, LIMITS.speed)) fix.speed = c.speed;
      if (!within(fix.lat, [-90, 90]) || !within(fix.lon, [-180, 180])) return;
      var previous = lastFix;
      lastFix = fix;
      var poor = fix.accuracy != null && fix.accuracy > maxAccuracy;
      gpsLine.textContent = poor ? words("GpsPoor", { metres: units.metres(fix.accuracy) })
        : words("GpsOk", { metres: fix.accuracy != null ? units.metres(fix.accuracy) : "?" });
      gpsLine.classList.toggle("is-poor", poor);
      if (!rec) return;

      // Moving or standing still, for auto-pause, from any fix good enough to say.
      var speed = fix.speed;
      if (speed == null && previous && !poor && fix.t > previous.t) speed = metresBetween(previous, fix) / ((fix.t - previous.t) / 1000);
      if (speed != null && speed >= LIMITS.movingSpeed) rec.movingAt = fix.t;
      if (rec.state === "paused") {
        var pause = rec.pauses[rec.pauses.length - 1];
        var anchor = rec.pauseAt;
        var away = anchor && !poor ? metresBetween(anchor, fix) > Math.max(20, 2 * (fix.accuracy || 0)) : false;
        if (pause && pause.auto && rec.autoPause && (away || (speed != null && speed >= 1.0))) resume(false);
        else return;
      }
      if (rec.state !== "recording" || poor || fix.t < rec.start) return;
      takeFix(fix);
    }

    function takeFix(fix) {
      var totals = rec.totals;
      var anchor = totals.anchor;
      var taken = [];
      var newPiece = false;
      if (!anchor || reachable(anchor, fix)) {
        if (anchor) totals.distance += metresBetween(anchor, fix);
        totals.run += 1;
        chain = [];
        taken.push(fix);
      } else if (fix.t - anchor.t > LIMITS.pauseGap) {
        // Far away after a long gap: a new piece, with no distance across it.
        totals.run = 1;
        totals.runDistance = totals.distance;
        chain = [];
        taken.push(fix);
        newPiece = true;
      } else {
        if (chain.length && reachable(chain[chain.length - 1], fix)) chain.push(fix);
        else chain = [fix];
        if (chain.length > totals.run || chain.length >= LIMITS.settle) {
          // The positions agree with each other and not with the run: the run was the jump (a bad
          // first fix) when it is shorter, else the person really is here now.
          if (chain.length > totals.run) totals.distance = totals.runDistance;
          totals.runDistance = totals.distance;
          for (var i = 1; i < chain.length; i++) totals.distance += metresBetween(chain[i - 1], chain[i]);
          totals.run = chain.length;
          taken = chain;
          chain = [];
          newPiece = true;
        }
      }
      if (!taken.length) return;
      var readings = [], positions = [];
      taken.forEach(function (f) {
        if (f.ele != null) {
          if (!totals.hasAltitude) { totals.hasAltitude = true; totals.base = f.ele; }
          // Rises of more than 3 m count, so GPS noise on the flat adds nothing.
          if (f.ele - totals.base > 3) { totals.gain += f.ele - totals.base; totals.base = f.ele; }
          else if (f.ele < totals.base) totals.base = f.ele;
        }
        var reading = { kind: "loc", t: stamp("loc", f.t), lat: f.lat, lon: f.lon };
        if (f.ele != null) reading.ele = f.ele;
        if (f.accuracy != null) reading.accuracy = f.accuracy;
        if (f.speed != null) reading.speed = f.speed;
        readings.push(reading);
        var point = newPiece && !positions.length ? [f.lat, f.lon, reading.t, 1] : [f.lat, f.lon, reading.t];
        positions.push(point);
        track.push(point);
        recent.push(f);
      });
      while (recent.length > 2 && recent[recent.length - 1].t - recent[0].t > 10000) recent.shift();
      totals.anchor = taken[taken.length - 1];
      rec.kept.locations += readings.length;
      mapDirty = true;
      keep(readings, positions);
    }

    function onPositionError(error) {
      if (error.code === 1) {
        gpsLine.textContent = words("GpsDenied");
        gpsLine.classList.add("is-poor");
        stopGPS();
      }
    }

    function startGPS() {
      if (watchID !== null) return;
      if (!("geolocation" in navigator)) {
        gpsLine.textContent = words("GpsMissing");
        return;
      }
      watchID = navigator.geolocation.watchPosition(onPosition, onPositionError, { enableHighAccuracy: true, maximumAge: 0, timeout: 30000 });
    }
    function stopGPS() {
      if (watchID !== null && navigator.geolocation) navigator.geolocation.clearWatch(watchID);
      watchID = null;
    }

    // ---- Screen Wake Lock ----
    function holdScreen() {
      if (!("wakeLock" in navigator) || wakeLock || document.visibilityState !== "visible") return;
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { wakeLock = null; });
      }, function () { /* refused (battery saver): the recording goes on with the screen off */ });
    }
    function releaseScreen() {
      if (wakeLock) wakeLock.release().catch(function () {});
      wakeLock = null;
    }
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") {
        if (rec && (rec.state === "recording" || rec.state === "paused")) holdScreen();
        mapDirty = true;
        render();
        drain();
      }
    });

    // ---- the buttons ----
    function newID() {
      if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
      var b = new Uint8Array(16);
      crypto.getRandomValues(b);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      var hex = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
      return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
    }

    function start() {
      if (rec || !db) return;
      var now = Date.now();
      var live = choice();
      rec = {
        key: "recording", user: user, externalID: newID(), sport: sportSelect.value, start: now,
        pauses: [], state: "recording", autoPause: autoPauseBox.checked, live: live,
        workoutID: null, startSent: false, movingAt: now, lastT: {},
        kept: { locations: 0, heartRate: 0, rr: 0 },
        totals: { distance: 0, runDistance: 0, run: 0, gain: 0, base: null, hasAltitude: false, anchor: null }
      };
      track = [];
      recent = [];
      chain = [];
      mapDirty = true;
      lastProblem = "";
      var copy = JSON.parse(JSON.stringify(rec));
      transaction(db, ["meta", "ops", "track"], "readwrite", function (s) {
        s.track.clear();
        s.meta.put(copy);
        s.ops.add({ kind: "start" });
        if (live.audience !== "off") s.ops.add({ kind: "live", live: live });
      }).then(drain);
      if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(function () {});
      startGPS();
      holdScreen();
      registerWorker();
      say(words("Recording"));
      render();
    }

    function pause(auto) {
      if (!rec || rec.state !== "recording") return;
      var now = Date.now();
      rec.state = "paused";
      rec.pauses.push({ from: now, to: null, auto: !!auto });
      rec.pauseAt = lastFix ? { lat: lastFix.lat, lon: lastFix.lon } : null;
      recent = [];
      saveRecording();
      say(stateText());
      render();
    }

    function resume() {
      if (!rec || rec.state !== "paused") return;
      var now = Date.now();
      var last = rec.pauses[rec.pauses.length - 1];
      if (last && !last.to) last.to = now;
      rec.state = "recording";
      rec.movingAt = now;
      rec.pauseAt = null;
      saveRecording();
      say(words("Recording"));
      render();
    }

    function finish() {
      if (!rec || (rec.state !== "recording" && rec.state !== "paused")) return;
      var now = Date.now();
      var last = rec.pauses[rec.pauses.length - 1];
      if (last && !last.to) last.to = now;
      rec.end = now;
      rec.state = "finishing";
      var copy = JSON.parse(JSON.stringify(rec));
      transaction(db, ["meta", "ops"], "readwrite", function (s) {
        s.meta.put(copy);
        s.ops.add({ kind: "finish", end: now });
      }).then(drain);
      stopGPS();
      releaseScreen();
      strapForget(false);
      say(stateText());
      render();
    }

    function discard() {
      if (!rec || (rec.state !== "recording" && rec.state !== "paused")) return;
      stopGPS();
      releaseScreen();
      strapForget(false);
      var neverSent = !rec.startSent;
      rec.state = "discarding";
      var copy = JSON.parse(JSON.stringify(rec));
      pending = 0;
      track = [];
      mapDirty = true;
      transaction(db, ["meta", "ops", "readings", "track"], "readwrite", function (s) {
        s.readings.clear();
        s.track.clear();
        s.ops.clear();
        if (neverSent) {
          s.meta.delete("recording");
        } else {
          // The start request may have reached the server: ask for the workout (a harmless
          // retry) and then delete it.
          s.meta.put(copy);
          if (!copy.workoutID) s.ops.add({ kind: "start" });
          s.ops.add({ kind: "discard" });
        }
      }).then(function () {
        if (neverSent) done(words("Discarded"));
        else drain();
      });
      say(stateText());
      render();
    }

    // The recording is over (finished or discarded): back to a fresh page state.
    function done(message) {
      rec = null;
      lastProblem = "";
      lostProblem = "";
      track = [];
      recent = [];
      chain = [];
      mapDirty = true;
      pending = 0;
      say(message || words("Ready"));
      render();
    }

    // Finish and Discard ask a second time in place of the buttons, where the thumb already is.
    var asking = null;
    function confirmWith(name, then) {
      var box = confirms[name];
      if (!box) { then(); return; }
      closeConfirm();
      asking = { box: box, then: then, from: document.activeElement };
      Object.keys(buttons).forEach(function (key) { buttons[key].classList.add("is-behind"); });
      box.hidden = false;
      box.querySelector("[data-answer=no]").focus();
    }
    function closeConfirm(answer) {
      if (!asking) return;
      var was = asking;
      asking = null;
      was.box.hidden = true;
      Object.keys(buttons).forEach(function (key) { buttons[key].classList.remove("is-behind"); });
      if (answer === "yes") was.then();
      render();
      var back = was.from && !was.from.hidden && was.from.isConnected ? was.from : null;
      if (!back) back = [buttons.pause, buttons.resume, buttons.start].filter(function (b) { return !b.hidden; })[0];
      if (back && answer !== "yes") back.focus();
    }
    Object.keys(confirms).forEach(function (name) {
      confirms[name].addEventListener("click", function (event) {
        var answer = event.target.closest("[data-answer]");
        if (answer) closeConfirm(answer.dataset.answer);
      });
      confirms[name].addEventListener("keydown", function (event) {
        if (event.key === "Escape") closeConfirm("no");
      });
    });

    buttons.start.addEventListener("click", start);
    buttons.pause.addEventListener("click", function () { pause(false); });
    buttons.resume.addEventListener("click", function () { resume(); });
    buttons.finish.addEventListener("click", function () { confirmWith("finish", finish); });
    buttons.discard.addEventListener("click", function () { confirmWith("discard", discard); });
    sportSelect.addEventListener("change", sportDefaults);
    autoPauseBox.addEventListener("change", function () {
      if (!rec) return;
      rec.autoPause = autoPauseBox.checked;
      if (!rec.autoPause && rec.state === "paused" && rec.pauses[rec.pauses.length - 1].auto) resume();
      rec.movingAt = Date.now();
      saveRecording();
    });

    // ---- live sharing ----
    function showShareDetails() {
      var live = shareBox ? (shareBox.querySelector("input[name=share]:checked") || {}).value : "off";
      root.querySelectorAll("[data-share-detail]").forEach(function (detail) { detail.hidden = detail.dataset.shareDetail !== live; });
    }
    function shareChanged() {
      showShareDetails();
      if (!rec || !db || (rec.state !== "recording" && rec.state !== "paused")) return;
      var live = choice();
      rec.live = live;
      var copy = JSON.parse(JSON.stringify(rec));
      // Only the newest choice matters: one not yet sent is replaced.
      transaction(db, ["meta", "ops"], "readwrite", function (s) {
        s.meta.put(copy);
        s.ops.openCursor().onsuccess = function (event) {
          var cursor = event.target.result;
          if (!cursor) { s.ops.add({ kind: "live", live: live }); return; }
          if (cursor.value.kind === "live") cursor.delete();
          cursor.continue();
        };
      }).then(function () {
        if (!rec.workoutID) shareStatus.textContent = words("LiveWaiting");
        drain();
      });
    }
    if (shareBox) {
      shareBox.addEventListener("change", shareChanged);
      showShareDetails();
    }

    // ---- sending ----
    function tokenKey() { return "device:" + user; }

    function readMeta(key) {
      return transaction(db, ["meta"], "readonly", function (s) { return requestValue(s.meta.get(key)); });
    }

    function deviceName() {
      var ua = navigator.userAgent;
      var browser = /Edg\//.test(ua) ? "Edge" : /OPR\//.test(ua) ? "Opera" : /SamsungBrowser/.test(ua) ? "Samsung Internet"
        : /Firefox\//.test(ua) ? "Firefox" : /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "a browser";
      var os = /Android/.test(ua) ? "Android" : /iPhone|iPad|iPod/.test(ua) ? "iOS" : /CrOS/.test(ua) ? "ChromeOS"
        : /Windows/.test(ua) ? "Windows" : /Mac OS X/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
      return ("Recorder · " + browser + (os ? " on " + os : "")).slice(0, 60);
    }

    // A page served from the worker's cache may carry an old CSRF token; the page itself, fetched
    // again, has the session's current one.
    function freshCSRF() {
      return fetch(window.location.pathname, { credentials: "same-origin", cache: "no-store" })
        .then(function (answer) { return answer.ok && !answer.redirected ? answer.text() : ""; })
        .then(function (html) {
          var found = new DOMParser().parseFromString(html, "text/html").querySelector("[data-recorder]");
          // Another account's page (signed in since in another tab) is not this recording's.
          if (!found || found.dataset.user !== user) return false;
          if (found.dataset.csrf) csrf = found.dataset.csrf;
          return !!found.dataset.csrf;
        });
    }

    var makingToken = null;
    function newToken(retried) {
      var body = new URLSearchParams();
      body.set("name", deviceName());
      // Whose recording this is: the server makes no key for another account signed in since (409).
      body.set("user", user);
      body.set("csrf", csrf);
      return fetch(deviceURL, {
        method: "POST", body: body, credentials: "same-origin", cache: "no-store",
        headers: { "X-CSRF-Token": csrf, Accept: "application/json" }
      }).then(function (answer) {
        offline = false;
        if (answer.status === 403 && !retried) return freshCSRF().then(function (got) { return got ? newToken(true) : problem(answer); });
        if (answer.status === 401 || answer.status === 403) { signedOut = true; throw new SendFailure("signed-out"); }
        if (!answer.ok) {
          // No key for this browser (too many devices, say): nothing can go until the person
          // makes room, so asking again waits longer.
          return problem(answer).catch(function (failure) {
            if (failure.kind === "refused") { failure.kind = "no-key"; tokenProblem = failure.reason; }
            throw failure;
          });
        }
        return answer.json().then(function (made) {
          signedOut = false;
          tokenProblem = "";
          return transaction(db, ["meta"], "readwrite", function (s) {
            s.meta.put({ key: tokenKey(), token: made.token, name: made.name });
          }).then(function () { return made.token; });
        });
      }, function (error) {
        if (error instanceof SendFailure) throw error;
        throw new SendFailure("network");
      });
    }
    function token() {
      return readMeta(tokenKey()).then(function (saved) {
        if (saved && saved.token) return saved.token;
        if (!makingToken) makingToken = newToken(false).finally(function () { makingToken = null; });
        return makingToken;
      });
    }
    function forgetToken(old) {
      return transaction(db, ["meta"], "readwrite", function (s) {
        var request = s.meta.get(tokenKey());
        request.onsuccess = function () { if (request.result && request.result.token === old) s.meta.delete(tokenKey()); };
      });
    }

    function SendFailure(kind, status, reason) {
      this.kind = kind;       // "network", "signed-out", "server", "refused"
      this.status = status;
      this.reason = reason;
    }
    function problem(answer) {
      return answer.json().catch(function () { return {}; }).then(function (body) {
        var reason = body && body.error && (body.error.message || body.error.reason) || String(answer.status);
        throw new SendFailure(answer.status >= 500 || answer.status === 429 || answer.status === 408 ? "server" : "refused", answer.status, reason);
      });
    }

    // One request to the device API with this browser's token; a revoked token (401) is made
    // again once, while the session lasts.
    function callAPI(method, path, body, retried) {
      return token().then(function (bearer) {
        return fetch(api + path, {
          method: method, credentials: "omit", cache: "no-store",
          headers: { Authorization: "Bearer " + bearer, "Content-Type": "application/json", Accept: "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body)
        }).then(function (answer) {
          offline = false;
          if (answer.status === 401 && !retried) return forgetToken(bearer).then(function () { return callAPI(method, path, body, true); });
          return answer;
        }, function () { throw new SendFailure("network"); });
      });
    }

    function firstOp() {
      return transaction(db, ["ops"], "readonly", function (s) {
        var box = { isRequest: true, value: null };
        s.ops.openCursor().onsuccess = function (event) {
          var cursor = event.target.result;
          if (cursor) box.value = { key: cursor.key, op: cursor.value };
        };
        return box;
      });
    }
    function dropOp(key) {
      return transaction(db, ["ops"], "readwrite", function (s) { s.ops.delete(key); });
    }
    function firstReadings(limit) {
      return transaction(db, ["readings"], "readonly", function (s) {
        var box = { isRequest: true, value: [] };
        s.readings.openCursor().onsuccess = function (event) {
          var cursor = event.target.result;
          if (!cursor) return;
          box.value.push({ key: cursor.key, reading: cursor.value });
          if (box.value.length < limit) cursor.continue();
        };
        return box;
      });
    }
    function dropReadings(first, last) {
      return transaction(db, ["readings"], "readwrite", function (s) { s.readings.delete(IDBKeyRange.bound(first, last)); })
        .then(countPending);
    }
    function countPending() {
      return transaction(db, ["readings"], "readonly", function (s) { return requestValue(s.readings.count()); })
        .then(function (n) { pending = n; });
    }

    function sendStart(key) {
      rec.startSent = true;
      return saveRecording().then(function () {
        return callAPI("POST", "/workouts", { external_id: rec.externalID, sport: rec.sport, start: rec.start });
      }).then(function (answer) {
        if (!answer.ok) return problem(answer);
        return answer.json().then(function (body) {
          rec.workoutID = String(body.workout.id).toLowerCase();
          return saveRecording().then(function () { return dropOp(key); });
        });
      });
    }

    function sendReadings(batch) {
      var body = { locations: [], heart_rate: [], rr: [] };
      batch.forEach(function (item) {
        var r = item.reading;
        if (r.kind === "loc") {
          var location = { t: r.t, lat: r.lat, lon: r.lon };
          if (r.ele != null) location.ele = r.ele;
          if (r.accuracy != null) location.accuracy = r.accuracy;
          if (r.speed != null) location.speed = r.speed;
          body.locations.push(location);
        } else if (r.kind === "hr") {
          body.heart_rate.push({ t: r.t, bpm: r.bpm });
        } else if (r.kind === "rr") {
          body.rr.push({ t: r.t, ms: r.ms });
        }
      });
      return callAPI("POST", "/samples", body).then(function (answer) {
        if (answer.ok) {
          return dropReadings(batch[0].key, batch[batch.length - 1].key).then(function () {
            if (body.locations.length) askOffer();
          });
        }
        if (answer.status >= 500 || answer.status === 429 || answer.status === 408) return problem(answer);
        // Refused as a whole (a 400 or 413 this page should never cause): kept back, it would
        // stop everything after it, so it is dropped and the person is told.
        return problem(answer).catch(function (failure) {
          lostProblem = failure.reason || String(failure.status);
          return dropReadings(batch[0].key, batch[batch.length - 1].key).then(function () { throw failure; });
        });
      });
    }

    function sendLive(key, live) {
      return callAPI("POST", "/workouts/" + rec.workoutID + "/live", live).then(function (answer) {
        if (answer.ok) {
          return answer.json().then(function (body) {
            showShared(body.live);
            return dropOp(key);
          });
        }
        if (answer.status === 422 || answer.status === 409 || answer.status === 404) {
          return answer.json().catch(function () { return {}; }).then(function (body) {
            shareStatus.textContent = words("LiveRefused", { reason: body && body.error && (body.error.message || body.error.reason) || String(answer.status) });
            return dropOp(key);
          });
        }
        return problem(answer);
      });
    }

    function showShared(live) {
      shareStatus.textContent = "";
      if (!live || !live.url) {
        shareStatus.textContent = words("LiveOff");
        return;
      }
      shareStatus.append(words("LiveOn") + " ");
      var link = document.createElement("a");
      link.href = live.url;
      link.textContent = words("LiveLink");
      link.target = "_blank";
      link.rel = "noopener";
      shareStatus.append(link);
    }

    function sendFinish(key, op) {
      return callAPI("POST", "/workouts", { external_id: rec.externalID, sport: rec.sport, start: rec.start, end: op.end }).then(function (answer) {
        if (!answer.ok) return problem(answer);
        return answer.json().then(function (body) {
          var id = String(body.workout.id).toLowerCase();
          return clearAll().then(function () {
            rec = null;
            window.location.href = workoutsURL + "/" + id;
          });
        });
      });
    }

    function sendDiscard(key) {
      var gone = function () { return clearAll().then(function () { done(words("Discarded")); }); };
      if (!rec.workoutID) return dropOp(key).then(gone);
      return callAPI("DELETE", "/workouts/" + rec.workoutID).then(function (answer) {
        if (answer.ok || answer.status === 404) return gone();
        return problem(answer);
      });
    }

    function clearAll() {
      return transaction(db, ["meta", "ops", "readings", "track"], "readwrite", function (s) {
        s.meta.delete("recording");
        s.ops.clear();
        s.readings.clear();
        s.track.clear();
      });
    }

    // Sends what waits, in order: the start, the readings, then live choices, finish or discard.
    // One pass at a time; the 5-second timer, `online` and every change start another.
    var draining = false, again = false, waitUntil = 0;
    function drain() {
      if (!db) return;
      if (draining) { again = true; return; }
      if (Date.now() < waitUntil) return;
      // Known to be offline: nothing is tried until the browser says the network is back.
      if (navigator.onLine === false) { offline = true; return; }
      draining = true;
      again = false;
      step().then(function (more) {
        if (more) lastProblem = "";
        return more;
      }, function (failure) {
        if (failure instanceof SendFailure) {
          if (failure.kind === "network") offline = true;
          else if (failure.kind === "server") waitUntil = Date.now() + 15000;
          else if (failure.kind === "refused") lastProblem = failure.reason || String(failure.status);
          else if (failure.kind === "no-key") waitUntil = Date.now() + 30000;
        } else {
          lastProblem = String(failure && failure.message || failure);
        }
        return false;
      }).then(function (more) {
        draining = false;
        if (rec) sayState();
        render();
        if (more || again) drain();
      });
    }

    function step() {
      return firstOp().then(function (first) {
        if (!rec) return false;
        if (first && first.op.kind === "start") return sendStart(first.key).then(function () { return true; });
        if (rec.state === "discarding") {
          if (first && first.op.kind === "discard") return sendDiscard(first.key).then(function () { return false; });
          return false;
        }
        if (!rec.workoutID) return false;
        return firstReadings(1000).then(function (batch) {
          if (batch.length) return sendReadings(batch).then(function () { return true; });
          if (!first) return false;
          if (first.op.kind === "live") return sendLive(first.key, first.op.live).then(function () { return true; });
          if (first.op.kind === "finish") return sendFinish(first.key, first.op).then(function () { return false; });
          if (first.op.kind === "discard") return sendDiscard(first.key).then(function () { return false; });
          return dropOp(first.key).then(function () { return true; });
        });
      });
    }

    // ---- Biklio: the check-in a partner place offers when the ride arrives there ----
    var checkin = {
      box: $("[data-checkin]"), message: $("[data-checkin-message]"), actions: $("[data-checkin-actions]"),
      result: $("[data-checkin-result]"), offer: null, askedAt: 0, busy: false, done: {}
    };
    // Asked after positions reached the server (the offer is decided from them), every 15 s at most.
    function askOffer() {
      if (!checkin.box || !rec || rec.state !== "recording" || !lastFix || checkin.busy || Date.now() - checkin.askedAt < 15000) return;
      checkin.askedAt = Date.now();
      var at = lastFix;
      callAPI("GET", "/checkins/offer?lat=" + at.lat.toFixed(6) + "&lon=" + at.lon.toFixed(6)).then(function (answer) {
        return answer.ok ? answer.json() : null;
      }).then(function (body) {
        var offer = body && body.offer;
        if (checkin.busy) return;
        if (!offer || checkin.done[offer.place]) {
          if (!checkin.result.textContent) checkin.box.hidden = true;
          checkin.offer = null;
          return;
        }
        checkin.offer = offer;
        checkin.message.textContent = offer.message;
        checkin.result.textContent = "";
        checkin.actions.hidden = false;
        checkin.box.hidden = false;
      }).catch(function () { /* offline or signed out: asked again later */ });
    }
    function placeLink(offer) {
      var link = document.createElement("a");
      link.href = offer.url;
      link.textContent = offer.name;
      return link;
    }
    if (checkin.box) {
      $("[data-checkin-go]").addEventListener("click", function () {
        var offer = checkin.offer;
        if (!offer || !lastFix || checkin.busy) return;
        checkin.busy = true;
        callAPI("POST", "/checkins", { place: offer.place, lat: lastFix.lat, lon: lastFix.lon }).then(function (answer) {
          return answer.json().catch(function () { return {}; }).then(function (body) {
            checkin.done[offer.place] = true;
            checkin.actions.hidden = true;
            checkin.message.textContent = "";
            checkin.result.textContent = "";
            if (answer.ok) {
              checkin.result.textContent = words("CheckedIn", { place: body.place || offer.name, code: body.code, reward: body.reward || offer.reward });
            } else {
              var reason = body && body.error && (body.error.message || body.error.reason) || String(answer.status);
              checkin.result.append(words("CheckinRefused", { reason: reason }) + " ");
              checkin.result.append(placeLink(offer));
            }
          });
        }).catch(function () {
          checkin.result.textContent = "";
          checkin.result.append(words("CheckinRefused", { reason: "—" }) + " ");
          checkin.result.append(placeLink(offer));
        }).then(function () { checkin.busy = false; });
      });
      $("[data-checkin-no]").addEventListener("click", function () {
        if (checkin.offer) checkin.done[checkin.offer.place] = true;
        checkin.offer = null;
        checkin.box.hidden = true;
      });
    }

    window.addEventListener("online", function () { offline = false; waitUntil = 0; drain(); render(); });
    window.addEventListener("offline", function () { offline = true; render(); });

    // ---- heart-rate strap (Web Bluetooth) ----

    function strapName(device) { return (device && device.name) || words("StrapUnknown"); }

    function receiveHeartRate(view, at) {
      var m;
      try { m = decodeHeartRate(view); } catch (error) { return null; }
      at = at || Date.now();
      if (m.contact === "not-detected") {
        heart.noContact = true;
        strapStatus.textContent = words("StrapNoContact");
        return m;
      }
      if (heart.noContact) strapStatus.textContent = words("StrapConnected", { name: strapName(strap.device) });
      heart.noContact = false;
      if (strap.gapFrom && at - strap.gapFrom > 5000) strap.lastGap = at - strap.gapFrom;
      strap.gapFrom = 0;
      heart.bpm = m.bpm;
      heart.at = at;
      if (rec && rec.state === "recording" && at >= rec.start) {
        var readings = [];
        if (within(m.bpm, LIMITS.heartRate)) {
          readings.push({ kind: "hr", t: stamp("hr", at), bpm: m.bpm });
          rec.kept.heartRate += 1;
        }
        // Each interval gets the time its beat ended: counted on from the last one, and set
        // again from the clock when the two drift apart (a beat the strap missed).
        var sum = m.rr.reduce(function (a, b) { return a + b; }, 0);
        if (!strap.rrClock || Math.abs(strap.rrClock + sum - at) > 2000) strap.rrClock = at - sum;
        m.rr.forEach(function (ms) {
          strap.rrClock += ms;
          // A beat from before the start (the first notification's earlier intervals) is not the workout's.
          if (!within(ms, LIMITS.rr) || strap.rrClock < rec.start) return;
          readings.push({ kind: "rr", t: stamp("rr", strap.rrClock), ms: Math.round(ms * 1000) / 1000 });
          rec.kept.rr += 1;
        });
        keep(readings, []);
      }
      render();
      return m;
    }
    recorder.receiveHeartRate = receiveHeartRate;

    function onMeasurement(event) { receiveHeartRate(event.target.value); }
    function onBattery(event) { showBattery(event.target.value.getUint8(0)); }
    function showBattery(level) {
      strapBattery.hidden = !(level >= 0 && level <= 100);
      strapBattery.textContent = words("Battery", { percent: units.percent(level / 100) });
    }

    function withTimeout(promise, ms) {
      return Promise.race([promise, new Promise(function (resolve, reject) { setTimeout(function () { reject(new Error("timeout")); }, ms); })]);
    }

    function connectStrap(device) {
      strap.device = device;
      strap.wanted = true;
      if (!device.fieldhouseListening) {
        device.addEventListener("gattserverdisconnected", onStrapLost);
        device.fieldhouseListening = true;
      }
      strapStatus.textContent = words("StrapConnecting", { name: strapName(device) });
      return withTimeout(device.gatt.connect(), 20000).then(function (server) {
        return server.getPrimaryService("heart_rate").then(function (service) {
          return service.getCharacteristic("heart_rate_measurement");
        }).then(function (characteristic) {
          if (strap.characteristic) strap.characteristic.removeEventListener("characteristicvaluechanged", onMeasurement);
          strap.characteristic = characteristic;
          characteristic.addEventListener("characteristicvaluechanged", onMeasurement);
          return characteristic.startNotifications();
        }).then(function () {
          strap.connected = true;
          strap.attempt = 0;
          strapStatus.textContent = words("StrapConnected", { name: strapName(device) });
          strapButton.hidden = true;
          // Battery level (0x180F) where the strap offers it.
          server.getPrimaryService("battery_service").then(function (service) {
            return service.getCharacteristic("battery_level");
          }).then(function (level) {
            return level.readValue().then(function (value) {
              showBattery(value.getUint8(0));
              level.addEventListener("characteristicvaluechanged", onBattery);
              return level.startNotifications().catch(function () {});
            });
          }).catch(function () { strapBattery.hidden = true; });
        });
      }).catch(function (error) {
        try { device.gatt.disconnect(); } catch (ignored) { /* not connected */ }
        throw error;
      });
    }

    function onStrapLost() {
      strap.connected = false;
      if (!strap.wanted) return;
      if (!strap.gapFrom) strap.gapFrom = heart.at || Date.now();
      reconnectLater();
      render();
    }

    // Again after 1, 2, 4 … 30 seconds, for as long as the strap is wanted.
    function reconnectLater() {
      clearTimeout(strap.timer);
      if (!strap.wanted || !strap.device) return;
      var delay = Math.min(30000, 1000 * Math.pow(2, strap.attempt));
      strap.attempt += 1;
      strap.timer = setTimeout(function () {
        if (!strap.wanted || strap.connected) return;
        connectStrap(strap.device).catch(function () { reconnectLater(); render(); });
      }, delay);
    }

    function strapForget(forgetDevice) {
      strap.wanted = false;
      clearTimeout(strap.timer);
      if (strap.device && strap.device.gatt && strap.device.gatt.connected) strap.device.gatt.disconnect();
      strap.connected = false;
      strap.gapFrom = 0;
      heart.bpm = null;
      strapBattery.hidden = true;
      if (forgetDevice) strap.device = null;
      if (navigator.bluetooth) {
        strapButton.hidden = false;
        strapStatus.textContent = words("StrapNone");
      }
    }

    function chooseStrap() {
      navigator.bluetooth.requestDevice({ filters: [{ services: ["heart_rate"] }], optionalServices: ["battery_service"] })
        .then(function (device) {
          if (db) {
            transaction(db, ["meta"], "readwrite", function (s) { s.meta.put({ key: "strap:" + user, id: device.id, name: device.name || "" }); });
          }
          return connectStrap(device);
        })
        .catch(function (error) {
          if (error && error.name === "NotFoundError") return; // the chooser was closed
          strapStatus.textContent = words("StrapFailed", { error: error && error.message || String(error) });
          if (strap.device && strap.wanted) reconnectLater();
        });
    }

    // The strap paired last time, where the browser lets a page find it again without asking.
    // Bluetooth may come up a moment after the page (after a reload), so it is looked for a few times.
    function rememberedStrap(tries) {
      tries = tries || 0;
      if (!db || !navigator.bluetooth || !navigator.bluetooth.getDevices || strap.wanted) return;
      readMeta("strap:" + user).then(function (saved) {
        if (!saved) return null;
        return navigator.bluetooth.getDevices().then(function (devices) {
          var device = devices.filter(function (d) { return d.id === saved.id; })[0];
          if (!device) {
            if (tries < 5) setTimeout(function () { rememberedStrap(tries + 1); }, 2000 * (tries + 1));
            return;
          }
          strapStatus.textContent = words("StrapRemembered", { name: strapName(device) });
          // During a recording (after a reload) the time until it is back is a gap in heart rate.
          if (rec && rec.state === "recording" && !strap.gapFrom) strap.gapFrom = Date.now();
          strap.device = device;
          return connectStrap(device).catch(function () { reconnectLater(); render(); });
        });
      }).catch(function () {
        if (tries < 5) setTimeout(function () { rememberedStrap(tries + 1); }, 2000 * (tries + 1));
      });
    }

    function renderGap() {
      var now = Date.now();
      var missing = 0, text = "";
      if (strap.wanted && strap.device) {
        if (!strap.connected && strap.gapFrom) {
          missing = now - strap.gapFrom;
          text = words("StrapLost", { duration: units.duration(missing / 1000) });
        } else if (strap.connected && heart.at && now - heart.at > 5000) {
          missing = now - heart.at;
          text = words("StrapSilent", { duration: units.duration(missing / 1000) });
        } else if (strap.lastGap) {
          text = words("StrapLastGap", { duration: units.duration(strap.lastGap / 1000) });
        }
      }
      gapLine.hidden = !text;
      gapLine.classList.toggle("is-open", missing > 0);
      if (gapLine.textContent !== text) gapLine.textContent = text;
    }

    if (navigator.bluetooth) {
      strapButton.hidden = false;
      strapButton.addEventListener("click", chooseStrap);
    } else {
      strapMissing.hidden = false;
    }

    // ---- service worker: /record and this script offline ----
    function registerWorker() {
      if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
    }

    // ---- the clock ----
    setInterval(function () {
      if (rec && rec.state === "recording" && rec.autoPause && rec.movingAt && lastFix && Date.now() - rec.movingAt >= 10000) pause(true);
      render();
    }, 1000);
    setInterval(drain, 5000);

    recorder.state = function () {
      return {
        state: rec ? rec.state : "idle",
        pending: pending,
        kept: rec ? { locations: rec.kept.locations, heartRate: rec.kept.heartRate, rr: rec.kept.rr } : { locations: 0, heartRate: 0, rr: 0 },
        workoutID: rec ? rec.workoutID : null,
        externalID: rec ? rec.externalID : null
      };
    };

    // ---- open the database and pick up where a reload left off ----
    sportDefaults();
    say(words("Ready"));
    render();

    function begin() {
      if (navigator.permissions && navigator.permissions.query) {
        // With location already allowed, GPS warms up before Start; otherwise the browser asks at Start.
        navigator.permissions.query({ name: "geolocation" }).then(function (status) {
          if (status.state === "granted") startGPS();
        }, function () {});
      }
      registerWorker();
      open();
    }

    function open() {
    openDatabase().then(function (opened) {
      db = opened;
      return transaction(db, ["meta", "track", "readings"], "readonly", function (s) {
        var box = { isRequest: true, value: {} };
        s.meta.get("recording").onsuccess = function (event) { box.value.rec = event.target.result; };
        s.track.getAll().onsuccess = function (event) { box.value.track = event.target.result; };
        s.readings.count().onsuccess = function (event) { box.value.pending = event.target.result; };
        return box;
      });
    }).then(function (saved) {
      pending = saved.pending || 0;
      if (saved.rec && saved.rec.user && saved.rec.user !== user) {
        // Another person's recording waits in this browser: it must not be sent with this
        // person's token, nor thrown away.
        buttons.start.disabled = true;
        say(words("OtherAccount", { username: "@" + saved.rec.user }));
        return;
      }
      if (saved.rec) {
        rec = saved.rec;
        track = saved.track || [];
        mapDirty = true;
        var option = Array.prototype.filter.call(sportSelect.options, function (o) { return o.value === rec.sport; })[0];
        if (option) sportSelect.value = rec.sport;
        sportDefaults();
        autoPauseBox.checked = !!rec.autoPause;
        if (rec.live && shareBox) {
          var radio = shareBox.querySelector("input[name=share][value=\"" + rec.live.audience + "\"]");
          if (radio) radio.checked = true;
          var team = $("[data-share-team]");
          if (team && rec.live.team) team.value = rec.live.team;
          (rec.live.people || []).forEach(function (name) {
            root.querySelectorAll("[data-share-person]").forEach(function (box) { if (box.value === name) box.checked = true; });
          });
          showShareDetails();
        }
        if (rec.state === "recording" || rec.state === "paused") {
          startGPS();
          holdScreen();
          rememberedStrap();
          say(words("Resumed"), 20000);
        } else {
          say(stateText());
        }
      } else {
        rememberedStrap();
      }
      render();
      drain();
    }).catch(function (error) {
      lastProblem = String(error && error.message || error);
      render();
    });
    }

    // One tab records: two would each write every position. The lock goes with the tab that
    // holds it (closed or crashed), and a tab that waited takes the recording over from there.
    var LOCK = "fieldhouse-recorder";
    if (navigator.locks && navigator.locks.request) {
      navigator.locks.request(LOCK, { ifAvailable: true }, function (lock) {
        if (lock) {
          begin();
          return new Promise(function () {});
        }
        buttons.start.disabled = true;
        say(words("OtherTab"));
        navigator.locks.request(LOCK, function () {
          buttons.start.disabled = false;
          say(words("Ready"));
          begin();
          return new Promise(function () {});
        });
      });
    } else {
      begin();
    }
  }

  // ---- The live page ----------------------------------------------------------------------------
  function startLive(root) {
    var words = wordsOf(root);
    var units = Units(root.dataset.imperial === "true");
    var measure = root.dataset.measure === "speed" ? "speed" : "pace";
    var figures = {};
    root.querySelectorAll("[data-figure]").forEach(function (element) { figures[element.dataset.figure] = element; });
    var zoneBox = root.querySelector("[data-zone-box]");
    var badge = root.querySelector("[data-live-badge]");
    var stateLine = root.querySelector("[data-live-state]");
    var linkBox = root.querySelector("[data-live-link]");
    var connection = root.querySelector("[data-live-connection]");
    var mapBox = root.querySelector("[data-live-map]");
    var averageBox = root.querySelector("[data-average]");
    var points = [];
    try { points = JSON.parse(root.dataset.points || "[]"); } catch (ignored) { points = []; }
    var latest = { elapsed: null, distance: null, at: Date.now() };
    var ended = root.dataset.ended === "true";
    var map = null;

    // The server's drawing (over map tiles) stays until the track grows; then the script's own
    // map follows it, fitted to the whole track.
    var shown = points.length;
    function drawMap() {
      // Where maps.js made the server's map zoomable, the track grows on that map (its tiles too).
      var zoomable = mapBox.querySelector(".map-live");
      if (zoomable && zoomable.fieldhouseTrack) {
        if (points.length !== shown) zoomable.fieldhouseTrack(points);
        return;
      }
      if (!points.length || (!map && points.length === shown && mapBox.querySelector("svg"))) return;
      if (!map) {
        mapBox.textContent = "";
        map = TrackMap(mapBox, words("Map"), 640, 360);
      }
      map.draw(points, 0);
    }

    function show() {
      if (latest.elapsed != null) {
        var seconds = latest.elapsed;
        // Between events the clock runs on, as the server's does (time since the start).
        if (!ended) seconds += Math.min(600, (Date.now() - latest.at) / 1000);
        figures.elapsed.textContent = units.duration(seconds);
        if (latest.distance != null) {
          figures.distance.textContent = units.distance(latest.distance);
          var average = seconds > 0 && latest.distance > 0 ? latest.distance / seconds : null;
          figures.average.textContent = measure === "speed" ? units.speed(average) : units.pace(average);
          averageBox.hidden = false;
        }
      }
    }

    function apply(data) {
      if (typeof data.elapsed_s === "number") { latest.elapsed = data.elapsed_s; latest.at = Date.now(); }
      if (typeof data.distance_m === "number") latest.distance = data.distance_m;
      if ("hr" in data) {
        figures.hr.textContent = data.hr != null ? units.bpm(data.hr) : "–";
        showZone(zoneBox, figures.zone, data.hr != null ? data.zone : null, words);
      }
      show();
      drawMap();
      if (data.ended && !ended) finished(null);
    }

    function finished(url) {
      ended = true;
      badge.textContent = words("Ended");
      stateLine.classList.add("live-state-ended");
      if (url) {
        linkBox.textContent = "";
        var link = document.createElement("a");
        link.href = url;
        link.textContent = words("SeeWorkout");
        linkBox.appendChild(link);
      }
      connection.textContent = "";
      // The `end` event brings the workout's address; an update saying "ended" may come first.
      if (source && url) source.close();
      else if (source) setTimeout(function () { source.close(); }, 15000);
      show();
    }

    drawMap();
    var source = null;
    if (ended || !window.EventSource || !root.dataset.eventsUrl) return;
    source = new EventSource(root.dataset.eventsUrl);
    source.addEventListener("state", function (event) {
      var data = JSON.parse(event.data);
      points = data.points || [];
      apply(data);
    });
    source.addEventListener("update", function (event) {
      var data = JSON.parse(event.data);
      (data.points || []).forEach(function (p) { points.push(p); });
      apply(data);
    });
    source.addEventListener("end", function (event) {
      var data = {};
      try { data = JSON.parse(event.data); } catch (ignored) { data = {}; }
      finished(data.url);
    });
    source.addEventListener("open", function () { connection.textContent = ""; });
    source.addEventListener("error", function () {
      if (!ended && source.readyState !== EventSource.CLOSED) connection.textContent = words("Reconnecting");
    });
    setInterval(function () { if (!ended) show(); }, 1000);
    recorder.liveState = function () { return { points: points.length, ended: ended, elapsed: latest.elapsed, distance: latest.distance }; };
  }

  var recorderRoot = document.querySelector("[data-recorder]");
  if (recorderRoot) startRecorder(recorderRoot);
  var liveRoot = document.querySelector("[data-live]");
  if (liveRoot) startLive(liveRoot);
})();
