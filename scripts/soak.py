#!/usr/bin/env python3
"""`make soak`: mixed traffic through nginx against `make cluster` (run inside scripts/cluster.sh).

SOAK_CONNECTIONS connections (default 64) send for SOAK_SECONDS (default 600): anonymous pages,
signed-in pages (home, team, game, find, workouts, a workout), JSON batches of heart-rate samples from
devices of sixteen people, GPX uploads and avatar uploads. Half way one app process is killed with
SIGKILL and started again two seconds later, as systemd's Restart=always would.

Devices do what real ones do: a batch or upload that got no 2xx answer is sent again until it does
(the API makes that harmless). At the end every acknowledged sample and upload must be in the
database, and no request may have failed with a 5xx except those in flight on the killed process.
Prints requests, statuses, p50/p99 per route and each process's memory after warm-up and at the end
(growth of more than 10 % fails), and writes the same to .build/soak/<time>.txt.
"""
import atexit
import datetime
import http.client
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

from benchlib import Client

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
base = os.environ["FIELDHOUSE_CLUSTER_URL"]
site = Client(base)
ports = os.environ["CLUSTER_PORTS"].split()
pids = [int(p) for p in os.environ["CLUSTER_PIDS"].split()]
seconds = float(os.environ.get("SOAK_SECONDS", "600"))
connections = int(os.environ.get("SOAK_CONNECTIONS", "64"))
warm_up = min(60.0, seconds / 10)
run_id = f"{random.randrange(36 ** 4):04x}"

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def links(page, prefix, name=UUID):
    return sorted(set(re.findall(rf'href="({prefix}/{name})"'.encode(), page)))


# --- Who and what the traffic is about -----------------------------------------------------------

print(f"soak: {connections} connections for {seconds:.0f} s through {base}; processes {ports}", flush=True)
demo = {name: site.sign_in(name) for name in ("maya", "omar", "ingrid")}
pages = {"team": [], "game": [], "workout": []}
for session in demo.values():
    cookie = {"Cookie": f"fh_session={session}"}
    for kind, path in (("team", "/teams"), ("game", "/games"), ("workout", "/workouts")):
        _, page, _ = site.request("GET", path, headers=cookie)
        name = r"(?!new\b)[a-z0-9-]+" if kind == "team" else UUID
        pages[kind] += [(session, p.decode()) for p in links(page, path, name)]
_, learn, _ = site.request("GET", "/learn")
articles = [p.decode() for p in sorted(set(re.findall(rb'href="(/learn/[a-z0-9-]+)"', learn)))] or ["/learn"]
for kind, found in pages.items():
    if not found:
        sys.exit(f"soak: the demo data has no {kind} pages to visit")


class Person:
    """A soak person with a session, a device token, and what the server acknowledged for them."""

    def __init__(self, number):
        self.username = f"soak{run_id}{number:02d}"
        self.session = site.sign_up(self.username)
        self.token = site.device_token(self.session, "Soak strap")
        # All-day heart rate on, so batches outside a workout are kept (they are skipped otherwise).
        form = urllib.parse.urlencode({
            "csrf": site.csrf(self.session, "/settings/profile"), "display_name": self.username, "bio": "", "birth_date": "1990-01-01",
            "gender": "unspecified", "height_cm": "175", "weight_kg": "70", "home_name": "", "home_lat": "", "home_lon": "",
            "time_zone": "UTC", "units": "metric", "continuous_hr": "on"})
        status, _, _ = site.request("POST", "/settings/profile", form, {
            "Cookie": f"fh_session={self.session}", "Content-Type": "application/x-www-form-urlencoded"})
        if status != 303:
            sys.exit(f"soak: saving the profile of {self.username} answered HTTP {status}")
        self.lock = threading.Lock()
        # Batches of 600 one-second samples, each hour a new one, going back from a year ago.
        self.next_batch = 0
        self.acknowledged_samples = 0
        self.uploads = 0
        self.workouts = set()
        self.avatar = False

    def take_batch(self):
        with self.lock:
            self.next_batch += 1
            return self.next_batch


people = [Person(n) for n in range(16)]
year_ago_ms = (int(time.time()) - 366 * 86_400) * 1000
gpx_template = open(os.path.join(root, "Tests", "Fixtures", "gpx", "cerknicko-jezero.gpx"), encoding="utf-8").read()
gpx_times = re.compile(r"<time>([^<]+)</time>")
photo = open(os.path.join(root, "Tests", "Fixtures", "photos", "geotagged_sony.jpg"), "rb").read()


def shifted_gpx(days):
    """The fixture's ride moved `days` back, so each upload is a new workout, not a duplicate."""
    def move(match):
        moment = datetime.datetime.fromisoformat(match.group(1).replace("Z", "+00:00"))
        return "<time>" + (moment - datetime.timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ") + "</time>"
    return gpx_times.sub(move, gpx_template).encode()


# --- Recording ------------------------------------------------------------------------------------

records = []  # (route, status, started, finished)
records_lock = threading.Lock()
kill_at = None
stop = threading.Event()


def route_of(method, path):
    path = path.split("?")[0]
    path = re.sub(UUID, "{id}", path)
    path = re.sub(r"^/learn/[a-z0-9-]+$", "/learn/{slug}", path)
    path = re.sub(r"^/teams/[a-z0-9-]+$", "/teams/{slug}", path)
    path = re.sub(r"^/u/[^/]+/", "/u/{name}/", path)
    return f"{method} {path}"


class Connection:
    """One keep-alive connection to nginx, opened again after an error, recording every answer."""

    def __init__(self):
        self.conn = None

    def send(self, method, path, body=None, headers=None):
        started = time.monotonic()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(site.url.hostname, site.url.port, timeout=120)
            self.conn.request(method, path, body=body, headers=headers or {})
            response = self.conn.getresponse()
            payload = response.read()
            status = response.status
            if response.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
        except (OSError, http.client.HTTPException):
            status, payload = 0, b""
            if self.conn is not None:
                self.conn.close()
            self.conn = None
        finished = time.monotonic()
        with records_lock:
            records.append((route_of(method, path), status, started, finished))
        return status, payload


def multipart(fields, file_field, filename, data, content_type):
    boundary = f"----soak{random.randrange(1 << 60):x}"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{filename}"\r\n'
                 f"Content-Type: {content_type}\r\n\r\n".encode() + data + f"\r\n--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def until_acknowledged(send):
    """A device's retry loop: the same request again until the server says it has it."""
    for attempt in range(60):
        status, payload = send()
        if 200 <= status < 400:
            return status, payload
        if stop.is_set() and attempt > 10:
            break
        time.sleep(0.5)
    raise RuntimeError(f"never acknowledged: HTTP {status} {payload[:200]!r}")


# --- The traffic ----------------------------------------------------------------------------------

def anonymous_page(c):
    c.send("GET", random.choice(["/", "/learn", "/places", "/login", "/signup"] + articles[:20]))


def signed_in_page(c):
    kind = random.choice(["home", "team", "game", "find", "workouts", "workout"])
    if kind in ("team", "game", "workout"):
        session, path = random.choice(pages[kind])
    else:
        session = random.choice(list(demo.values()) + [p.session for p in people[:4]])
        path = {"home": "/", "find": random.choice(["/find", "/find?sport=soccer", "/find?what=teams&lat=55.68&lon=12.57&radius_km=25"]),
                "workouts": "/workouts"}[kind]
    status, _ = c.send("GET", path, headers={"Cookie": f"fh_session={session}"})
    if status == 303:
        # Every page here opens for a signed-in person; a redirect means the session was lost.
        raise RuntimeError(f"{path} sent a signed-in person away (HTTP 303): session lost?")


def sample_batch(c):
    person = random.choice(people)
    number = person.take_batch()
    start = year_ago_ms - number * 3_600_000
    body = json.dumps({"heart_rate": [{"t": start + i * 1000, "bpm": 60 + (i * 7) % 100} for i in range(600)]})
    headers = {"Authorization": f"Bearer {person.token}", "Content-Type": "application/json"}
    _, payload = until_acknowledged(lambda: c.send("POST", "/api/v1/samples", body, headers))
    answer = json.loads(payload)
    kept = answer["stored"]["heart_rate"] + answer["duplicates"]["heart_rate"]
    if kept != 600:
        raise RuntimeError(f"a batch of 600 was answered with {kept} kept: {payload[:300]!r}")
    with person.lock:
        person.acknowledged_samples += 600


def gpx_upload(c):
    person = random.choice(people)
    with person.lock:
        person.uploads += 1
        days = 400 + person.uploads
    body, content_type = multipart([("sport", "cycling")], "file", "ride.gpx", shifted_gpx(days), "application/gpx+xml")
    headers = {"Authorization": f"Bearer {person.token}", "Content-Type": content_type}
    status, payload = until_acknowledged(lambda: c.send("POST", "/api/v1/uploads", body, headers))
    answer = json.loads(payload)
    workout = answer.get("workout", {}).get("id") or answer.get("id")
    with person.lock:
        person.workouts.add(workout)


def avatar_upload(c):
    person = random.choice(people)
    cookie = {"Cookie": f"fh_session={person.session}"}
    _, page = c.send("GET", "/settings/avatar", headers=cookie)
    match = re.search(rb'name="csrf" value="([^"]+)"', page)
    if not match:
        return
    body, content_type = multipart([("csrf", match.group(1).decode())], "avatar", "me.jpg", photo, "image/jpeg")
    until_acknowledged(lambda: c.send("POST", "/settings/avatar", body, {**cookie, "Content-Type": content_type}))
    person.avatar = True


mix = [(anonymous_page, 20), (signed_in_page, 46), (sample_batch, 22), (gpx_upload, 8), (avatar_upload, 4)]
actions = [action for action, weight in mix for _ in range(weight)]
failures = []


def worker():
    c = Connection()
    while not stop.is_set():
        try:
            random.choice(actions)(c)
        except Exception as error:  # a device that gave up: reported, and fails the soak
            failures.append(repr(error))


# --- Processes: memory, the kill and the restart --------------------------------------------------

def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None


def restart(port):
    """What systemd does two seconds after a crash: the same command on the same port."""
    log = open(os.path.join(os.environ["CLUSTER_WORK"], f"serve-{port}-restarted.log"), "w")
    return subprocess.Popen([os.environ["CLUSTER_BIN"], "serve"], env={**os.environ, "PORT": port}, stdout=log, stderr=log)


threads = [threading.Thread(target=worker, daemon=True) for _ in range(connections)]
began = time.monotonic()
for thread in threads:
    thread.start()

time.sleep(warm_up)
memory = {port: [rss_mb(pid), None] for port, pid in zip(ports, pids)}
time.sleep(max(0.0, seconds / 2 - warm_up))
victim_port, victim_pid = ports[0], pids[0]
kill_at = time.monotonic()
os.kill(victim_pid, signal.SIGKILL)
print(f"soak: killed the process on port {victim_port} (pid {victim_pid}) at {kill_at - began:.0f} s", flush=True)
time.sleep(2)
replacement = restart(victim_port)
# cluster.sh stops only the processes it started; this one is ours to stop, whatever happens.
atexit.register(lambda: replacement.poll() is None and replacement.terminate())
restarted_at = time.monotonic()
time.sleep(min(warm_up, max(0.0, seconds / 2 - 2)))
memory[victim_port + " (restarted)"] = [rss_mb(replacement.pid), None]
time.sleep(max(0.0, began + seconds - time.monotonic()))
for port, pid in zip(ports, pids):
    memory[port][1] = rss_mb(pid)
memory[victim_port + " (restarted)"][1] = rss_mb(replacement.pid)
stop.set()
for thread in threads:
    thread.join(timeout=180)
elapsed = time.monotonic() - began

# --- Nothing acknowledged is lost ------------------------------------------------------------------

def sql(query):
    return subprocess.run(["psql", os.environ["DATABASE_URL"], "-qtAX", "-c", query], check=True,
                          capture_output=True, text=True).stdout.strip()


lost = []
for person in people:
    user = f"(SELECT id FROM users WHERE username = '{person.username}')"
    stored = int(sql(f"SELECT count(*) FROM heart_rate_samples WHERE user_id = {user} AND t <= {year_ago_ms} AND t > {year_ago_ms - 3_600_000 * (person.next_batch + 1)}"))
    if stored != person.acknowledged_samples:
        lost.append(f"{person.username}: {person.acknowledged_samples} samples acknowledged, {stored} stored")
    ids = [w for w in person.workouts if w]
    if ids:
        found = int(sql("SELECT count(*) FROM workouts WHERE id IN (" + ",".join(f"'{w}'" for w in ids) + ")"))
        if found != len(ids):
            lost.append(f"{person.username}: {len(ids)} uploads acknowledged, {found} workouts stored")
    if person.avatar:
        status, payload, _ = site.request("GET", f"/u/{person.username}/avatar", headers={"Cookie": f"fh_session={person.session}"})
        if status != 200 or not payload.startswith((b"\xff\xd8\xff", b"RIFF", b"\x89PNG")):
            lost.append(f"{person.username}: avatar acknowledged, now HTTP {status}")

replacement.terminate()
replacement.wait(timeout=30)

# --- Figures -----------------------------------------------------------------------------------------

# The client cannot tell which process answered; a failure counts as "in flight on the killed
# process" only if it was under way at the moment of the kill.
failed = [r for r in records if r[1] >= 500 or r[1] == 0]
in_flight = [r for r in failed if r[2] <= kill_at <= r[3]]
errors = [r for r in failed if not r[2] <= kill_at <= r[3]]
by_status = {}
for _, status, _, _ in records:
    by_status[status] = by_status.get(status, 0) + 1
lines = [
    f"Soak of {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}: {connections} connections, {elapsed:.0f} s, "
    f"{len(ports)} processes behind nginx on PostgreSQL ({os.environ.get('CLUSTER_BUILD', 'debug')} build)",
    f"requests {len(records):,} ({len(records) / elapsed:,.0f}/s); statuses "
    + ", ".join(f"{s or 'no answer'}: {n:,}" for s, n in sorted(by_status.items())),
    f"5xx or no answer: {len(in_flight)} in flight on the killed process, {len(errors)} otherwise (must be 0)",
    f"samples acknowledged {sum(p.acknowledged_samples for p in people):,}, GPX uploads {sum(len(p.workouts) for p in people):,}, "
    f"avatars {sum(p.avatar for p in people)}; lost: {len(lost)}",
    "Answers of 400 and above, by route:",
]
refusals = {}
for route, status, _, _ in records:
    if status >= 400:
        refusals[(route, status)] = refusals.get((route, status), 0) + 1
lines += [f"  {n:,} × {status} on {route}" for (route, status), n in sorted(refusals.items())] or ["  none"]
lines += ["", f"{'route':<34} {'requests':>9} {'p50 ms':>8} {'p99 ms':>8}"]
routes = {}
for route, status, started, finished in records:
    routes.setdefault(route, []).append((finished - started) * 1000)
for route, times in sorted(routes.items(), key=lambda item: -len(item[1])):
    times.sort()
    lines.append(f"{route[:34]:<34} {len(times):>9,} {statistics.median(times):>8.1f} {times[min(len(times) - 1, int(len(times) * 0.99))]:>8.1f}")
lines += ["", f"{'process (port)':<22} {'after warm-up':>14} {'at the end':>11} {'growth':>7}"]
too_much = []
for port, (start, end) in memory.items():
    if port == victim_port:
        lines.append(f"{port:<22} {start or 0:>11.0f} MB {'killed':>11}")
        continue
    growth = (end - start) / start * 100 if start and end else float("nan")
    lines.append(f"{port:<22} {start or 0:>11.0f} MB {end or 0:>8.0f} MB {growth:>6.1f}%")
    if not growth <= 10:  # also when a reading failed (NaN): a process that vanished is no pass
        too_much.append(port)
lines += lost + failures[:10]
report = "\n".join(lines)
print(report)
os.makedirs(os.path.join(root, ".build", "soak"), exist_ok=True)
with open(os.path.join(root, ".build", "soak", time.strftime("%Y%m%d-%H%M%S") + ".txt"), "w") as out:
    out.write(report + "\n")
ok = not errors and not lost and not failures and not too_much
print("soak: " + ("passed" if ok else "FAILED"))
sys.exit(0 if ok else 1)
