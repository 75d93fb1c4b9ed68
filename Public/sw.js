// Fieldhouse service worker: the recorder (/record) and the files it needs, offline; and the
// notifications Fieldhouse sends by Web Push (Settings → Notifications, "On this browser").
//
// Only /record is ever kept among pages: it is the person's own recorder, and every other page
// (someone's profile, a team, a workout) must never sit in a cache on a shared device. Answers of
// /api/ are never cached either. Static files (/css/, /js/, the icon and the manifest) come from
// the cache and are refreshed from the network behind it.
"use strict";

var CACHE = "fieldhouse-recorder-1";
var PAGE = "/record";
var FIXED = ["/manifest.json", "/favicon.svg", "/img/icon-192.png", "/img/icon-512.png"];

function isStatic(url) {
  return url.pathname.indexOf("/css/") === 0 || url.pathname.indexOf("/js/") === 0 || FIXED.indexOf(url.pathname) >= 0;
}

// The stylesheet and scripts a copy of /record refers to (their versioned addresses).
function assetsOf(html) {
  var found = [];
  var pattern = /<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g;
  var match;
  while ((match = pattern.exec(html))) {
    var url = new URL(match[1].replace(/&amp;/g, "&"), self.location.origin);
    if (url.origin === self.location.origin && isStatic(url)) found.push(url.pathname + url.search);
  }
  return found;
}

// Keeps a fresh copy of /record and what it refers to; drops static files it no longer refers to
// (an older version of the stylesheet). A redirect (to sign in) means the page is not this
// person's to keep: the old copy goes.
function keepPage(response) {
  return caches.open(CACHE).then(function (cache) {
    if (!response.ok || response.redirected || response.type === "opaqueredirect") return cache.delete(PAGE);
    return response.clone().text().then(function (html) {
      var wanted = assetsOf(html).concat(FIXED);
      return cache.put(PAGE, response.clone()).then(function () {
        return cache.keys();
      }).then(function (requests) {
        var have = requests.map(function (request) { var u = new URL(request.url); return u.pathname + u.search; });
        var fetches = wanted.filter(function (path) { return have.indexOf(path) < 0; }).map(function (path) {
          return fetch(path, { credentials: "same-origin" }).then(function (answer) {
            if (answer.ok) return cache.put(path, answer);
          }).catch(function () {});
        });
        // An older version of a file the page refers to (another ?v=) is of no more use.
        var wantedFiles = wanted.map(function (path) { return path.split("?")[0]; });
        var drops = have.filter(function (path) {
          return wantedFiles.indexOf(path.split("?")[0]) >= 0 && wanted.indexOf(path) < 0 && path !== PAGE;
        }).map(function (path) { return cache.delete(path); });
        return Promise.all(fetches.concat(drops));
      });
    });
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    fetch(PAGE, { credentials: "same-origin", redirect: "follow", cache: "no-store" })
      .then(keepPage)
      .catch(function () {})
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name.indexOf("fieldhouse-") === 0 && name !== CACHE; })
        .map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0) return;

  if (request.mode === "navigate") {
    if (url.pathname !== PAGE) return; // every other page: straight to the network, never kept
    // Network first; the kept copy when the network is not there.
    event.respondWith(
      fetch(request).then(function (response) {
        event.waitUntil(keepPage(response.clone()).catch(function () {}));
        return response;
      }, function () {
        return caches.open(CACHE).then(function (cache) { return cache.match(PAGE); }).then(function (kept) {
          return kept || Response.error();
        });
      })
    );
    return;
  }

  if (isStatic(url)) {
    // The cache first, refreshed from the network behind it; the network when nothing is kept.
    event.respondWith(
      caches.open(CACHE).then(function (cache) {
        return cache.match(request).then(function (kept) {
          var fresh = fetch(request).then(function (response) {
            if (response.ok && response.type === "basic") cache.put(request, response.clone());
            return response;
          });
          if (kept) {
            event.waitUntil(fresh.catch(function () {}));
            return kept;
          }
          return fresh;
        });
      })
    );
  }
});

// A notification pushed by Fieldhouse: {title, body, url}, the text and link the bell shows. A
// tap opens that page, or brings forward a window already on it; only pages of this site open.
function ownPage(address) {
  try {
    var url = new URL(String(address || ""), self.location.origin);
    if (url.origin === self.location.origin) return url.href;
  } catch (error) {}
  return new URL("/notifications", self.location.origin).href;
}

self.addEventListener("push", function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = {}; }
  event.waitUntil(self.registration.showNotification(String(message.title || "Fieldhouse"), {
    body: String(message.body || ""),
    icon: "/img/icon-192.png",
    data: { url: ownPage(message.url) }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = ownPage(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url);
    })
  );
});
