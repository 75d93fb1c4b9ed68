"""Notifications on this browser: a new person opens Settings → Notifications, lets the browser show
notifications (the permission granted by emulation, as a person's "Allow" would) and turns them on.

The browser's own push service is out of reach here, so the journey goes as far as the subscription
the browser hands the page. When headless Chromium can make one, the page posts it and then shows
this browser's choice under each topic, and stopping takes it back. When it cannot (no connection to
its push service), the page must say so in words, and keep everything else working. Without script
the section says it needs script."""

from browser import NEW_PASSWORD, JourneyFailed
from words import found_in

WORKED = "This browser shows your notifications. Choose which below, under each topic."
# What the page says when the browser could not subscribe: its push service never answered, or it
# refused (the page then gives the browser's reason).
FAILED = ("This browser's push service did not answer, so this browser could not subscribe. Try again later.",
          "This browser could not subscribe to notifications: {reason}")


# Stands in for the browser's push service: subscribe() makes a subscription as a browser would (a
# P-256 key pair and a 16-byte secret, from WebCrypto) and keeps it, with the key the page gave.
PUSH_SERVICE = """
(function () {
  if (!window.PushManager) return;
  function b64(buffer) {
    return btoa(String.fromCharCode.apply(null, new Uint8Array(buffer))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  }
  function kept() {
    var data = JSON.parse(localStorage.getItem("e2e-push-subscription") || "null");
    return data && { endpoint: data.endpoint, toJSON: function () { return data; },
      unsubscribe: function () { localStorage.removeItem("e2e-push-subscription"); return Promise.resolve(true); } };
  }
  PushManager.prototype.getSubscription = function () { return Promise.resolve(kept()); };
  PushManager.prototype.subscribe = function (options) {
    localStorage.setItem("e2e-push-key", b64(options.applicationServerKey));
    return crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]).then(function (pair) {
      return crypto.subtle.exportKey("raw", pair.publicKey);
    }).then(function (raw) {
      var data = { endpoint: "https://push.example.net/e2e/" + Math.random().toString(36).slice(2),
        keys: { p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16))) } };
      localStorage.setItem("e2e-push-subscription", JSON.stringify(data));
      return kept();
    });
  };
})();
"""


def follow_subscription(person):
    """Subscribed: Fieldhouse knows this browser, each topic has its "On this browser" box (all on at
    first, as under the bell), a box turned off stays off, and stopping takes the browser back."""
    person.wait_until("the page shows this browser's topics", lambda d: d.find_element(
        "css selector", "[data-push-turn-off]").is_displayed())
    person.sees(WORKED, "1 browser shows your notifications.")
    boxes = [box for box in person.driver.find_elements("css selector", "[data-push-choice] input") if box.is_displayed()]
    if not boxes or not all(box.is_selected() for box in boxes):
        raise JourneyFailed("a new browser should get every topic that is on under the bell")
    person.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", boxes[0])
    boxes[0].click()
    person.press("Save")
    person.sees("Saved.")
    person.wait_until("the page shows this browser's topics again", lambda d: d.find_element(
        "css selector", "[data-push-turn-off]").is_displayed())
    boxes = [box for box in person.driver.find_elements("css selector", "[data-push-choice] input") if box.is_displayed()]
    if boxes[0].is_selected() or not all(box.is_selected() for box in boxes[1:]):
        raise JourneyFailed("the first topic was turned off for this browser and should stay off")
    person.press("Stop on this browser")
    person.sees("This browser no longer shows your notifications.")
    person.does_not_see("1 browser shows your notifications.")


def run(r):
    username = r.unique("pusher")
    person = r.newcomer(f"Pia {r.unique('Push')}", username)
    person.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["notifications"], "origin": person.base})
    person.visit("/settings/notifications")
    person.sees("On this browser", "Your browser can show your notifications as they happen")
    person.wait_until("the page finds out what this browser can do", lambda d: person.driver.find_element(
        "css selector", "[data-push-turn-on]").is_displayed())
    person.does_not_see("need script")
    person.press("Turn on for this browser", in_place=True)
    status = person.driver.find_element("css selector", "[data-push-status]")
    person.wait_until(
        "the page says whether this browser subscribed",
        lambda d: found_in(status.text, WORKED) or any(found_in(status.text, text) for text in FAILED), seconds=45)
    person.landed("after Turn on for this browser")

    if any(found_in(status.text, text) for text in FAILED):
        # Headless Chromium here never reaches its push service: the page says so in words, leaves
        # the button to try again, offers no per-browser topics, and the rest of the page still saves.
        said = status.text
        if not person.driver.find_element("css selector", "[data-push-turn-on]").is_enabled():
            raise JourneyFailed("after a failed subscription the button should be there to try again")
        if any(box.is_displayed() for box in person.driver.find_elements("css selector", "[data-push-choice]")):
            raise JourneyFailed("with no subscription, the page should not offer per-browser topics")
        person.press("Save")
        person.sees("Saved.")
        print(f"    push: headless Chromium could not subscribe; the page said: {said!r}")
    else:
        follow_subscription(person)

    # From the subscription on: a browser whose push service answers, played by the journey (the
    # subscription it hands the page has a real P-256 key and auth secret, for an https endpoint),
    # so the page's own part runs whole: handing it over, this browser's topics, stopping.
    stand_in = r.person(username=None)
    stand_in.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PUSH_SERVICE})
    stand_in.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["notifications"], "origin": stand_in.base})
    stand_in.sign_in(username, NEW_PASSWORD)
    stand_in.visit("/settings/notifications")
    stand_in.wait_until("the page finds out what this browser can do", lambda d: d.find_element(
        "css selector", "[data-push-turn-on]").is_displayed())
    stand_in.press("Turn on for this browser")
    stand_in.sees("This browser will show your notifications.")
    key = stand_in.driver.execute_script("return localStorage.getItem('e2e-push-key')")
    if key != stand_in.driver.find_element("css selector", "#push").get_attribute("data-push-key"):
        raise JourneyFailed(f"the page should subscribe with the site's VAPID key; it gave {key!r}")
    follow_subscription(stand_in)

    # Without script the section says what it needs instead of offering a button that cannot work.
    plain = r.person(username=None, javascript=False)
    plain.who = username
    plain.sign_in(username, NEW_PASSWORD)
    plain.visit("/settings/notifications")
    plain.sees("Notifications on this browser need script: turn script on to set them up here.")
