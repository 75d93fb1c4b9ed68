"""A small WebDriver BiDi client, for what chromedriver's classic commands cannot do: emulating a
Bluetooth heart-rate strap (the `bluetooth.*` commands of the Web Bluetooth spec's automation section,
which Chromium's BiDi mapper turns into its own BluetoothEmulation domain).

The browser must be started with the capability `webSocketUrl: True` (and, on Linux, with
`--enable-experimental-web-platform-features`, without which `navigator.bluetooth` is undefined).
One thread reads the socket: answers go to whoever sent the command, events to `events` and to the
handlers registered with `on`, which run one at a time on a thread of their own (so they may send
commands and wait for the answers).

What a strap needs (Chromium 156; see `Strap`):
  1. `bluetooth.simulateAdapter` powered on; `bluetooth.simulatePreconnectedPeripheral` listing
     0x180D; its GATT tree with `bluetooth.simulateService`, `bluetooth.simulateCharacteristic` and, on
     every characteristic the page subscribes to, `bluetooth.simulateDescriptor` with the Client
     Characteristic Configuration descriptor 0x2902. Without that descriptor `startNotifications()`
     fails with "NotSupportedError: GATT Error: Not supported." (Chromium looks for it to turn
     notifications on). The tree must exist before the connection is answered: made after it,
     `getPrimaryService` finds no service.
  2. The page's `requestDevice` raises `bluetooth.requestDevicePromptUpdated` (several times, devices
     listed by address): answer `bluetooth.handleRequestDevicePrompt` once with the device.
  3. `gatt.connect()` raises `bluetooth.gattConnectionAttempted`: answer
     `bluetooth.simulateGattConnectionResponse` with code 0.
  4. `startNotifications()` raises `bluetooth.characteristicEventGenerated` "subscribe-to-notifications":
     answer `bluetooth.simulateCharacteristicResponse` of that type with code 0.
  5. A navigation (a reload) ends the emulation: the page then hears "Bluetooth adapter not available"
     and BluetoothEmulation commands answer "not enabled". `power_on()` again after it. And
     `bluetooth.simulateGattDisconnection` makes the emulation forget the strap's services (the next
     connection finds "No Services matching UUID"): `drop()` sets the strap up anew.
Neither BiDi nor Chromium's BluetoothEmulation domain (156: enable, simulatePreconnectedPeripheral,
simulateAdvertisement, simulateGATTOperationResponse, simulateCharacteristicOperationResponse,
simulateDescriptorOperationResponse, add/remove Service/Characteristic/Descriptor,
simulateGATTDisconnection) can make the peripheral send a notification. What comes nearest is a read:
`readValue()` on the page's own characteristic object raises "read", `bluetooth.simulateCharacteristicResponse`
"read" answers it with the bytes, and Chromium fires `characteristicvaluechanged` on that object with
a DataView of them, the event a notification fires, so the page's own listener gets them
(`Strap.notify`). For that the emulated 0x2A37 also has the "read" property a real strap lacks.
"""

import json
import queue
import threading
import time

import websocket

HEART_RATE = "0000180d-0000-1000-8000-00805f9b34fb"
HEART_RATE_MEASUREMENT = "00002a37-0000-1000-8000-00805f9b34fb"
BATTERY = "0000180f-0000-1000-8000-00805f9b34fb"
BATTERY_LEVEL = "00002a19-0000-1000-8000-00805f9b34fb"
CCCD = "00002902-0000-1000-8000-00805f9b34fb"


class BiDiError(RuntimeError):
    pass


class BiDi:
    def __init__(self, driver):
        url = driver.capabilities.get("webSocketUrl")
        if not isinstance(url, str):
            raise BiDiError("the browser was not started with the capability webSocketUrl: True")
        self.socket = websocket.create_connection(url, timeout=None)
        self.next_id = 0
        self.lock = threading.Lock()
        self.waiting = {}  # id → (threading.Event, [answer])
        self.events = queue.Queue()
        self.handlers = {}  # method → [function(params)]
        self.handling = queue.Queue()  # events for the handlers, run one at a time on their own thread
        self.log = []  # (seconds, "→"/"←", method, short text): what was said, for a failing journey
        self.started = time.monotonic()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.handler = threading.Thread(target=self._handle, daemon=True)
        self.handler.start()

    def _note(self, direction, method, detail):
        self.log.append((round(time.monotonic() - self.started, 2), direction, method, json.dumps(detail)[:200]))

    def _read(self):
        while True:
            try:
                message = json.loads(self.socket.recv())
            except Exception:
                for done, answer in list(self.waiting.values()):
                    answer.append({"type": "error", "error": "closed", "message": "the BiDi socket closed"})
                    done.set()
                return
            if "id" in message and message["id"] in self.waiting:
                done, answer = self.waiting.pop(message["id"])
                answer.append(message)
                done.set()
            elif message.get("type") == "event":
                self._note("←", message["method"], message.get("params"))
                self.events.put(message)
                self.handling.put(message)

    def _handle(self):
        while True:
            message = self.handling.get()
            if message is None:
                return
            for handler in self.handlers.get(message["method"], []):
                try:
                    handler(message["params"])
                except Exception as error:  # a handler's mistake must not stop the others
                    self._note("!", message["method"], repr(error))

    def send(self, method, params):
        """Sends a command without waiting; returns (threading.Event, [answer])."""
        with self.lock:
            self.next_id += 1
            ident = self.next_id
            waiter = (threading.Event(), [])
            self.waiting[ident] = waiter
            self._note("→", method, params)
            self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        return waiter

    def command(self, method, params, seconds=15):
        done, answer = self.send(method, params)
        if not done.wait(seconds):
            raise BiDiError(f"{method}: no answer in {seconds} s")
        if answer[0].get("type") == "error":
            raise BiDiError(f"{method}: {answer[0].get('error')}: {answer[0].get('message')}")
        return answer[0].get("result", {})

    def on(self, method, handler):
        self.handlers.setdefault(method, []).append(handler)

    def close(self):
        self.handling.put(None)
        try:
            self.socket.close()
        except Exception:
            pass


class Strap:
    """A Bluetooth heart-rate strap (0x180D with 0x2A37, and a battery at `battery` %) next to one
    browser tab, answering the page on its own: the chooser, connections (again after a reload or a
    drop), subscriptions. `notify(payload)` delivers one Heart Rate Measurement to the page."""

    def __init__(self, driver, name="Fieldhouse Strap", address="09:09:09:09:09:09", battery=87):
        self.driver = driver
        self.name, self.address, self.battery = name, address, battery
        self.bidi = BiDi(driver)
        self.context = driver.current_window_handle  # chromedriver's window handle is the BiDi context
        self.prompts = set()
        self.pending = []  # (payload, threading.Event) for the next reads of 0x2A37
        self.connections = 0  # made, the first and every reconnection
        self.out_of_range_until = 0
        self.subscriptions = 0
        self.bidi.command("session.subscribe", {"events": ["bluetooth"], "contexts": [self.context]})
        self.power_on()
        self.bidi.on("bluetooth.requestDevicePromptUpdated", self._choose)
        self.bidi.on("bluetooth.gattConnectionAttempted", self._connect)
        self.bidi.on("bluetooth.characteristicEventGenerated", self._characteristic)

    def power_on(self):
        """The adapter, the strap and its GATT tree: at the start, and again after every navigation."""
        ctx, address = self.context, self.address
        self.bidi.command("bluetooth.simulateAdapter", {"context": ctx, "state": "powered-on"})
        self.bidi.command("bluetooth.simulatePreconnectedPeripheral", {
            "context": ctx, "address": address, "name": self.name, "manufacturerData": [],
            "knownServiceUuids": [HEART_RATE, BATTERY]})
        for service, characteristic, properties in [
                (HEART_RATE, HEART_RATE_MEASUREMENT, {"notify": True, "read": True}),
                (BATTERY, BATTERY_LEVEL, {"read": True, "notify": True})]:
            self.bidi.command("bluetooth.simulateService", {"context": ctx, "address": address, "uuid": service, "type": "add"})
            self.bidi.command("bluetooth.simulateCharacteristic", {
                "context": ctx, "address": address, "serviceUuid": service, "characteristicUuid": characteristic,
                "characteristicProperties": properties, "type": "add"})
            self.bidi.command("bluetooth.simulateDescriptor", {
                "context": ctx, "address": address, "serviceUuid": service, "characteristicUuid": characteristic,
                "descriptorUuid": CCCD, "type": "add"})

    def drop(self, seconds):
        """The strap goes out of range for `seconds`: disconnected, and every connection attempt
        meanwhile fails (the page should keep trying and reconnect by itself). Chromium's emulation
        forgets a peripheral's services when it disconnects (a new connection then finds none), and
        BiDi's bookkeeping would refuse to add them again, so the strap is set up anew."""
        self.out_of_range_until = time.monotonic() + seconds
        self.bidi.command("bluetooth.simulateGattDisconnection", {"context": self.context, "address": self.address})
        self.power_on()

    def _choose(self, params):
        # The chooser lists devices by address (their names come later, if at all) and is updated as
        # devices are found: pick this strap once it is listed, and answer each prompt once.
        device = next((d["id"] for d in params.get("devices", []) if d["id"].upper() == self.address), None)
        if device is None or params["prompt"] in self.prompts:
            return
        self.prompts.add(params["prompt"])
        self.bidi.send("bluetooth.handleRequestDevicePrompt", {
            "context": params["context"], "prompt": params["prompt"], "accept": True, "device": device})

    def _connect(self, params):
        # 0x04, the HCI error "Page Timeout": what a strap out of range answers (nothing).
        code = 0 if time.monotonic() >= self.out_of_range_until else 0x04
        self.connections += code == 0
        self.bidi.command("bluetooth.simulateGattConnectionResponse", {
            "context": params["context"], "address": self.address, "code": code})

    def _characteristic(self, params):
        kind, answered = params["type"], None
        answer = {"context": params["context"], "address": self.address, "serviceUuid": params["serviceUuid"],
                  "characteristicUuid": params["characteristicUuid"], "type": kind, "code": 0}
        if kind == "read" and params["characteristicUuid"] == BATTERY_LEVEL:
            answer["data"] = [self.battery]
        elif kind == "read":
            if self.pending:
                answer["data"], answered = self.pending.pop(0)
            else:
                answer["code"] = 0x02  # a read the page made itself: Read Not Permitted, as a real strap
        elif kind == "subscribe-to-notifications":
            self.subscriptions += 1
        elif kind not in ("unsubscribe-from-notifications",):
            return
        self.bidi.command("bluetooth.simulateCharacteristicResponse", answer)
        if answered:
            answered.set()

    def notify(self, payload, seconds=10):
        """Delivers one Heart Rate Measurement (`payload`: bytes) to the page's heart-rate
        characteristic, through the page's own `characteristicvaluechanged` listener."""
        answered = threading.Event()
        self.pending.append((list(payload), answered))
        # Started, not awaited: chromedriver runs one command at a time, so a script waiting for the
        # read would hold back the BiDi answer the read waits for.
        self.driver.execute_script(NOTIFY_SCRIPT, self.name)
        if not answered.wait(seconds):
            problem = self.driver.execute_script("return window.__strapProblem || null")
            raise BiDiError(f"the page's heart-rate characteristic was not read: {problem or 'no read came'}")

    def close(self):
        try:
            self.bidi.command("bluetooth.disableSimulation", {"context": self.context}, seconds=5)
        except Exception:
            pass
        self.bidi.close()


# Finds the page's own characteristic object (Chromium hands out one object per device, service and
# characteristic within a page, so getDevices() → … → getCharacteristic() reaches the object the page
# listens on) and reads it; the strap answers the read with the payload and Chromium fires
# characteristicvaluechanged there.
NOTIFY_SCRIPT = """
const name = arguments[0];
window.__strapProblem = null;
(async () => {
  const devices = await navigator.bluetooth.getDevices();
  const device = devices.find((d) => d.name === name) || (devices.length === 1 ? devices[0] : null);
  if (!device) throw new Error('no paired device named ' + name);
  if (!device.gatt.connected) throw new Error('the strap is not connected');
  const service = await device.gatt.getPrimaryService('heart_rate');
  const characteristic = await service.getCharacteristic('heart_rate_measurement');
  await characteristic.readValue();
})().catch((e) => { window.__strapProblem = String(e); });
"""
