#!/usr/bin/env python3
"""Live figures for `make bench` (issue 43): one recording watched by 200 viewers, 2,000 idle live
connections, and 50 recorders sending a batch every 5 s.

Usage: bench_live.py BASE_URL SERVER_PID

Everything goes through the site as people use it: bench_social (seeded by `--bench-community`, with
300 mutual friends) signs in through the form, makes a device token under Settings → Devices,
starts a recording over the device API and shares it live with followers; 200 of the friends sign
in through the form and open the live page's event stream (`/live/{id}/events`, server-sent events)
on raw sockets. The recorder then posts batches as the recorder page does (5 positions and 5 heart
rates a batch), and each viewer notes when the `update` carrying each batch's points arrives.

Before that, 2,000 event streams held open at once, idle, and the server's resident memory before and
after (/proc/PID/status); after it, 50 other friends each recording and posting a batch every 5 s for 60 s, and
the server's CPU time for it (/proc/PID/stat, utime + stime) as a share of one core.

Standard library only (asyncio streams), so the bench needs no package of its own. The server holds
a file descriptor per connection: it needs a limit above 2,100 (`ulimit -n`; bench.sh raises its own
soft limit to the hard one before starting the server), and so does this client, which raises its own.
"""
import asyncio
import json
import os
import resource
import statistics
import sys
import time
import urllib.parse
import uuid
from concurrent.futures import ThreadPoolExecutor

from benchlib import Client

base, pid = sys.argv[1], int(sys.argv[2])
url = urllib.parse.urlparse(base)
HOST, PORT = url.hostname, url.port
client = Client(base)

VIEWERS = 200
IDLE = 2000
RECORDERS = 50
INGEST_SECONDS = 60
FANOUT_BATCHES = 30

wanted = IDLE + VIEWERS + RECORDERS + 100
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft != resource.RLIM_INFINITY and soft < wanted:
    target = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        pass
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft < wanted:
        raise SystemExit(f"bench_live: this client may open {soft} files; {wanted} are needed (ulimit -n)")


def server_file_limit():
    with open(f"/proc/{pid}/limits") as limits:
        for line in limits:
            if line.startswith("Max open files"):
                value = line.split()[3]
                return None if value == "unlimited" else int(value)
    return None


limit = server_file_limit()
if limit is not None and limit < wanted:
    raise SystemExit(f"bench_live: the server may open {limit} files; {wanted} are needed: raise `ulimit -n` before starting it")


def rss_kb():
    with open(f"/proc/{pid}/status") as status:
        for entry in status:
            if entry.startswith("VmRSS:"):
                return int(entry.split()[1])
    return 0


def cpu_seconds():
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    # utime and stime are the 14th and 15th fields; the split above starts at the 3rd.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def now_ms():
    return int(time.time() * 1000)


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered))) - 1))]


# --- People, through the forms ---------------------------------------------------------------------

def sign_in_many(names):
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda n: client.sign_in(n, "bench-password"), names))


def api(token, method, path, body):
    status, payload, _ = client.request(method, path, json.dumps(body), {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    if status >= 300:
        raise SystemExit(f"{method} {path} answered HTTP {status}: {payload[:300]!r}")
    return json.loads(payload)


def start_recording(session, name):
    """A device token (Settings → Devices), a recording started as the recorder page starts one, and
    shared live with the person's followers; returns the token and the workout's id."""
    token = client.device_token(session, name)
    workout = api(token, "POST", "/api/v1/workouts", {"external_id": str(uuid.uuid4()), "sport": "running", "start": now_ms() - 60_000})["workout"]["id"]
    live = api(token, "POST", f"/api/v1/workouts/{workout}/live", {"audience": "followers"})
    if not live.get("live"):
        raise SystemExit(f"sharing live answered {live}")
    return token, workout


recorder_session = client.sign_in("bench_social", "bench-password")
recorder_token, recording = start_recording(recorder_session, "Bench recorder")
viewer_sessions = sign_in_many([f"bench_friend_{n}" for n in range(1, VIEWERS + 1)])


# --- A small HTTP/1.1 client on asyncio streams ------------------------------------------------------

async def read_head(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            key, value = line.split(":", 1)
            headers[key.strip().lower()] = value.strip()
    return status, headers


async def read_body(reader, headers):
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                return body
            body += await reader.readexactly(size)
            await reader.readexactly(2)
    return await reader.read()


class Connection:
    """One keep-alive connection, as a browser keeps to the site."""

    def __init__(self):
        self.reader = self.writer = None

    async def request(self, method, path, body, headers):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, PORT)
        data = body.encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{PORT}\r\nContent-Length: {len(data)}\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
        self.writer.write(head.encode() + data)
        await self.writer.drain()
        status, response_headers = await read_head(self.reader)
        payload = await read_body(self.reader, response_headers)
        if response_headers.get("connection", "").lower() == "close":
            self.close()
        return status, payload

    def close(self):
        if self.writer is not None:
            self.writer.close()
            self.writer = self.reader = None


class Stream:
    """A live page's event stream on a raw socket. Every `update` is kept with the moment it was read."""

    def __init__(self, session, path):
        self.session, self.path = session, path
        self.state = asyncio.get_running_loop().create_future()
        self.updates = []  # (perf_counter when read, data)
        self.task = None
        self.writer = None

    async def open(self):
        reader, self.writer = await asyncio.open_connection(HOST, PORT)
        self.writer.write((f"GET {self.path} HTTP/1.1\r\nHost: {HOST}:{PORT}\r\nAccept: text/event-stream\r\n"
                           f"Cookie: fh_session={self.session}\r\n\r\n").encode())
        await self.writer.drain()
        status, headers = await read_head(reader)
        if status != 200:
            raise SystemExit(f"{self.path} answered HTTP {status}")
        self.task = asyncio.create_task(self.follow(reader, headers.get("transfer-encoding", "").lower() == "chunked"))

    async def follow(self, reader, chunked):
        pending = b""
        try:
            while True:
                if chunked:
                    size = int((await reader.readline()).split(b";")[0], 16)
                    if size == 0:
                        return
                    data = await reader.readexactly(size)
                    await reader.readexactly(2)
                else:
                    data = await reader.read(65536)
                    if not data:
                        return
                at = time.perf_counter()
                pending += data
                while b"\n\n" in pending:
                    event, pending = pending.split(b"\n\n", 1)
                    kind, payload = None, None
                    for line in event.split(b"\n"):
                        if line.startswith(b"event: "):
                            kind = line[7:]
                        elif line.startswith(b"data: "):
                            payload = line[6:]
                    if kind == b"state" and not self.state.done():
                        self.state.set_result(at)
                    elif kind == b"update":
                        self.updates.append((at, payload))
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            return
        finally:
            if not self.state.done():
                self.state.set_exception(SystemExit(f"{self.path}: the stream ended before its state"))

    def close(self):
        if self.task:
            self.task.cancel()
        if self.writer:
            self.writer.close()


def batch(start_t, origin_t, lat0, seconds=5):
    """What the recorder page sends every 5 s: a position (running north at 3.3 m/s, no speed of
    its own, as browsers often send them) and a heart rate a second."""
    locations = [{"t": start_t + i * 1000, "lat": lat0 + ((start_t - origin_t) // 1000 + i) * 0.00003, "lon": 12.57, "accuracy": 6}
                 for i in range(seconds)]
    heart = [{"t": start_t + i * 1000, "bpm": 120 + i} for i in range(seconds)]
    return json.dumps({"locations": locations, "heart_rate": heart, "rr": []})


async def open_streams(sessions, path, count, at_once=100):
    streams = [Stream(sessions[i % len(sessions)], path) for i in range(count)]
    for first in range(0, count, at_once):
        group = streams[first:first + at_once]
        await asyncio.gather(*(s.open() for s in group))
        await asyncio.gather(*(s.state for s in group))
    return streams


# --- Fan-out: 200 viewers of one recording ---------------------------------------------------------

async def fanout():
    path = f"/live/{recording}/events"
    viewers = await open_streams(viewer_sessions, path, VIEWERS)
    poster = Connection()
    auth = {"Authorization": f"Bearer {recorder_token}", "Content-Type": "application/json"}
    sent = {}  # newest point's t -> (sent, answered)
    t = origin = now_ms() - 5_000
    for _ in range(FANOUT_BATCHES):
        body = batch(t, origin, 55.60)
        before = time.perf_counter()
        status, payload = await poster.request("POST", "/api/v1/samples", body, auth)
        after = time.perf_counter()
        if status != 201:
            raise SystemExit(f"a live batch answered HTTP {status}: {payload[:200]!r}")
        sent[t + 4000] = (before, after)
        t += 5000
        await asyncio.sleep(1)
    await asyncio.sleep(2)
    poster.close()
    from_send, from_answer, missing = [], [], 0
    for viewer in viewers:
        seen = {}
        for at, payload in viewer.updates:
            for point in json.loads(payload)["points"]:
                seen.setdefault(int(point[2]), at)
        for newest, (before, after) in sent.items():
            if newest in seen:
                from_send.append((seen[newest] - before) * 1000)
                from_answer.append((seen[newest] - after) * 1000)
            else:
                missing += 1
    for viewer in viewers:
        viewer.close()
    if not from_send:
        raise SystemExit("no viewer saw any batch")
    print(f"{'live fan-out, 200 viewers of one run':<38} median {statistics.median(from_send):6.1f} ms, p95 {pct(from_send, 0.95):6.1f} ms "
          f"from each POST's start (from its answer: {statistics.median(from_answer):.1f} / {pct(from_answer, 0.95):.1f} ms); "
          f"{len(sent)} batches, {missing} point events missed   target: median < 200 ms")


# --- 2,000 idle connections ------------------------------------------------------------------------

async def idle():
    # First of the three, while the server holds as little freed memory as it can reuse: resident
    # memory only counts pages in use, so memory an earlier part freed would be reused unseen.
    await asyncio.sleep(2)
    before = rss_kb()
    streams = await open_streams(viewer_sessions, f"/live/{recording}/events", IDLE)
    await asyncio.sleep(5)
    after = rss_kb()
    for s in streams:
        s.close()
    extra = (after - before) / 1024
    print(f"{'live, 2,000 idle event streams':<38} +{extra:.0f} MB resident ({(after - before) / IDLE:.0f} KB each; "
          f"{before / 1024:.0f} -> {after / 1024:.0f} MB)   target: < 200 MB extra")


# --- 50 recorders, a batch every 5 s ---------------------------------------------------------------

async def ingest(recorders):
    times, failures = [], [0]

    async def recorder(index, token):
        connection = Connection()
        auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        lat0 = 55.60 + index * 0.001
        # Spread over the 5 s as real recorders are, each on its own clock.
        await asyncio.sleep(5 * index / len(recorders))
        t = origin = now_ms() - 5_000
        ends = time.perf_counter() + INGEST_SECONDS
        while time.perf_counter() < ends:
            due = time.perf_counter() + 5
            before = time.perf_counter()
            status, _ = await connection.request("POST", "/api/v1/samples", batch(t, origin, lat0), auth)
            times.append((time.perf_counter() - before) * 1000)
            if status not in (200, 201):
                failures[0] += 1
            t += 5000
            await asyncio.sleep(max(0, due - time.perf_counter()))
        connection.close()

    # Streams closed above end on the server at their next keep-alive, and sign-ins hash passwords:
    # wait until the server is idle (under 2 % of a core for a second, at most a minute), then
    # measure it at rest for comparison.
    for _ in range(60):
        before = cpu_seconds()
        await asyncio.sleep(1)
        if cpu_seconds() - before < 0.02:
            break
    cpu0, wall0 = cpu_seconds(), time.perf_counter()
    await asyncio.sleep(5)
    rest = (cpu_seconds() - cpu0) / (time.perf_counter() - wall0) * 100
    cpu0, wall0 = cpu_seconds(), time.perf_counter()
    await asyncio.gather(*(recorder(i, token) for i, token in enumerate(recorders)))
    wall = time.perf_counter() - wall0
    share = (cpu_seconds() - cpu0) / wall * 100
    print(f"{'ingest, 50 recorders, a batch every 5s':<38} {share:.1f} % of one core ({len(times)} batches in {wall:.0f} s, "
          f"p50 {statistics.median(times):.1f} ms, p95 {pct(times, 0.95):.1f} ms, {failures[0]} failed; at rest {rest:.1f} %)   target: < 10 %")


async def main():
    await idle()
    await fanout()
    sessions = sign_in_many([f"bench_friend_{n}" for n in range(VIEWERS + 1, VIEWERS + RECORDERS + 1)])
    recorders = [start_recording(s, "Bench recorder")[0] for s in sessions]
    await ingest(recorders)


asyncio.run(main())
