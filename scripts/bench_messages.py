#!/usr/bin/env python3
"""Messages figures for `make bench` (issue 47): one team message delivered to 30 members' open
conversation pages.

Usage: bench_messages.py BASE_URL

Everything goes through the site as people use it: bench_social (seeded by `--bench-community`)
signs in through the form, makes a team and invites 30 of its friends (bench_friend_251…280, whom
the live bench does not use), who sign in and accept. Each opens the team's conversation and its
event stream (`/messages/{id}/events`) on a raw socket. bench_social then sends 20 messages through
the conversation's form, one after another, and each page notes when the `message` event carrying it
arrives: the figure is, per message, the time from sending the form until the 30th page has it.

Then every member subscribes a browser to pushes (Settings → Notifications; the keys are RFC 8291's
example receiver's, the endpoints an https host that resolves nowhere, so no push leaves the machine)
and a member sends 20 more messages (twenty a minute is a person's limit): each queues 30
`messages.push` jobs (the captain's and the 29 other members' browsers) in the message's own transaction,
so the second figure, the form's time with those 30 pushes queued, is the cost of queueing them,
beside the same form without them. Standard library only.
"""
import asyncio
import http.client
import re
import statistics
import sys
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

from benchlib import Client

base = sys.argv[1]
url = urllib.parse.urlparse(base)
HOST, PORT = url.hostname, url.port
client = Client(base)
MEMBERS = 30
MESSAGES = 20
FIRST_FRIEND = 251
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def post(session, path, fields, csrf_from):
    csrf = client.csrf(session, csrf_from)
    body = urllib.parse.urlencode({"csrf": csrf, **fields})
    status, page, _ = client.request("POST", path, body, {**FORM, "Cookie": f"fh_session={session}"})
    return status, page


def location(session, path):
    conn = http.client.HTTPConnection(HOST, PORT, timeout=60)
    conn.request("GET", path, headers={"Cookie": f"fh_session={session}"})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, response.headers.get("Location")


def set_up():
    captain = client.sign_in("bench_social", "bench-password")
    post(captain, "/teams/new", {
        "name": f"Bench Talkers {int(time.time())}", "sport": "futsal", "privacy": "protected", "age_group": "any",
        "gender": "any", "skill": "any", "description": "Messages bench."}, "/teams/new")
    # The new team's address: the newest of the captain's teams.
    _, page, _ = client.request("GET", "/teams", headers={"Cookie": f"fh_session={captain}"})
    slug = re.search(rb'href="/teams/(bench-talkers-[a-z0-9-]+)"', page).group(1).decode()
    names = [f"bench_friend_{n}" for n in range(FIRST_FRIEND, FIRST_FRIEND + MEMBERS)]
    for name in names:
        post(captain, f"/teams/{slug}/invites", {"username": name}, f"/teams/{slug}")
    with ThreadPoolExecutor(8) as pool:
        members = list(pool.map(lambda n: client.sign_in(n, "bench-password"), names))

    def accept(session):
        _, page, _ = client.request("GET", "/teams", headers={"Cookie": f"fh_session={session}"})
        invite = re.search(rb'action="/invites/([^/]+)/accept"', page).group(1).decode()
        post(session, f"/invites/{invite}/accept", {}, "/teams")

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(accept, members))
    _, conversation = location(captain, f"/teams/{slug}/messages")
    return captain, members, conversation


class Page:
    """One member's open conversation: the ids of the messages that arrived, with when."""

    def __init__(self, session, path):
        self.session, self.path = session, path
        self.arrived = {}

    async def open(self):
        reader, self.writer = await asyncio.open_connection(HOST, PORT)
        self.writer.write((f"GET {self.path}/events HTTP/1.1\r\nHost: {HOST}:{PORT}\r\nAccept: text/event-stream\r\n"
                           f"Cookie: fh_session={self.session}\r\n\r\n").encode())
        await self.writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n")[0]:
            raise SystemExit(f"{self.path}/events answered {head[:40]!r}")
        self.task = asyncio.create_task(self.follow(reader))

    async def follow(self, reader):
        buffer = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            buffer += chunk
            for event_id in re.findall(rb"id: ([0-9a-f-]{36})\nevent: message", buffer):
                self.arrived.setdefault(event_id.decode(), time.perf_counter())
            buffer = buffer[-200:]

    def close(self):
        self.task.cancel()
        self.writer.close()


# RFC 8291's example receiver: a valid P-256 public key and auth secret.
P256DH = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
AUTH = "BTBZMqHH6r4Tts7J_aSIgg"


def subscribe(members):
    def one(pair):
        n, session = pair
        status, _ = post(session, "/settings/notifications/push",
                         {"endpoint": f"https://push.bench.invalid/{n}-{int(time.time())}", "p256dh": P256DH, "auth": AUTH},
                         "/settings/notifications")
        if status != 303:
            raise SystemExit(f"subscribing a browser answered HTTP {status}")

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(one, enumerate(members)))


def stop(members):
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda session: post(session, "/settings/notifications/push/stop", {"browsers": "all"}, "/settings/notifications"),
                      members))


async def send_all(captain, conversation, pages, first):
    """Sends MESSAGES messages; per message, the form's time and the time until every page has it."""
    delivered, sent_ms = [], []
    for n in range(first, first + MESSAGES):
        csrf = client.csrf(captain, conversation)
        body = urllib.parse.urlencode({"csrf": csrf, "body": f"Pitch moved to 19:{n:02d}", "key": f"bench-{time.time()}-{n}"})
        start = time.perf_counter()
        status, _, _ = await asyncio.get_running_loop().run_in_executor(
            None, lambda: client.request("POST", conversation, body, {**FORM, "Cookie": f"fh_session={captain}"}))
        sent_ms.append((time.perf_counter() - start) * 1000)
        if status != 303:
            raise SystemExit(f"sending a message answered HTTP {status}")
        # The new message's id is the one every page gets next.
        deadline = time.perf_counter() + 10
        while time.perf_counter() < deadline and not all(len(p.arrived) > n for p in pages):
            await asyncio.sleep(0.001)
        if not all(len(p.arrived) > n for p in pages):
            raise SystemExit(f"message {n + 1} reached {sum(len(p.arrived) > n for p in pages)} of {MEMBERS} pages in 10 s")
        last = max(sorted(p.arrived.values())[n] for p in pages)
        delivered.append((last - start) * 1000)
    return delivered, sent_ms


async def main():
    captain, members, conversation = await asyncio.get_running_loop().run_in_executor(None, set_up)
    pages = [Page(session, conversation) for session in members]
    await asyncio.gather(*(page.open() for page in pages))
    await asyncio.sleep(1)
    delivered, sent_ms = await send_all(captain, conversation, pages, 0)
    print(f"{'team message to 30 open pages':<38} p50 {statistics.median(delivered):.1f} ms, max {max(delivered):.1f} ms "
          f"(form send p50 {statistics.median(sent_ms):.1f} ms; {MESSAGES} messages)")
    # The second twenty come from a member (a person sends at most twenty a minute), to the captain
    # and the 29 other members, each with a browser subscribed.
    sender, others = members[0], [captain] + members[1:]
    await asyncio.get_running_loop().run_in_executor(None, subscribe, others)
    delivered, pushed_ms = await send_all(sender, conversation, pages, MESSAGES)
    print(f"{'team message queueing 30 pushes':<38} form send p50 {statistics.median(pushed_ms):.1f} ms, max {max(pushed_ms):.1f} ms "
          f"(without pushes p50 {statistics.median(sent_ms):.1f} ms; to 30 open pages p50 {statistics.median(delivered):.1f} ms)")
    await asyncio.get_running_loop().run_in_executor(None, stop, others)
    for page in pages:
        page.close()


asyncio.run(main())
