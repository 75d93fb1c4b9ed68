"""The DevTools protocol straight to a browser, for the targets chromedriver's `execute_cdp_cmd` does
not reach: a page's service workers.

Network conditions emulated through chromedriver (`Network.emulateNetworkConditions`, its own
`set_network_conditions`, or BiDi's `emulation.setNetworkConditions`) hold for the page alone: with the
page "offline" a service worker's fetch still reaches the server, so a reload offline would never
need the worker's cache. `offline(driver, True)` sets the conditions on the page and on every service
worker of the browser, through a second DevTools connection to the browser chromedriver started
(`goog:chromeOptions.debuggerAddress`).
"""

import json
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

    def command(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:  # events for attached targets come in between; none is wanted here
            answer = json.loads(self.socket.recv())
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error'].get('message')}")
                return answer.get("result", {})

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


def offline(driver, is_offline):
    """The page and its service workers offline (True) or back online (False)."""
    tools = _connections.get(driver.session_id)
    if tools is None:
        tools = _connections[driver.session_id] = DevTools(driver)
    tools.offline(is_offline)
