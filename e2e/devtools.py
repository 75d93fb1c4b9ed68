"""The DevTools protocol straight to a browser, for the targets chromedriver's `execute_cdp_cmd` does
not reach: a page's service workers.

Network conditions emulated through chromedriver (`Network.emulateNetworkConditions`, its own
`set_network_conditions`, or BiDi's `emulation.setNetworkConditions`) hold for the page alone: with the
page "offline" a service worker's fetch still reaches the server, so a reload offline would never
need the worker's cache. `offline(driver, True)` sets the conditions on the page and on every service
worker of the browser, through a second DevTools connection to the browser chromedriver started
(`goog:chromeOptions.debuggerAddress`). `lose_answer(driver, "/api/v1/samples")` makes the next
answer to such a request get lost on its way back (the server did the work; the page hears a broken
connection, as in a tunnel), so a page's retry can be seen to store nothing twice.
"""

import json
import socket
import time
import urllib.request

import websocket

_connections = {}  # driver session id → DevTools


class DevTools:
    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as answer:
            url = json.load(answer)["webSocketDebuggerUrl"]
        # Chromium refuses a websocket that says where it comes from unless told to allow it.
        self.socket = websocket.create_connection(url, suppress_origin=True, timeout=15)
        self.next_id = 0
        self.sessions = {}  # target id → session id
        self.events = []  # Fetch events that came while an answer was awaited

    def command(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            answer = json.loads(self.socket.recv())
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error'].get('message')}")
                return answer.get("result", {})
            if answer.get("method", "").startswith("Fetch."):
                self.events.append(answer)

    def event(self, method, seconds):
        """The next event called `method` (kept or still to come), or None after `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            for event in self.events:
                if event["method"] == method:
                    self.events.remove(event)
                    return event
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.socket.settimeout(left)
            try:
                message = json.loads(self.socket.recv())
            except (socket.timeout, websocket.WebSocketTimeoutException):
                return None
            finally:
                self.socket.settimeout(15)
            if message.get("method", "").startswith("Fetch."):
                self.events.append(message)

    def session(self, target):
        if target not in self.sessions:
            self.sessions[target] = self.command("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            self.command("Network.enable", {}, self.sessions[target])
        return self.sessions[target]

    def offline(self, offline):
        conditions = {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        for target in self.command("Target.getTargets")["targetInfos"]:
            if target["type"] in ("page", "service_worker") and not target["url"].startswith("chrome"):
                try:
                    self.command("Network.emulateNetworkConditions", conditions, self.session(target["targetId"]))
                except RuntimeError:
                    self.sessions.pop(target["targetId"], None)  # a worker that stopped meanwhile

    def page_session(self, driver):
        return self.session(driver.current_window_handle)  # chromedriver's handle is the target id

    def arm(self, driver, url_part):
        """From now on, answers to requests whose address holds `url_part` wait here (see lose)."""
        self.command("Fetch.enable", {"patterns": [{"urlPattern": f"*{url_part}*", "requestStage": "Response"}]}, self.page_session(driver))

    def lose(self, driver, seconds):
        """The first answer held back is lost; the rest go on. Returns its status (None: none came)."""
        session = self.page_session(driver)
        paused = self.event("Fetch.requestPaused", seconds)
        try:
            if paused:
                self.command("Fetch.failRequest", {"requestId": paused["params"]["requestId"], "errorReason": "ConnectionReset"}, session)
            self.command("Fetch.disable", {}, session)
            for event in [e for e in self.events if e["method"] == "Fetch.requestPaused"]:
                self.events.remove(event)  # let anything else held meanwhile go (after disable it would hang)
                try:
                    self.command("Fetch.continueRequest", {"requestId": event["params"]["requestId"]}, session)
                except RuntimeError:
                    pass
        except RuntimeError:
            pass
        return paused and paused["params"].get("responseStatusCode")


def tools(driver):
    found = _connections.get(driver.session_id)
    if found is None:
        found = _connections[driver.session_id] = DevTools(driver)
    return found


def offline(driver, is_offline):
    """The page and its service workers offline (True) or back online (False)."""
    tools(driver).offline(is_offline)
