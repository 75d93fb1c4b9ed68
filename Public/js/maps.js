// Zoomable maps. Every map is first the server's SVG (Core/SVGMap.swift), which works without
// script; where tiles are configured the SVG also carries what it draws as data-map, and this
// file (loaded by app.js after Leaflet) puts a Leaflet map with the same lines, markers and
// circles in its place, over the same signed tile area. It shows nothing the SVG does not.
//
// It listens to the charts (charts.js): "fieldhouse:chart-point" {seconds} marks where a reading
// was taken on a workout's map, "fieldhouse:chart-range" {from, to} draws that stretch.
(function () {
  "use strict";
  var L = window.L;
  if (!L) return;

  function words(name, english) {
    var text = document.body && document.body.dataset["words" + name];
    return text || english;
  }

  // Encoded polylines (FieldhouseKit/PolylineCode.swift): rows of `columns` whole numbers, each
  // the difference from the row before, zig-zagged, in 5-bit groups from "?" (63) up.
  function decode(text, columns) {
    var rows = [], row = [], previous = [], value = 0, shift = 0;
    for (var c = 0; c < columns; c++) previous.push(0);
    for (var i = 0; i < text.length; i++) {
      var chunk = text.charCodeAt(i) - 63;
      value += (chunk & 31) * Math.pow(2, shift);
      if (chunk & 32) { shift += 5; continue; }
      var delta = value % 2 ? -(value + 1) / 2 : value / 2;
      var column = row.length;
      previous[column] += delta;
      row.push(previous[column]);
      if (row.length === columns) { rows.push(row); row = []; }
      value = 0;
      shift = 0;
    }
    return rows;
  }

  // Leaflet writes a string tooltip as HTML; names people typed (a zone's) go in as text.
  function text(words) {
    var span = document.createElement("span");
    span.textContent = words;
    return span;
  }

  function pin(marker) {
    var html = document.createElement("span");
    html.textContent = marker.symbol;
    return L.divIcon({
      className: "map-pin" + (marker.primary ? " map-pin-primary" : ""),
      html: html.outerHTML,
      iconSize: [26, 34],
      iconAnchor: [13, 34],
      popupAnchor: [0, -30]
    });
  }

  var linked = [];

  function upgrade(svg) {
    var data;
    try { data = JSON.parse(svg.getAttribute("data-map")); } catch (e) { return; }
    if (!data || !data.tiles) return;
    // The map's own words come with its data, in the page's language.
    var said = data.words || {};
    var box = document.createElement("div");
    box.className = "map-live";
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", data.label + ". " + said.keys);
    svg.parentNode.insertBefore(box, svg);
    svg.classList.add("map-replaced");
    svg.setAttribute("aria-hidden", "true");

    var area = L.latLngBounds(data.bounds);
    var map = L.map(box, {
      maxBounds: area,
      maxBoundsViscosity: 1,
      minZoom: Math.max(0, data.zoom - 2),
      maxZoom: data.maxZoom,
      // The page scrolls under the wheel until the map is chosen (clicked or focused).
      scrollWheelZoom: false,
      zoomControl: false,
      attributionControl: false,
      // Tiles and popups appear at once: no fading for motion-sensitive people, nor for contrast checks.
      fadeAnimation: false
    });
    L.control.zoom({ zoomInTitle: said.zoomIn, zoomOutTitle: said.zoomOut }).addTo(map);
    L.control.attribution({ prefix: false }).addAttribution(data.attribution).addTo(map);
    map.on("click focus", function () { map.scrollWheelZoom.enable(); });
    box.addEventListener("focusin", function () { map.scrollWheelZoom.enable(); });
    L.tileLayer(data.tiles, { bounds: area, maxZoom: data.maxZoom, maxNativeZoom: data.maxZoom }).addTo(map);

    // Everything to draw, decoded first: the view fits it before any layer is added (Leaflet puts
    // a layer on the page only once the map has a view).
    var pieces = (data.paths || []).map(function (encoded, index) {
      var points = decode(encoded, 2).map(function (p) { return [p[0] / 1e5, p[1] / 1e5]; });
      var times = data.times && data.times[index] ? decode(data.times[index], 1).map(function (t) { return t[0]; }) : null;
      return { points: points, times: times && times.length === points.length ? times : null };
    });
    var circles = data.circles || [], markers = data.markers || [];
    var content = [];
    pieces.forEach(function (piece) { content = content.concat(piece.points); });
    circles.forEach(function (circle) {
      var reach = L.latLng(circle.at).toBounds(circle.metres * 2);
      content.push(reach.getNorthWest(), reach.getSouthEast());
    });
    markers.forEach(function (item) { content.push(item.at); });
    if (content.length > 1) {
      map.fitBounds(L.latLngBounds(content), { padding: [28, 28], maxZoom: data.zoom });
    } else {
      map.setView(data.centre, data.zoom);
    }

    pieces.forEach(function (piece) {
      L.polyline(piece.points, { color: "#fff", weight: 6, opacity: 1, interactive: false }).addTo(map);
      L.polyline(piece.points, { color: "#c2410c", weight: 3.5, opacity: 1, interactive: false }).addTo(map);
    });
    circles.forEach(function (circle) {
      L.circle(circle.at, { radius: circle.metres, color: "#b3261e", weight: 2, fillOpacity: 0.2 }).bindTooltip(text(circle.title)).addTo(map);
    });
    // Secondary markers first, so the main one is on top.
    markers.slice().sort(function (a, b) { return (a.primary ? 1 : 0) - (b.primary ? 1 : 0); }).forEach(function (item) {
      var marker = L.marker(item.at, { icon: pin(item), title: item.title, keyboard: true, zIndexOffset: item.primary ? 1000 : 0 }).addTo(map);
      var element = marker.getElement();
      element.setAttribute("aria-label", item.title);
      if (item.href) {
        var link = document.createElement("a");
        link.href = item.href;
        link.textContent = item.title;
        // The popup keeps clear of the map's buttons in its corners.
        marker.bindPopup(link, { maxWidth: 220, autoPanPaddingTopLeft: [60, 60], autoPanPaddingBottomRight: [20, 40] });
        element.setAttribute("role", "button");
      } else {
        // A marker that opens nothing is not a stop for the keyboard.
        element.removeAttribute("tabindex");
        element.setAttribute("role", "img");
      }
    });
    if (data.locate) locateButton(map, area, said);
    box.fieldhouseTrack = function (points) { follow(map, area, points); };
    if (pieces.some(function (piece) { return piece.times; })) linked.push({ map: map, pieces: pieces, point: null, stretch: null });
    box.fieldhouseMap = map;
  }

  // A live recording's track as it grows (record.js calls this through the map box's
  // fieldhouseTrack): points are [lat, lon, ms] in time order, and a fourth element starts a new
  // piece (after positions this viewer may not see). The view follows the newest point while it
  // stays inside the map's signed area; a person who moved the map keeps their view.
  function follow(map, area, points) {
    var pieces = [], piece = null;
    points.forEach(function (p) {
      if (!piece || p.length > 3) { piece = []; pieces.push(piece); }
      piece.push([p[0], p[1]]);
    });
    if (!map._fieldhouseTrack) {
      map._fieldhouseTrack = {
        casing: L.polyline([], { color: "#fff", weight: 6, opacity: 1, interactive: false }).addTo(map),
        line: L.polyline([], { color: "#c2410c", weight: 3.5, opacity: 1, interactive: false }).addTo(map),
        here: L.circleMarker([0, 0], { radius: 7, color: "#fff", weight: 2.5, fillColor: "#b3261e", fillOpacity: 1, interactive: false }),
        moved: false
      };
      map.on("dragstart zoomstart", function () { map._fieldhouseTrack.moved = true; });
    }
    var track = map._fieldhouseTrack;
    track.casing.setLatLngs(pieces);
    track.line.setLatLngs(pieces);
    map.getContainer().setAttribute("data-track-points", String(points.length));
    var last = points.length ? L.latLng(points[points.length - 1][0], points[points.length - 1][1]) : null;
    if (!last) { track.here.remove(); return; }
    track.here.setLatLng(last).addTo(map);
    if (!track.moved && area.contains(last) && !map.getBounds().pad(-0.1).contains(last)) map.panTo(last, { animate: false });
  }

  // "Where I am": the browser's position, shown on this map only; it is never sent anywhere
  // (searching near it is the form's "Use where I am now", which the person submits), and the map
  // only ever zooms out to show it, so no tile asked for pinpoints it either.
  function locateButton(map, area, said) {
    if (!navigator.geolocation) return;
    var Control = L.Control.extend({
      options: { position: "bottomleft" },
      onAdd: function () {
        var holder = L.DomUtil.create("div", "leaflet-bar map-locate");
        var button = L.DomUtil.create("button", "", holder);
        button.type = "button";
        button.textContent = said.whereIAm;
        var status = L.DomUtil.create("span", "visually-hidden", holder);
        status.setAttribute("aria-live", "polite");
        L.DomEvent.disableClickPropagation(holder);
        var you = null;
        button.addEventListener("click", function () {
          status.textContent = words("Locating", "Finding your location…");
          navigator.geolocation.getCurrentPosition(function (position) {
            var here = L.latLng(position.coords.latitude, position.coords.longitude);
            if (you) you.remove();
            you = L.layerGroup([
              L.circle(here, { radius: Math.min(position.coords.accuracy || 0, 2000), color: "#1d4ed8", weight: 1, fillOpacity: 0.1, interactive: false }),
              L.circleMarker(here, { radius: 8, color: "#fff", weight: 3, fillColor: "#1d4ed8", fillOpacity: 1, pane: "markerPane" }).bindTooltip(text(said.youAreHere))
            ]).addTo(map);
            if (area.contains(here)) {
              // Never closer than the map already is: tiles around the position would tell this
              // server where the person is. Zooming in is theirs to choose.
              if (!map.getBounds().contains(here)) map.fitBounds(map.getBounds().extend(here));
              status.textContent = said.youAreHere;
            } else {
              status.textContent = said.outside;
            }
            button.classList.add("is-located");
            holder.setAttribute("data-located", area.contains(here) ? "inside" : "outside");
          }, function (error) {
            status.textContent = words("Unlocated", "Your location could not be read ({error}). You can type it instead.").replace("{error}", error.message);
          }, { enableHighAccuracy: true, timeout: 10000, maximumAge: 60000 });
        });
        return holder;
      }
    });
    new Control().addTo(map);
  }

  // The point of a workout's map at `seconds`: the nearest point of the piece that spans it.
  function pointAt(pieces, seconds) {
    for (var i = 0; i < pieces.length; i++) {
      var times = pieces[i].times;
      if (!times || seconds < times[0] || seconds > times[times.length - 1]) continue;
      var low = 0, high = times.length - 1;
      while (high - low > 1) {
        var mid = (low + high) >> 1;
        if (times[mid] <= seconds) low = mid; else high = mid;
      }
      return pieces[i].points[seconds - times[low] <= times[high] - seconds ? low : high];
    }
    return null;
  }

  document.addEventListener("fieldhouse:chart-point", function (event) {
    var seconds = event.detail && typeof event.detail.seconds === "number" ? event.detail.seconds : null;
    linked.forEach(function (entry) {
      var at = seconds === null ? null : pointAt(entry.pieces, seconds);
      if (!at) {
        if (entry.point) { entry.point.remove(); entry.point = null; }
        return;
      }
      if (!entry.point) {
        entry.point = L.circleMarker(at, { radius: 7, color: "#fff", weight: 3, fillColor: "#1d4ed8", fillOpacity: 1, interactive: false }).addTo(entry.map);
        entry.point.getElement().classList.add("map-reading");
      } else {
        entry.point.setLatLng(at);
      }
    });
  });

  document.addEventListener("fieldhouse:chart-range", function (event) {
    var range = event.detail && typeof event.detail.from === "number" ? event.detail : null;
    linked.forEach(function (entry) {
      if (entry.stretch) { entry.stretch.remove(); entry.stretch = null; }
      if (!range) return;
      var lines = entry.pieces.filter(function (piece) { return piece.times; }).map(function (piece) {
        return piece.points.filter(function (p, i) { return piece.times[i] >= range.from && piece.times[i] <= range.to; });
      }).filter(function (line) { return line.length > 1; });
      if (!lines.length) return;
      entry.stretch = L.polyline(lines, { color: "#1d4ed8", weight: 5, opacity: 0.9, interactive: false }).addTo(entry.map);
      entry.map.fitBounds(entry.stretch.getBounds(), { padding: [28, 28] });
    });
  });

  document.querySelectorAll("svg[data-map]").forEach(upgrade);
})();
