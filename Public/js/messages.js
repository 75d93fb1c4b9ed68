// An open conversation: new messages arrive as server-sent events (one drawn message each, with
// its id, so a reconnecting browser asks for what it missed), and the form sends without leaving
// the page. Without this script the page works as drawn: a reload shows new messages, and the
// form posts and comes back.
(function () {
  "use strict";
  var list = document.querySelector("[data-conversation-events]");
  var form = document.querySelector("[data-message-form]");

  function nearBottom() {
    return window.innerHeight + window.scrollY >= document.body.scrollHeight - 200;
  }

  function add(event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    if (!data || !data.anchor || document.getElementById(data.anchor)) return;
    var follow = nearBottom();
    var holder = document.createElement("ol");
    holder.innerHTML = data.html;
    var item = holder.firstElementChild;
    if (!item) return;
    list.appendChild(item);
    var empty = document.querySelector("[data-conversation-empty]");
    if (empty) empty.remove();
    if (follow) item.scrollIntoView({ block: "end" });
  }

  // A message the page shows was edited, hidden by a moderator, or deleted.
  function update(event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    var old = data && data.anchor && document.getElementById(data.anchor);
    if (!old) return;
    var holder = document.createElement("ol");
    holder.innerHTML = data.html;
    if (holder.firstElementChild) old.replaceWith(holder.firstElementChild);
  }

  function remove(event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    var old = data && data.anchor && document.getElementById(data.anchor);
    if (old) old.remove();
  }

  if (list && window.EventSource) {
    var last = list.lastElementChild;
    var url = list.getAttribute("data-conversation-events");
    if (last && last.id) url += "?after=" + encodeURIComponent(last.id.replace(/^m-/, ""));
    var source = new EventSource(url);
    source.addEventListener("message", add);
    source.addEventListener("update", update);
    source.addEventListener("remove", remove);
    list.setAttribute("data-live", "on");
  }

  if (form && list && window.EventSource && window.fetch && window.FormData) {
    form.addEventListener("submit", function (event) {
      var box = form.querySelector("textarea");
      if (!box || !box.value.trim()) return;
      event.preventDefault();
      var button = form.querySelector("button[type=submit]");
      if (button) button.disabled = true;
      fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)), redirect: "manual", credentials: "same-origin" })
        .then(function (response) {
          // The answer is the redirect back to the conversation; the message itself arrives as an
          // event like everyone else's. Anything else is shown by the server's own page.
          if (response.type === "opaqueredirect" || response.ok) {
            box.value = "";
            var reply = form.querySelector("input[name=reply_to]");
            if (reply) { reply.remove(); var quote = form.querySelector(".message-quote"); if (quote) quote.remove(); }
            var key = form.querySelector("input[name=key]");
            if (key) key.value = Math.random().toString(36).slice(2) + Date.now().toString(36);
            box.focus();
          } else {
            form.submit();
          }
        }, function () { form.submit(); })
        .then(function () { if (button) button.disabled = false; });
    });
  }
})();
