// Fieldhouse progressive enhancement. Every page works without this file; it only adds
// conveniences: browser geolocation into coordinate fields, image previews, upload progress,
// and choosing a time range on a chart by dragging across it.
(function () {
  "use strict";

  // The page's words for what this script writes, in the page's language (base.leaf puts them on
  // <body> as data-words-*); English when a page has none.
  function words(name, english) {
    var text = document.body && document.body.dataset["words" + name];
    return text || english;
  }

  // A refused form opens with its first mistake in view and focused, however far down the page
  // the form is (the server marks each refused field aria-invalid).
  var mistake = document.querySelector('[aria-invalid="true"]');
  if (mistake) {
    mistake.scrollIntoView({ block: "center" });
    mistake.focus({ preventScroll: true });
  }

  // A new account's time zone: the browser's, when the list has it and nobody chose another.
  document.querySelectorAll("select[data-browser-zone]").forEach(function (select) {
    if (select.getAttribute("aria-invalid") === "true" || !window.Intl) return;
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!zone || select.value !== "UTC") return;
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === zone) { select.value = zone; return; }
    }
  });

  // A table wider than its box scrolls sideways; keyboard users reach the scrolling box with Tab
  // (only when it does scroll, so narrow tables add no extra stop).
  function focusableWhenScrolling() {
    document.querySelectorAll(".table-scroll").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        var caption = box.querySelector("caption, h2, h3");
        box.setAttribute("aria-label", caption ? caption.textContent.trim() : words("Table", "Table"));
      } else {
        box.removeAttribute("tabindex");
      }
    });
  }
  focusableWhenScrolling();
  window.addEventListener("resize", focusableWhenScrolling);

  // Kudos without leaving the page: the same form, sent in the background; the button becomes
  // "You gave kudos" and the count follows. Without script the form reloads the page at its entry.
  document.querySelectorAll("form[data-kudos]").forEach(function (form) {
    if (!window.fetch || !window.FormData) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var button = form.querySelector("button");
      if (button) button.disabled = true;
      fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (answer) { if (!answer.ok) throw new Error(answer.status); return answer.json(); })
        .then(function (given) {
          var done = document.createElement("span");
          done.className = "kudos-given";
          done.setAttribute("role", "status");
          done.textContent = form.dataset.kudos || "You gave kudos";
          var box = form.parentNode;
          var count = box.querySelector("[data-kudos-count]");
          if (count) { count.textContent = given.text; count.hidden = false; }
          form.replaceWith(done);
        })
        .catch(function () { form.submit(); });
    });
  });

  // The user menu opens under its button, towards the side of the screen where it fits.
  document.querySelectorAll("details.user-menu").forEach(function (menu) {
    menu.addEventListener("toggle", function () {
      var list = menu.querySelector("ul");
      if (!menu.open || !list) return;
      list.classList.remove("opens-right");
      if (list.getBoundingClientRect().left < 8) list.classList.add("opens-right");
    });
  });

  // A Copy button copies the field it names; the field is selected either way, so copying by
  // hand works where the clipboard is not allowed.
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.dataset.copy);
    if (!field) return;
    var label = button.textContent;
    button.addEventListener("click", function () {
      field.select();
      var done = function () {
        button.textContent = words("Copied", "Copied");
        setTimeout(function () { button.textContent = label; }, 2000);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () {});
      } else if (document.execCommand && document.execCommand("copy")) {
        done();
      }
    });
  });

  // "Use my current location" fills the nearest latitude/longitude fields.
  document.querySelectorAll("[data-geolocate]").forEach(function (button) {
    if (!("geolocation" in navigator)) return;
    var form = button.closest("form");
    var status = form.querySelector("[data-geo-status]");
    button.hidden = false;
    button.addEventListener("click", function () {
      if (status) status.textContent = words("Locating", "Finding your location…");
      navigator.geolocation.getCurrentPosition(function (position) {
        var lat = form.querySelector('[data-geo="lat"]');
        var lon = form.querySelector('[data-geo="lon"]');
        var source = form.querySelector('[data-geo="source"]');
        var here = form.querySelector('input[name="location"][value="here"]');
        if (lat) lat.value = position.coords.latitude.toFixed(5);
        if (lon) lon.value = position.coords.longitude.toFixed(5);
        if (source) source.value = "device";
        if (here) here.checked = true;
        if (status) status.textContent = words("Located", "Location filled in. Nothing is saved until you press Save.");
      }, function (error) {
        if (status) status.textContent = words("Unlocated", "Your location could not be read ({error}). You can type it instead.").replace("{error}", error.message);
      }, { enableHighAccuracy: false, timeout: 10000, maximumAge: 600000 });
    });
  });

  // A place field suggests places as they are typed; choosing one fills the form's coordinates.
  // On /find and privacy zones a typed name stands for a place the server finds itself, so
  // typing clears the coordinates; a venue's name (data-place-keeps-coordinates) is any label,
  // and typing clears only coordinates a suggestion filled in.
  document.querySelectorAll("input[data-place-search]").forEach(function (input) {
    var list = document.getElementById(input.getAttribute("list"));
    var form = input.closest("form");
    if (!list || !window.fetch) return;
    var found = {}, timer = null, asked = "", chosen = null;
    var keeps = input.hasAttribute("data-place-keeps-coordinates");
    var lat = form.querySelector('[data-geo="lat"]'), lon = form.querySelector('[data-geo="lon"]');
    function fill(place) {
      if (lat) lat.value = place ? place.latitude.toFixed(5) : "";
      if (lon) lon.value = place ? place.longitude.toFixed(5) : "";
      chosen = place ? { label: input.value, lat: lat && lat.value, lon: lon && lon.value } : null;
    }
    // Whether the coordinates are still the ones a suggestion filled in (not typed or measured since).
    function stillChosen() {
      return chosen && (!lat || lat.value === chosen.lat) && (!lon || lon.value === chosen.lon);
    }
    input.addEventListener("input", function () {
      var place = found[input.value];
      if (place) {
        fill(place);
        return;
      }
      // A venue's name stays any label: its coordinates go only with the suggestion they came
      // from, and stay while the name still starts with it ("Riverside Hall, court 2").
      if (!keeps) fill(null);
      else if (stillChosen() && input.value.indexOf(chosen.label) !== 0) fill(null);
      clearTimeout(timer);
      timer = setTimeout(function () {
        var q = input.value.trim();
        if (q.length < 2 || q === asked) return;
        asked = q;
        fetch(input.dataset.placeSearch + "?q=" + encodeURIComponent(q), { credentials: "same-origin" })
          .then(function (answer) { return answer.ok ? answer.json() : { results: [] }; })
          .then(function (answer) {
            list.textContent = "";
            answer.results.forEach(function (result) {
              var label = result.name + ", " + result.detail;
              found[label] = result;
              var option = document.createElement("option");
              option.value = label;
              list.appendChild(option);
            });
          }, function () {});
      }, 200);
    });
  });

  // Typing coordinates means "at these coordinates", typed rather than measured.
  document.querySelectorAll('[data-geo="lat"], [data-geo="lon"]').forEach(function (field) {
    field.addEventListener("input", function () {
      var form = field.closest("form");
      var here = form.querySelector('input[name="location"][value="here"]');
      var source = form.querySelector('[data-geo="source"]');
      if (here) here.checked = true;
      if (source) source.value = "typed";
    });
  });

  // Show the chosen picture before it is uploaded.
  document.querySelectorAll("input[type=file][data-preview]").forEach(function (input) {
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      var form = input.closest("form");
      var target = form.querySelector("[data-preview-target]") || document.querySelector("[data-preview-target]");
      if (!file || !file.type.startsWith("image/")) return;
      if (!target) {
        target = document.createElement("img");
        target.className = "avatar avatar-lg";
        target.alt = words("Picture", "Preview of the chosen picture");
        target.setAttribute("data-preview-target", "");
        form.parentNode.insertBefore(target, form);
      }
      // A data: URL, which the Content-Security-Policy allows for images (a blob: URL it blocks).
      var reader = new FileReader();
      // Before a photo is chosen the page holds a placeholder, not an image without a source.
      if (target.tagName !== "IMG") {
        var image = document.createElement("img");
        image.className = target.className;
        image.alt = target.dataset.previewAlt || words("Picture", "Preview of the chosen picture");
        image.setAttribute("data-preview-target", "");
        image.hidden = true;
        target.replaceWith(image);
        target = image;
      }
      reader.addEventListener("load", function () {
        target.src = reader.result;
        target.hidden = false;
      });
      reader.readAsDataURL(file);
    });
  });

  // Upload with a progress bar; on any trouble fall back to a normal form submission.
  document.querySelectorAll("form[data-upload]").forEach(function (form) {
    var bar = form.querySelector("[data-progress]");
    if (!bar || !window.XMLHttpRequest || !window.FormData) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      // What the browser can check (a caption, a required choice) is checked before the upload
      // starts, not after a phone has sent megabytes of photo.
      if (form.reportValidity && !form.reportValidity()) return;
      var request = new XMLHttpRequest();
      request.open("POST", form.action);
      bar.hidden = false;
      var submit = form.querySelector("[type=submit]");
      if (submit) submit.disabled = true;
      request.upload.addEventListener("progress", function (e) {
        if (e.lengthComputable) bar.value = Math.round((e.loaded / e.total) * 100);
      });
      request.addEventListener("load", function () {
        // XHR follows the redirect itself, and that page already carries the one-time message,
        // so show the page it received (at its address) rather than loading it again.
        if (request.responseURL && request.responseURL !== window.location.href) {
          window.history.replaceState(null, "", request.responseURL);
        }
        document.open();
        document.write(request.responseText);
        document.close();
      });
      request.addEventListener("error", function () { form.submit(); });
      request.send(new FormData(form));
    });
  });

  // Drag across a time chart to show that range: the chart's wrapper names the time span its plot
  // covers and the person's time zone, and the range opens at data-url with from= and to= in that
  // zone's wall-clock time (the same fields the form below the chart fills in).
  // The chart is drawn twice (wide for a desktop, narrow for a phone; CSS shows one): each
  // drawing answers a drag with its own width.
  document.querySelectorAll("[data-select-range]").forEach(function (box) {
    if (!window.Intl) return;
    var from = Number(box.dataset.from), to = Number(box.dataset.to);
    var left = 46, right = 10;
    var wall = new Intl.DateTimeFormat("en-CA", {
      timeZone: box.dataset.zone, year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    });
    function local(ms) {
      var p = {};
      wall.formatToParts(new Date(ms)).forEach(function (part) { p[part.type] = part.value; });
      return p.year + "-" + p.month + "-" + p.day + "T" + p.hour + ":" + p.minute;
    }
    var mark = document.createElement("div");
    mark.className = "range-mark";
    mark.hidden = true;
    box.style.position = "relative";
    box.appendChild(mark);
    box.querySelectorAll("svg").forEach(function (svg) {
      var width = svg.viewBox.baseVal.width || 600;
      function timeAt(clientX) {
        var rect = svg.getBoundingClientRect();
        var x = (clientX - rect.left) * width / rect.width;
        var share = Math.min(1, Math.max(0, (x - left) / (width - left - right)));
        return from + share * (to - from);
      }
      var startX = null;
      svg.style.cursor = "crosshair";
      svg.addEventListener("pointerdown", function (e) {
        startX = e.clientX;
        svg.setPointerCapture(e.pointerId);
      });
      svg.addEventListener("pointermove", function (e) {
        if (startX === null) return;
        var rect = svg.getBoundingClientRect(), boxRect = box.getBoundingClientRect();
        var a = Math.min(startX, e.clientX), b = Math.max(startX, e.clientX);
        mark.style.left = (a - boxRect.left + box.scrollLeft) + "px";
        mark.style.width = (b - a) + "px";
        mark.style.top = (rect.top - boxRect.top) + "px";
        mark.style.height = rect.height + "px";
        mark.hidden = b - a < 4;
      });
      svg.addEventListener("pointerup", function (e) {
        if (startX === null) return;
        var a = timeAt(Math.min(startX, e.clientX)), b = timeAt(Math.max(startX, e.clientX));
        startX = null;
        mark.hidden = true;
        // A click or a tiny drag is not a choice of range.
        if (b - a < (to - from) / 100) return;
        var url = box.dataset.url;
        window.location.href = url + (url.indexOf("?") < 0 ? "?" : "&") + "from=" + encodeURIComponent(local(a)) + "&to=" + encodeURIComponent(local(b));
      });
      svg.addEventListener("pointercancel", function () { startX = null; mark.hidden = true; });
    });
  });

  // Learn editor: the preview follows the text as it is typed, rendered by the server exactly as
  // the article page will show it. Without this script the Preview button does the same.
  document.querySelectorAll("[data-learn-editor]").forEach(function (form) {
    var source = form.querySelector("[data-preview-source]");
    var target = document.querySelector("[data-preview-target]");
    var status = document.querySelector("[data-preview-status]");
    var button = form.querySelector("[data-preview-button]");
    if (!source || !target || !window.fetch) return;
    if (button) button.hidden = true;
    var timer = null, sent = 0, shown = 0;
    function refresh() {
      var number = ++sent;
      var body = new URLSearchParams();
      body.set("csrf", form.querySelector('input[name="csrf"]').value);
      body.set("body", source.value);
      if (status) status.textContent = words("Updating", "updating…");
      fetch(target.dataset.previewUrl, { method: "POST", body: body, credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error(response.status === 413 ? words("TooLong", "the text is too long to preview") : words("PreviewFailed", "the preview could not be made ({status})").replace("{status}", response.status));
          return response.text();
        })
        .then(function (html) {
          // Answers can arrive out of order; only the newest one is shown.
          if (number < shown) return;
          shown = number;
          if (html) {
            target.innerHTML = html;
          } else {
            var empty = document.createElement("p");
            empty.className = "muted";
            empty.textContent = words("Empty", "Nothing written yet.");
            target.replaceChildren(empty);
          }
          if (status) status.textContent = "";
        })
        .catch(function (error) { if (status) status.textContent = "— " + error.message; });
    }
    source.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 350);
    });
    refresh();
  });
})();

// The larger layers load only on pages that have something for them: a map with tiles to zoom and
// drag (maps.js, after Leaflet), charts to read (charts.js), a conversation to follow (messages.js).
// Their addresses come with this script's tag (base.leaf); a page without them works as drawn.
(function () {
  var tag = document.currentScript;
  if (!tag) return;
  function load(src, then) {
    var script = document.createElement("script");
    script.src = src;
    script.onload = then || null;
    document.head.appendChild(script);
  }
  function ready(run) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
    else run();
  }
  ready(function () {
    var data = tag.dataset;
    if (data.leaflet && data.maps && document.querySelector("svg[data-map]")) {
      // Leaflet's stylesheet and script arrive together; the maps are made once both are in.
      var waiting = 2;
      function one() { if (--waiting === 0) load(data.maps); }
      var style = document.createElement("link");
      style.rel = "stylesheet";
      style.href = data.leafletCss;
      style.onload = one;
      document.head.appendChild(style);
      load(data.leaflet, one);
    }
    if (data.charts && document.querySelector("[data-chart]")) load(data.charts);
    if (data.messages && document.querySelector("[data-conversation-events], [data-message-form]")) load(data.messages);
  });
})();

// A row of tabs wider than the screen starts scrolled to the current tab.
(function () {
  var current = document.querySelector(".tabs [aria-current=page]");
  if (current && current.parentElement.scrollWidth > current.parentElement.clientWidth) {
    current.parentElement.scrollLeft = current.offsetLeft - current.parentElement.offsetLeft - 16;
  }
})();

// Signing out: the recorder's page kept for offline use (Public/sw.js) and this browser's
// recorder key go with the session; readings not yet sent stay for the person's next sign-in.
(function () {
  document.querySelectorAll('form[action="/logout"]').forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.caches && !window.indexedDB) return;
      event.preventDefault();
      var sent = false;
      function send() { if (!sent) { sent = true; form.submit(); } }
      var jobs = [];
      if (window.caches) {
        jobs.push(caches.keys().then(function (names) {
          return Promise.all(names.filter(function (name) { return name.indexOf("fieldhouse-") === 0; })
            .map(function (name) { return caches.delete(name); }));
        }));
      }
      if (window.indexedDB) {
        jobs.push(new Promise(function (resolve) {
          var open = indexedDB.open("fieldhouse-recorder");
          // No recorder was ever used here: do not make its database.
          open.onupgradeneeded = function () { open.transaction.abort(); };
          open.onerror = function () { resolve(); };
          open.onsuccess = function () {
            var db = open.result;
            if (!db.objectStoreNames.contains("meta")) { db.close(); return resolve(); }
            var tx = db.transaction("meta", "readwrite");
            var cursor = tx.objectStore("meta").openCursor();
            cursor.onsuccess = function () {
              var at = cursor.result;
              if (!at) return;
              if (String(at.key).indexOf("device:") === 0) at.delete();
              at.continue();
            };
            tx.oncomplete = tx.onabort = tx.onerror = function () { db.close(); resolve(); };
          };
        }));
      }
      // Notifications on this browser are the person's too: the push service forgets this
      // browser, and Fieldhouse removes it at its next push (410).
      if (navigator.serviceWorker && window.PushManager) {
        jobs.push(navigator.serviceWorker.getRegistration("/").then(function (registration) {
          return registration && registration.pushManager.getSubscription();
        }).then(function (subscription) { return subscription && subscription.unsubscribe(); }).catch(function () {}));
      }
      Promise.all(jobs).then(send, send);
      // Never hold a sign-out up for long.
      setTimeout(send, 1500);
    });
  });
})();

// Notifications on this browser (Settings → Notifications, #push): subscribes with the site's VAPID
// key through the service worker the recorder also uses (Public/sw.js, which shows what arrives),
// hands the subscription to Fieldhouse, and shows this browser's choice under each topic. Without
// script the section says it needs script; what a browser cannot do, it says too.
(function () {
  var section = document.getElementById("push");
  if (!section || !section.dataset.pushKey) return;
  var status = section.querySelector("[data-push-status]");
  var actions = section.querySelector("[data-push-actions]");
  var turnOn = section.querySelector("[data-push-turn-on]");
  var turnOff = section.querySelector("[data-push-turn-off]");
  var endpointField = document.querySelector("input[data-push-endpoint]");
  var csrf = document.querySelector('input[name="csrf"]');
  function say(name, reason) {
    status.textContent = (section.dataset["wordsPush" + name] || "").replace("{reason}", reason || "");
  }
  if (!window.isSecureContext || !navigator.serviceWorker || !window.PushManager || !window.Notification || !window.crypto || !crypto.subtle) {
    say("Unsupported");
    return;
  }
  function keyBytes(text) {
    var plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(plain.length);
    for (var i = 0; i < plain.length; i++) bytes[i] = plain.charCodeAt(i);
    return bytes;
  }
  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  // The server answers with a redirect to this page, which carries the flash: followed on reload.
  function post(url, fields) {
    var body = new URLSearchParams(fields);
    body.set("csrf", csrf ? csrf.value : "");
    return fetch(url, { method: "POST", body: body, credentials: "same-origin", redirect: "manual" }).then(function (answer) {
      if (answer.type !== "opaqueredirect" && !answer.ok) throw new Error(String(answer.status));
    });
  }
  function fail(error) {
    turnOn.disabled = false;
    turnOff.disabled = false;
    if (window.Notification && Notification.permission === "denied") say("Denied");
    else if (error && error.name === "Timeout") say("Timeout");
    else say("Failed", (error && (error.message || error.name)) || String(error));
  }
  // Which state this browser is in: subscribed here and known to Fieldhouse (its topics show under
  // each topic, ticked as chosen), or not (a subscription Fieldhouse does not know is made anew).
  function show(subscription) {
    actions.hidden = false;
    var choices = document.querySelectorAll("[data-push-choice]");
    // A topic whose only choice is this browser (Messages on a server without e-mail).
    var pushOnly = document.querySelectorAll("[data-push-topic]");
    var off = function () {
      turnOn.hidden = false;
      turnOff.hidden = true;
      endpointField.value = "";
      choices.forEach(function (choice) { choice.hidden = true; });
      pushOnly.forEach(function (topic) { topic.hidden = true; });
      say("Off");
    };
    if (!subscription) return off();
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(subscription.endpoint)).then(function (digest) {
      var topics = JSON.parse(section.dataset.pushBrowsers || "{}")[hex(digest)];
      if (!topics) return off();
      turnOn.hidden = true;
      turnOff.hidden = false;
      endpointField.value = subscription.endpoint;
      choices.forEach(function (choice) {
        var box = choice.querySelector("input");
        box.checked = topics.indexOf(box.value) >= 0;
        choice.hidden = false;
      });
      pushOnly.forEach(function (topic) { topic.hidden = false; });
      say("On");
    });
  }
  navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .then(function (registration) { return registration.pushManager.getSubscription(); })
    .then(show)
    .catch(fail);
  turnOn.addEventListener("click", function () {
    turnOn.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error(permission);
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      // A subscription made with another key (or forgotten by Fieldhouse) is replaced.
      return registration.pushManager.getSubscription().then(function (old) {
        return old ? old.unsubscribe() : null;
      }).then(function () {
        // A browser that cannot reach its push service may never answer: give up after 20 s.
        return Promise.race([
          registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(section.dataset.pushKey) }),
          new Promise(function (resolve, reject) {
            setTimeout(function () { var late = new Error("timeout"); late.name = "Timeout"; reject(late); }, 20000);
          })
        ]);
      });
    }).then(function (subscription) {
      var made = subscription.toJSON();
      return post(section.dataset.pushSubscribe, { endpoint: made.endpoint, p256dh: made.keys.p256dh, auth: made.keys.auth });
    }).then(function () { window.location.reload(); }, fail);
  });
  turnOff.addEventListener("click", function () {
    turnOff.disabled = true;
    navigator.serviceWorker.ready.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return;
      return post(section.dataset.pushStop, { endpoint: subscription.endpoint }).then(function () { return subscription.unsubscribe(); });
    }).then(function () { window.location.reload(); }, fail);
  });
})();
