#!/usr/bin/env python3
"""The figures `make bench-cluster` compares between one process on SQLite and two on PostgreSQL
behind nginx: four people's devices posting heart-rate batches at once, and wrk on a few pages.

Usage: bench_side.py BASE_URL OUT_JSON
"""
import json
import re
import subprocess
import sys
import threading
import time
import urllib.parse

from benchlib import Client

base, out = sys.argv[1], sys.argv[2]
client = Client(base)
figures = {}

# Four people, each with their own strap: one batch is an hour at 1 Hz (3,600 samples), each
# person's hours going back from two years ago so nothing is a duplicate.
people = []
stamp = int(time.time())
for n in range(4):
    name = f"dev{stamp % 100000}{n}"
    session = client.sign_up(name)
    token = client.device_token(session, "Bench strap")
    form = urllib.parse.urlencode({
        "csrf": client.csrf(session, "/settings/profile"), "display_name": name, "bio": "", "birth_date": "1990-01-01",
        "gender": "unspecified", "height_cm": "175", "weight_kg": "70", "home_name": "", "home_lat": "", "home_lon": "",
        "time_zone": "UTC", "units": "metric", "continuous_hr": "on"})
    status, _, _ = client.request("POST", "/settings/profile", form, {"Cookie": f"fh_session={session}", "Content-Type": "application/x-www-form-urlencoded"})
    if status != 303:
        sys.exit(f"turning on all-day heart rate answered HTTP {status}")
    people.append(token)

per_person = 20
origin = (stamp - 2 * 366 * 86_400) * 1000
bodies = [[json.dumps({"heart_rate": [{"t": origin - (b + 1) * 3_600_000 + i * 1000, "bpm": 60 + i % 90} for i in range(3600)]})
           for b in range(per_person + 1)] for _ in people]


def post(token, body):
    status, payload, _ = client.request("POST", "/api/v1/samples", body, {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    if status != 201 or b'"heart_rate":3600' not in payload.replace(b" ", b""):
        raise SystemExit(f"batch answered HTTP {status}: {payload[:200]!r}")


for token, batches in zip(people, bodies):
    post(token, batches[0])  # each connection warm
started = time.perf_counter()
workers = [threading.Thread(target=lambda t=t, b=b: [post(t, x) for x in b[1:]]) for t, b in zip(people, bodies)]
for w in workers:
    w.start()
for w in workers:
    w.join()
elapsed = time.perf_counter() - started
figures["samples"] = 4 * per_person * 3600 / elapsed

maya = client.sign_in("maya")
_, page, _ = client.request("GET", "/workouts", headers={"Cookie": f"fh_session={maya}"})
workout = re.search(rb'href="(/workouts/[0-9a-f-]{36})"', page).group(1).decode()
_, page, _ = client.request("GET", "/learn")
article = re.search(rb'href="(/learn/[a-z0-9-]+)"', page).group(1).decode()
pages = [("front page, signed out", "/", None), ("a Learn article, signed out", article, None),
         ("home, signed in", "/", maya), ("a workout page", workout, maya)]
for name, path, session in pages:
    command = ["wrk", "-t2", "-c32", "-d10s", "--latency"]
    if session:
        command += ["-H", f"Cookie: fh_session={session}"]
    result = subprocess.run(command + [base + path], capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", result).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", result)
    scale = {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", result)
    figures[name] = {"rate": rate, "p99": float(p99.group(1)) * scale, "errors": int(non2xx.group(1)) if non2xx else 0}

json.dump(figures, open(out, "w"))
